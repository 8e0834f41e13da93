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
from dataclasses import dataclass

import numpy as np

from .alignment import align
from .clauses import clause_parts, part
from .lexical import (
    FILLER,
    STOPWORDS,
    antonym_stems,
    name_present,
    normalise_answer,
    stem,
)
from .negated_clause import negation_bears
from .normalise import quantity_present
from .paraphrase import restated_across, restated_in_other_words
from .recall import given_names, soft_recall
from .sentences import COPY_N, ContextIndex, DocView, SentenceInfo, ngrams

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
    for i, g in enumerate(ngrams(toks, COPY_N)):
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
# the question, or a clause no context states, is at most this: below SUPPORT_THRESHOLD
# (unsupported), above a contradiction. A rule set by design, not fitted.
MISSING_TERM_SUPPORT = 0.3
_MISSING_TERM_LOGIT = math.log(MISSING_TERM_SUPPORT / (1.0 - MISSING_TERM_SUPPORT))


PARAPHRASE_SUPPORT = 0.6  # support of a claim restating a sentence in other words, at least
_PARAPHRASE_LOGIT = math.log(PARAPHRASE_SUPPORT / (1.0 - PARAPHRASE_SUPPORT))


def rule_logits(
    logits: list[float],
    is_copied: list[bool],
    contradicts: list[str | None],
    missing: list[bool] | None = None,
    paraphrased: list[bool] | None = None,
) -> list[float]:
    """The support model's logits with the rules applied: a copied sentence is supported
    (copy_floor); one that contradicts the context sentence it restates (`contradicts`,
    alignment.align) is not (at most CONTRADICTION_SUPPORT); one with a key term that no
    context and not the question has ("Lyon" where the contexts say "Paris",
    lexical.missing_terms), or a clause no context states ("... and comes with a
    dedicated account manager", alignment), is not either (`missing`: at most
    MISSING_TERM_SUPPORT; a copy has neither). One that restates a context sentence in
    other words (`paraphrased`, paraphrase.py) is supported (at least PARAPHRASE_SUPPORT)
    unless a cap applies."""
    floored = copy_floor(logits, is_copied)
    if paraphrased is not None:
        floored = [max(z, _PARAPHRASE_LOGIT) if q else z
                   for z, q in zip(floored, paraphrased, strict=True)]
    out = [
        min(z, _CONTRADICTION_LOGIT) if c else z for z, c in zip(floored, contradicts, strict=True)
    ]
    if missing is not None:
        out = [min(z, _MISSING_TERM_LOGIT) if m else z for z, m in zip(out, missing, strict=True)]
    return out


def _share(items: list[str], pool: frozenset[str] | set[str]) -> float:
    return sum(1 for x in items if x in pool) / len(items) if items else 1.0


def antonym_clashes(s: SentenceInfo, stems: frozenset[str]) -> int:
    """Words of the sentence missing from the evidence while an antonym is present; not
    a word the sentence denies ("guests who haven't registered" against "unregistered
    guests", "is not open" against "is closed": a denied word and its antonym agree)."""
    denied = frozenset(h for h in part(s.text).negations if h) if s.negated else frozenset()
    n = 0
    for t, st in zip(s.tokens, s.all_stems, strict=True):
        if st not in stems and st not in denied and t.isalpha() and any(
                a in stems for a in antonym_stems(t)):
            n += 1
    return n


@dataclass(frozen=True)
class Match:
    """Where a sentence's support was judged: its best document and best sentences, and
    what claim-level alignment found (alignment.align): the kind of contradiction with
    the context sentence it restates, and a clause of it no context states."""

    doc: int
    top: list[int]  # context rows, best first (all in `doc`)
    contradicts: str | None = None
    unstated: str | None = None
    paraphrased: bool = False  # restates one of `top` in other words (paraphrase.py), or
    # each of its clauses restates a context sentence or clause (alignment.Finding.restated)
    conflict_row: int | None = None  # the context row it contradicts, where alignment
    # knows it (alignment.Finding.row); None otherwise


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


CLAUSE_COVERED = 0.75  # a clause this much stated by one sentence of another document ...
CLAUSE_MISSED = 0.5  # ... and less than this by the best document draws on that document


def clause_rows(s: SentenceInfo, ctx: ContextIndex, m: Match, view: DocView) -> list[int]:
    """Context sentences of other documents that a clause of the sentence draws on: a
    clause the best document barely states (under CLAUSE_MISSED of its content words)
    and one sentence of another document states (CLAUSE_COVERED), as in "No more than
    two months' rent can be taken as a deposit, and it has to be placed in a protection
    scheme" over two documents. Support reads them beside the best document's."""
    parts = clause_parts(s.text)
    if len(parts) < 2 or len(set(ctx.docs)) < 2:
        return []
    out: list[int] = []
    for c in parts:
        words = c.words
        if len(words) < 2 or len(words & view.stems) >= CLAUSE_MISSED * len(words):
            continue
        best, row = 0.0, -1
        for j, info in enumerate(ctx.infos):
            if ctx.docs[j] != m.doc and (k := len(words & info.stem_set)) > best:
                best, row = k, j
        if best >= CLAUSE_COVERED * len(words) and row not in out:
            out.append(row)
    return out


def support_features(
    s: SentenceInfo, s_emb: np.ndarray, ctx: ContextIndex, doc: int | None = None,
    aligned: bool = True,
) -> tuple[list[float], Match]:
    """SUPPORT features of one sentence against its best document (or `doc`), and the
    match, with what claim-level alignment found against every context (or `doc`)
    unless `aligned` is False (chunk usefulness reads the model's support alone)."""
    m = best_match(s, s_emb, ctx, doc)
    if aligned:
        found = align(s, ctx, doc)
        m = Match(m.doc, m.top, found.conflict, found.unstated, found.restated or any(
            restated_in_other_words(s, ctx.infos[j], float(ctx.emb[j] @ s_emb), ctx.given)
            for j in m.top) or restated_across(s, s_emb, ctx, doc), found.row)
    view = ctx.doc_view(m.doc)
    extra = clause_rows(s, ctx, m, view) if doc is None else []
    rows = m.top + extra
    local_infos = [ctx.infos[j] for j in rows]
    local = DocView.of(local_infos)
    if extra:
        view = view | DocView.of([ctx.infos[j] for j in extra])
    best = ctx.infos[m.top[0]]
    bigrams = list(zip(s.all_stems, s.all_stems[1:], strict=False))
    novel = math.log1p(sum(1 for x in s.stems if x not in view.stems))
    known = given_names(s, ctx.given, local_infos)
    feats = [
        soft_recall(s, [ctx.word_vectors(j) for j in rows], local.stems, known),
        _share(s.stems, view.stems),
        _share(s.stems, local.stems),
        _share(s.all_stems, local.stems) if s.all_stems else 0.0,
        sum(1 for b in bigrams if b in view.bigrams) / len(bigrams) if bigrams else 1.0,
        _share(list(s.tokens), local.tokens) if s.tokens else 0.0,
        math.log1p(sum(1 for q in s.numbers if not quantity_present(q, view.values))),
        math.log1p(sum(1 for n in s.names if n not in known and not name_present(n, view.stems))),
        novel,
        float(s.negated != negation_bears(s, best)),
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
