"""Annotated field types for judge output models: lenient coercion, strict scales.

LLM judges return "7", 7.5, "7/10" or "true"; these types accept every way of writing a
value. A value outside its scale (faithfulness 99 on 1-10) is never clamped: it is an
invalid reply (`OUT_OF_SCALE`, the judge is asked once more, then the value is unscored
with that reason) and a suspicious one (`own_verdict.OUT_OF_SCALE_NOTE`: a judge that
breaks its scale may have been told to by the judged text), counted with the run's
suspicious replies. Grammar-constrained servers ignore minimum/maximum, so this check
is the only one.

A reply is validated with a context (`reply_context`): there a 1-10 rating must be a
whole number, as the schema says (9.5 is an invalid reply, asked once more, not
suspicious; the probability-weighted rating is read from token probabilities, never
from the stated value, and the offline judge's fractional scores are built without a
context), and the suites' output models check that the reply judged something they
were shown (`NAMES_NOTHING`: a chunk index or a sentence key that names nothing).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Annotated, Any

from pydantic import BeforeValidator, ValidationInfo, WithJsonSchema
from pydantic_core import PydanticCustomError

OUT_OF_SCALE = "out_of_scale"
"""The validation error type of a value outside its scale (`own_verdict` reads it)."""
NAMES_NOTHING = "names_nothing"
"""The validation error type of a reply that judges nothing it was shown (every chunk
index or sentence key it names is unknown, or it labels none): invalid and suspicious,
like a value outside its scale."""
NOT_WHOLE = "not_whole"
"""The validation error type of a fractional rating where the schema asks an integer."""
EXPECT = "_expect"
"""The prompt value (never rendered) in which a suite tells the judge what a reply must
name: `{"chunks": 3, "context_keys": [...], ...}`; it becomes the validation context."""


def reply_context(values: Mapping[str, Any]) -> dict[str, Any]:
    """The validation context of a reply to a prompt rendered from `values`."""
    expect = values.get(EXPECT)
    return {"reply": True, **(expect if isinstance(expect, Mapping) else {})}


def expected(info: ValidationInfo) -> Mapping[str, Any]:
    """What the reply being validated must name (empty outside a reply)."""
    return info.context if isinstance(info.context, Mapping) else {}


def _number(value: Any) -> float:
    if isinstance(value, bool):
        raise ValueError("expected a number, got a boolean")
    if isinstance(value, str):
        value = value.strip().split("/")[0].strip()  # "7/10" -> "7"
    try:
        return float(value)
    except (TypeError, ValueError):
        raise ValueError(f"expected a number, got {value!r}") from None


def _scale(low: float, high: float, whole: bool = False) -> BeforeValidator:
    scale = f"{low:g}-{high:g}"

    def check(value: Any, info: ValidationInfo) -> float:
        x = _number(value)
        if x != x:  # NaN
            raise ValueError("expected a number, got NaN")
        if not low <= x <= high:
            raise PydanticCustomError(OUT_OF_SCALE, "{value} is outside the scale {scale}",
                                      {"value": f"{x:g}", "scale": scale})
        if whole and x != int(x) and expected(info).get("reply"):
            raise PydanticCustomError(NOT_WHOLE, "{value} is not a whole number (the scale "
                                      "{scale} takes integers)", {"value": f"{x:g}",
                                                                  "scale": scale})
        return x

    return BeforeValidator(check)


def _flag(value: Any) -> bool:
    if isinstance(value, bool):
        return value
    if isinstance(value, int | float) and value in (0, 1):
        return bool(value)
    if isinstance(value, str):
        v = value.strip().lower()
        if v in {"true", "yes", "y", "1"}:
            return True
        if v in {"false", "no", "n", "0"}:
            return False
    raise ValueError(f"expected true or false, got {value!r}")


def item_number(what: str) -> BeforeValidator:
    """An item's number as a judge writes it: 3, "3", "[3]", "#3."; never a boolean,
    Infinity or a list ("expected a chunk number, got ...")."""

    def check(value: Any) -> int:
        if isinstance(value, bool):
            raise ValueError(f"expected a {what} number, got a boolean")
        if isinstance(value, str):
            value = value.strip().strip("[]()#. ")
        try:
            return int(value)
        except (OverflowError, TypeError) as exc:
            raise ValueError(f"expected a {what} number, got {value!r}") from exc

    return BeforeValidator(check)


Score10 = Annotated[float, _scale(1.0, 10.0, whole=True),
                    WithJsonSchema({"type": "integer", "minimum": 1, "maximum": 10})]
"""A 1-10 judge score. The schema asks for an integer 1-10 (a grammar then writes
digits, whose probabilities give the expected rating); in a reply a fractional rating
(9.5) or one outside 1-10 is an invalid reply; built in code (the offline judge) any
number in 1-10 is accepted."""

Unit = Annotated[float, _scale(0.0, 1.0)]
"""A 0-1 value; one outside 0-1 is an invalid reply."""

Flag = Annotated[bool, BeforeValidator(_flag)]
"""A boolean that also accepts "yes"/"no", "true"/"false", 0/1."""

REASONING_CHARS = 160

Reasoning = Annotated[str, WithJsonSchema({"type": "string", "maxLength": REASONING_CHARS})]
"""A judge's short free-text reason. The schema caps it (a grammar then stops a small
model that would ramble for hundreds of tokens); a longer reply is still accepted."""
