"""The base of every statistics result: a small frozen model read by attribute.

`stats` returns these instead of dictionaries, so that every reader (the report, the
CLI, the dashboard, the pytest plugin, the bench) is checked by mypy. The values are
the computed floats, unrounded: the JSON writer (`ragassay.report`) rounds them.
A field declared with `omitted()` is left out of the JSON when it is None (a figure
that only some results have, such as a suite average's note).
"""

from __future__ import annotations

from typing import Any

from pydantic import BaseModel, ConfigDict, Field

Pair = tuple[float, float]
"""An interval (low, high); JSON writes it as a two-element list."""


class Result(BaseModel):
    """A frozen statistics result; unknown fields are refused."""

    model_config = ConfigDict(frozen=True, extra="forbid")


def _none(value: Any) -> bool:
    return value is None


def omitted() -> Any:
    """A field that defaults to None and is left out of the JSON when None."""
    return Field(default=None, exclude_if=_none)
