"""Feature extraction for the offline judge's calibrated models.

Three feature sets, each a fixed list of generic, scale-free numbers:
- SUPPORT: one answer (or reference) sentence against a set of context sentences;
- FAITHFULNESS: a whole answer, from its sentences' support and global overlap;
- REFERENCE: an answer against one acceptable reference answer.
The fit script and the analyzer both compute them here, so they never drift.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from functools import lru_cache

import numpy as np

from ragassay.text import tokens

from .lexical import (
    FILLER,
    STOPWORDS,
    _canon_number,
    antonym_stems,
    names,
    negation_count,
    normalise_answer,
    numbers,
    stem,
)

SUPPORT_FEATURES = (
    "cos_max",  # best cosine to one context sentence
    "recall_global",  # share of content stems found anywhere in the contexts
    "recall_local",  # share found in the 3 best-matching context sentences
    "recall_all",  # share of all token stems (stopwords too) found in the contexts
    "bigram_recall",  # share of stem bigrams found in the contexts
    "novel_numbers",  # numbers absent from the contexts (log1p count)
    "novel_names",  # names absent from the contexts (log1p count)
    "novel_content",  # content stems absent from the contexts (log1p count)
    "negation_mismatch",  # negated while the best match is not, or vice versa
    "antonym_clash",  # a word absent from the contexts whose antonym is there (log1p count)
    "length",  # log1p of content tokens
    "token_share",  # share of the sentence's tokens found verbatim in the contexts
    "context_length",  # log1p of the contexts' tokens (regime: snippet vs long document)
    "recall_all_x_context",  # recall_all * context_length
    "token_share_x_context",  # token_share * context_length
)
FAITHFULNESS_FEATURES = (
    "support_min_logit",
    "support_mean",
    "recall_global",
    "recall_all",
    "bigram_recall",
    "novel_key_terms",
    "n_sentences",
    "token_share",  # share of the answer's tokens found verbatim in the contexts
    "context_length",  # log1p of the contexts' tokens
    "answer_tokens",  # log1p of the answer's tokens
    "token_share_x_context",  # interactions: one model, different weights per regime
    "recall_all_x_context",
    "support_min_x_context",
    "token_share_x_answer_tokens",
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


@dataclass(frozen=True)
class SentenceInfo:
    """Pre-computed lexical views of one sentence."""

    text: str
    stems: list[str]  # content stems, in order
    all_stems: list[str]  # every token's stem, in order (for bigrams)
    numbers: list[str]
    names: list[str]
    negated: bool
    stem_set: frozenset[str] = field(default_factory=frozenset)
    tokens: tuple[str, ...] = ()  # lower-cased tokens, aligned with all_stems
    bigrams: frozenset[tuple[str, str]] = field(default_factory=frozenset)
    grams: frozenset[tuple[str, ...]] = field(default_factory=frozenset)  # token COPY_N-grams


@lru_cache(maxsize=16384)  # ~3 KB each: bounded at ~50 MB
def sentence_info(text: str) -> SentenceInfo:
    """Lexical views of a sentence (cached: context sentences repeat across samples)."""
    toks = tokens(text)
    all_stems = [stem(_canon_number(t)) for t in toks]
    content = [s for t, s in zip(toks, all_stems, strict=True) if t not in STOPWORDS]
    return SentenceInfo(
        text=text,
        stems=content,
        all_stems=all_stems,
        numbers=numbers(text, toks),
        names=[stem(n) for n in names(text)],
        negated=negation_count(text, toks) > 0,
        stem_set=frozenset(all_stems),
        tokens=tuple(toks),
        bigrams=frozenset(zip(all_stems, all_stems[1:], strict=False)),
        grams=frozenset(_ngrams(toks, COPY_N)),
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


class ContextIndex:
    """Context sentences with their embeddings and lexical sets, built once per sample."""

    def __init__(self, infos: list[SentenceInfo], emb: np.ndarray) -> None:
        self.infos = infos
        self.emb = emb
        self.stems: frozenset[str] = frozenset().union(*(i.stem_set for i in infos))
        self.bigrams: frozenset[tuple[str, str]] = frozenset().union(*(i.bigrams for i in infos))
        self.tokens: frozenset[str] = frozenset().union(*(i.tokens for i in infos))
        self.grams: frozenset[tuple[str, ...]] = frozenset().union(*(i.grams for i in infos))
        self.n_tokens = sum(len(i.tokens) for i in infos)
        self.log_length = math.log1p(self.n_tokens)

    def __len__(self) -> int:
        return len(self.infos)


def _share(items: list[str], pool: frozenset[str] | set[str]) -> float:
    return sum(1 for x in items if x in pool) / len(items) if items else 1.0


def antonym_clashes(s: SentenceInfo, ctx: ContextIndex) -> int:
    """Words of the sentence missing from the contexts while an antonym is present."""
    n = 0
    for t, st in zip(s.tokens, s.all_stems, strict=True):
        if st not in ctx.stems and t.isalpha() and any(a in ctx.stems for a in antonym_stems(t)):
            n += 1
    return n


def support_features(
    s: SentenceInfo,
    s_emb: np.ndarray,
    ctx: ContextIndex,
    top_k: int = 3,
) -> tuple[list[float], list[int]]:
    """SUPPORT features of one sentence, and indices of its best context sentences."""
    sims = ctx.emb @ s_emb
    content = set(s.stems)
    # Rank context sentences by cosine plus lexical coverage of this sentence.
    if content:
        cover = np.fromiter(
            (len(content & i.stem_set) / len(content) for i in ctx.infos),
            dtype=np.float64,
            count=len(ctx),
        )
    else:
        cover = np.zeros(len(ctx))
    score = 0.5 * sims + 0.5 * cover
    k = min(top_k, len(ctx))
    top = np.argpartition(-score, k - 1)[:k] if len(ctx) > k else np.arange(len(ctx))
    top = top[np.argsort(-score[top])]
    local: frozenset[str] = frozenset().union(*(ctx.infos[j].stem_set for j in top))
    bigrams = list(zip(s.all_stems, s.all_stems[1:], strict=False))
    missing_content = sum(1 for x in s.stems if x not in ctx.stems)
    recall_all = _share(s.all_stems, ctx.stems) if s.all_stems else 0.0
    token_share = _share(list(s.tokens), ctx.tokens) if s.tokens else 0.0
    feats = [
        float(sims.max()),
        _share(s.stems, ctx.stems),
        _share(s.stems, local),
        recall_all,
        sum(1 for b in bigrams if b in ctx.bigrams) / len(bigrams) if bigrams else 1.0,
        math.log1p(sum(1 for n in s.numbers if stem(n) not in ctx.stems)),
        math.log1p(sum(1 for n in s.names if n not in ctx.stems)),
        math.log1p(missing_content),
        float(s.negated != ctx.infos[int(top[0])].negated),
        math.log1p(antonym_clashes(s, ctx)),
        math.log1p(len(s.stems)),
        token_share,
        ctx.log_length,
        recall_all * ctx.log_length,
        token_share * ctx.log_length,
    ]
    return feats, [int(j) for j in top]


def answer_overlap(infos: list[SentenceInfo], ctx: ContextIndex) -> list[float]:
    """Whole-answer lexical overlap and regime: content-stem, all-stem and stem-bigram
    recall, verbatim token share, log1p context tokens, log1p answer tokens."""
    content = [x for i in infos for x in i.stems]
    every = [x for i in infos for x in i.all_stems]
    toks = [t for i in infos for t in i.tokens]
    bigrams = [b for i in infos for b in zip(i.all_stems, i.all_stems[1:], strict=False)]
    return [
        _share(content, ctx.stems),
        _share(every, ctx.stems) if every else 0.0,
        sum(1 for b in bigrams if b in ctx.bigrams) / len(bigrams) if bigrams else 1.0,
        _share(toks, ctx.tokens) if toks else 0.0,
        ctx.log_length,
        math.log1p(len(toks)),
    ]


def faithfulness_features(
    support_logits: list[float], overlap: list[float], novel_terms: int
) -> list[float]:
    """FAITHFULNESS features from the per-sentence support logits and global overlap."""
    probs = [1.0 / (1.0 + math.exp(-max(-30.0, min(30.0, z)))) for z in support_logits]
    recall_global, recall_all, bigram, share, ctx_len, ans_len = overlap
    lo = min(support_logits)
    return [
        lo,
        sum(probs) / len(probs),
        recall_global,
        recall_all,
        bigram,
        math.log1p(novel_terms),
        math.log1p(len(support_logits)),
        share,
        ctx_len,
        ans_len,
        share * ctx_len,
        recall_all * ctx_len,
        lo * ctx_len,
        share * ans_len,
    ]


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
