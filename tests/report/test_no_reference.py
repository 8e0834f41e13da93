"""The unscored line (`no_reference.unscored_line`): trial 82 read "7 metric values
unscored; top reasons: ..." without knowing which metric the values were of."""

from __future__ import annotations

from types import SimpleNamespace
from typing import Any

from ragassay.report.no_reference import unscored_line


def _report(**reasons: dict[str, int]) -> Any:
    """A report as the line reads it: per metric its unscored reasons, no metric short of
    reference answers (`needs_reference` reads the aggregates)."""
    stats = {name.replace("_", ".", 1): SimpleNamespace(unscored_reasons=r)
             for name, r in reasons.items()}
    return SimpleNamespace(per_metric_statistics=stats,
                           aggregate_metrics=SimpleNamespace(metrics={}))


def test_one_metric_is_named_in_the_line() -> None:
    got = unscored_line(_report(trace_completeness={"no relevant context sentences": 7},
                                judge_hallucination={}))
    assert got == "7 trace.completeness values unscored: no relevant context sentences (7)"


def test_several_metrics_name_the_top_two_by_count() -> None:
    got = unscored_line(_report(judge_overall={"empty answer": 2},
                                trace_completeness={"no relevant context sentences": 7},
                                judge_faithfulness={"empty answer": 1}))
    assert got == ("10 values unscored, trace.completeness (7) and judge.overall (2) of 3 "
                   "metrics: no relevant context sentences (7); empty answer (3)")
    two = unscored_line(_report(judge_overall={"empty answer": 1},
                                trace_completeness={"no relevant context sentences": 1}))
    assert two == ("2 values unscored, judge.overall (1) and trace.completeness (1): "
                   "empty answer (1); no relevant context sentences (1)")


def test_nothing_unscored_is_no_line() -> None:
    assert unscored_line(_report(judge_overall={})) == ""
