"""Several people's labels of one sample as the one value the statistics read, under a
chosen rule (`LabelRule`: majority, or one annotator's), and the people's labels of a
run arranged for agreement between them (label -> sample -> annotator -> value)."""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field

from ragassay.labels.vocabulary import canonical
from ragassay.types import HumanLabel, LabelRule, LabelSource


@dataclass(frozen=True)
class Resolved:
    """One label of one sample under a rule: its value (None: a tie, left out) and how
    many people's labels it came from."""

    value: bool | float | None
    count: int


def by_person(labels: Iterable[HumanLabel]) -> dict[str, dict[str, HumanLabel]]:
    """label name (the vocabulary's) -> annotator -> their label (the latest, should one
    person have given it under two spellings)."""
    out: dict[str, dict[str, HumanLabel]] = {}
    for lab in labels:
        out.setdefault(canonical(lab.name), {})[lab.annotator] = lab
    return out


def resolve(labels: Iterable[HumanLabel], rule: LabelRule) -> dict[str, Resolved]:
    """A sample's people's labels as one value per label name under `rule`: the named
    annotator's, or the value most of its annotators gave (a tie between the most given
    values: None). A label the rule gives no value (the annotator did not label it) is
    absent."""
    out: dict[str, Resolved] = {}
    for name, people in by_person(labels).items():
        if rule.annotator is not None:
            if rule.annotator in people:
                out[name] = Resolved(people[rule.annotator].value, 1)
            continue
        counts = Counter(float(lab.value) for lab in people.values())
        top = counts.most_common()
        if len(top) > 1 and top[0][1] == top[1][1]:
            out[name] = Resolved(None, len(people))
            continue
        first = next(lab.value for lab in people.values() if float(lab.value) == top[0][0])
        out[name] = Resolved(first, len(people))
    return out


@dataclass
class PeopleLabels:
    """A run's people's labels as read under a rule: per label name, each sample's
    values by annotator (for agreement between people, each content key once) and where
    the values the figures read came from (`sources`, counted per row of the run: the
    rule's, or the data's own label where the store has none)."""

    rule: LabelRule = field(default_factory=LabelRule)
    ratings: dict[str, dict[str, dict[str, float]]] = field(default_factory=dict)
    counts: dict[str, Counter[int]] = field(default_factory=dict)
    ties: Counter[str] = field(default_factory=Counter)
    data: Counter[str] = field(default_factory=Counter)  # rows whose data's label stands
    seen: set[str] = field(default_factory=set)

    def add_key(self, key: str, labels: Iterable[HumanLabel]) -> None:
        """A sample's people's labels (its content key, once however many rows share
        it), for agreement."""
        if key in self.seen:
            return
        self.seen.add(key)
        for name, people in by_person(labels).items():
            self.ratings.setdefault(name, {})[key] = {
                who: float(lab.value) for who, lab in people.items()}

    def add_row(self, resolved: Mapping[str, Resolved],
                own: Mapping[str, object] | None = None) -> None:
        """One row's labels under the rule, and its `own` (the data's) that stand where
        the store gave none, for the sources."""
        for name, r in resolved.items():
            if r.value is None:
                self.ties[name] += 1
            else:
                self.counts.setdefault(name, Counter())[r.count] += 1
        for name in {canonical(k) for k, v in (own or {}).items() if v is not None}:
            if name not in resolved:
                self.data[name] += 1

    def sources(self) -> dict[str, LabelSource]:
        """label name -> where its values came from (`LabelSource`), for the labels the
        store gave some sample of the run a value (or a tie) of."""
        names = sorted(set(self.counts) | set(self.ties))
        return {n: LabelSource(by_count={str(k): v for k, v in sorted(
                    self.counts.get(n, Counter()).items())}, ties=self.ties[n],
                    data=self.data[n]) for n in names}

    def annotators(self, name: str) -> list[str]:
        """The people who labelled `name`, sorted."""
        return sorted({who for people in self.ratings.get(name, {}).values()
                       for who in people})


def by_key(labels: Iterable[HumanLabel]) -> dict[str, list[HumanLabel]]:
    """content key -> its labels, in the order given."""
    grouped: dict[str, list[HumanLabel]] = {}
    for lab in labels:
        grouped.setdefault(lab.content_key, []).append(lab)
    return grouped


def resolve_all(labels: Iterable[HumanLabel], rule: LabelRule
                ) -> dict[str, dict[str, Resolved]]:
    """content key -> its labels under `rule` (`resolve`), for many samples at once."""
    return {key: resolve(labs, rule) for key, labs in by_key(labels).items()}
