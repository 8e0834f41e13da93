"""The run store's samples (and invalid rows), mixed into `Store` (one SQLite file)."""

from __future__ import annotations

import json
import sqlite3
from collections.abc import Iterable, Iterator, Sequence
from contextlib import AbstractContextManager
from typing import Any

from ragassay.types import InvalidRow, Sample

PAGE_ROWS = 2000  # rows per read when streaming samples or results
IN_LIST = 500  # values per `IN (...)` list, well under SQLite's parameter limit


class SamplesMixin:
    """A run's samples in input order; `Store` provides `_read`, `_write` and
    `_require_run`."""

    def _read(self, sql: str, params: Sequence[Any] = ()) -> list[sqlite3.Row]:
        raise NotImplementedError

    def _write(self) -> AbstractContextManager[sqlite3.Connection]:
        raise NotImplementedError

    def _require_run(self, conn: sqlite3.Connection, run_id: str) -> sqlite3.Row:
        raise NotImplementedError

    def add_samples(self, run_id: str, items: Iterable[Sample | InvalidRow]) -> int:
        """Upsert samples (and invalid rows) in one transaction; return how many were given.

        New ids are appended in input order; an id already stored keeps its position
        and takes the new content.
        """
        count = 0
        with self._write() as conn:
            self._require_run(conn, run_id)
            (ordinal,) = conn.execute(
                "SELECT COALESCE(MAX(ordinal), -1) + 1 FROM samples WHERE run_id = ?", (run_id,)
            ).fetchone()
            for item in items:
                conn.execute(
                    "INSERT INTO samples (run_id, sample_id, ordinal, strategy, invalid, sample)"
                    " VALUES (?, ?, ?, ?, ?, ?) ON CONFLICT (run_id, sample_id) DO UPDATE SET"
                    " strategy = excluded.strategy, invalid = excluded.invalid,"
                    " sample = excluded.sample",
                    (
                        run_id,
                        item.id,
                        ordinal + count,
                        item.strategy,
                        int(isinstance(item, InvalidRow)),
                        item.model_dump_json(),
                    ),
                )
                count += 1
        return count

    def iter_samples(self, run_id: str) -> Iterator[Sample | InvalidRow]:
        """The run's samples and invalid rows, in input order, read a page at a time
        (memory stays flat however large the run)."""
        last: tuple[int, str] = (-1, "")
        while True:
            rows = self._read(
                "SELECT ordinal, sample_id, invalid, sample FROM samples WHERE run_id = ?"
                " AND (ordinal, sample_id) > (?, ?) ORDER BY ordinal, sample_id LIMIT ?",
                (run_id, *last, PAGE_ROWS),
            )
            for row in rows:
                model = InvalidRow if row["invalid"] else Sample
                yield model.model_validate_json(row["sample"])
            if len(rows) < PAGE_ROWS:
                return
            last = (rows[-1]["ordinal"], rows[-1]["sample_id"])

    def iter_traces(self, run_id: str) -> Iterator[tuple[str, str]]:
        """(sample id, the trace JSON) of the run's samples read from a trace (an object
        under `metadata.trace`; a string a user kept there before the loader refused it is
        not one), in input order, a page at a time; others are not parsed."""
        last: tuple[int, str] = (-1, "")
        while True:
            rows = self._read(
                "SELECT ordinal, sample_id, json_extract(sample, '$.metadata.trace') AS trace,"
                " json_type(sample, '$.metadata.trace') AS kind FROM samples WHERE run_id = ?"
                " AND invalid = 0 AND (ordinal, sample_id) > (?, ?) ORDER BY ordinal, sample_id"
                " LIMIT ?", (run_id, *last, PAGE_ROWS))
            yield from ((row["sample_id"], row["trace"]) for row in rows
                        if row["kind"] == "object")
            if len(rows) < PAGE_ROWS:
                return
            last = (rows[-1]["ordinal"], rows[-1]["sample_id"])

    def iter_metadata(self, run_id: str) -> Iterator[tuple[str, str, dict[str, Any]]]:
        """(strategy, sample id, metadata) of the run's valid samples, in input order, a
        page at a time: only each sample's metadata object is read (what `--by KEY`
        groups on), not its texts."""
        last: tuple[int, str] = (-1, "")
        while True:
            rows = self._read(
                "SELECT ordinal, sample_id, strategy, json_extract(sample, '$.metadata') AS"
                " meta FROM samples WHERE run_id = ? AND invalid = 0"
                " AND (ordinal, sample_id) > (?, ?) ORDER BY ordinal, sample_id LIMIT ?",
                (run_id, *last, PAGE_ROWS))
            for row in rows:
                meta = json.loads(row["meta"]) if row["meta"] else {}
                yield row["strategy"], row["sample_id"], meta if isinstance(meta, dict) else {}
            if len(rows) < PAGE_ROWS:
                return
            last = (rows[-1]["ordinal"], rows[-1]["sample_id"])

    def sample_strategies(self, run_id: str) -> list[str]:
        """The strategies the run's samples name, in the order they first appear."""
        rows = self._read(
            "SELECT strategy, MIN(ordinal) AS first FROM samples WHERE run_id = ?"
            " AND strategy IS NOT NULL AND strategy != '' GROUP BY strategy ORDER BY first",
            (run_id,),
        )
        return [str(r["strategy"]) for r in rows]

    def sample_label_names(self, run_id: str) -> list[str]:
        """The label names the run's samples carry, in the order they first appear."""
        rows = self._read(
            "SELECT j.key, MIN(s.ordinal) AS first FROM samples s,"
            " json_each(s.sample, '$.labels') j WHERE s.run_id = ? AND s.invalid = 0"
            " GROUP BY j.key ORDER BY first, j.key", (run_id,))
        return [str(r[0]) for r in rows]

    def sample_metadata_keys(self, run_id: str, most: int | None = None) -> list[str] | None:
        """The keys of the run's samples' own metadata, in the order they first appear (by
        sample, then by their place in the first sample that has them); None when there
        are more than `most`. A sample's trace (an object under `trace`, as
        `dataset.traces.trace.own_metadata` reads it) is not its own metadata."""
        limit = "" if most is None else f" LIMIT {int(most) + 1}"
        rows = self._read(
            "SELECT j.key, MIN(s.ordinal) AS first FROM samples s,"
            " json_each(s.sample, '$.metadata') j WHERE s.run_id = ? AND s.invalid = 0"
            " AND NOT (j.key = 'trace' AND json_type(s.sample, '$.metadata.trace') = 'object')"
            f" GROUP BY j.key ORDER BY first{limit}", (run_id,))
        if most is not None and len(rows) > most:
            return None
        firsts = sorted({int(r[1]) for r in rows})
        places: dict[tuple[int, str], int] = {}  # (ordinal, key): its place in that sample
        for at in range(0, len(firsts), IN_LIST):
            some = firsts[at:at + IN_LIST]
            marks = ", ".join("?" * len(some))
            for row in self._read(
                    "SELECT ordinal, json_extract(sample, '$.metadata') AS meta FROM samples"
                    f" WHERE run_id = ? AND invalid = 0 AND ordinal IN ({marks})",
                    (run_id, *some)):
                places.update(((int(row[0]), key), i)
                              for i, key in enumerate(json.loads(row["meta"])))
        firsts_of = sorted((int(r[1]), str(r[0])) for r in rows)
        return [key for _, key in sorted(firsts_of, key=lambda fk: (fk[0], places.get(fk, 0)))]

    def count_samples(self, run_id: str, *, valid_only: bool = False) -> int:
        """How many samples the run has (invalid rows included unless `valid_only`)."""
        extra = " AND invalid = 0" if valid_only else ""
        rows = self._read(f"SELECT COUNT(*) FROM samples WHERE run_id = ?{extra}", (run_id,))
        return int(rows[0][0])

    def get_sample(self, run_id: str, sample_id: str) -> Sample | InvalidRow | None:
        """One stored sample (or invalid row) of the run, or None."""
        rows = self._read("SELECT invalid, sample FROM samples WHERE run_id = ? AND "
                          "sample_id = ?", (run_id, sample_id))
        if not rows:
            return None
        model = InvalidRow if rows[0]["invalid"] else Sample
        return model.model_validate_json(rows[0]["sample"])

    def matching_samples(self, run_id: str, text: str) -> set[str]:
        """Ids of the run's samples whose stored text (any field) contains `text`,
        case-insensitively: a search that never loads the run into memory."""
        rows = self._read("SELECT sample_id FROM samples WHERE run_id = ? AND "
                          "instr(lower(sample), ?) > 0", (run_id, text.casefold()))
        return {r["sample_id"] for r in rows}
