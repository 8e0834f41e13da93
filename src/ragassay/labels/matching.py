"""Label-file rows matched to a run's samples and checked against the vocabulary."""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Protocol

from ragassay.labels.files import LabelFileError, LabelRow, read_label_file
from ragassay.labels.vocabulary import canonical, lookup, nearest, own_value
from ragassay.types import UNNAMED, HumanLabel, Sample


class Repeats:
    """A label file's rows that name one sample more than once with the same label: the
    same value again is kept once and counted (`note`), another value is a one-line
    LabelFileError naming the sample and both values, never a silent last-row-wins."""

    def __init__(self, where: str) -> None:
        self.where = where
        self.seen: dict[tuple[str, str], tuple[int, object]] = {}
        self.ids: dict[str, None] = {}  # samples given twice with the same values

    def add(self, sample: str, line: int, name: str, value: object) -> bool:
        """Whether this (sample, label) is new; False for a repeat of the same value."""
        first = self.seen.get((sample, name))
        if first is None:
            self.seen[(sample, name)] = (line, value)
            return True
        if first[1] == value and type(first[1]) is type(value):
            self.ids.setdefault(sample)
            return False
        raise LabelFileError(
            f"{self.where}:{line}: {sample} has label '{name}' = {value!r}, but line "
            f"{first[0]} gave it {first[1]!r}; keep one value per sample and label")

    def note(self) -> str | None:
        """One warning line when some sample was given more than once (same values)."""
        if not self.ids:
            return None
        n, first = len(self.ids), next(iter(self.ids))
        return (f"{self.where}: {n} sample{'s are' if n > 1 else ' is'} given on more than "
                f"one row with the same labels (first: {first}); each label stored once")


def row_name(row: LabelRow) -> str:
    """How a row names its sample, as a message says it: `id 'a000'` (with its strategy
    when the row gives one) or `content_key 'ab12...'`."""
    if row.id is not None:
        return f"id {row.id!r}" + (f" (strategy {row.strategy!r})" if row.strategy else "")
    return f"content_key {row.key!r}"


@dataclass
class Matched:
    """What a label file gives a run: the labels to store, the rows that match none of
    the run's samples, and the file's repeated rows (`repeated`: samples given on more
    than one row with the same labels; one warning line)."""

    labels: list[HumanLabel] = field(default_factory=list)
    unmatched: list[LabelRow] = field(default_factory=list)
    # rows whose content key is not that of the sample their id names: labels of another
    # answer (an export of one run imported into another), never attached
    mismatched: list[LabelRow] = field(default_factory=list)
    samples: int = 0  # samples labelled (duplicated interactions share one label)
    shared: int = 0  # labelled interactions that several samples share
    repeated: str | None = None  # the warning line for repeated rows, when any
    # stored labels other annotators gave the same samples and names, kept beside the
    # imported ones: by their annotator
    beside: Counter[str] = field(default_factory=Counter)
    beside_differ: int = 0  # of those, the ones whose value differs from the import's

    def beside_text(self) -> str | None:
        """The line when other annotators had labelled the same samples: both kept."""
        n = sum(self.beside.values())
        if not n:
            return None
        who = ", ".join(f"{name} {k}" for name, k in self.beside.most_common())
        return (f"kept beside {n} label{'s' if n != 1 else ''} other annotators gave the same "
                f"samples ({who}; {self.beside_differ} with another value): each person's "
                "label is kept; corrected figures read them by --label-rule (default: "
                "majority)")

    @property
    def by_name(self) -> Counter[str]:
        return Counter(lab.name for lab in self.labels)


def checked_value(where: str, name: str, value: object) -> bool | float:
    """A label value as stored: the vocabulary's scale for its labels (a bool label as a
    bool), a bool or a finite number within +-MAX_MAGNITUDE for others (`own_value`);
    else a one-line LabelFileError."""
    kind = lookup(name)
    if kind is not None:
        checked = kind.check(value)
        if isinstance(checked, str):
            raise LabelFileError(f"{where}: label '{name}': {checked}")
        return bool(checked) if kind.kind == "bool" else checked
    own = own_value(value)
    if isinstance(own, str):
        raise LabelFileError(f"{where}: label '{name}': {own}")
    return value if isinstance(value, bool) else own


def new_label_problem(where: str, name: str) -> str | None:
    """One line for a label name outside the vocabulary but close to one of its names
    (a typo), else None."""
    close = nearest(name)
    if close is None:
        return None
    return (f"{where}: label {name!r} is not in the vocabulary: did you mean {close!r}? "
            "(--allow-new-label keeps it as a label of its own)")


def _named_key(row: LabelRow, by_id: dict[str, str],
               by_strategy: dict[tuple[str, str], str]) -> str | None:
    """The content key of the sample a row names by id: under the row's strategy when it
    gives one (an id repeated under a later strategy is stored as STRATEGY::ID), else the
    first sample of that id."""
    if row.id is None:
        return None
    if row.strategy:
        found = (by_strategy.get((row.strategy, row.id))
                 or by_strategy.get((row.strategy, f"{row.strategy}::{row.id}")))
        if found is not None:
            return found
    return by_id.get(row.id)


def match_rows(rows: Iterable[LabelRow], samples: Iterable[Sample], *, where: str,
               annotator: str = "", source: str = "", allow_new: bool = False) -> Matched:
    """Each row's labels for the run's sample it names: by its content key when it has
    one (given, or computed from its question, contexts and answer), else by id (with
    its strategy when the row gives one); a row whose content key differs from the
    content of the sample its id names is `mismatched`, never attached to that sample
    (its labels are of another answer). Names as the vocabulary spells them, values
    checked. The first bad value stops it, and so does a name close to a vocabulary name
    (a typo), unless `allow_new`, and a sample given one label twice with two values
    (`Repeats`); the same value twice is stored once and said in `repeated`."""
    by_id: dict[str, str] = {}
    by_strategy: dict[tuple[str, str], str] = {}
    keys: Counter[str] = Counter()
    for s in samples:
        by_id.setdefault(s.id, s.content_key)
        by_strategy.setdefault((s.strategy, s.id), s.content_key)
        keys[s.content_key] += 1
    out = Matched()
    repeats = Repeats(where)
    labelled: set[str] = set()
    for row in rows:
        named = _named_key(row, by_id, by_strategy)
        if row.key is not None and row.key in keys:
            key: str | None = row.key  # the content the labels were given for decides
        elif row.key is not None and named is not None:
            out.mismatched.append(row)  # the id names a sample of other content
            continue
        else:
            key = named
        if key is None:
            out.unmatched.append(row)
            continue
        for name, value in row.labels.items():
            problem = None if allow_new else new_label_problem(f"{where}:{row.line}", name)
            if problem:
                raise LabelFileError(problem)
            label = canonical(name)
            checked = checked_value(f"{where}:{row.line}", label, value)
            if repeats.add(row_name(row), row.line, label, checked):
                out.labels.append(HumanLabel(
                    content_key=key, name=label, value=checked,
                    annotator=row.annotator or annotator, source=source, note=row.note))
        labelled.add(key)
    out.samples = sum(keys[k] for k in labelled)
    out.shared = sum(1 for k in labelled if keys[k] > 1)
    out.repeated = repeats.note()
    return out


def mismatch_line(matched: Matched, where: str, run_id: str) -> str:
    """One line about the rows whose content key is not their id's sample's."""
    n, first = len(matched.mismatched), matched.mismatched[0]
    rows = f"{n} rows name samples" if n != 1 else "1 row names a sample"
    return (f"{where}: {rows} of run {run_id} by id whose content is not what the labels "
            "were given for (content_key differs: labels of another answer, e.g. an export "
            f"of another run): not imported (first: line {first.line}, {row_name(first)})")


class LabelSink(Protocol):
    """What importing needs of a store (`ragassay.store.Store`)."""

    def iter_samples(self, run_id: str) -> Iterable[Any]: ...

    def set_labels(self, labels: Iterable[HumanLabel]) -> int: ...

    def people_labels(self, keys: Iterable[str], annotator: str | None = None
                      ) -> list[HumanLabel]: ...


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
        if matched.mismatched:
            raise LabelFileError(mismatch_line(matched, path.name, run_id))
        if matched.unmatched:
            first = matched.unmatched[0]
            raise LabelFileError(f"no row of {path.name} matches a sample of run {run_id} "
                                 f"(line {first.line}: id {first.id!r}); name the run "
                                 "with --run")
        raise LabelFileError(f"{path.name}: no labels in its rows")
    before: dict[tuple[str, str], list[HumanLabel]] = {}
    for old in store.people_labels(lab.content_key for lab in matched.labels):
        before.setdefault((old.content_key, old.name), []).append(old)
    for lab in matched.labels:
        for old in before.get((lab.content_key, lab.name), []):
            if old.annotator != (lab.annotator or UNNAMED):
                matched.beside[old.annotator] += 1
                matched.beside_differ += old.value != lab.value
    store.set_labels(matched.labels)
    return matched
