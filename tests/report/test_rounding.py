"""How the report publishes statistics: 6 decimals, p-values with 4 significant digits,
never NaN; models are rounded field by field."""

from __future__ import annotations

import math

from ragassay.report.rounding import rounded
from ragassay.stats import MetricComparison, NumericAgreement


def test_json_keeps_tiny_p_values() -> None:
    """Rounded to 6 decimals a p of 4.37e-7 would read as 0: p-values keep 4 digits;
    other numbers are still rounded to 6 decimals."""
    got = rounded({"kendall_p": 4.3712e-07, "mean": 4.37e-07, "m": {"p_adjusted": [1.23456e-9]}})
    assert got == {"kendall_p": 4.371e-07, "mean": 0.0, "m": {"p_adjusted": [1.235e-09]}}
    assert rounded({"wilcoxon_p": 0.0123456789}) == {"wilcoxon_p": 0.012346}


def test_a_model_is_rounded_by_its_field_names() -> None:
    """The p-value rule reads a model's field names as it reads a mapping's keys."""
    cmp = MetricComparison(n=3, mean_a=0.1234567, diff=-1e-9, wilcoxon_p=4.3712e-07,
                           p_adjusted=1.23456e-9, higher_is_better=True,
                           verdict="better")
    got = rounded(cmp)
    assert isinstance(got, MetricComparison)
    assert (got.mean_a, got.diff, got.wilcoxon_p, got.p_adjusted) == (
        0.123457, 0.0, 4.371e-07, 1.235e-09)
    assert math.copysign(1.0, got.diff) == 1.0  # no "-0.0"
    agree = NumericAgreement(label="x", metric="s.m", inverted=False, n=3, label_range=(0, 1),
                             label_range_source="given", rmse=float("nan"), bias=None,
                             pearson=0.5, pearson_p=2e-8, spearman=None, spearman_p=None,
                             kendall=None, kendall_p=None, spearman_ci=(0.1234567, 0.7654321))
    out = rounded(agree)
    assert out.rmse is None  # not computable: a state, not a number
    assert out.pearson_p == 2e-08 and out.spearman_ci == (0.123457, 0.765432)
