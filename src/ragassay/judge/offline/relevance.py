"""Question-context relevance: how close the context is to the question, and how much of
the question's informative content it holds. No answer is needed (TRACe relevance is a
property of the question and the retrieved text); an answer, when there is one, can
only show more of it (`answered`, below).

Each content word of the question is weighted by its inverse frequency (a SIF weight
from the packaged static table: "naturalization" counts, "the" does not). Two forms,
one per mode, each chosen on Factcheck-GPT's pairs (scripts/devsets/relevance_forms.py;
the TREC DL 2020 graded judgments, research-only, measure a form and never choose it):

- default (the static table embeds everything): per document,
  0.5 * the cosine of the question to the document's best sentence
  + 0.5 * soft coverage (a question word the document lacks counts the cosine of its
  static word vector to the nearest document word; "TV" for "television");
- a dedicated relevance embedder (`offline:accurate`, the transformer on whole
  documents): 0.5 * cosine(question, whole document) + 0.5 * weighted coverage.

    P(relevant) = sigmoid(RELEVANCE_SLOPE * (score - midpoint of the form))

A context sentence's relevance (what trace.context_relevance adds up) is its
document's times the square root of its own score, the same form on the sentence with
its neighbours' words (window_rows: "It opened in 1889." is about the Eiffel Tower only
through the sentence before it): it is relevant when its passage is and it is; an
unrelated sentence in a relevant passage is not. A sentence that only echoes the question is as
relevant as its document. Chosen by scripts/devsets/trace_relevance_forms.py. The
default form does not read an echo for a document's best sentence either
(reading_rows): a keyword line is no evidence of relevance.

What the answer shows (`answered`): static vectors do not see that "From November to
February the zoo opens at 10am" answers "What time does the zoo open in winter?" (0.39),
nor "Each member may take out up to eight items" "How many books can I borrow?" (0.06);
an answer that responds says so (`shown`). A context sentence an answer claim was judged
against (its best matches), in the measure the answer uses it, is at least as relevant
as that claim read with it addresses the question (`addresses`, the form of the judge's
answer relevance, on the better of the two cosines and the question's stems either has),
and its document at least as relevant as it (`answered`: judge.context_relevance too).
An answer that does not respond ("The gift shop sells plush toys." to the zoo's hours)
makes nothing relevant; a sentence the answer does not use keeps its own score. A claim
that declines ("I can't see shoe stretching in the list, which covers heel repairs")
shows nothing, nor does an answer that abstains: whether an abstention was wrong stays
the question's to say.

Abbreviations (`Aliases`): a question's "2FA" is found in a sentence that spells
"two-factor authentication" (its words' initials, a digit for its number word, small
linking words such as "of" skipped), and the question's "single sign-on" in a sentence
that writes "SSO": for coverage (both forms), and, where the packaged static table
embedded the texts (the default mode), for the cosine too (the better of the two
texts' and the one with the abbreviation written out). An abbreviation is
a token of 2-6 capitals and digits with at least two capitals ("2FA", "SSO", "PTO").

Phrasal verbs (`phrasal.py`): static word vectors put "turn" and "on" far from
"enable". In the default mode the cosine is the better of the question's as said and
with its phrasal verbs written as their one-word equals ("How do I enable 2FA?" for
"How do I turn on 2FA?"); for coverage a sentence saying "turned on" holds the stem of
"enable" too, and one saying "enabled" the question's "turn".
"""

from __future__ import annotations

import math
import re
from collections.abc import Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING

import numpy as np

from ragassay.text import tokens

from .declines import is_noncommittal
from .lexical import STOPWORDS, canon_number, stem
from .normalise import cased_tokens, norm_tokens
from .phrasal import phrasal_verbs, plain_verbs
from .sentences import ContextIndex, SentenceInfo
from .words import static_table, word_vectors, word_weights

if TYPE_CHECKING:
    from ragassay.embed import StaticEmbedder

# Each form's midpoint is its balanced cut (as many relevant pairs above as irrelevant
# ones below) on Factcheck-GPT's claim-passage pairs, printed by relevance_forms.py;
# the slope spreads their scores over most of (0, 1). Not fitted to any grade.
RELEVANCE_MIDPOINT = 0.555  # whole-document form
SENTENCE_FORM_MIDPOINT = 0.636  # default form (best sentence + soft coverage)
RELEVANCE_SLOPE = 10.0
ADDRESSES_WEIGHTS = (-3.0, 6.0, 2.0)
"""How well a text addresses the question (the judge's answer relevance, and a claim read
with its evidence in `answered`): sigmoid(bias + w1 x its cosine to the question + w2 x
the share of the question's content stems it has); by hand (1cc4778)."""


@dataclass(frozen=True)
class QuestionTerms:
    """The question's content words as stems, with their inverse-frequency weights."""

    stems: tuple[str, ...]
    weights: tuple[float, ...]
    words: tuple[str, ...] = ()  # the words themselves, aligned with stems

    @classmethod
    def of(cls, question: str) -> QuestionTerms:
        words = list(dict.fromkeys(t for t in norm_tokens(question) if t not in STOPWORDS))
        if not words:
            return cls((), ())
        return cls(tuple(stem(w) for w in words), tuple(word_weights(words)), tuple(words))

    def coverage(self, stems: frozenset[str]) -> float:
        """Weighted share of the question's words found among `stems` (0 without words)."""
        total = sum(self.weights)
        if total <= 0:
            return 0.0
        return sum(w for s, w in zip(self.stems, self.weights, strict=True) if s in stems) / total


class SoftCoverage:
    """Soft coverage of the question by context sentences: per content word of the
    question 1 where a sentence has its stem, else, for a word of letters, the cosine of
    its static vector to the nearest word of letters of the sentence (0 at worst; a
    number or "u.s" counts only when found), weighted by its inverse frequency."""

    def __init__(self, terms: QuestionTerms, ctx: ContextIndex) -> None:
        self.stems = list(terms.stems)
        self.weights = np.maximum(np.asarray(terms.weights, dtype=np.float64), 1e-3)
        soft = [i for i, w in enumerate(terms.words) if w.isalpha()]
        words = [terms.words[i] for i in soft]
        self.near = np.zeros((len(ctx), len(self.stems)))  # sentence x question word
        if words and len(ctx):
            # one small product per sentence: a single large one would start BLAS threads
            # and cost more CPU time than it saves
            qv = word_vectors(words)
            for j in range(len(ctx)):
                wv = ctx.word_vectors(j)
                if len(wv):
                    self.near[j, soft] = np.clip((qv @ wv.T).max(axis=1), 0.0, 1.0)

    def of(self, rows: Sequence[int], stems: frozenset[str]) -> float:
        """Soft coverage by the sentences `rows`, whose stems are `stems` (0 without
        question words)."""
        if not self.stems:
            return 0.0
        exact = np.fromiter((s in stems for s in self.stems), dtype=np.float64)
        near = self.near[list(rows)].max(axis=0) if len(rows) else np.zeros(len(self.stems))
        return float(self.weights @ np.maximum(exact, near) / self.weights.sum())


_ABBREVIATION = re.compile(r"^(?=(?:[0-9]*[A-Z]){2})[A-Z0-9]{2,6}$")
_LINKS = frozenset({"of", "and", "for", "the", "to", "in", "on", "as", "a"})


def _abbreviations(cased: Sequence[str]) -> list[str]:
    return list(dict.fromkeys(t for t in cased if _ABBREVIATION.match(t)))


def _spelled(abbr: str, words: Sequence[str]) -> list[tuple[int, int]]:
    """Spans of `words` (lower-cased, numbers canonical) whose initials spell `abbr`:
    each letter a word's first letter, each digit a number ("two" reads "2"); a small
    linking word between two of them ("Department of Defense") is skipped."""
    chars = abbr.lower()
    out = []
    for start in range(len(words)):
        i, k = start, 0
        while k < len(chars) and i < len(words):
            w, c = words[i], chars[k]
            if (w == c) if c.isdigit() else (w[:1] == c and w.isalpha()):
                i, k = i + 1, k + 1
            elif k and w in _LINKS:
                i += 1
            else:
                break
        if k == len(chars):
            out.append((start, i))
    return out


@dataclass(frozen=True)
class Link:
    """What an abbreviation adds to one sentence: the stems it holds through it, and the
    question (or the sentence) with the abbreviation written out as the other says it."""

    stems: frozenset[str] = frozenset()
    question: str | None = None  # the question, its abbreviation spelled as the sentence has it
    sentence: str | None = None  # the sentence, its abbreviation spelled as the question has it


@dataclass(frozen=True)
class Aliases:
    """A question's abbreviations and words, to link them with each sentence's."""

    text: str
    cased: tuple[str, ...]  # the question's tokens as written
    abbreviations: tuple[str, ...]  # the question's
    words: tuple[str, ...]  # its tokens, lower-cased, numbers canonical
    stems: tuple[str, ...]  # their stems, aligned

    @classmethod
    def of(cls, question: str) -> Aliases:
        cased = cased_tokens(question)
        words = tuple(canon_number(t.lower()) for t in cased)
        return cls(question, cased, tuple(_abbreviations(cased)), words,
                   tuple(stem(w) for w in words))

    def link(self, info: SentenceInfo) -> Link:
        """The stem of a question abbreviation the sentence spells out, and the stems of
        the question's words a sentence abbreviation spells (none without one)."""
        cased = cased_tokens(info.text)
        mine = _abbreviations(cased)
        if not self.abbreviations and not mine:
            return Link()
        words = [canon_number(t.lower()) for t in cased]
        out: set[str] = set()
        question = sentence = None
        for abbr in self.abbreviations:
            spans = [] if abbr.lower() in words else _spelled(abbr, words)
            if spans:
                out.add(stem(abbr.lower()))
                a, b = spans[0]
                question = _replace(question or self.text, abbr, " ".join(cased[a:b]))
        for abbr in mine:
            for a, b in _spelled(abbr, self.words):
                out.update(self.stems[a:b])
                sentence = _replace(sentence or info.text, abbr, " ".join(self.cased[a:b]))
        return Link(frozenset(out), question, sentence)


def _replace(text: str, abbr: str, phrase: str) -> str:
    return re.sub(rf"\b{re.escape(abbr)}\b", phrase, text)


def _default_table(question: str, question_emb: np.ndarray) -> StaticEmbedder | None:
    """The packaged static table when it embedded the question (the default mode), so
    that a rewritten text's table embedding compares with the embeddings in hand; None
    for another embedder (its space, not the table's)."""
    table = static_table()
    if table.dim != len(question_emb) or float(table.embed([question])[0] @ question_emb) < 0.999:
        return None
    return table


def _table_embedded(table: StaticEmbedder, ctx: ContextIndex, j: int) -> bool:
    """Whether the table embedded context sentence `j` too (the default mode)."""
    return float(table.embed([ctx.infos[j].text])[0] @ ctx.emb[j]) >= 0.999


def _rephrased(sims: np.ndarray, question: str, question_emb: np.ndarray,
               ctx: ContextIndex) -> np.ndarray:
    """The question-sentence cosines, each the better of the question's as said and as
    rewritten with one-word verbs (phrasal.plain_verbs), in the default mode."""
    plain = plain_verbs(question)
    if plain == question or not len(ctx):
        return sims
    table = _default_table(question, question_emb)
    if table is None or not _table_embedded(table, ctx, 0):
        return sims
    return np.maximum(sims, ctx.emb @ table.embed([plain])[0])


def _verb_stems(info: SentenceInfo, asked: Sequence[tuple[str, str]]) -> set[str]:
    """The stems a sentence holds through a phrasal verb: the one-word equal of one it
    uses ("turned on": "enable"), and the verb of a question's phrasal verb whose
    one-word equal it uses (asked "turn on", it says "enabled": "turn")."""
    out = {stem(w) for _, w in phrasal_verbs(info.text)}
    out.update(stem(v) for v, w in asked if stem(w) in info.stem_set)
    return out


def _bridged(sims: np.ndarray, links: Sequence[Link], question: str,
             question_emb: np.ndarray, ctx: ContextIndex) -> np.ndarray:
    """The question-sentence cosines, each linked sentence's the better of its own and
    the one with the abbreviation written out, when the packaged static table is what
    embedded the question and the sentence (the default mode); else as they are."""
    if not any(x.question or x.sentence for x in links):
        return sims
    table = _default_table(question, question_emb)
    if table is None:
        return sims
    out = sims.copy()
    for j, x in enumerate(links):
        variants = [(v, against) for v, against in ((x.question, ctx.emb[j]),
                                                    (x.sentence, question_emb)) if v is not None]
        if variants and _table_embedded(table, ctx, j):
            for variant, against in variants:
                out[j] = max(out[j], float(table.embed([variant])[0] @ against))
    return out


def reading_rows(ctx: ContextIndex, doc: int, terms: QuestionTerms) -> list[int]:
    """The sentences of a document whose closeness to the question counts (its best
    one): all but those that only echo the question (every content word a word of the
    question: a keyword line such as "Eiffel Tower Paris completed." answers nothing).
    No rows (an empty list) for a document of echoes only (a heading, or the question
    itself, with no answer): its closeness is 0. Their words still count in its
    coverage."""
    asked = frozenset(terms.stems)
    return [j for j in ctx.rows(doc) if not echoes(ctx.infos[j], asked)]


def window_rows(ctx: ContextIndex, row: int) -> list[int]:
    """A sentence and its neighbours in the same document."""
    d = ctx.docs[row]
    return [j for j in (row - 1, row, row + 1) if 0 <= j < len(ctx) and ctx.docs[j] == d]


def window_stems(ctx: ContextIndex, row: int) -> tuple[list[int], frozenset[str]]:
    """A sentence's window and the stems of its sentences."""
    rows = window_rows(ctx, row)
    return rows, frozenset().union(*(ctx.infos[j].stem_set for j in rows))


def echoes(info: SentenceInfo, asked: frozenset[str]) -> bool:
    """Whether a sentence's content words are all the question's own (and it has some)."""
    return bool(info.stems) and all(x in asked for x in info.stems)


def relevance_probability(
    cosine: float, coverage: float, midpoint: float = RELEVANCE_MIDPOINT
) -> float:
    score = 0.5 * cosine + 0.5 * coverage
    z = RELEVANCE_SLOPE * (score - midpoint)
    return 1.0 / (1.0 + math.exp(-max(-30.0, min(30.0, z))))


def context_relevance(doc_relevance: Sequence[float]) -> float | None:
    """The contexts as a whole: the best document and the average one, equally."""
    if not doc_relevance:
        return None
    return 0.5 * max(doc_relevance) + 0.5 * sum(doc_relevance) / len(doc_relevance)


@dataclass(frozen=True)
class RelevanceParts:
    """What relevance is made of: each document's, and each context sentence's own score
    (the same form on the sentence with its neighbours' words) and echo flag.
    score_relevance combines them; scripts/devsets/trace_relevance_forms.py tries other
    combinations on the same parts."""

    doc: dict[int, float]
    own: list[float]
    echo: list[bool]


def relevance_parts(
    question: str,
    question_emb: np.ndarray,
    ctx: ContextIndex,
    doc_ids: Sequence[int],
    doc_emb: np.ndarray | None = None,
    doc_question_emb: np.ndarray | None = None,
) -> RelevanceParts:
    """What score_relevance combines: with `doc_emb` (whole documents by a dedicated
    relevance embedder, against `doc_question_emb`) the whole-document form; without,
    the default form from the sentences' embeddings in `ctx` (against `question_emb`)
    and soft coverage."""
    terms = QuestionTerms.of(question)
    sims = _rephrased(ctx.emb @ question_emb, question, question_emb, ctx)
    asked = frozenset(terms.stems)
    aliases = Aliases.of(question)
    links = [aliases.link(info) for info in ctx.infos]
    asked_verbs = phrasal_verbs(question)
    extra = [x.stems.union(_verb_stems(info, asked_verbs))
             for x, info in zip(links, ctx.infos, strict=True)]
    sims = _bridged(sims, links, question, question_emb, ctx)
    windows = [(rows, stems.union(*(extra[j] for j in rows)))
               for rows, stems in (window_stems(ctx, j) for j in range(len(ctx)))]
    doc_stems = {d: ctx.doc_view(d).stems.union(*(extra[j] for j in ctx.rows(d)))
                 for d in doc_ids}
    echo = [echoes(info, asked) for info in ctx.infos]
    if doc_emb is not None and doc_question_emb is not None:
        doc_rel = {
            d: relevance_probability(
                float(doc_emb[i] @ doc_question_emb), terms.coverage(doc_stems[d])
            )
            for i, d in enumerate(doc_ids)
        }
        own = [relevance_probability(float(c), terms.coverage(stems))
               for c, (_, stems) in zip(sims, windows, strict=True)]  # fmt: skip
        return RelevanceParts(doc_rel, own, echo)
    soft = SoftCoverage(terms, ctx)
    mid = SENTENCE_FORM_MIDPOINT
    doc_rel = {}
    for d in doc_ids:
        rows = reading_rows(ctx, d, terms)
        best = float(sims[rows].max()) if rows else 0.0
        doc_rel[d] = relevance_probability(best, soft.of(ctx.rows(d), doc_stems[d]), mid)
    own = [relevance_probability(float(c), soft.of(rows, stems), mid)
           for c, (rows, stems) in zip(sims, windows, strict=True)]  # fmt: skip
    return RelevanceParts(doc_rel, own, echo)


def score_relevance(
    parts: RelevanceParts, docs: Sequence[int]
) -> tuple[list[float], float | None]:
    """(per context sentence, contexts as a whole) relevance to the question. A
    sentence's (`docs`: its document) is its document's x the square root of its own
    score; an echo of the question is as relevant as its document."""
    sentence = [
        parts.doc[d] if e else parts.doc[d] * math.sqrt(o)
        for o, e, d in zip(parts.own, parts.echo, docs, strict=True)
    ]
    return sentence, context_relevance(list(parts.doc.values()))


def asked_stems(question: str) -> list[str]:
    """The question's content stems, as `addresses` counts them (repeats kept)."""
    return [stem(t) for t in tokens(question) if t not in STOPWORDS]


def addresses(cosine: float, asked: Sequence[str], stems: frozenset[str]) -> float:
    """How well a text addresses the question: its cosine to it, and the share of the
    question's content stems (`asked_stems`) among its `stems` (ADDRESSES_WEIGHTS)."""
    cover = sum(1 for x in asked if x in stems) / len(asked) if asked else 0.0
    bias, w_cos, w_cover = ADDRESSES_WEIGHTS
    z = bias + w_cos * cosine + w_cover * cover
    return 1.0 / (1.0 + math.exp(-max(-30.0, min(30.0, z))))


def shown(
    question: str,
    question_emb: np.ndarray,
    ctx: ContextIndex,
    claims: Sequence[tuple[SentenceInfo, np.ndarray, Sequence[int]]],
    used: Sequence[float],
) -> list[float]:
    """Per context sentence, how relevant the answer shows it to be (module docstring):
    the most, over the claims (each its info, its embedding, the context rows it was
    judged against) judged against it, of min(how well the claim read with it addresses
    the question, how much the answer uses it); 0 for a sentence no claim was judged
    against. A claim that declines shows nothing."""
    asked = asked_stems(question)
    out = [0.0] * len(ctx)
    for info, emb, rows in claims:
        if is_noncommittal(info.text):
            continue
        said = float(emb @ question_emb)
        for j in rows:
            pair = addresses(max(said, float(ctx.emb[j] @ question_emb)), asked,
                             info.stem_set | ctx.infos[j].stem_set)
            out[j] = max(out[j], min(pair, used[j]))
    return out


def answered(
    parts: RelevanceParts, docs: Sequence[int], relevance: Sequence[float],
    shown_by_answer: Sequence[float],
) -> tuple[list[float], float | None]:
    """score_relevance's (per context sentence, contexts as a whole) with what the answer
    shows (`shown`): a sentence is at least as relevant as the answer shows it, and a
    document at least as its most relevant sentence so shown."""
    doc = dict(parts.doc)
    for d, s in zip(docs, shown_by_answer, strict=True):
        doc[d] = max(doc[d], s)
    sentence = [max(r, s) for r, s in zip(relevance, shown_by_answer, strict=True)]
    return sentence, context_relevance(list(doc.values()))
