"""Feature extraction for the offline judge's calibrated models.

Three feature sets, each a fixed list of generic, scale-free numbers:
- SUPPORT: one answer (or reference) sentence against the context document that
  matches it best (and that document's best 3 sentences). Other documents play no
  part, so unrelated extra contexts neither raise nor lower a sentence's support.
- FAITHFULNESS: a whole answer, from its claims' support and its missing key terms;
  monotone, so appending text never raises it.
- REFERENCE: an answer against one acceptable reference answer.
No feature describes the regime (context length, answer length, their
interactions): an effect learned on short snippets must not flip on long documents.
Nor is topical similarity (the sentence embedding's cosine) a support feature: an
unsupported remark on the same topic is as close to the evidence as a supported one;
the cosine only picks where to look (best_match). Soft recall counts what the sentence
says that the evidence has, a synonym by its static word vector ("tv" ~ "television").
The fit script and the analyzer both compute them here, so they never drift.
"""

from __future__ import annotations

import math
import re
from dataclasses import dataclass, field
from functools import lru_cache

import numpy as np

from .contradiction import contradiction
from .lexical import (
    FILLER,
    STOPWORDS,
    TermPool,
    _canon_number,
    antonym_stems,
    name_present,
    names,
    negation_count,
    normalise_answer,
    stem,
)
from .normalise import Quantity, cased_tokens, quantities, quantity_present
from .recall import given_names, soft_recall
from .words import word_vectors

SUPPORT_FEATURES = (
    "soft_recall_local",  # weighted share of content words matched in the best 3 sentences
    "recall_doc",  # share of content stems found in the best document
    "recall_local",  # share found in its 3 best-matching sentences
    "recall_all_local",  # share of all token stems (stopwords too) found there
    "bigram_doc",  # share of stem bigrams found in the best document
    "token_share_local",  # share of the sentence's tokens found verbatim in the best 3
    "novel_numbers",  # numbers (by value) absent from the best document (log1p count)
    "novel_names",  # names absent from it (log1p count)
    "novel_content",  # content stems absent from it (log1p count)
    "negation_mismatch",  # negated while the best match is not, or vice versa
    "antonym_clash",  # a word absent from the document whose antonym is there (log1p)
    "length",  # log1p of content tokens
    "question",  # the sentence is a question ("Do you like them?")
)
FAITHFULNESS_FEATURES = (
    "support_min_logit",  # the weakest claim's support
    "novel_key_terms",  # numbers, dates, names absent from every context and the question
    "n_sentences",  # log1p of the number of claims
)
REFERENCE_FEATURES = (
    "contains",  # the normalised reference appears in the normalised answer
    "contains_first",  # ... in the answer's first sentence
    "token_recall",  # share of reference tokens in the answer
    "token_precision",  # share of answer content tokens in the reference
    "char_recall",  # share of reference character 4-grams in the answer
    "cos",  # embedding cosine answer / reference
    "answer_length",  # log1p answer content tokens
    "novel_in_question",  # share of reference tokens the question already has
    "noncommittal",
)

# Interjections that open an answer ("No, ...", "Yes. ..."): not a negation of the
# sentence's claim, and not content.
OPENERS = frozenset({"yes", "no", "yeah", "yep", "nope", "nah", "well", "oh", "ok", "okay"})
# A negative interjection set off at the start ("Not really, ...", "Of course not!"):
# it answers the question and negates nothing of the claim that follows, as "No," does.
_NEGATIVE_OPENER = re.compile(
    r"^\W*(not (?:really|exactly|quite|necessarily|at all)|of course not|no way)\s*[,;:!.]",
    re.IGNORECASE,
)


@dataclass(frozen=True)
class SentenceInfo:
    """Pre-computed lexical views of one sentence."""

    text: str
    stems: list[str]  # content stems, in order
    all_stems: list[str]  # every token's stem, in order (for bigrams)
    numbers: tuple[Quantity, ...]
    names: list[str]  # lower-cased names (capitalised words not at a sentence start)
    negated: bool  # after a leading "No," / "Yes," interjection
    stem_set: frozenset[str] = field(default_factory=frozenset)
    tokens: tuple[str, ...] = ()  # lower-cased normalised tokens, aligned with all_stems
    bigrams: frozenset[tuple[str, str]] = field(default_factory=frozenset)
    grams: frozenset[tuple[str, ...]] = field(default_factory=frozenset)  # token COPY_N-grams
    capitals: tuple[int, ...] = ()  # positions of capitalised tokens (names, sentence start)
    lead: int = 0  # leading interjection tokens ("No, ...", "Yes. ..."), not the claim's
    words: tuple[str, ...] = ()  # content words (not stopwords), in order
    word_stems: tuple[str, ...] = ()  # their stems, aligned with `words`
    soft: tuple[int, ...] = ()  # positions in `words` of words made of letters only
    asks: bool = False  # a question ("... ?", closing quotes or brackets allowed)


@lru_cache(maxsize=16384)  # ~3 KB each: bounded at ~50 MB
def sentence_info(text: str) -> SentenceInfo:
    """Lexical views of a sentence (cached: context sentences repeat across samples)."""
    cased = cased_tokens(text)
    toks = [t.lower() for t in cased]
    all_stems = [stem(_canon_number(t)) for t in toks]
    content = [s for t, s in zip(toks, all_stems, strict=True) if t not in STOPWORDS]
    lead = 0
    while lead < len(toks) - 1 and toks[lead] in OPENERS:
        lead += 1
    opener = _NEGATIVE_OPENER.match(text)
    if opener and lead == 0:
        lead = min(len(opener.group(1).split()), len(toks) - 1)
    words = [(t, s) for t, s in zip(toks, all_stems, strict=True) if t not in STOPWORDS]
    return SentenceInfo(
        text=text,
        stems=content,
        all_stems=all_stems,
        numbers=quantities(text),
        names=names(text),
        negated=negation_count(text, toks[lead:]) > 0,
        stem_set=frozenset(all_stems),
        tokens=tuple(toks),
        bigrams=frozenset(zip(all_stems, all_stems[1:], strict=False)),
        grams=frozenset(_ngrams(toks, COPY_N)),
        capitals=tuple(
            i for i, t in enumerate(cased) if t[:1].isupper() and toks[i] not in STOPWORDS
        ),
        lead=lead,
        words=tuple(t for t, _ in words),
        word_stems=tuple(x for _, x in words),
        soft=tuple(i for i, (t, _) in enumerate(words) if t.isalpha()),
        asks=text.rstrip().rstrip("\"')]}»”’ ").endswith("?"),
    )


COPY_N = 4  # a copied fragment: this many consecutive tokens found in one context sentence


def _ngrams(toks: list[str] | tuple[str, ...], n: int) -> list[tuple[str, ...]]:
    return [tuple(toks[i : i + n]) for i in range(len(toks) - n + 1)]


def copy_coverage(s: SentenceInfo, ctx: ContextIndex) -> float | None:
    """Share of the sentence's tokens that lie in a fragment of COPY_N or more tokens
    copied from one context sentence (re-ordered or spliced fragments count), leading
    conversational filler ("Well, ...") left out and one context word allowed at either
    end (a trimmed clause start: "crayola [soon] shifted its ..."). None for sentences
    shorter than COPY_N tokens."""
    toks = s.tokens
    start = 0
    while start < len(toks) and toks[start] in FILLER:
        start += 1
    toks = toks[start:]
    if len(toks) < COPY_N:
        return None
    covered = [False] * len(toks)
    for i, g in enumerate(_ngrams(toks, COPY_N)):
        if g in ctx.grams:
            covered[i : i + COPY_N] = [True] * COPY_N
    for end in (0, len(toks) - 1):
        if not covered[end] and toks[end] in ctx.tokens:
            covered[end] = True
    return sum(covered) / len(covered)


def copied(s: SentenceInfo, ctx: ContextIndex) -> bool:
    """Whether the sentence is a verbatim extract of the contexts (copy_coverage 1.0):
    it cannot carry a substituted word, a swapped number or an added negation."""
    return copy_coverage(s, ctx) == 1.0


COPY_SUPPORT = 0.95  # support of a copied sentence is at least this
_COPY_LOGIT = math.log(COPY_SUPPORT / (1.0 - COPY_SUPPORT))


def copy_floor(logits: list[float], is_copied: list[bool]) -> list[float]:
    """Support logits with copied sentences raised to at least COPY_SUPPORT."""
    return [max(z, _COPY_LOGIT) if c else z for z, c in zip(logits, is_copied, strict=True)]


CONTRADICTION_SUPPORT = 0.1  # support of a sentence that contradicts its evidence is at most this
_CONTRADICTION_LOGIT = math.log(CONTRADICTION_SUPPORT / (1.0 - CONTRADICTION_SUPPORT))


# support of a sentence stating a number, date or name found in no context and not in
# the question is at most this: below SUPPORT_THRESHOLD (unsupported), above a
# contradiction. A rule set by design, not fitted.
MISSING_TERM_SUPPORT = 0.3
_MISSING_TERM_LOGIT = math.log(MISSING_TERM_SUPPORT / (1.0 - MISSING_TERM_SUPPORT))


def rule_logits(
    logits: list[float],
    is_copied: list[bool],
    contradicts: list[str | None],
    missing: list[bool] | None = None,
) -> list[float]:
    """The support model's logits with the rules applied: a copied sentence is supported
    (copy_floor); one that contradicts its evidence (`contradiction`) is not (at most
    CONTRADICTION_SUPPORT; a copy cannot contradict the sentence it copies); one with a
    key term that no context and not the question has (`missing`, lexical.missing_terms:
    "Lyon" where the contexts say "Paris") is not either (at most MISSING_TERM_SUPPORT;
    a copy has none)."""
    floored = copy_floor(logits, is_copied)
    out = [
        min(z, _CONTRADICTION_LOGIT) if c else z for z, c in zip(floored, contradicts, strict=True)
    ]
    if missing is not None:
        out = [min(z, _MISSING_TERM_LOGIT) if m else z for z, m in zip(out, missing, strict=True)]
    return out


@dataclass(frozen=True)
class DocView:
    """The union of lexical views of some context sentences (a document, or a few)."""

    stems: frozenset[str]
    bigrams: frozenset[tuple[str, str]]
    tokens: frozenset[str]
    values: frozenset[float]
    names: frozenset[str]

    @classmethod
    def of(cls, infos: list[SentenceInfo]) -> DocView:
        return cls(
            frozenset().union(*(i.stem_set for i in infos)),
            frozenset().union(*(i.bigrams for i in infos)),
            frozenset().union(*(i.tokens for i in infos)),
            frozenset(q.value for i in infos for q in i.numbers),
            frozenset(n for i in infos for n in i.names),  # lower-cased words
        )


class ContextIndex:
    """Context sentences with their embeddings and lexical sets, built once per sample."""

    def __init__(
        self,
        infos: list[SentenceInfo],
        emb: np.ndarray,
        docs: list[int] | None = None,
        given: TermPool | None = None,
    ) -> None:
        """`given`: what the question gives as known (its sentences not addressed to the
        evaluator, analyzer._given): a name it has may be known (given_names)."""
        self.infos = infos
        self.given = given
        self.emb = emb
        self.docs = docs if docs is not None else [0] * len(infos)
        self.stems: frozenset[str] = frozenset().union(*(i.stem_set for i in infos))
        self.tokens: frozenset[str] = frozenset().union(*(i.tokens for i in infos))
        self.grams: frozenset[tuple[str, ...]] = frozenset().union(*(i.grams for i in infos))
        self.pool = TermPool(self.stems, frozenset(q.value for i in infos for q in i.numbers))
        self._rows: dict[int, list[int]] = {}
        for j, d in enumerate(self.docs):
            self._rows.setdefault(d, []).append(j)
        self._doc_views: dict[int, DocView] = {}
        self._words: np.ndarray | None = None  # every sentence's content words, in order
        self._word_starts = np.cumsum([0] + [len(i.soft) for i in infos])

    def word_vectors(self, j: int) -> np.ndarray:
        """Context sentence j's content words of letters as static vectors (every
        sentence's are looked up together, on first use)."""
        if self._words is None:
            self._words = word_vectors([i.words[k] for i in self.infos for k in i.soft])
        return self._words[self._word_starts[j] : self._word_starts[j + 1]]

    def __len__(self) -> int:
        return len(self.infos)

    def rows(self, doc: int) -> list[int]:
        """Indices of the sentences of one document."""
        return self._rows.get(doc, [])

    def doc_view(self, doc: int) -> DocView:
        view = self._doc_views.get(doc)
        if view is None:
            view = DocView.of([self.infos[j] for j in self.rows(doc)])
            self._doc_views[doc] = view
        return view


def _share(items: list[str], pool: frozenset[str] | set[str]) -> float:
    return sum(1 for x in items if x in pool) / len(items) if items else 1.0


def antonym_clashes(s: SentenceInfo, stems: frozenset[str]) -> int:
    """Words of the sentence missing from the evidence while an antonym is present."""
    n = 0
    for t, st in zip(s.tokens, s.all_stems, strict=True):
        if st not in stems and t.isalpha() and any(a in stems for a in antonym_stems(t)):
            n += 1
    return n


@dataclass(frozen=True)
class Match:
    """Where a sentence's support was judged: its best document and best sentences, and
    whether it contradicts them (`contradiction`)."""

    doc: int
    top: list[int]  # context rows, best first (all in `doc`)
    contradicts: str | None = None


TOP_K = 3


def best_match(
    s: SentenceInfo, s_emb: np.ndarray, ctx: ContextIndex, doc: int | None = None
) -> Match:
    """The context document holding the sentence's best match (cosine + coverage of its
    content words), or the given `doc`, and that document's best TOP_K sentences."""
    rows = np.arange(len(ctx)) if doc is None else np.asarray(ctx.rows(doc))
    sims = ctx.emb[rows] @ s_emb
    content = set(s.stems)
    if content:
        cover = np.fromiter(
            (len(content & ctx.infos[j].stem_set) / len(content) for j in rows),
            dtype=np.float64,
            count=len(rows),
        )
    else:
        cover = np.zeros(len(rows))
    score = 0.5 * sims + 0.5 * cover
    if doc is None:
        doc = ctx.docs[int(np.argmax(score))]
        keep = np.asarray(ctx.rows(doc))
        rows, score = keep, score[keep]
    order = np.argsort(-score, kind="stable")[:TOP_K]
    return Match(doc, [int(rows[j]) for j in order])


def support_features(
    s: SentenceInfo, s_emb: np.ndarray, ctx: ContextIndex, doc: int | None = None
) -> tuple[list[float], Match]:
    """SUPPORT features of one sentence against its best document (or `doc`), and the
    match."""
    m = best_match(s, s_emb, ctx, doc)
    m = Match(m.doc, m.top, contradiction(s, ctx, m.top))
    view = ctx.doc_view(m.doc)
    local_infos = [ctx.infos[j] for j in m.top]
    local = DocView.of(local_infos)
    best = ctx.infos[m.top[0]]
    bigrams = list(zip(s.all_stems, s.all_stems[1:], strict=False))
    novel = math.log1p(sum(1 for x in s.stems if x not in view.stems))
    known = given_names(s, ctx.given, local_infos)
    feats = [
        soft_recall(s, [ctx.word_vectors(j) for j in m.top], local.stems, known),
        _share(s.stems, view.stems),
        _share(s.stems, local.stems),
        _share(s.all_stems, local.stems) if s.all_stems else 0.0,
        sum(1 for b in bigrams if b in view.bigrams) / len(bigrams) if bigrams else 1.0,
        _share(list(s.tokens), local.tokens) if s.tokens else 0.0,
        math.log1p(sum(1 for q in s.numbers if not quantity_present(q, view.values))),
        math.log1p(sum(1 for n in s.names if n not in known and not name_present(n, view.stems))),
        novel,
        float(s.negated != best.negated),
        math.log1p(antonym_clashes(s, view.stems)),
        math.log1p(len(s.stems)),
        float(s.asks),
    ]
    return feats, m


def faithfulness_features(support_logits: list[float], novel_terms: int) -> list[float]:
    """FAITHFULNESS features from the claims' support logits and the missing key terms.
    Each can only fall as text is added to an answer (the weakest claim's support, the
    count of missing terms, the number of claims with a non-positive weight), so padding
    an answer never raises its faithfulness."""
    return [min(support_logits), math.log1p(novel_terms), math.log1p(len(support_logits))]


def _char_grams(text: str, n: int = 4) -> set[str]:
    t = f" {text} "
    return {t[i : i + n] for i in range(max(1, len(t) - n + 1))}


def reference_features(
    answer: str,
    answer_first: str,
    reference: str,
    question: str,
    cos: float,
    noncommittal: bool,
) -> list[float]:
    """REFERENCE features for an answer against one acceptable reference."""
    na, nr = normalise_answer(answer), normalise_answer(reference)
    nf = normalise_answer(answer_first)
    contains = bool(nr) and f" {nr} " in f" {na} "
    contains_first = bool(nr) and f" {nr} " in f" {nf} "
    r_toks = [stem(t) for t in nr.split()]
    a_set = {stem(t) for t in na.split()}
    a_content = [stem(t) for t in na.split() if t not in STOPWORDS]
    r_set = set(r_toks)
    q_set = {stem(t) for t in normalise_answer(question).split()}
    rg = _char_grams(nr)
    ag = _char_grams(na)
    return [
        float(contains),
        float(contains_first),
        _share(r_toks, a_set) if r_toks else 0.0,
        _share(a_content, r_set) if a_content else 0.0,
        len(rg & ag) / len(rg) if nr else 0.0,
        float(cos),
        math.log1p(len(a_content)),
        _share(r_toks, q_set) if r_toks else 0.0,
        float(noncommittal),
    ]
