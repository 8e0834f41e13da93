"""Per-strategy summaries, with each composite metric's guide figures.

For each strategy: every metric's mean and CI under `metrics`, question counts, and for
a composite metric (`MetricSpec.composite`, e.g. the judge suite's `overall`) the guide's
figures: the average of each part (`avg_<part>`), the penalty's rate (`<penalty>_rate`),
and the composite formula applied to those averages (`<composite>_of_averages`, e.g.
`overall_of_averages`: not the strategy's overall, which is the mean of its samples'
own composite scores under `metrics`), each with a bootstrap interval; the interval of
the composite resamples samples and recomputes the whole formula. The formula is the
composite's own rule (`Composite.combine`): the one used per sample too.
"""

from __future__ import annotations

from typing import Any

import numpy as np
from pydantic import ConfigDict, Field, SerializerFunctionWrapHandler, model_serializer

from ragassay.stats.bootstrap import FloatArray, bootstrap_stat, column, nanmean_rows
from ragassay.stats.describe import Interval, metric_ci
from ragassay.stats.result import Pair, Result
from ragassay.stats.table import ScoreTable
from ragassay.types import MISSING_INPUT, MetricSpec


class CompositeSummary(Result):
    """A composite's guide figures on one strategy: `figures` by report field (each part's
    average `avg_<part>`, the penalty's `<penalty>_rate`, and the composite's own short
    name), each with its interval, and the questions some suite metric failed on."""

    metric: str
    figures: dict[str, float | None]
    intervals: dict[str, Pair | None]
    failed_questions: int

    def figure(self, field: str) -> tuple[float | None, Pair | None]:
        """(value, interval) of one report field."""
        return self.figures.get(field), self.intervals.get(field)


def _flat_schema(schema: dict[str, Any]) -> None:
    """The JSON form of a strategy: each composite's figures are keys of the entry."""
    props = schema.setdefault("properties", {})
    props.pop("composites", None)
    props["intervals"] = {"type": "object", "additionalProperties": {
        "anyOf": [{"type": "array", "items": {"type": "number"}, "minItems": 2,
                   "maxItems": 2}, {"type": "null"}]}}
    props["failed_questions"] = {"type": "integer"}
    schema["additionalProperties"] = {"anyOf": [{"type": "number"}, {"type": "null"}]}


class StrategySummary(Result):
    """One strategy: its composites' guide figures, question count, every metric's mean
    with its interval, and per suite the questions a metric of it failed on. In JSON the
    composites' figures, `intervals` and `failed_questions` are keys of the entry itself
    (the judge suite's scoring guide)."""

    model_config = ConfigDict(json_schema_extra=_flat_schema)

    composites: list[CompositeSummary] = Field(default_factory=list, exclude=True)
    total_questions: int
    metrics: dict[str, Interval]
    # per suite: the questions some metric of the suite failed on (`failed_questions`)
    failed: dict[str, int] = Field(default_factory=dict, description=(
        "Per suite: the questions (and invalid rows) on which some metric of the suite has "
        "no value for a reason other than a missing input (a failed judge call, or a value "
        "the metric cannot give on that question, such as a completeness with no "
        "relevant context); missing references and declines are not counted. The console's "
        "'unscored' column."))

    @model_serializer(mode="wrap")
    def _flatten(self, handler: SerializerFunctionWrapHandler):
        # no return annotation: the JSON schema stays the fields' own (see _flat_schema)
        return {**self.guide(), **handler(self)}

    def guide(self) -> dict[str, Any]:
        """The composites' figures as the strategy's JSON entry holds them: each figure by
        its field, then `intervals` and `failed_questions` (of the last composite, when
        there are several)."""
        out: dict[str, Any] = {}
        for c in self.composites:
            out.update(c.figures)
            out["intervals"] = c.intervals
            out["failed_questions"] = c.failed_questions
        return out

    def interval(self, field: str) -> Pair | None:
        """The interval of a composite's figure (None when it has none)."""
        owner = next((c for c in self.composites if field in c.figures), None)
        return None if owner is None else owner.intervals.get(field)

    def figure(self, field: str) -> Any:
        """One field of the strategy's entry: a composite's figure, `failed_questions` or
        `total_questions` (None when the strategy has no such field)."""
        return self.total_questions if field == "total_questions" else self.guide().get(field)

    @property
    def figure_fields(self) -> list[str]:
        """The composites' figure fields, in the entry's order."""
        return [f for c in self.composites for f in c.figures]

    def composite(self, metric: str) -> CompositeSummary | None:
        """The guide figures of one composite metric, if the strategy has them."""
        return next((c for c in self.composites if c.metric == metric), None)


OF_AVERAGES = "_of_averages"
"""`overall_of_averages`: the composite's formula applied to a strategy's averages."""


def of_averages(spec: MetricSpec) -> str:
    """The report field of a composite's formula applied to the averages of its parts
    (`overall_of_averages`), named apart from the composite metric's mean."""
    return spec.short + OF_AVERAGES


def guide_fields(spec: MetricSpec) -> dict[str, str]:
    """Report field -> part metric for a composite: `avg_<part>` per weighted part and
    `<penalty>_rate` for the penalty."""
    assert spec.composite is not None
    fields = {"avg_" + name.split(".", 1)[-1]: name for name in spec.composite.weights}
    if spec.composite.penalty:
        fields[spec.composite.penalty.split(".", 1)[-1] + "_rate"] = spec.composite.penalty
    return fields


def composites(table: ScoreTable) -> list[MetricSpec]:
    """The composite metrics of a table whose parts it holds."""
    return [s for s in table.specs.values() if s.composite is not None
            and all(m in table.specs for m in guide_fields(s).values())]


def composite_summary(
    table: ScoreTable, spec: MetricSpec, *, seed: int = 0, n_resamples: int = 2000,
    confidence: float = 0.95,
) -> CompositeSummary:
    """The guide's figures of one composite on one (sub-)table."""
    assert spec.composite is not None
    fields = guide_fields(spec)
    out: dict[str, float | None] = {}
    intervals: dict[str, Pair | None] = {}
    for key, metric in fields.items():
        stats = metric_ci(table, metric, seed=seed, n_resamples=n_resamples,
                          confidence=confidence)
        out[key] = stats.mean
        intervals[key] = None if stats.ci_low is None else stats.ci
    value, _ = spec.composite.combine({m: out[k] for k, m in fields.items()})
    own = of_averages(spec)
    out[own] = value
    intervals[own] = None
    if value is not None:
        present = [m for k, m in fields.items() if out[k] is not None]
        cols = [column(table.column(m)) for m in present]

        def resampled(cols: list[FloatArray]) -> FloatArray:
            means = {m: nanmean_rows(c) for m, c in zip(present, cols, strict=True)}
            got, _ = spec.composite.combine(means)  # type: ignore[union-attr]
            return np.asarray(got, dtype=float)

        ci = bootstrap_stat(cols, resampled, n_resamples=n_resamples, confidence=confidence,
                            seed=seed)
        intervals[own] = ci
    return CompositeSummary(metric=spec.name, figures=out, intervals=intervals,
                            failed_questions=failed_questions(table, spec.suite))


def failed_questions(table: ScoreTable, suite: str) -> int:
    """The questions of the table some metric of `suite` could not score, and its invalid
    rows; a missing input (no reference) and an abstention (the answer declined: counted
    in the abstention rates) are no failure."""
    suite_metrics = [m for m in table.metrics if table.spec(m).suite == suite]
    failed = sum(any(r.value(m) is None and m not in r.abstained
                     and r.reasons.get(m) not in MISSING_INPUT
                     for m in suite_metrics) for r in table.rows)
    return failed + len(table.invalid)


def strategy_summaries(
    table: ScoreTable, *, seed: int = 0, n_resamples: int = 2000, confidence: float = 0.95
) -> dict[str, StrategySummary]:
    """Every strategy's summary: its composites' guide figures, its question count, and
    each metric's mean with its interval."""
    out: dict[str, StrategySummary] = {}
    specs = composites(table)
    for name in table.strategies:
        sub = table.for_strategy(name)
        out[name] = StrategySummary(
            composites=[composite_summary(sub, spec, seed=seed, n_resamples=n_resamples,
                                          confidence=confidence) for spec in specs],
            total_questions=len(sub.rows) + len(sub.invalid),
            metrics={m: metric_ci(sub, m, seed=seed, n_resamples=n_resamples,
                                  confidence=confidence) for m in sub.metrics},
            failed={suite: failed_questions(sub, suite)
                    for suite in dict.fromkeys(sub.spec(m).suite for m in sub.metrics)})
    return out
