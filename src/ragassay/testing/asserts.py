"""`assert_metrics`: the release gate as a test assertion, with a readable failure."""

from __future__ import annotations

import operator
from collections.abc import Mapping
from dataclasses import dataclass
from typing import TYPE_CHECKING

from ragassay.api import EvalResult
from ragassay.terminal import clean
from ragassay.text import did_you_mean

if TYPE_CHECKING:  # stats (scipy) is imported when a check runs, not with the plugin
    from ragassay.stats import GateResult

WORST = 3  # samples shown per failing metric
# a failing check points at the user's test line: pytest hides the frames of the plugin's
# own expected failures (a threshold missed, a metric or threshold mistyped), never of
# anything else (a bug in ragassay keeps its whole traceback)
_HIDE = operator.methodcaller("errisinstance", (AssertionError, ValueError))
_QUESTION_CHARS = 70


@dataclass(frozen=True)
class MetricsCheck:
    """What `check_metrics` found: the gate's result and the failure message."""

    gate: GateResult
    message: str

    @property
    def passed(self) -> bool:
        return self.gate.ready


def _short(text: str | None) -> str:
    line = " ".join(clean(text or "").split())
    return line if len(line) <= _QUESTION_CHARS else line[: _QUESTION_CHARS - 1] + "…"


def _worst(run: EvalResult, metric: str, higher_is_better: bool, limit: int) -> list[str]:
    """The `limit` worst samples of a metric (unscored ones after the scored), one line
    each: id, strategy, value or unscored reason, question."""
    values = run.store.metric_values(run.run_id, metric)
    sign = 1.0 if higher_is_better else -1.0
    scored = sorted((v for v in values if v[2] is not None), key=lambda v: sign * (v[2] or 0.0))
    unscored = [v for v in values if v[2] is None]
    lines = []
    for sample_id, strategy, value, reason in [*scored, *unscored][:limit]:
        sample = run.store.get_sample(run.run_id, sample_id)
        question = getattr(sample, "question", None)
        shown = f"{value:.3g}" if value is not None else f"unscored ({reason})"
        lines.append(f"    {clean(sample_id)} [{clean(strategy)}] {shown}: "
                     f"{_short(question)!r}")
    return lines


def _unknown(thresholds: Mapping[str, float], known: list[str]) -> None:
    __tracebackhide__ = _HIDE
    for name in thresholds:
        if name not in known:
            raise ValueError(f"unknown metric {name!r}{did_you_mean(name, known)}; this run has "
                             f"{', '.join(known) or 'no metrics'}")


def check_metrics(run: EvalResult, thresholds: Mapping[str, float] | None = None,
                  strict: bool = False,
                  *, worst: int = WORST, corrected: bool = False,
                  label_thresholds: Mapping[str, float] | None = None,
                  require_labels: bool = False) -> MetricsCheck:
    """Gate the run against `thresholds` ({metric: value}; None: the bars the run's
    metrics declare, their targets, as `ragassay gate` without a config); the message
    lists every check, and for each failing metric its worst samples. ValueError for a metric the
    run does not have, or a threshold outside its metric's range.

    `corrected`: per human label with enough labels, one check on the corrected 95%
    interval of people's label (`label_thresholds`, else the vocabulary's default
    threshold) is added after the first checked metric linked to it; every metric's own
    check stands
    (`stats.gate_corrected`). ValueError for a label threshold naming no
    known label (with the nearest vocabulary name) or outside its label's scale; a label
    threshold without an estimate is NOT CHECKED, and fails with `require_labels`."""
    __tracebackhide__ = _HIDE
    from ragassay.report import corrected_for, run_table
    from ragassay.stats import default_thresholds, gate, threshold_out_of_range
    from ragassay.stats.gate import STRICT_BOUND
    from ragassay.stats.gate_corrected import gate_corrected, label_threshold_problem

    rt = run_table(run.store, run.run_id)
    table = rt.table
    defaults = thresholds is None  # a metric no sample has the input for: not checked
    if thresholds is None:
        thresholds = default_thresholds(table.specs)
    _unknown(thresholds, list(table.specs))
    problem = threshold_out_of_range(thresholds, table.specs)
    if problem:
        raise ValueError(problem)
    problem = label_threshold_problem(label_thresholds or {}, table.label_names)
    if problem:
        raise ValueError(f"label_thresholds: {problem}")
    notes: tuple[str, ...] = ()
    if corrected or require_labels:
        out = gate_corrected(table, dict(thresholds), corrected_for(run.store, run.run_id, rt=rt),
                             label_thresholds, strict=strict, require_labels=require_labels,
                             defaults=defaults, run=run.run_id)
        result, notes = out.result, out.notes
    else:
        result = gate(table, dict(thresholds), strict=strict, defaults=defaults)
    failed = [c for c in result.checks if c.status == "FAIL"]
    bound = STRICT_BOUND if strict else "the mean (a verdict's rate)"
    if corrected:
        bound = f"people's 95% bounds (corrected, or all labelled) where labelled, else {bound}"
    unchecked = sum(c.status == "NOT CHECKED" for c in result.checks)
    decided = len(result.checks) - unchecked
    head = (f"ragassay: {len(failed)} of {len(result.checks)} metrics failed their "
            f"thresholds (run {run.run_id}, testing {bound})" if failed else
            f"ragassay: nothing was checked (run {run.run_id})" if not decided else
            f"ragassay: all {decided} checked metrics passed (run {run.run_id})")
    lines = [head, *(f"  note: {n}" for n in notes)]
    for c in result.checks:
        name = " -> ".join(x for x in (c.metric, c.label and f"people's {c.label}") if x)
        lines.append(f"  {c.status} {name}: {c.reason}")
    for c in failed:
        if c.metric not in table.specs:
            continue  # a label with no linked metric in the run: no samples to show
        lines.append(f"  worst samples for {c.metric}:")
        # a label check's direction is the label's: the samples are ranked by the metric's
        lines += _worst(run, c.metric, table.spec(c.metric).higher_is_better, worst)
    if failed:
        lines.append(f"  inspect: ragassay report {run.run_id} --db {run.store.label}; "
                     f"ragassay ui --db {run.store.label}")
    return MetricsCheck(result, "\n".join(lines))


def assert_metrics(run: EvalResult, thresholds: Mapping[str, float] | None = None,
                   strict: bool = False,
                   *, worst: int = WORST, corrected: bool = False,
                   label_thresholds: Mapping[str, float] | None = None,
                   require_labels: bool = False) -> None:
    """AssertionError unless every metric meets its threshold (None: the bars its metrics
    declare, their targets): the mean, or with
    `strict` the 95% CI's conservative bound (one sample has no interval: it fails
    strict checks with "too few values"); with `corrected`, on people's corrected
    interval where the run has enough human labels (see `check_metrics`). The message
    lists the failing metrics and their worst samples."""
    __tracebackhide__ = _HIDE
    check = check_metrics(run, thresholds, strict, worst=worst, corrected=corrected,
                          label_thresholds=label_thresholds, require_labels=require_labels)
    if not check.passed:
        raise AssertionError(check.message)


__all__ = ["MetricsCheck", "assert_metrics", "check_metrics"]
