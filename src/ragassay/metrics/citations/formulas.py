"""The `citations` suite's pure parts: the deterministic quote check, and the three
metrics from per-sentence checks (ALCE's citation recall and precision, Gao et al. 2023).

- recall: answer sentences that need a citation and are supported by the passages they
  cite (jointly) / answer sentences that need a citation (an uncited claim fails);
- precision: relevant citations / citations. A citation is relevant when its sentence is
  supported by its citations and the passage supports the sentence alone, or the other
  cited passages do not support it without it (ALCE's "irrelevant citation" rule). A
  citation to nothing (fabricated) is never relevant;
- fabricated: citations that point at no context / citations (lower is better).
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass, field
from difflib import SequenceMatcher
from typing import Any

from ragassay.text import ParsedAnswer, tokens
from ragassay.types import MetricResult

S = "citations."
MIN_QUOTE_TOKENS = 4  # shorter sentences ("It is.") are never decided by a quote
QUOTE_SHARE = 0.85  # share of the sentence's tokens found in order in the passage
LISTED_NOTE = ("a trailing Sources/References list is no citation: only markers in the "
               "sentences count, so citations.recall reads it as citing nothing")
LETTERS_NOTE = ("a bare bracketed letter, [A], names no context: a letter is a context's "
                "position only after a source word, [Source A], or as an id the sample names "
                "(metadata.context_ids), so citations.recall reads it as citing nothing")
_BARE_LETTER = re.compile(r"\[[A-Z]\]")
"""`[A]`: no marker of the grammar (`text.markers`); said where it leaves an answer
uncited (trial 73: 15 answers citing `[A]` read as recall 0 with no word why)."""
QUOTE_SPREAD = 1.5  # the matched part of the passage spans at most this x the sentence
FLIPS = frozenset({"not", "no", "never", "none", "nor", "neither", "without", "cannot",
                   "nobody", "nothing", "t", "isn", "doesn", "don", "didn", "wasn", "won"})
"""Words whose difference between a sentence and its passage flips a quote's meaning."""


def _contiguous(s: Sequence[str], p: Sequence[str]) -> bool:
    return f" {' '.join(s)} " in f" {' '.join(p)} "


def _changed(words: Sequence[str]) -> bool:
    return any(w in FLIPS or any(ch.isdigit() for ch in w) for w in words)


def quotes(sentence: str, passage: str) -> bool:
    """Whether the sentence quotes the passage verbatim or near-verbatim: its tokens in
    order in one stretch of the passage, at most 15% of them missing or changed, and no
    negation or number among the differences ("is not" for "is", 30 for 60)."""
    s, p = tokens(sentence), tokens(passage)
    if len(s) < MIN_QUOTE_TOKENS or not p:
        return False
    if _contiguous(s, p):
        return True
    blocks = [b for b in SequenceMatcher(None, s, p, autojunk=False).get_matching_blocks()
              if b.size]
    if not blocks:
        return False
    matched = {i for b in blocks for i in range(b.a, b.a + b.size)}
    if len(matched) < QUOTE_SHARE * len(s):
        return False
    first, last = blocks[0].b, blocks[-1].b + blocks[-1].size
    if last - first > QUOTE_SPREAD * len(s) + 2:
        return False
    in_passage = {j for b in blocks for j in range(b.b, b.b + b.size)}
    extra = [p[j] for j in range(first, last) if j not in in_passage]
    missing = [w for i, w in enumerate(s) if i not in matched]
    return not _changed(extra) and not _changed(missing)


@dataclass(frozen=True)
class SentenceCheck:
    """What both judges end in for one answer sentence: whether it needs a citation,
    whether its cited passages support it (None: it cites no passage), and per cited
    context (0-based) whether the citation is relevant. `decided_by`: "quote" (the
    deterministic pass), "judge", "no citation" (nothing to judge), or "unjudged" (the
    LLM left it out)."""

    key: str
    needs_citation: bool
    supported: bool | None = None
    relevant: dict[int, bool] = field(default_factory=dict)
    decided_by: str = "judge"
    probability: float | None = None


def _sentence_details(parsed: ParsedAnswer, checks: dict[str, SentenceCheck]
                      ) -> list[dict[str, Any]]:
    out = []
    for s in parsed.sentences:
        c = checks.get(s.key)
        row: dict[str, Any] = {"key": s.key, "text": s.text, "markers": s.labels,
                               "cites": [i + 1 for i in s.cited]}
        if s.fabricated:
            row["fabricated"] = list(s.fabricated)
        if c is not None:
            row |= {"needs_citation": c.needs_citation, "supported": c.supported,
                    "relevant": [i + 1 for i in s.cited if c.relevant.get(i)],
                    "decided_by": c.decided_by}
            if c.probability is not None:
                row["support_probability"] = round(c.probability, 4)
        out.append(row)
    return out


def _result(name: str, value: float | None, why: str, details: dict[str, Any]) -> MetricResult:
    if value is None:
        return MetricResult(name=S + name, value=None, unscored_reason=why, details=details)
    return MetricResult(name=S + name, value=value, details=details)


def fabricated_result(parsed: ParsedAnswer, details: dict[str, Any]) -> MetricResult:
    """The share of citations that point at nothing: needs no judge."""
    n = parsed.n_citations
    why = no_citation_reason(parsed)
    return _result("fabricated", parsed.n_fabricated / n if n else None, why,
                   {**details, "citations": n, "fabricated": parsed.n_fabricated})


def no_citation_reason(parsed: ParsedAnswer) -> str:
    if parsed.problems:
        return "no readable citation marker (" + "; ".join(parsed.problems[:3]) + ")"
    if parsed.listed:  # trial 58: "answer + Sources list" read as uncited, unsaid
        return f"the answer cites nothing ({LISTED_NOTE})"
    if not parsed.n_citations and any(_BARE_LETTER.search(s.text) for s in parsed.sentences):
        return f"the answer cites nothing ({LETTERS_NOTE})"  # one reason: counted together
    return "the answer cites nothing"


def score_citations(parsed: ParsedAnswer, checks: Sequence[SentenceCheck],
                    details: dict[str, Any] | None = None) -> list[MetricResult]:
    """The three results from the parsed answer and its sentences' checks (pure)."""
    by_key = {c.key: c for c in checks}
    common = dict(details or {})
    if parsed.problems:
        common["marker_problems"] = list(parsed.problems)
    rows = {"sentences": _sentence_details(parsed, by_key)}
    judged = [by_key[s.key] for s in parsed.sentences if s.key in by_key
              and by_key[s.key].decided_by != "unjudged"]
    needing = [c for c in judged if c.needs_citation]
    supported = [c for c in needing if c.supported]
    recall = len(supported) / len(needing) if needing else None
    relevant = total = 0
    for s in parsed.sentences:
        c = by_key.get(s.key)
        if c is None or c.decided_by == "unjudged":
            continue
        total += len(s.cited) + len(s.fabricated)
        relevant += sum(1 for i in s.cited if c.supported and c.relevant.get(i))
    precision = relevant / total if total else None
    return [
        _result("recall", recall, "no answer sentence needs a citation",
                {**common, **rows, "needing": len(needing), "supported": len(supported)}),
        _result("precision", precision, no_citation_reason(parsed),
                {**common, **rows, "relevant": relevant}),
        fabricated_result(parsed, common),
    ]
