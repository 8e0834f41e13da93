"""A run's first headline figure in a few words, for a list of runs (`runs list`; trial
82: two runs of one file differed only by their time): people's corrected figure where
the run's labels give one, `hallucination 0.516 (people)`, else the judge's own,
`METRIC 0.630 (judge)`; read from the report's headline (`Report.headline`),
never computed apart."""

from __future__ import annotations

from ragassay.report.headline import Headline
from ragassay.store import Store
from ragassay.store.records import RunRecord

NO_FIGURE = "-"
"""What stands for a run without a headline figure: not complete, not an eval run, or
no metric linked to a label with a value."""


def first_figure(head: Headline) -> str:
    """The headline's first row's figure: people's estimate, else the judge's mean."""
    if not head.rows:
        return NO_FIGURE
    row = head.rows[0]
    if row.estimate is not None:
        return f"{row.estimate.label} {row.estimate.estimate:.3f} (people)"
    if row.judge is not None and row.judge.mean is not None:
        return f"{row.metric} {row.judge.mean:.3f} (judge)"
    return NO_FIGURE


def headline_figure(store: Store, run: RunRecord) -> str:
    """`first_figure` of a complete eval run's report (built without per-sample
    entries), `NO_FIGURE` for any other run."""
    from ragassay.report.build import build_report

    if run.status != "complete" or run.config.kind != "eval":
        return NO_FIGURE
    report = build_report(store, run.id, include_details=False, per_sample=False)
    return first_figure(report.headline)
