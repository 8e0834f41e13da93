"""Annotated field types for judge output models: lenient coercion, then clamping.

LLM judges return "7", 7.5, 11 or "true"; grammar-constrained servers ignore
minimum/maximum. These types accept such values and clamp them to the documented
range, so that validation fails only on replies that carry no usable value.
"""

from __future__ import annotations

from typing import Annotated, Any

from pydantic import BeforeValidator, WithJsonSchema


def _number(value: Any) -> float:
    if isinstance(value, bool):
        raise ValueError("expected a number, got a boolean")
    if isinstance(value, str):
        value = value.strip().split("/")[0].strip()  # "7/10" -> "7"
    try:
        return float(value)
    except (TypeError, ValueError):
        raise ValueError(f"expected a number, got {value!r}") from None


def _clamp(low: float, high: float) -> BeforeValidator:
    def check(value: Any) -> float:
        x = _number(value)
        if x != x:  # NaN
            raise ValueError("expected a number, got NaN")
        return min(high, max(low, x))

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


Score10 = Annotated[float, _clamp(1.0, 10.0),
                    WithJsonSchema({"type": "integer", "minimum": 1, "maximum": 10})]
"""A 1-10 judge score, clamped. The schema asks for an integer 1-10 (a grammar then
writes digits, whose probabilities give the expected rating); any number is accepted."""

Unit = Annotated[float, _clamp(0.0, 1.0)]
"""A 0-1 value, clamped."""

Flag = Annotated[bool, BeforeValidator(_flag)]
"""A boolean that also accepts "yes"/"no", "true"/"false", 0/1."""

REASONING_CHARS = 160

Reasoning = Annotated[str, WithJsonSchema({"type": "string", "maxLength": REASONING_CHARS})]
"""A judge's short free-text reason. The schema caps it (a grammar then stops a small
model that would ramble for hundreds of tokens); a longer reply is still accepted."""
