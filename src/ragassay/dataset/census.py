"""The columns a dataset's rows carry that no Sample field takes: what the first pass
(`check.check_dataset`) reports when a file's columns are misnamed. The loader feeds it
every record's column names before validation."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from ragassay.dataset.schema import NESTED, field_of

MAX_COLUMNS = 50  # unknown column names remembered


class Census:
    """Column names seen in a file's rows that no Sample field takes."""

    def __init__(self, field_map: Mapping[str, str] | None = None) -> None:
        self.field_map = field_map
        self.unknown: dict[str, None] = {}  # ordered set
        # mapped columns (--map FIELD=COLUMN) no row has had so far
        self.unseen_mapped: dict[str, str] = {c: f for f, c in (field_map or {}).items()}

    def columns(self, row: Mapping[Any, Any]) -> None:
        for key in row:
            name = str(key)
            self.unseen_mapped.pop(name, None)
            if name in self.unknown or len(self.unknown) >= MAX_COLUMNS:
                continue
            prefix, dot, rest = name.partition(".")
            if field_of(name, self.field_map) is None and not (dot and rest
                                                               and prefix in NESTED):
                self.unknown[name] = None
