"""Pure statistics over a run's scores: distributions, bootstrap intervals, agreement
with human labels, paired comparisons, diagnostics and the release gate.

Depends only on `ragassay.types`, numpy, scipy and pydantic. Start from a `ScoreTable`;
`report_sections` produces every report section at once. Every result is a small frozen
model read by attribute (`Interval`, `Distribution`, `Comparison`, `Calibration`, ...),
holding the computed values unrounded.
"""

from ragassay.stats.abstention import AbstentionRates, abstention_rates
from ragassay.stats.agreement import (
    CorrelationMatrix,
    auroc,
    balanced_accuracy,
    bias,
    cohens_kappa,
    correlation,
    correlation_matrix,
    rmse,
)
from ragassay.stats.bootstrap import bootstrap_ci
from ragassay.stats.calibration import (
    BooleanAgreement,
    Calibration,
    LabelAgreement,
    LabelLink,
    NumericAgreement,
    SkippedLink,
    calibration,
    default_links,
)
from ragassay.stats.compare import (
    CompareOptions,
    Comparison,
    MetricComparison,
    PairedDifference,
    compare_paired,
    compare_strategies,
    compare_tables,
    constant_across_strategies,
    holm,
    verdict,
)
from ragassay.stats.describe import (
    Aggregates,
    Distribution,
    Interval,
    MetricAggregate,
    Spread,
    SuiteAverage,
    aggregate_metrics,
    describe,
    interval_text,
    mean_ci,
    p_text,
    per_metric_statistics,
    rmse_metrics,
)
from ragassay.stats.diagnostics import Condition, Finding, Rule, diagnose, rules_of
from ragassay.stats.effect import GENERIC_MARGIN, effect_size, magnitude, margin_for, tost_p
from ragassay.stats.gate import (
    GateCheck,
    GateResult,
    ThresholdsError,
    default_thresholds,
    gate,
    load_thresholds,
    threshold_out_of_range,
)
from ragassay.stats.interpret import Flag, FlagsConfig, Target, interpretation, target_for
from ragassay.stats.result import Pair, Result
from ragassay.stats.sections import Sections, report_sections
from ragassay.stats.strategies import (
    CompositeSummary,
    StrategySummary,
    composite_summary,
    guide_fields,
    of_averages,
    strategy_summaries,
)
from ragassay.stats.table import Row, ScoreTable
from ragassay.stats.trend import TrendPoint, trend, trends

__all__ = [
    "Aggregates",
    "BooleanAgreement",
    "Calibration",
    "CompareOptions",
    "Comparison",
    "CompositeSummary",
    "Condition",
    "CorrelationMatrix",
    "Distribution",
    "Finding",
    "Flag",
    "GENERIC_MARGIN",
    "FlagsConfig",
    "GateCheck",
    "GateResult",
    "Interval",
    "LabelAgreement",
    "LabelLink",
    "MetricAggregate",
    "MetricComparison",
    "NumericAgreement",
    "PairedDifference",
    "Pair",
    "Result",
    "Row",
    "Rule",
    "ScoreTable",
    "Sections",
    "AbstentionRates",
    "SkippedLink",
    "Spread",
    "StrategySummary",
    "SuiteAverage",
    "Target",
    "ThresholdsError",
    "TrendPoint",
    "aggregate_metrics",
    "auroc",
    "balanced_accuracy",
    "bias",
    "bootstrap_ci",
    "calibration",
    "cohens_kappa",
    "compare_paired",
    "compare_strategies",
    "compare_tables",
    "constant_across_strategies",
    "composite_summary",
    "correlation",
    "correlation_matrix",
    "default_links",
    "default_thresholds",
    "describe",
    "diagnose",
    "effect_size",
    "gate",
    "guide_fields",
    "holm",
    "interpretation",
    "interval_text",
    "load_thresholds",
    "magnitude",
    "margin_for",
    "mean_ci",
    "of_averages",
    "p_text",
    "threshold_out_of_range",
    "per_metric_statistics",
    "report_sections",
    "abstention_rates",
    "rmse",
    "rmse_metrics",
    "rules_of",
    "strategy_summaries",
    "target_for",
    "tost_p",
    "trend",
    "trends",
    "verdict",
]
