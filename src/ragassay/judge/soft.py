"""Soft (probability-weighted) judge values in the judge layer.

`ragassay.llm.logprobs` reads, from a reply's token probabilities, an expected rating
for each integer rating and P(true) for each boolean of the prompt's output schema.
This module decides what the judge does with them:

- every reading is kept on the `Verdict` (`Verdict.soft`, by JSON path) and in the
  judge-call cache, so a cached verdict has them too;
- the suites read them from `Verdict.soft` by path: the `judge` suite's ratings, and
  each flag's P(true) for the items it labels (a sentence's or claim's `supported`, a
  chunk's `useful`, a reference sentence's `attributed`), which the formulas use when
  every item has one (mean P(supported), soft context precision, etc.).

The reading mode is recorded per verdict: `Verdict.flags["rating_mode"]` is
"expected" when soft values were read, else "greedy" with `rating_fallback` saying why.
"""

from __future__ import annotations

from collections.abc import Mapping
from functools import lru_cache
from typing import Any

from ragassay.llm.logprobs import SoftField, SoftValue, soft_fields

RATING_MODES = ("expected", "greedy")
TOP_LOGPROBS = 20  # the most OpenAI's API gives


@lru_cache(maxsize=256)
def _fields_of(schema_json: str) -> dict[str, SoftField]:
    import json

    return soft_fields(json.loads(schema_json))


def fields_for(schema: Mapping[str, Any] | None) -> dict[str, SoftField]:
    """The rating and flag leaves of an output schema (cached per schema)."""
    if not schema:
        return {}
    import json

    return _fields_of(json.dumps(schema, sort_keys=True))


def soft_json(soft: Mapping[str, SoftValue]) -> dict[str, Any]:
    return {path: value.as_json() for path, value in soft.items()}


def soft_from_json(data: Any) -> dict[str, SoftValue]:
    if not isinstance(data, dict):
        return {}
    out = {}
    for path, value in data.items():
        try:
            out[str(path)] = SoftValue.from_json(value)
        except (KeyError, TypeError, ValueError):
            continue
    return out
