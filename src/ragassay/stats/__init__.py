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
from ragassay.stats.diagnostics import DEFAULT_RULES, Condition, Rule, diagnose
from ragassay.stats.gate import (
    DEFAULT_THRESHOLDS,
    GateCheck,
    GateResult,
    ThresholdsError,
    gate,
    load_thresholds,
)
from ragassay.stats.interpret import FlagsConfig, Target, interpretation
from ragassay.stats.sections import report_sections
from ragassay.stats.strategies import overall_score, strategy_summaries
from ragassay.stats.table import Row, ScoreTable
from ragassay.stats.trend import trend, trends

__all__ = [
    "DEFAULT_RULES",
    "DEFAULT_THRESHOLDS",
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
    "correlation",
    "correlation_matrix",
    "default_links",
    "describe",
    "diagnose",
    "gate",
    "holm",
    "interpretation",
    "load_thresholds",
    "overall_score",
    "per_metric_statistics",
    "report_sections",
    "rmse",
    "rmse_metrics",
    "strategy_summaries",
    "trend",
    "trends",
    "verdict",
]
