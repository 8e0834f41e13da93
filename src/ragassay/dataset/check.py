"""The first pass over a dataset file: validate every row, count what the metrics need.

`check_dataset` reads the whole file once before any judge call is paid for (the CLI
and the dashboard's Evaluate page both use it). Besides the one-line error of the
first bad row (or, with `skip_invalid`, the count and first reasons of the skipped
ones) it records which inputs the rows supply and which columns no field takes. A
file in which no row supplies an answer, or none supplies contexts or a reference,
cannot be a RAG evaluation: it is almost always a column-name mistake
(`generated_answer`, `retrieved_docs`), and `DatasetCheck.problem` says so in one
line naming the unknown columns and the accepted names, instead of a run in which
every metric is unscored.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from typing import Any

from ragassay.dataset.census import Census
from ragassay.dataset.loader import FieldMap, PathLike, TraceOverrides, file_records
from ragassay.dataset.schema import ALIASES
from ragassay.types import InvalidRow, ReadAs, Sample

FIRST_REASONS = 3
"""How many skipped rows are described on the console."""


def unknown_columns(rows: Any, field_map: FieldMap | None = None) -> tuple[str, ...]:
    """The columns of in-memory rows (mappings, or a DataFrame's columns) that no Sample
    field takes: what a file's census finds, for data given from Python."""
    census = Census(field_map)
    columns = getattr(rows, "columns", None)
    if columns is not None:
        census.columns(dict.fromkeys(str(c) for c in columns))
    elif isinstance(rows, list):
        for row in rows[:1000]:
            if isinstance(row, Mapping):
                census.columns(row)
    return tuple(census.unknown)


@dataclass
class DatasetCheck:
    """What the first pass found (the console's missing-input line reads the run's
    values instead: Store.unscored_lacking_inputs)."""

    name: str
    total: int = 0
    invalid: int = 0
    first_invalid: list[tuple[str, str]] = field(default_factory=list)  # (where, reason)
    with_answer: int = 0
    with_contexts: int = 0
    with_reference: int = 0
    unknown_columns: tuple[str, ...] = ()
    unseen_mapped: dict[str, str] = field(default_factory=dict)  # column -> field
    label_rows: dict[str, int] = field(default_factory=dict)  # label name -> rows with it

    @property
    def valid(self) -> int:
        return self.total - self.invalid

    @property
    def retrieval_only(self) -> bool:
        """No row has an answer but some have contexts: a set for evaluating retrieval
        (before any generator exists; TREC-style relevance sets), scored on its context
        metrics, its answer metrics unscored for the missing answer."""
        return self.valid > 0 and self.with_answer == 0 and self.with_contexts > 0

    def problem(self) -> str | None:
        """One line when a --map column is in no row, when no row supplies an answer, or
        none contexts or a reference."""
        if self.unseen_mapped and self.total:
            column, name = next(iter(self.unseen_mapped.items()))
            names = [_shown(c) for c in self.unknown_columns]
            seen = f"; unknown columns: {', '.join(names)}" if names else ""
            return f"{self.name}: --map {name}={column}: no row has a column {column!r}{seen}"
        if self.valid == 0:
            return None  # every row was skipped: the report lists them
        no_answer = self.with_answer == 0
        no_evidence = self.with_contexts == 0 and self.with_reference == 0
        if not (no_answer or no_evidence) or (self.retrieval_only and not self.unknown_columns):
            return None  # a retrieval-only set: its context metrics can be scored
        what = ("an answer, and none has contexts or a reference" if no_answer and no_evidence
                else "an answer" if no_answer else "contexts or a reference")
        names = [_shown(c) for c in self.unknown_columns]
        unknown = f"unknown columns: {', '.join(names)}; " if names else ""
        accepted = "; ".join(f"{f}: {', '.join(ALIASES[f])}"
                             for f in ("answer", "contexts", "reference"))
        hint = " ".join(f"--map {f}={_shown(c)}" for f, c in
                        guess_columns(no_answer, no_evidence, self.unknown_columns))
        return (f"{self.name}: no row has {what} ({unknown}accepted names: {accepted}); "
                f"map a column with {hint}")


# words in a column's name that say which field it holds (checked in this order, so
# that "gold_answer" is a reference and "retrieved_docs" no answer)
_HINTS = {
    "reference": ("reference", "truth", "gold", "expected", "ideal", "target", "label"),
    "contexts": ("context", "doc", "passage", "retriev", "chunk", "source", "evidence",
                 "snippet"),
    "answer": ("answer", "response", "output", "generat", "completion", "prediction",
               "reply", "result"),
}


def guess_columns(no_answer: bool, no_evidence: bool, columns: Iterable[str]
                  ) -> list[tuple[str, str]]:
    """(field, column) pairs for the `--map` hint: each missing field with the unknown
    column whose name says it holds that field, else the first unknown column left (a
    field no column is left for gets none; COLUMN when there is no column at all).
    Contexts missing with a reference-like column and no contexts-like one: the
    reference."""
    left = list(columns)
    kind = {c: next((f for f, words in _HINTS.items()
                     if any(w in c.lower() for w in words)), None) for c in left}
    wanted = (["answer"] if no_answer else []) + (["contexts"] if no_evidence else [])
    if no_evidence and "contexts" not in kind.values() and "reference" in kind.values():
        wanted[-1] = "reference"
    out: list[tuple[str, str]] = []
    for f in wanted:
        column = next((c for c in left if kind[c] == f), None) or next(
            (c for c in left if kind[c] is None), None) or (left[0] if left else None)
        if column is not None:
            left.remove(column)
            out.append((f, column))
    return out or [(wanted[0], "COLUMN")]


def _shown(column: str) -> str:
    """A column name as a message shows it: quoted when blank, padded or holding a
    character that does not print (a space, a carriage return), so the line and the
    `--map` hint say exactly what to type, and a line break in a name cannot end the
    line."""
    plain = bool(column.strip()) and column == column.strip() and column.isprintable()
    return column if plain else repr(column)


def check_dataset(source: PathLike, *, skip_invalid: bool = False,
                  field_map: FieldMap | None = None,
                  trace_map: TraceOverrides | None = None,
                  read_as: ReadAs = "auto") -> DatasetCheck:
    """Read every row of a dataset file once (DatasetError at the first bad row unless
    `skip_invalid`) and count what it supplies; see `DatasetCheck.problem`. A trace file
    is read as `iter_samples` reads it (`trace_map`, `read_as` as there)."""
    from pathlib import Path

    census = Census(field_map)
    check = check_items(file_records(source, skip_invalid, field_map, census, trace_map,
                                     read_as), Path(source).name)
    check.unknown_columns = tuple(census.unknown)
    check.unseen_mapped = dict(census.unseen_mapped)
    return check


def check_items(items: Iterable[Sample | InvalidRow], name: str) -> DatasetCheck:
    """Count what loaded samples supply (in-memory data: no column census)."""
    check = DatasetCheck(name=name)
    for item in items:
        check.total += 1
        if isinstance(item, InvalidRow):
            check.invalid += 1
            if len(check.first_invalid) < FIRST_REASONS:
                check.first_invalid.append((item.source, item.reason))
            continue
        has_answer, has_contexts = bool(item.answer.strip()), bool(item.contexts)
        has_reference = bool(item.references)
        check.with_answer += has_answer
        check.with_contexts += has_contexts
        check.with_reference += has_reference
        for label in item.labels:
            check.label_rows[label] = check.label_rows.get(label, 0) + 1
    return check
