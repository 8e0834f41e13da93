"""`ScoreTable`: one row per sample, one (possibly unscored) value per metric.

Every statistic in `ragassay.stats` reads this table. Building it is the only
place where results are interpreted: booleans become 0/1, and anything that is
not a finite number becomes *unscored* (None plus a reason). Unscored values
are counted and excluded downstream; they are never averaged as 0 or NaN.
"""

from __future__ import annotations

import math
from collections import Counter
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field, replace
from typing import Any

from ragassay.stats.lexical import lexical_support
from ragassay.types import InvalidRow, MetricSpec, Sample, SampleResult

NO_RESULT = "no result recorded for this sample"
NON_FINITE = "value is not a finite number"


@dataclass(frozen=True)
class Row:
    """One evaluated sample: identity, human labels and per-metric values."""

    id: str
    strategy: str = "default"
    question: str = ""
    question_id: str | None = None
    labels: Mapping[str, Any] = field(default_factory=dict)
    values: Mapping[str, float | None] = field(default_factory=dict)
    reasons: Mapping[str, str] = field(default_factory=dict)
    abstained: Mapping[str, str] = field(default_factory=dict)
    """Metrics whose value is an abstention (no value, not unscored), by outcome:
    "correct", "false" or "unknown" (`MetricResult.abstention`)."""
    lexical: float | None = None
    """The lexical baseline's score of the sample (`lexical.lexical_score`) in a run with
    labels, which the calibration ranks beside the judge's; None unread (a run without
    labels: `report.run_table` reads no texts then)."""

    def value(self, metric: str) -> float | None:
        return self.values.get(metric)

    @property
    def abstention(self) -> str | None:
        """The sample's abstention outcome: "false" when any metric says so (the judge read
        the contexts as answering), else "correct", else "unknown"; None when it did not."""
        outcomes = set(self.abstained.values())
        for o in ("false", "correct", "unknown"):
            if o in outcomes:
                return o
        return None

    @property
    def key(self) -> tuple[str, str]:
        """Identity within a run: the same id may appear under several strategies."""
        return (self.strategy, self.id)


def _to_value(value: float | bool | None) -> tuple[float | None, str | None]:
    if value is None:
        return None, None
    x = float(value)  # bool -> 0.0 / 1.0
    if not math.isfinite(x):
        return None, NON_FINITE
    return x, None


_Info = tuple[str, str | None, dict[str, Any], float | None]
"""What a row keeps of its sample: question, question id, labels, lexical score."""


def _row(key: tuple[str, str], sample: _Info | None,
         row_vals: dict[str, float | None], row_whys: dict[str, str],
         names: list[str], abstained: dict[str, str] | None = None) -> Row:
    """One table row: every metric's value, why those without one are unscored, and
    which abstained."""
    abstained = abstained or {}
    values = {n: row_vals.get(n) for n in names}
    reasons = {n: row_whys.get(n, NO_RESULT if n not in row_vals else "unscored")
               for n in names if values[n] is None and n not in abstained}
    question, qid, labels, lexical = sample if sample is not None else ("", None, {}, None)
    return Row(id=key[1], strategy=key[0], question=question, question_id=qid, labels=labels,
               values=values, reasons=reasons, abstained=abstained, lexical=lexical)


def _default_spec(name: str, any_present: bool, all_bool: bool) -> MetricSpec:
    """A spec for a metric the caller did not declare: bool if all values are bools."""
    return MetricSpec(name=name, kind="bool" if any_present and all_bool else "score")


@dataclass(frozen=True)
class ScoreTable:
    """Per-sample metric values of one run.

    `specs` holds exactly the metrics present in the results, in a stable order
    (declared specs first, in the caller's order, then undeclared ones as seen).
    """

    rows: tuple[Row, ...]
    specs: Mapping[str, MetricSpec]
    invalid: tuple[InvalidRow, ...] = ()

    # -- construction -----------------------------------------------------------------

    @classmethod
    def from_results(
        cls,
        results: Iterable[SampleResult],
        samples: Iterable[Sample],
        specs: Mapping[str, MetricSpec],
        *,
        invalid: Iterable[InvalidRow] = (),
    ) -> ScoreTable:
        """Join suite results with their samples.

        A metric is in the table when at least one result carries it (a declared
        spec with no results at all is ignored). A sample lacking a result for a
        present metric is unscored with reason NO_RESULT. Results for unknown
        sample ids still get a row (no labels, no question).
        """
        # Only what a row needs is kept from each sample (not its contexts or answer),
        # so that samples can be streamed from the store; repeated strings (metric names,
        # strategies, label names, reasons) are stored once.
        canon: dict[str, str] = {}

        def one(text: str) -> str:
            return canon.setdefault(text, text)

        order: list[tuple[str, str]] = []
        labelled = False  # a run with labels keeps each row's lexical score
        info: dict[tuple[str, str], _Info | None] = {}
        for smp in samples:
            k = (one(smp.strategy), smp.id)
            if k not in info:
                order.append(k)
            qid = smp.metadata.get("question_id")
            labels = {one(name): v for name, v in smp.labels.items()}
            labelled = labelled or any(v is not None for v in labels.values())
            info[k] = (smp.question, None if qid is None else str(qid), labels,
                       lexical_support(smp))

        vals: dict[tuple[str, str], dict[str, float | None]] = {}
        whys: dict[tuple[str, str], dict[str, str]] = {}
        absts: dict[tuple[str, str], dict[str, str]] = {}
        seen: dict[str, list[bool]] = {}  # metric -> [any value present, all present are bool]
        for sr in results:
            k = (one(sr.strategy), sr.sample_id)
            if k not in info:
                info[k] = None
                order.append(k)
            row_vals = vals.setdefault(k, {})
            for mr in sr.results:
                name = one(mr.name)
                kind = seen.setdefault(name, [False, True])
                if mr.value is not None:
                    kind[0] = True
                    kind[1] = kind[1] and isinstance(mr.value, bool)
                val, why = _to_value(mr.value)
                row_vals[name] = val
                if (outcome := mr.abstention) is not None:
                    absts.setdefault(k, {})[name] = one(outcome)
                elif val is None:
                    whys.setdefault(k, {})[name] = one(why or mr.unscored_reason or "unscored")
                else:
                    whys.get(k, {}).pop(name, None)

        names = [n for n in specs if n in seen] + [n for n in seen if n not in specs]
        table_specs = {n: specs[n] if n in specs else _default_spec(n, *seen[n]) for n in names}

        rows = [_row(k, info.pop(k), vals.pop(k, {}), whys.pop(k, {}), names, absts.pop(k, {}))
                for k in order]
        if not labelled:  # as `report.run_table`, which reads no texts then
            rows = [replace(r, lexical=None) for r in rows]
        return cls(rows=tuple(rows), specs=table_specs, invalid=tuple(invalid))

    @classmethod
    def from_rows(
        cls,
        rows: Iterable[Row],
        specs: Mapping[str, MetricSpec],
        *,
        invalid: Iterable[InvalidRow] = (),
    ) -> ScoreTable:
        """Build directly from rows; a row missing a metric is unscored (NO_RESULT)."""
        fixed = []
        for r in rows:
            values = {n: r.values.get(n) for n in specs}
            abstained = {n: o for n, o in r.abstained.items() if n in specs}
            reasons = {n: r.reasons.get(n, NO_RESULT) for n in specs
                       if values[n] is None and n not in abstained}
            fixed.append(Row(r.id, r.strategy, r.question, r.question_id, dict(r.labels), values,
                             reasons, abstained, r.lexical))
        return cls(rows=tuple(fixed), specs=dict(specs), invalid=tuple(invalid))

    # -- access -----------------------------------------------------------------------

    def __len__(self) -> int:
        return len(self.rows)

    @property
    def metrics(self) -> tuple[str, ...]:
        return tuple(self.specs)

    @property
    def strategies(self) -> tuple[str, ...]:
        """Strategies in order of first appearance (rows, then invalid rows)."""
        seen = dict.fromkeys(r.strategy for r in self.rows)
        seen.update(dict.fromkeys(r.strategy for r in self.invalid))
        return tuple(seen)

    @property
    def label_names(self) -> tuple[str, ...]:
        return tuple(dict.fromkeys(k for r in self.rows for k in r.labels))

    def spec(self, metric: str) -> MetricSpec:
        return self.specs[metric]

    def column(self, metric: str) -> list[float | None]:
        """Values aligned with `rows` (None where unscored)."""
        return [r.values.get(metric) for r in self.rows]

    def values(self, metric: str) -> list[float]:
        """The scored values only."""
        return [v for v in self.column(metric) if v is not None]

    def unscored(self, metric: str) -> int:
        """Samples without a value for `metric` that did not abstain."""
        return sum(r.value(metric) is None and metric not in r.abstained for r in self.rows)

    def abstained(self, metric: str) -> int:
        """Samples whose answer abstained for `metric` (no value, not unscored)."""
        return sum(metric in r.abstained for r in self.rows)

    def unscored_reasons(self, metric: str) -> dict[str, int]:
        """How many samples are unscored for `metric`, by reason."""
        return dict(
            Counter(r.reasons.get(metric, "unscored") for r in self.rows
                    if r.value(metric) is None and metric not in r.abstained)
        )

    def for_strategy(self, strategy: str) -> ScoreTable:
        """The sub-table of one strategy (same metrics, even if all unscored there)."""
        return ScoreTable(
            rows=tuple(r for r in self.rows if r.strategy == strategy),
            specs=self.specs,
            invalid=tuple(r for r in self.invalid if r.strategy == strategy),
        )

    def means(self) -> dict[str, float | None]:
        """Mean of the scored values per metric (None when nothing is scored)."""
        out: dict[str, float | None] = {}
        for m in self.metrics:
            vals = self.values(m)
            out[m] = math.fsum(vals) / len(vals) if vals else None
        return out
