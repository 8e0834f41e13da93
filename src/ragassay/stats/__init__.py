"""Pure statistics over a run's scores: distributions, bootstrap intervals, agreement
with human labels, paired comparisons, diagnostics and the release gate.

Depends only on `ragassay.types`, numpy and scipy. Start from a `ScoreTable`;
`report_sections` produces every report section at once.
"""

from ragassay.stats.agreement import (
    auroc,
    balanced_accuracy,
    bias,
    cohens_kappa,
    correlation,
    correlation_matrix,
    rmse,
)
from ragassay.stats.bootstrap import bootstrap_ci
from ragassay.stats.calibration import LabelLink, calibration, default_links
from ragassay.stats.compare import (
    CompareOptions,
    compare_paired,
    compare_strategies,
    compare_tables,
    holm,
    verdict,
)
from ragassay.stats.describe import aggregate_metrics, describe, per_metric_statistics, rmse_metrics
from ragassay.stats.diagnostics import Condition, Rule, diagnose, rules_of
from ragassay.stats.gate import (
    GateCheck,
    GateResult,
    ThresholdsError,
    default_thresholds,
    gate,
    load_thresholds,
    threshold_out_of_range,
)
from ragassay.stats.interpret import FlagsConfig, Target, interpretation
from ragassay.stats.sections import report_sections
from ragassay.stats.strategies import composite_summary, guide_fields, strategy_summaries
from ragassay.stats.table import Row, ScoreTable
from ragassay.stats.trend import trend, trends

__all__ = [
    "CompareOptions",
    "Condition",
    "FlagsConfig",
    "GateCheck",
    "GateResult",
    "LabelLink",
    "Row",
    "Rule",
    "ScoreTable",
    "Target",
    "ThresholdsError",
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
    "composite_summary",
    "correlation",
    "correlation_matrix",
    "default_links",
    "default_thresholds",
    "describe",
    "diagnose",
    "gate",
    "guide_fields",
    "holm",
    "interpretation",
    "load_thresholds",
    "threshold_out_of_range",
    "per_metric_statistics",
    "report_sections",
    "rmse",
    "rmse_metrics",
    "rules_of",
    "strategy_summaries",
    "trend",
    "trends",
    "verdict",
]
