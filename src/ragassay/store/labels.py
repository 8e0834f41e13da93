"""Human labels and annotation plans, mixed into `Store` (SQLite or PostgreSQL).

Labels are keyed by the sample's content identity, not by a run: a label given while
annotating one run applies to every run that scored the same interaction. Each person
keeps their own: one current value per (content key, label name, annotator); a person
labelling again replaces only their own label, two people's labels are both kept (how
they become one value for the statistics is the reader's rule: `labels.people`). A
label given without a name is kept as `UNNAMED`'s.
"""

from __future__ import annotations

import json
import sqlite3
from collections.abc import Iterable, Iterator, Sequence
from contextlib import AbstractContextManager
from datetime import UTC, datetime
from typing import Any

from ragassay.types import UNNAMED, AnnotationPlan, HumanLabel

_CHUNK = 500  # keys per IN (...) query: SQLite's parameter limit is far above it


def m0018_labels_per_annotator(conn: sqlite3.Connection) -> None:
    """Each person's label is kept: the key of `labels` gains the annotator (it was one
    value per (content, name), a second person's label replaced the first). Every stored
    label is kept, with its annotator; one without (`''`) becomes `UNNAMED`'s."""
    conn.execute(
        """CREATE TABLE labels_by_person (
            content_key TEXT NOT NULL,
            name TEXT NOT NULL,
            annotator TEXT NOT NULL,
            value TEXT NOT NULL,
            source TEXT NOT NULL DEFAULT '',
            note TEXT NOT NULL DEFAULT '',
            created TEXT NOT NULL,
            PRIMARY KEY (content_key, name, annotator)
        )"""
    )
    conn.execute(
        "INSERT INTO labels_by_person (content_key, name, annotator, value, source, note,"
        " created) SELECT content_key, name, CASE WHEN annotator = '' THEN ? ELSE annotator"
        " END, value, source, note, created FROM labels ORDER BY rowid", (UNNAMED,))
    conn.execute("DROP TABLE labels")
    conn.execute("ALTER TABLE labels_by_person RENAME TO labels")
    conn.execute("CREATE INDEX labels_name ON labels (name)")


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
        """Insert or replace labels in ONE transaction; return how many were written. A
        label replaces only the same person's label of the same name and sample; one
        without a time gets the current one, one without an annotator `UNNAMED`."""
        rows = [(lab.content_key, lab.name, lab.annotator or UNNAMED, json.dumps(lab.value),
                 lab.source, lab.note, lab.created or _now()) for lab in labels]
        # replaced as SQLite's INSERT OR REPLACE does, row after row: the last of a
        # (content, name, annotator) wins, as a new row (rowid), which the dashboard's
        # change check reads
        last = {r[:3]: i for i, r in enumerate(rows)}
        kept = [r for i, r in enumerate(rows) if last[r[:3]] == i]
        with self._write() as conn:
            conn.executemany("DELETE FROM labels WHERE content_key = ? AND name = ? AND"
                             " annotator = ?", [r[:3] for r in kept])
            conn.executemany(
                "INSERT INTO labels (content_key, name, annotator, value, source,"
                " note, created) VALUES (?, ?, ?, ?, ?, ?, ?)", kept)
        return len(rows)

    def delete_label(self, content_key: str, name: str, annotator: str) -> bool:
        """Remove one person's label; False when there was none."""
        with self._write() as conn:
            cur = conn.execute("DELETE FROM labels WHERE content_key = ? AND name = ? AND"
                               " annotator = ?", (content_key, name, annotator or UNNAMED))
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

    def labels_for(self, keys: Iterable[str], annotator: str
                   ) -> dict[str, dict[str, HumanLabel]]:
        """content key -> {label name: label} of the labels one person gave, for the keys
        they labelled."""
        out: dict[str, dict[str, HumanLabel]] = {}
        for label in self.people_labels(keys, annotator):
            out.setdefault(label.content_key, {})[label.name] = label
        return out

    def people_labels(self, keys: Iterable[str], annotator: str | None = None
                      ) -> list[HumanLabel]:
        """Every person's labels of these content keys (only `annotator`'s, when given),
        oldest first."""
        out: list[HumanLabel] = []
        wanted = list(dict.fromkeys(keys))
        who, extra = ("", []) if annotator is None else (" AND annotator = ?",
                                                         [annotator or UNNAMED])
        for i in range(0, len(wanted), _CHUNK):
            part = wanted[i:i + _CHUNK]
            marks = ", ".join("?" * len(part))
            out += [_label(row) for row in self._read(
                f"SELECT * FROM labels WHERE content_key IN ({marks}){who}"
                " ORDER BY created, rowid", [*part, *extra])]
        return out

    def iter_labels(self, name: str | None = None) -> Iterator[HumanLabel]:
        """Every stored label (of one name, if given), oldest first."""
        where, params = ("WHERE name = ?", (name,)) if name is not None else ("", ())
        for row in self._read(f"SELECT * FROM labels {where} ORDER BY created, rowid", params):
            yield _label(row)

    def count_labels(self) -> int:
        """How many labels the store holds."""
        return int(self._read("SELECT COUNT(*) FROM labels")[0][0])

    def labels_stamp(self) -> tuple[int, int]:
        """(how many labels, the newest row's rowid): changes whenever a label is set,
        replaced or deleted (a replaced label is a new row), for readers that cache."""
        row = self._read("SELECT COUNT(*), COALESCE(MAX(rowid), 0) FROM labels")[0]
        return int(row[0]), int(row[1])

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
