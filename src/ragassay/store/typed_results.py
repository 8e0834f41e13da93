"""Migration m0009_typed_results, frozen: a stored metric result of before it kept in its
`details` what every reader used (the abstention, the suspicious-reply note, the texts cut
to the budget, how an LLM judge's rating was read, the sentences a verdict points at, a
failed judgment's prompt and raw reply); they move onto `MetricResult`'s typed fields.

The sentence marks are read as the report read them then (`report/highlight.py` before
m0009): the claims a RAGAS verdict found unsupported, and any details key whose name says
unsupported / supported / relevant / used holding sentence keys (or, for unsupported,
texts). The keys the built-in suites wrote for them (`unsupported`, `relevant_keys`,
`used_keys`) leave the details; a plugin suite's keep their place.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping
from typing import Any

ANSWER_KEY = re.compile(r"^[a-z]{1,3}$")
CONTEXT_KEY = re.compile(r"^\d+[a-z]{1,3}$")
OUTCOMES = ("correct", "false", "unknown")
RATING_KEYS = ("stated", "distribution", "mass", "p_true")
MARK_KEYS = ("unsupported", "relevant_keys", "used_keys")


def typed_result(result: dict[str, Any]) -> dict[str, Any]:
    """A stored metric result (its JSON) with the typed fields taken out of its details."""
    details = dict(result.get("details") or {})
    out = {k: v for k, v in result.items() if k != "details"}
    outcome = details.pop("abstention", None)
    if (outcome in OUTCOMES and out.get("value") is None
            and out.get("unscored_reason") is None):
        out["abstention"] = outcome
    if details.get("suspicious_reply"):
        out["suspicious"] = str(details.pop("suspicious_reply"))
    cut = [str(t) for t in details.pop("truncated", None) or () if isinstance(t, str)]
    if details.pop("context_truncated", False) and "contexts" not in cut:
        cut.append("contexts")
    if cut:
        out["truncated"] = sorted(set(cut))
    if details.get("rating_mode") in ("expected", "greedy"):
        rating: dict[str, Any] = {"mode": details.pop("rating_mode"),
                                  "fallback": details.pop("rating_fallback", None)}
        rating.update({k: details.pop(k) for k in RATING_KEYS if k in details})
        out["rating"] = rating
    if "raw_reply" in details or "prompt" in details:
        prompt = details.pop("prompt", None) or []
        out["failure"] = {"prompt": [p for p in prompt if isinstance(p, Mapping)
                                     and p.get("role") in ("system", "user", "assistant")
                                     and isinstance(p.get("content"), str)],
                          "raw_reply": details.pop("raw_reply", None)}
    marks = _marks(details)
    if marks:
        out["marks"] = marks
    for key in MARK_KEYS:
        details.pop(key, None)
    out["details"] = details
    return out


def _kind(name: str) -> str | None:
    n = name.lower()
    if "unsupported" in n or "hallucinated_sentence" in n:
        return "unsupported"
    if "supported" in n:
        return "supported"
    if "relevant" in n and "irrelevant" not in n:
        return "relevant"
    if "utilized" in n or "utilised" in n or "used" in n:
        return "used"
    return None


def _items(value: Any) -> Iterable[tuple[str | None, str | None]]:
    """(key, text) pairs from the shapes suites used; anything else yields nothing."""
    if isinstance(value, Mapping):
        for k, v in value.items():
            yield str(k), v if isinstance(v, str) else None
    elif isinstance(value, list | tuple):
        for item in value:
            if isinstance(item, str):
                is_key = ANSWER_KEY.match(item) or CONTEXT_KEY.match(item)
                yield (item, None) if is_key else (None, item)
            elif isinstance(item, Mapping):
                key = item.get("key")
                text = item.get("text", item.get("claim", item.get("statement")))
                yield (str(key) if key is not None else None,
                       text if isinstance(text, str) else None)


def _marks(details: Mapping[str, Any]) -> dict[str, list[str]]:
    """The sentence marks of one metric's details, as the report found them then."""
    marks: dict[str, list[str]] = {}

    def add(kind: str, value: str) -> None:
        if value not in marks.setdefault(kind, []):
            marks[kind].append(value)

    for name, value in details.items():
        if name == "claims" and isinstance(value, list):
            for item in value:
                if (isinstance(item, Mapping) and item.get("supported") is False
                        and isinstance(item.get("claim"), str)):
                    add("unsupported_claims", item["claim"])
            continue
        kind = _kind(str(name))
        if kind is None:
            continue
        for key, text in _items(value):
            if key is not None:
                pattern = ANSWER_KEY if kind in ("unsupported", "supported") else CONTEXT_KEY
                if pattern.match(key):
                    add(kind, key)
            elif text and kind == "unsupported":
                add("unsupported_claims", text)
    return {k: v for k, v in marks.items() if v}
