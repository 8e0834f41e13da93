"""Soft (probability-weighted) judge values in the judge layer.

`ragassay.llm.logprobs` reads, from a reply's token probabilities, an expected rating
for each integer rating and P(true) for each boolean of the prompt's output schema.
This module decides what the judge does with them:

- every reading is kept on the `Verdict` (`Verdict.soft`, by JSON path) and in the
  judge-call cache, so a cached verdict has them too;
- a boolean's P(true) also fills the `probability` field of the object that holds it,
  when the output model declares one (a sentence's `supported`, a claim's `supported`,
  a chunk's `useful`, a reference sentence's `attributed`): the suites' formulas
  already use those probabilities when every item has one (mean P(supported), etc.);
- ratings are read by the suites from `Verdict.soft` (`judge` suite).

The reading mode is recorded per verdict: `Verdict.flags["rating_mode"]` is
"expected" when soft values were read, else "greedy" with `rating_fallback` saying why.
"""

from __future__ import annotations

import types
import typing
from collections.abc import Mapping
from functools import lru_cache
from typing import Any

from pydantic import BaseModel

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


def _submodel(model: type[BaseModel], parts: list[str]) -> type[BaseModel] | None:
    """The pydantic model at a JSON path ("sentences.3" -> SentenceLabel), if any."""
    current: Any = model
    for part in parts:
        if part.isdigit():
            args = [a for a in typing.get_args(current) if a is not type(None)]
            current = args[0] if args else None
        else:
            if not (isinstance(current, type) and issubclass(current, BaseModel)):
                return None
            info = current.model_fields.get(part)
            if info is None:
                return None
            current = info.annotation
        # unwrap Optional[...] and Annotated[...]
        while typing.get_origin(current) is typing.Annotated:
            current = typing.get_args(current)[0]
        args = [a for a in typing.get_args(current) if a is not type(None)]
        if typing.get_origin(current) in (typing.Union, types.UnionType) and len(args) == 1:
            current = args[0]
    return current if isinstance(current, type) and issubclass(current, BaseModel) else None


def with_probabilities(model: type[BaseModel], data: Any,
                       soft: Mapping[str, SoftValue]) -> Any:
    """A copy of the reply data where each boolean's P(true) fills its object's
    `probability` field (when the model declares one and the reply left it empty)."""
    if not isinstance(data, dict):
        return data
    out: Any = _copy(data)
    for path, value in soft.items():
        if value.kind != "flag":
            continue
        parts = path.split(".")
        holder = _submodel(model, parts[:-1]) if len(parts) > 1 else model
        if holder is None or "probability" not in holder.model_fields:
            continue
        target = out
        try:
            for part in parts[:-1]:
                target = target[int(part)] if part.isdigit() else target[part]
        except (KeyError, IndexError, TypeError, ValueError):
            continue
        if isinstance(target, dict) and target.get("probability") is None:
            target["probability"] = value.value
    return out


def _copy(value: Any) -> Any:
    if isinstance(value, dict):
        return {k: _copy(v) for k, v in value.items()}
    if isinstance(value, list):
        return [_copy(v) for v in value]
    return value


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
