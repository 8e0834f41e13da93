"""One entry point: every statistics section of a run's report."""

from __future__ import annotations

from collections.abc import Mapping

from ragassay.stats.abstention import AbstentionRates, abstention_rates
from ragassay.stats.agreement import CorrelationMatrix, correlation_matrix
from ragassay.stats.calibration import Calibration, LabelLink, calibration
from ragassay.stats.compare import constant_across_strategies
from ragassay.stats.describe import (
    Aggregates,
    Distribution,
    Spread,
    aggregate_metrics,
    per_metric_statistics,
    rmse_metrics,
)
from ragassay.stats.diagnostics import Finding, diagnose
from ragassay.stats.disagreements import Disagreements, disagreements
from ragassay.stats.interpret import Flag, FlagsConfig, interpretation
from ragassay.stats.result import Result, omitted
from ragassay.stats.strategies import StrategySummary, strategy_summaries
from ragassay.stats.table import ScoreTable


class Sections(Result):
    """The statistics sections of a report, in the report's order; `calibration` only
    when some sample has labels."""

    aggregate_metrics: Aggregates
    rmse_metrics: dict[str, Spread]
    per_metric_statistics: dict[str, Distribution]
    strategies: Mapping[str, StrategySummary]
    interpretation: list[Flag]
    correlations: CorrelationMatrix
    diagnostics: list[Finding]
    calibration: Calibration | None = omitted()
    abstentions: dict[str, AbstentionRates] | None = omitted()
    """Per strategy, when some answer abstained (`stats.abstention`)."""
    constant_across_strategies: list[str] | None = omitted()
    """The metrics every strategy scores each question alike on, when the run has more
    than one strategy and some (`stats.compare.constant_across_strategies`)."""
    disagreements: Disagreements | None = omitted()
    """The samples behind each linked verdict's misses and flags and the abstentions
    counted false, when there are some (`stats.disagreements`)."""


def report_sections(
    table: ScoreTable,
    *,
    seed: int = 0,
    flags_config: FlagsConfig | None = None,
    n_resamples: int = 2000,
    label_links: list[LabelLink] | None = None,
) -> Sections:
    """The report's statistics sections. Values are as computed (the JSON writer rounds
    them); None for anything not computable. Strategy-scoped flags are added only when
    the run has more than one strategy.
    """
    aggregates = aggregate_metrics(table, seed=seed, n_resamples=n_resamples)
    strategies = strategy_summaries(table, seed=seed, n_resamples=n_resamples)
    overall = {m: e.mean for m, e in aggregates.metrics.items()}
    per_strategy = (
        {s: {m: e.mean for m, e in v.metrics.items()} for s, v in strategies.items()}
        if len(strategies) > 1
        else None
    )
    cal = (calibration(table, label_links, seed=seed, n_resamples=n_resamples)
           if table.label_names else None)
    return Sections(
        aggregate_metrics=aggregates,
        rmse_metrics=rmse_metrics(table),
        per_metric_statistics=per_metric_statistics(table),
        strategies=strategies,
        interpretation=interpretation(overall, table.specs, per_strategy, flags_config),
        correlations=correlation_matrix(table),
        diagnostics=diagnose(table),
        calibration=cal,
        abstentions=abstention_rates(table, seed=seed, n_resamples=n_resamples),
        constant_across_strategies=constant_across_strategies(table) or None,
        disagreements=disagreements(table, cal),
    )
