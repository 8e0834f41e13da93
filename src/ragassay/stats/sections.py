"""One entry point: every statistics section of a run's report, JSON-ready."""

from __future__ import annotations

from typing import Any

from ragassay.stats._json import clean
from ragassay.stats.agreement import correlation_matrix
from ragassay.stats.calibration import LabelLink, calibration
from ragassay.stats.describe import aggregate_metrics, per_metric_statistics, rmse_metrics
from ragassay.stats.diagnostics import diagnose
from ragassay.stats.interpret import FlagsConfig, interpretation
from ragassay.stats.strategies import strategy_summaries
from ragassay.stats.table import ScoreTable


def report_sections(
    table: ScoreTable,
    *,
    seed: int = 0,
    flags_config: FlagsConfig | None = None,
    n_resamples: int = 2000,
    label_links: list[LabelLink] | None = None,
) -> dict[str, Any]:
    """The report's statistics sections.

    Keys: aggregate_metrics, rmse_metrics, per_metric_statistics, strategies,
    interpretation, correlations, diagnostics, and calibration (only when some
    sample has labels). Plain JSON values only: floats rounded to 6 decimals,
    None for anything not computable, never NaN or inf. Strategy-scoped flags
    are added only when the run has more than one strategy.
    """
    aggregates = aggregate_metrics(table, seed=seed, n_resamples=n_resamples)
    strategies = strategy_summaries(table, seed=seed, n_resamples=n_resamples)
    overall = {m: e["mean"] for m, e in aggregates["metrics"].items()}
    per_strategy = (
        {s: {m: e["mean"] for m, e in v["metrics"].items()} for s, v in strategies.items()}
        if len(strategies) > 1
        else None
    )
    sections: dict[str, Any] = {
        "aggregate_metrics": aggregates,
        "rmse_metrics": rmse_metrics(table),
        "per_metric_statistics": per_metric_statistics(table),
        "strategies": strategies,
        "interpretation": interpretation(overall, table.specs, per_strategy, flags_config),
        "correlations": correlation_matrix(table),
        "diagnostics": diagnose(table),
    }
    if table.label_names:
        sections["calibration"] = calibration(
            table, label_links, seed=seed, n_resamples=n_resamples
        )
    result: dict[str, Any] = clean(sections)
    return result
