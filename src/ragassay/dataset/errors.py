"""The dataset error type and helpers for writing one-line messages."""

from __future__ import annotations

from typing import Any


class DatasetError(ValueError):
    """Bad dataset input, reported on one line as `where: reason`.

    `where` names the file (and line or row) and `reason` the problem and field, e.g.
    `data.jsonl:17: 'contexts' must be a list of strings`. `field` is the canonical
    field name when the problem is about one field.
    """

    def __init__(self, reason: str, *, where: str | None = None, field: str | None = None):
        self.reason = one_line(reason)
        self.where = one_line(where) if where else None
        self.field = field
        super().__init__(f"{self.where}: {self.reason}" if self.where else self.reason)


def one_line(text: str) -> str:
    """Collapse line breaks so that every message stays on one line."""
    return " ".join(text.splitlines()) if ("\n" in text or "\r" in text) else text


def type_name(value: Any) -> str:
    """A JSON-flavoured name for a value's type, for messages."""
    if value is None:
        return "null"
    if isinstance(value, bool):
        return "bool"
    if isinstance(value, str):
        return "string"
    if isinstance(value, dict):
        return "object"
    if isinstance(value, (list, tuple)):
        return "list"
    return type(value).__name__


def show(value: Any, limit: int = 40) -> str:
    """A short repr of a user value for messages."""
    text = repr(value)
    return text if len(text) <= limit else text[: limit - 3] + "..."
