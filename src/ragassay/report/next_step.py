"""The headline's next step (`Headline.prompt`): what to label next, in one line, from the
headline's rows. A label on every sample is complete: the line says so and offers the
rest as optional; a run smaller than a corrected figure needs says that only a larger run
gives one; a link that more labels would not mend says why."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Protocol

from ragassay.report.facts import Report
from ragassay.stats.corrected import MIN_LABELS, CorrectedEstimate
from ragassay.terminal import counted


class HeadlineRow(Protocol):
    """What the next step reads of a `headline.HeadlineRow` (which imports this module)."""

    @property
    def metric(self) -> str: ...
    @property
    def label(self) -> str: ...
    @property
    def labelled(self) -> int: ...
    @property
    def blocked(self) -> str | None: ...
    @property
    def estimate(self) -> CorrectedEstimate | None: ...


def next_step(report: Report, rows: Sequence[HeadlineRow]) -> str | None:
    """`label 30 samples (ragassay annotate RUN) ...` when a linked metric has no people's
    figure, in one line; None when every one has (or none is linked). A label on every
    sample is complete (`_complete`): the line leads with that, and asks for the rest as
    optional, saying what it would add (trial 59: a run labelled `hallucinated`
    throughout was told only "label 30 samples for relevance")."""
    blocked: dict[tuple[str, str], list[str]] = {}  # one line per label and reason
    for r in rows:
        if r.estimate is None and r.blocked is not None:
            blocked.setdefault((r.label, r.blocked), []).append(r.metric)
    fixes = [f"no corrected figure of {label} via {', '.join(metrics)}: {why}"
             for (label, why), metrics in blocked.items()]
    n = report.run.scored_samples
    complete = _complete(rows, n)
    missing = [r for r in rows if r.estimate is None and r.blocked is None
               and r.label not in complete]
    short = any(r.estimate is None for mine in complete.values() for r in mine)
    if not missing and not short and not (complete and fixes):
        return "; ".join(fixes) or None
    need = report.corrected.min_labels if report.corrected is not None else MIN_LABELS
    run = report.run.run_id
    if complete:
        return "; ".join([_complete_text(complete, n, need), *fixes,
                          *_asks(missing, run, need, n)])
    if not fixes and not any(r.labelled or r.estimate for r in rows):
        metrics = ", ".join(r.metric for r in missing)
        return (f"no human labels yet: label {need} samples (ragassay annotate {run}) to see "
                f"what people would say about {metrics}, and how far the judge agrees with "
                "them on this run")
    return "; ".join(fixes + _asks(missing, run, need))


def _complete(rows: Sequence[HeadlineRow], n: int) -> dict[str, list[HeadlineRow]]:
    """The rows by label whose every one of the run's `n` samples carries it: people's
    figure is of all of them, or, with fewer samples than a corrected figure needs, the
    labels are all the run can have."""
    out: dict[str, list[HeadlineRow]] = {}
    for r in rows:
        whole = (r.estimate.all_labelled if r.estimate is not None
                 else r.blocked is None and 0 < n <= r.labelled)
        if whole:
            out.setdefault(r.label, []).append(r)
    return out


def _complete_text(complete: dict[str, list[HeadlineRow]], n: int, need: int) -> str:
    """`nothing more to label for METRIC, METRIC (hallucinated is on all 144 samples)`;
    with fewer samples than a corrected figure needs, that only a larger run gives one."""
    metrics = ", ".join(r.metric for mine in complete.values() for r in mine)
    labels = " and ".join(complete)
    verb = "is" if len(complete) == 1 else "are"
    few = ("" if all(r.estimate is not None for mine in complete.values() for r in mine)
           else f"; a corrected figure needs {need} labelled samples, more than the run has")
    where = "on the one sample" if n == 1 else f"on all {n} samples"
    return f"nothing more to label for {metrics} ({labels} {verb} {where}{few})"


def _asks(missing: list[HeadlineRow], run: str, need: int, n: int | None = None
          ) -> list[str]:
    """One `label N samples for <label> ...` per label of `missing`, the nearest first;
    with `n` (the run's samples, where another label is complete) each says it is
    optional and what it would add: people's figure beside the judge's alone, or, in a
    run of fewer samples than a corrected figure needs, the judge's agreement with
    people on it."""
    asks = []
    for label in dict.fromkeys(r.label for r in missing):
        mine = [r for r in missing if r.label == label]
        have = max(r.labelled for r in mine)
        reach = need if n is None else min(need, n)
        asks.append((max(1, reach - have), label, have, mine))
    out = []
    for more, label, have, mine in sorted(asks, key=lambda a: a[0]):  # the nearest first
        metrics = ", ".join(r.metric for r in mine)
        if n is None or n >= need:
            what = f"to see what people would say about {metrics}"
        else:
            what = f"to measure {metrics} against people on this run"
        so_far = f": {have} of the {need} a corrected figure needs" if have or n is None \
            else ""
        ask = (f"label {counted(more, 'more sample' if have else 'sample')} for {label} "
               f"(ragassay annotate {run} --label {label}{so_far}) {what}")
        if n is not None:
            now = ", now the judge's figure alone" if n >= need else ""
            ask = f"optional: {ask}{now}"
        out.append(ask)
    return out
