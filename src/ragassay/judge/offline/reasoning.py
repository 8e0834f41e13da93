"""A short human-readable account of the offline judge's evidence."""

from __future__ import annotations

from .evidence import SUPPORT_THRESHOLD, Evidence


def reasoning(ev: Evidence, max_terms: int = 3) -> str:
    """E.g. "2 of 3 answer sentences supported; '1998' not found in the context; ..."."""
    parts: list[str] = []
    if not ev.answer_sentences:
        parts.append("empty answer")
    elif not ev.context_sentences:
        parts.append("no context to check the answer against")
    else:
        n_ok = sum(1 for p in ev.support if p >= SUPPORT_THRESHOLD)
        parts.append(f"{n_ok} of {len(ev.support)} answer sentences supported")
        weak = [
            f"{k.key} ({p:.2f})"
            for k, p in zip(ev.answer_sentences, ev.support, strict=True)
            if p < SUPPORT_THRESHOLD
        ]
        if weak:
            parts.append("unsupported: " + ", ".join(weak[:4]))
    if ev.hallucinated_terms:
        shown = ", ".join(f"'{t}'" for t in ev.hallucinated_terms[:max_terms])
        more = len(ev.hallucinated_terms) - max_terms
        parts.append(f"{shown}{f' (+{more} more)' if more > 0 else ''} not found in the context")
    best = [k for keys in ev.support_keys for k in keys[:1]]
    if best:
        parts.append("best context match " + ", ".join(dict.fromkeys(best)))
    if ev.noncommittal:
        parts.append("the answer is noncommittal")
    if ev.reference_match is not None:
        parts.append(f"reference match {ev.reference_match:.2f}")
    if ev.faithfulness is not None:
        parts.append(f"faithfulness {ev.faithfulness:.2f}")
    if ev.truncated:
        parts.append(
            f"input truncated: analysed the first {len(ev.answer_sentences)} answer and "
            f"{len(ev.context_sentences)} context sentences"
        )
    return "; ".join(parts)
