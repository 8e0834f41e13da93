"""Label-file rows matched to a run's samples and checked against the vocabulary."""

from __future__ import annotations

import math
from collections import Counter
from collections.abc import Iterable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Protocol

from ragassay.labels.files import LabelFileError, LabelRow, read_label_file
from ragassay.labels.vocabulary import canonical, lookup, nearest
from ragassay.types import HumanLabel, Sample


@dataclass
class Matched:
    """What a label file gives a run: the labels to store, and the rows that match none of
    the run's samples."""

    labels: list[HumanLabel] = field(default_factory=list)
    unmatched: list[LabelRow] = field(default_factory=list)
    samples: int = 0  # samples labelled (duplicated interactions share one label)
    shared: int = 0  # labelled interactions that several samples share

    @property
    def by_name(self) -> Counter[str]:
        return Counter(lab.name for lab in self.labels)


def checked_value(where: str, name: str, value: object) -> bool | float:
    """A label value as stored: the vocabulary's scale for its labels (a bool label as a
    bool), any bool or finite number for others; else a one-line LabelFileError."""
    kind = lookup(name)
    if kind is not None:
        checked = kind.check(value)
        if isinstance(checked, str):
            raise LabelFileError(f"{where}: label '{name}': {checked}")
        return bool(checked) if kind.kind == "bool" else checked
    if isinstance(value, bool):
        return value
    if isinstance(value, int | float) and math.isfinite(value):
        return float(value)
    raise LabelFileError(f"{where}: label '{name}': {value!r} is not true/false or a number")


def new_label_problem(where: str, name: str) -> str | None:
    """One line for a label name outside the vocabulary but close to one of its names
    (a typo), else None."""
    close = nearest(name)
    if close is None:
        return None
    return (f"{where}: label {name!r} is not in the vocabulary: did you mean {close!r}? "
            "(--allow-new-label keeps it as a label of its own)")


def match_rows(rows: Iterable[LabelRow], samples: Iterable[Sample], *, where: str,
               annotator: str = "", source: str = "", allow_new: bool = False) -> Matched:
    """Each row's labels for the run's sample it names (by id, else by content key):
    names as the vocabulary spells them, values checked. The first bad value stops it,
    and so does a name close to a vocabulary name (a typo), unless `allow_new`."""
    by_id: dict[str, str] = {}
    keys: Counter[str] = Counter()
    for s in samples:
        by_id.setdefault(s.id, s.content_key)
        keys[s.content_key] += 1
    out = Matched()
    labelled: set[str] = set()
    for row in rows:
        key = by_id.get(row.id) if row.id is not None else None
        if key is None and row.key in keys:
            key = row.key
        if key is None:
            out.unmatched.append(row)
            continue
        for name, value in row.labels.items():
            problem = None if allow_new else new_label_problem(f"{where}:{row.line}", name)
            if problem:
                raise LabelFileError(problem)
            label = canonical(name)
            out.labels.append(HumanLabel(
                content_key=key, name=label,
                value=checked_value(f"{where}:{row.line}", label, value),
                annotator=row.annotator or annotator, source=source, note=row.note))
        labelled.add(key)
    out.samples = sum(keys[k] for k in labelled)
    out.shared = sum(1 for k in labelled if keys[k] > 1)
    return out


class LabelSink(Protocol):
    """What importing needs of a store (`ragassay.store.Store`)."""

    def iter_samples(self, run_id: str) -> Iterable[Any]: ...

    def set_labels(self, labels: Iterable[HumanLabel]) -> int: ...


def import_file(store: LabelSink, run_id: str, path: Path, *, annotator: str = "",
                allow_new: bool = False) -> Matched:
    """Read a label file, match its rows to the run's samples and store their labels (by
    content, so they apply to every run of the same samples). A file whose rows match no
    sample of the run is a one-line LabelFileError; rows that match none are returned.
    A label name close to a vocabulary name is refused unless `allow_new`."""
    rows = read_label_file(path)
    samples = (s for s in store.iter_samples(run_id) if isinstance(s, Sample))
    matched = match_rows(rows, samples, where=path.name, annotator=annotator or "import",
                         source=f"import:{path.name}", allow_new=allow_new)
    if not matched.labels:
        if matched.unmatched:
            first = matched.unmatched[0]
            raise LabelFileError(f"no row of {path.name} matches a sample of run {run_id} "
                                 f"(line {first.line}: id {first.id!r}); name the run "
                                 "with --run")
        raise LabelFileError(f"{path.name}: no labels in its rows")
    store.set_labels(matched.labels)
    return matched
