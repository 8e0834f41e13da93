"""Human labels and annotation plans, mixed into `Store` (one SQLite file).

Labels are keyed by the sample's content identity, not by a run: a label given while
annotating one run applies to every run that scored the same interaction. One current
value per (content key, label name); setting it again replaces it.
"""

from __future__ import annotations

import json
import sqlite3
from collections.abc import Iterable, Iterator, Sequence
from contextlib import AbstractContextManager
from datetime import UTC, datetime
from typing import Any

from ragassay.types import AnnotationPlan, HumanLabel

_CHUNK = 500  # keys per IN (...) query: SQLite's parameter limit is far above it


def _now() -> str:
    return datetime.now(UTC).isoformat(timespec="seconds")


def _label(row: sqlite3.Row) -> HumanLabel:
    return HumanLabel(content_key=row["content_key"], name=row["name"],
                      value=json.loads(row["value"]), annotator=row["annotator"],
                      source=row["source"], note=row["note"], created=row["created"])


class LabelsMixin:
    """Reads and writes of `labels` and `annotation_plans`; `Store` provides the rest."""

    def _read(self, sql: str, params: Sequence[Any] = ()) -> list[sqlite3.Row]:
        raise NotImplementedError

    def _write(self) -> AbstractContextManager[sqlite3.Connection]:
        raise NotImplementedError

    def set_labels(self, labels: Iterable[HumanLabel]) -> int:
        """Insert or replace labels in ONE transaction; return how many were written.
        A label without a time gets the current one."""
        rows = [(lab.content_key, lab.name, json.dumps(lab.value), lab.annotator, lab.source,
                 lab.note, lab.created or _now()) for lab in labels]
        # replaced as SQLite's INSERT OR REPLACE does, row after row: the last of a
        # (content, name) wins, as a new row (rowid), which the dashboard's change check reads
        last = {r[:2]: i for i, r in enumerate(rows)}
        kept = [r for i, r in enumerate(rows) if last[r[:2]] == i]
        with self._write() as conn:
            conn.executemany("DELETE FROM labels WHERE content_key = ? AND name = ?",
                             [r[:2] for r in kept])
            conn.executemany(
                "INSERT INTO labels (content_key, name, value, annotator, source,"
                " note, created) VALUES (?, ?, ?, ?, ?, ?, ?)", kept)
        return len(rows)

    def delete_label(self, content_key: str, name: str) -> bool:
        """Remove one label; False when there was none."""
        with self._write() as conn:
            cur = conn.execute("DELETE FROM labels WHERE content_key = ? AND name = ?",
                               (content_key, name))
            return cur.rowcount > 0

    def delete_labels(self, keys: Iterable[str], names: Iterable[str] | None = None,
                      annotator: str | None = None) -> dict[str, int]:
        """Remove the labels of these content keys (only those of `names`, only those
        `annotator` gave, when given) in ONE transaction; {label name: how many}."""
        wanted = list(dict.fromkeys(keys))
        only = list(dict.fromkeys(names)) if names is not None else None
        removed: dict[str, int] = {}
        with self._write() as conn:
            for i in range(0, len(wanted), _CHUNK):
                part = wanted[i:i + _CHUNK]
                sql = f"content_key IN ({', '.join('?' * len(part))})"
                params: list[Any] = list(part)
                if only is not None:
                    sql += f" AND name IN ({', '.join('?' * len(only))})"
                    params += only
                if annotator is not None:
                    sql += " AND annotator = ?"
                    params.append(annotator)
                for row in conn.execute(f"SELECT name, COUNT(*) FROM labels WHERE {sql} "
                                        "GROUP BY name", params):
                    removed[row[0]] = removed.get(row[0], 0) + int(row[1])
                conn.execute(f"DELETE FROM labels WHERE {sql}", params)
        return removed

    def labels_for(self, keys: Iterable[str]) -> dict[str, dict[str, HumanLabel]]:
        """content key -> {label name: label} for the keys that have any."""
        out: dict[str, dict[str, HumanLabel]] = {}
        wanted = list(dict.fromkeys(keys))
        for i in range(0, len(wanted), _CHUNK):
            part = wanted[i:i + _CHUNK]
            marks = ", ".join("?" * len(part))
            for row in self._read(f"SELECT * FROM labels WHERE content_key IN ({marks})", part):
                out.setdefault(row["content_key"], {})[row["name"]] = _label(row)
        return out

    def iter_labels(self, name: str | None = None) -> Iterator[HumanLabel]:
        """Every stored label (of one name, if given), oldest first."""
        where, params = ("WHERE name = ?", (name,)) if name is not None else ("", ())
        for row in self._read(f"SELECT * FROM labels {where} ORDER BY created, rowid", params):
            yield _label(row)

    def count_labels(self) -> int:
        """How many labels the store holds."""
        return int(self._read("SELECT COUNT(*) FROM labels")[0][0])

    def save_plan(self, plan: AnnotationPlan) -> None:
        """Record (or replace) a run's annotation plan."""
        if not plan.created:
            plan = plan.model_copy(update={"created": _now()})
        with self._write() as conn:
            conn.execute("INSERT INTO annotation_plans (run_id, plan) VALUES (?, ?)"
                         " ON CONFLICT (run_id) DO UPDATE SET plan = excluded.plan",
                         (plan.run_id, plan.model_dump_json()))

    def get_plan(self, run_id: str) -> AnnotationPlan | None:
        """The run's annotation plan, or None when nobody has planned its annotation."""
        rows = self._read("SELECT plan FROM annotation_plans WHERE run_id = ?", (run_id,))
        return AnnotationPlan.model_validate_json(rows[0]["plan"]) if rows else None
