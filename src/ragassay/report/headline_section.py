"""The JSON report's `headline` section (`Headline.section`, report/headline.py): each
row's figures and the words every surface shows in its cells."""

from __future__ import annotations

from ragassay.stats import Result
from ragassay.stats.result import Pair


class HeadlineEntry(Result):
    """One row of the JSON report's `headline` section: the figures of a `HeadlineRow`
    and the words every surface shows in its cells."""

    metric: str
    label: str  # the label people give (its vocabulary name)
    inverted: bool  # the label reads the metric the other way (1 - hallucinated)
    people: float | None  # people's figure (corrected, or of all labelled); None: none yet
    people_ci: Pair | None
    all_labelled: bool | None  # every sample labelled: the labels' own figure, nothing corrected
    people_text: str  # people's cell: the figure, or why there is none
    agreement_text: str  # the judge's agreement with people (in this run, or held apart)
    # the judge's own mean (a score) or rate (a yes/no verdict), as its cell shows it: an
    # inverted link's 0-1 rate in the label's direction (`judge_turned`, `judge_own`)
    judge: float | None
    judge_text: str  # the judge's own cell, its scale and the samples it rests on
    judge_turned: bool = False  # `judge` is 1 - the metric's rate (since 2.24.0)
    judge_own: float | None = None  # the metric's own figure, on its scale (since 2.24.0)
    held_apart: str | None  # the judge's agreement on sets it was not tuned on
    # the row whose readings this one's repeat, whose cell says them (this one's
    # `agreement_text` names it): its verdicts on every labelled sample (since
    # report_version 2.14.0), or a score's values on all but a few (trial 71)
    same_as: str | None = None


class HeadlineSection(Result):
    """The JSON report's `headline` (since report_version 2.11.0): people's number first,
    as the console, the HTML report and the dashboard show it."""

    title: str
    # what people's column holds: `people (corrected)`, `people (all labelled)`, or
    # without a figure `people's labels`
    people_column: str
    rows: list[HeadlineEntry]
    note: str  # what the figures shown are
    # what to label next, or that a label is complete and what more is optional; None:
    # every linked metric has people's figure
    prompt: str | None
