"""The report's headline: people's number first.

For each metric of the run that a human label is compared with (the label vocabulary's
links: a hallucination rate with `hallucinated`, a faithfulness score with it inverted,
answer similarity with `correct`, context relevance with `relevance`):

- with enough labels in the run, the headline figure is people's corrected estimate with
  its interval (`report.corrected`; "all labelled" when every sample has a label, nothing
  corrected), and beside it the judge's agreement with those labels measured in this run
  (AUROC and kappa with their intervals, or Spearman for a grade: `report.calibration`;
  for a metric that gives a yes/no verdict, first how often its verdicts are right,
  then what it misses and what it flags, then apart the answers that abstained (no
  verdict) and what people marked them; a verdict's row comes before a score's, and
  a row whose verdicts are an earlier row's on every labelled sample names that row
  instead of repeating its cell; the labelled samples without a value counted and why;
  or, when none has one, a verdict's abstentions counted alone, a score's that there is
  nothing to compare), then the judge's own mean, with the samples it rests on when some
  have no value (and, for a verdict, its rate and people's on the samples it scored, a
  base other than people's column's); a metric with labels keeps its row when the judge
  gave it no value at all (every answer abstained, every sample unscored);
- without, the judge's own mean with its interval, the judge's agreement measured on
  held-apart human-labelled sets (`RunInfo.judge_reliability`), and one line saying how
  many samples to label (`ragassay annotate RUN`) for people's figure; a label on every
  sample is said complete there, and what else could be labelled optional. People's
  column is titled for what it holds: `people's labels` when no row has a figure.

Every surface shows it first and says it in the same words, read from one object
(`Report.headline`; a row's `people_text`, `agreement_text` and `judge_text` are the
JSON's strings): the console's summary (eval, `runs show`), the HTML report's summary,
the dashboard's overview, and the JSON report's `headline` section (`Headline.section`).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field, replace

from ragassay.labels import canonical
from ragassay.report.facts import Report
from ragassay.report.flag_base import bases_of
from ragassay.report.headline_agreement import in_run
from ragassay.report.headline_links import (
    agreement_of,
    at_line,
    blocked_of,
    declines_of,
    figure_of,
    linked,
    named,
    own_figure,
    turns,
    uncompared_of,
)
from ragassay.report.headline_notes import (
    ALL_LABELLED_NOTE,
    HELD_APART_NOTE,
    HELD_APART_VERDICT_NOTE,
    IN_RUN_NOTE,
    JUDGE_NOTE,
    PEOPLE_NOTE,
    SCORED_NOTE,
    VERDICT_NOTE,
    held_apart_verdict,
    unchecked_line,
)
from ragassay.report.headline_section import HeadlineEntry, HeadlineSection
from ragassay.report.next_step import next_step
from ragassay.stats import Flag, MetricAggregate, Scale
from ragassay.stats.calibration import BooleanAgreement, NumericAgreement, left_out_text
from ragassay.stats.corrected import MIN_LABELS, CorrectedEstimate
from ragassay.stats.corrected_text import people_column
from ragassay.stats.describe import scored_text
from ragassay.stats.interpret import Target, target_for
from ragassay.stats.verdicts import (
    Declines,
    declined_text,
    offset_text,
    repeat_mark,
    repeat_text,
    repeated,
)
from ragassay.terminal import counted

HEADLINE_TITLE = "What people would say"
NO_FIGURE_COLUMN = "people's labels"
"""People's column's title when no row has people's figure: its cells say how many labels
there are ("24 labels, 30 needed", "no labels") or why none gives a figure."""


@dataclass(frozen=True)
class HeadlineRow:
    """One linked metric: people's estimate (when the run has enough labels), the judge's
    agreement with the run's labels, the judge's own mean, and the held-apart line."""

    metric: str
    label: str  # the label people give (its vocabulary name)
    judge: MetricAggregate | None
    estimate: CorrectedEstimate | None = None
    agreement: BooleanAgreement | NumericAgreement | None = None
    held_apart: str | None = None  # the judge's agreement on sets it was not tuned on
    labelled: int = 0  # samples with the label, compared or left out (`Agreement.labelled`)
    # the labelled samples by why, when none has a value of the metric to compare (`6
    # abstained`: the calibration's skipped link); None otherwise
    uncompared: str | None = None
    declined: str = ""  # then what people marked the abstaining ones (`declined_text`)
    # why there is no estimate when more labels would not give one (a value off the
    # label's scale: the corrected estimate's skipped reason)
    blocked: str | None = None
    # what the judge's own figure is: a score's mean or a yes/no verdict's rate, on the
    # metric's range (rows of one label hold a 1-10 mean beside a 0-1 rate)
    scale: Scale | None = None
    target: Target | None = None  # what its warnings judge its figure against
    # said after people's figure: " (all labelled)" of an estimate of every sample labelled
    # in a column of corrected ones (`Headline.people_column`)
    people_mark: str = ""
    inverted: bool = False  # the label reads the metric the other way (faithfulness, adherence)
    # the row before this one whose readings this one's repeat (`verdicts.repeated`: the
    # same verdicts, or a score's values): its agreement is said there, this row names it
    same_as: str | None = None
    # a verdict's labelled samples, none with a value to compare, some abstained: its
    # agreement counts the abstentions as it does beside verdicts (`verdicts.Declines`)
    declines: Declines | None = None
    # how many of its `right on` figure's right ones are declines the judge did not check,
    # and the command listing them (`unchecked_line`); "" where it counts none
    unchecked: str = ""

    def metric_text(self, mark: bool = True) -> str:
        """`<metric> (inverted)` when a high value means the label's problem is absent,
        as the corrected estimates' tables say it; with `mark`, the row it repeats
        (`B (inverted; same verdicts as A)`)."""
        said = [x for x in ("inverted" if self.inverted else "", mark and self.mark()) if x]
        return self.metric + (f" ({'; '.join(said)})" if said else "")

    def mark(self) -> str:
        """`same verdicts as A` where this row repeats another's readings (`same_as`;
        trial 71: five rows of one label read as five results): `verdicts.repeat_mark`."""
        return repeat_mark(self.agreement) if self.same_as is not None else ""

    @property
    def people_text(self) -> str:
        """People's cell, as the JSON headline's `people_text`: `hallucinated 0.352 [0.281,
        0.424]`, or without an estimate what stands there (`people_missing`)."""
        e = self.estimate
        if e is None:
            return self.people_missing()
        return f"{e.label} {figure_of(e)}{self.people_mark}"

    def people_beside(self) -> str:
        """People's figure beside the judge's in a warning line, on the metric's scale
        (not inverted; trial 64): `judge; people 0.556 [0.474, 0.637]`, `, past the
        warning line by people's labels too` where it is (trial 80: a set labelled bad on
        purpose read as an alarm about the system); on another scale, people's share of
        a yes/no label: `people's labels mark 56% hallucination`; "" else."""
        if (e := self.estimate) is None:
            return ""
        if (self.inverted or (scale := self.scale) is None
                or (e.scale.low, e.scale.high) != (scale.low, scale.high)):
            return (f"people's labels mark {e.estimate:.0%} {e.label}"
                    if e.scale.kind == "bool" else "")
        too = self.target is not None and self.target.level(e.estimate) == "warning"
        return f"judge; people {figure_of(e)}" + (
            ", past the warning line by people's labels too" if too else "")

    def people_missing(self) -> str:
        """What stands in people's column without an estimate: why, when more labels would
        not give one; else "no labels", or how many the run has of the `MIN_LABELS` a
        corrected figure needs (and, when none has a value of the metric, that there is
        nothing to compare: `6 labels, 30 needed (6 abstained: nothing to compare)`; a
        verdict's agreement counts its abstentions, `declines`)."""
        if self.blocked is not None:
            return self.blocked
        if self.labelled == 0:
            return "no labels"
        why = (f" ({self.uncompared}: nothing to compare)"
               if self.uncompared and self.declines is None else "")
        return f"{counted(self.labelled, 'label')}, {MIN_LABELS} needed{why}"

    @property
    def judge_text(self) -> str:
        """The judge's own cell, as the JSON headline's `judge_text`: for a verdict whose
        figure rests on other samples than people's, the like-for-like comparison first
        (`compared`); then its figure with its interval and scale, `mean 7.235 [6.864,
        7.622] on 1-10`, `rate 0.285 [0.215, 0.361] on 0-1` (a yes/no verdict's rate of
        yes), and the samples it rests on when not all (`rests_on`); beside people's rate,
        that a verdict's errors partly offset where it both misses and flags
        (`offset_text`; issue #38: 0.562 beside people's 0.556 read as agreement)."""
        lead, offset, figure, note, on = self.judge_parts()
        own = figure + "".join(f" ({x})" for x in (note, on) if x)
        return "; ".join(x for x in ((lead, offset, own) if lead else (own, offset)) if x) \
            or "-"

    def like_people(self) -> str:
        """The judge's figure said as people's beside it, the label's rate on 0-1 (trial 90:
        people's hallucinated 0.500 beside a faithfulness mean 6.087 on 1-10 marked
        `(inverted)`): `hallucinated 0.387 [0.218, 0.578]` of a yes/no verdict's rate
        (turned where inverted: `own_figure`), `hallucinated 0.387 at its line` of a
        score's verdicts at its line (`at_line`); "" without people's figure beside it."""
        j, a, sc = self.judge, self.agreement, self.scale
        if j is None or j.mean is None or self.estimate is None or sc is None:
            return ""
        if sc.figure == "rate" and (sc.low, sc.high) == (0, 1):
            figure, _ = own_figure(j, sc, self.metric, self.label, self.inverted)
            return f"{self.label} {figure.removeprefix('rate ').removesuffix(' on 0-1')}"
        if isinstance(a, BooleanAgreement) and a.read_as is not None and a.n:
            return f"{self.label} {a.read_as / a.n:.3f} at its line"
        return ""

    def judge_parts(self) -> tuple[str, str, str, str, str]:
        """`judge_text`'s parts: the like-for-like comparison, the offset, the figure, the
        direction it is read in (`own_figure`) and the samples it rests on ("" each where
        there is none; a narrow console shows the figure in the table, the rest under it)."""
        j, a = self.judge, self.agreement
        if j is None or j.mean is None:
            return "", "", "", "", ""
        figure, note = ((f"{j.mean:.3f} {j.text()}", "") if self.scale is None else
                        own_figure(j, self.scale, self.metric, self.label, self.inverted))
        offset = offset_text(a.verdicts if isinstance(a, BooleanAgreement) else None)
        lead = self.compared()
        if not (lead or self.estimate is not None):
            offset = ""  # no people's rate beside it
        return lead, offset, figure, note, self.rests_on()

    def rests_on(self) -> str:
        """The samples the judge's own figure rests on, when some have no value (people's
        figure is of every sample): `131 of 144 scored`; "" when every sample has one."""
        j = self.judge
        if j is None or j.mean is None:  # no figure (`judge_text`'s "-")
            return ""
        return scored_text(j.count, j.count + j.unscored + (j.abstained or 0))

    def compared(self) -> str:
        """For a yes/no verdict with people's labels compared whose figure rests on fewer
        samples than people's (`rests_on`), the judge's rate on the samples it scored and
        people's on those same samples, named as a base other than people's column's
        (trial 62: `judge 0.641 vs people 0.611 on the same 131` beside people's 0.556
        read as a second people's rate): `judge 0.641 on the 131 it scored (people 0.611
        on those 131; people's column: all 144)`, or on the labelled ones among them
        (`judge 0.519 on the 27 labelled it scored (people 0.593 on those 27; ...)`), in
        the direction the cell shows (`turns`: `both hallucinated rates`; else `both on
        this metric's scale: 1 - hallucinated`); "" otherwise."""
        j, a = self.judge, self.agreement
        e = self.estimate
        if e is not None and (said := at_line(self.label, j, a, self.kappa_cut(), e.n_total)):
            return said  # a score's rate at its line, beside people's
        if j is None or not isinstance(a, BooleanAgreement) or not self.rests_on():
            return ""
        rates = a.rates()
        if rates is None:
            return ""
        # in the label's direction where the cell turns the figure (trial 67: 0.386 beside
        # 0.614), else an inverted link's rates on the metric's scale, said so
        turned = turns(self.scale, self.inverted)
        rates = (1 - rates[0], 1 - rates[1]) if turned else rates
        scale = (f", both {self.label} rates" if turned else
                 f", both on this metric's scale: 1 - {self.label}" if self.inverted else "")
        column = f"; people's column: all {e.n_total}" if e is not None else ""
        on = "" if a.n == j.count else " labelled"
        return (f"judge {rates[0]:.3f} on the {a.n}{on} it scored (people {rates[1]:.3f} "
                f"on those {a.n}{scale}{column})")

    def people_title(self) -> str:
        """What people's figure is, to title a card holding its number by it: `people's
        hallucination rate, via <metric>`; "" without an estimate."""
        e = self.estimate
        if e is None:
            return ""
        what = f"{e.label} rate" if e.scale.kind == "bool" else f"mean {e.label}"
        return f"people's {what}, via {self.metric}"

    def in_run_text(self) -> str | None:
        """The judge's agreement measured on this run's labels in one cell, or None
        (`headline_agreement.in_run`: a verdict's `verdict_cell`, `in this run: AUROC ...,
        kappa ...`, the lexical baseline's statement)."""
        got = in_run(self)
        return got.text() if got is not None else None

    def same_text(self) -> str | None:
        """What stands for the agreement measured in this run when this row repeats
        another's readings (`same_as`, trials 59, 71: a cell repeated another's word for
        word): `same verdicts as METRIC on all 144 labelled samples`, `same values as
        ...: its agreement with people is that metric's, not a second measurement`."""
        if self.same_as is None or self.agreement is None:
            return None
        return repeat_text(self.agreement)

    def kappa_cut(self) -> str:
        """Where a score is cut into yes/no for kappa (`calibration.reads_as_label`, as
        the judge and the gate read it): ` (a score below 5.5 read as hallucinated)`, ` (a
        score of 5.5 or more read as correct)`; "" for a metric that gives its own verdict."""
        a = self.agreement
        if not isinstance(a, BooleanAgreement) or self.shows_verdicts() or self.scale is None:
            return ""
        low, high = self.scale.low, self.scale.high
        at = round(low + a.decision_threshold * (high - low), 12)
        side = f"below {at:g}" if self.inverted else f"of {at:g} or more"
        return f" (a score {side} read as {self.label})"

    @property
    def agreement_text(self) -> str:
        """The agreement cell, as the JSON headline's `agreement_text`: the judge's
        agreement measured on this run's labels; without people's figure
        (too few labels) the held-apart agreement after it; else held apart alone, or
        that none was measured held apart. People's figure without anything to compare
        says so where people's cell does not (a figure, or why none), with what people
        marked the abstaining answers: `in this run: nothing to compare (30 labels: 30
        abstained, people marked 9 of them hallucinated)`."""
        return "; ".join(self.agreement_lines(cell=True))

    def agreement_lines(self, cell: bool = False) -> list[str]:
        """The agreement's parts, a figure a line with what each ranking figure means
        (`InRun.lines`; trial 78: the narrow console's paragraph took several reads);
        `cell`: the measured ones as one part (`agreement_text`); else, under a
        verdict's `right on`, how many of its right ones are declines the judge never
        checked (`unchecked`: the console's; the JSON's cell names no run)."""
        declined = f", {self.declined}" if self.declined else ""
        said = self.estimate is None and self.blocked is None  # by `people_missing`
        nothing = (f"in this run: nothing to compare ({counted(self.labelled, 'label')}: "
                   f"{self.uncompared}{declined})" if self.uncompared and not said
                   else "")
        same = self.same_text()
        got = None if same else in_run(self)
        measured = [x for x in (([got.text()] if cell else got.lines()) if got else []) if x]
        parts: list[str] = [same] if same else measured or [nothing]
        if measured and not same and self.unchecked and not cell:
            parts.insert(1, self.unchecked)  # under the `right on` it is of (the console's)
        if self.shows_held_apart():
            parts.append(f"held apart: {self.held_apart or 'not measured'}")
        return [p for p in parts if p]

    def shows_verdicts(self) -> bool:
        """Whether the agreement cell counts the judge's yes/no verdicts against people's
        labels (`BooleanAgreement.verdicts`, or its abstentions alone: `declines`)."""
        a = self.agreement
        return (isinstance(a, BooleanAgreement) and a.verdicts is not None
                or self.declines is not None)

    def shows_held_apart(self) -> bool:
        """Whether the agreement cell gives the held-apart figure: without people's figure,
        or without an agreement measured in this run."""
        return self.estimate is None or self.in_run_text() is None

    def headline_text(self) -> str:
        """The row in one line: people's figure first when there is one."""
        head = (f"{self.metric}: people {self.people_text}; judge's own "
                f"{self.judge_text}" if self.estimate is not None
                else f"{self.metric}: judge's own {self.judge_text}")
        return f"{head}; agreement {self.agreement_text}"


@dataclass(frozen=True)
class Headline:
    """The linked metrics' rows, and the one-line prompt to label samples when some has
    no corrected estimate (None when every one has)."""

    rows: tuple[HeadlineRow, ...]
    prompt: str | None
    # per metric with a figure, the samples it is of (`flag_base.base_text`), said in its
    # warnings
    bases: Mapping[str, str] = field(default_factory=dict)

    @property
    def has_people(self) -> bool:
        return any(r.estimate is not None for r in self.rows)

    @property
    def people_column(self) -> str:
        """The title of people's column: `people (all labelled)` when every figure in it
        is of samples all labelled (nothing corrected), else `people (corrected)`
        (`corrected.people_column`); without a figure in it, `people's labels`, what its
        cells say (trial 59: the demo's "24 labels, 30 needed" under "people
        (corrected)")."""
        if not self.has_people:
            return NO_FIGURE_COLUMN
        return people_column([r.estimate for r in self.rows if r.estimate is not None])

    @property
    def people_heading(self) -> str:
        """People's column titled with its interval, where a figure in it has one (the
        HTML report's and the dashboard's tables): `people (corrected) (95% CI)`, or
        `people's labels` alone."""
        return f"{self.people_column} (95% CI)" if self.has_people else self.people_column

    @property
    def note(self) -> str:
        """What the figures shown are, in one cell (the JSON's `note`, the HTML's and the
        dashboard's caption): `note_lines` joined ("" without rows)."""
        return "; ".join(self.note_lines())

    def note_lines(self) -> list[str]:
        """What the figures shown are, only those shown, a figure a line with its meaning
        (`right on: how often ...`): people's figure (corrected, or all labelled), the
        agreement measured in this run, the held-apart one, the judge's own and the
        samples it rests on (the console's caption, a line each; trial 79: one paragraph
        took several reads, as the agreement did: `headline_agreement.InRun.lines`)."""
        people = [r.estimate for r in self.rows if r.estimate is not None]
        shown = [(any(not e.all_labelled for e in people), PEOPLE_NOTE),
                 (any(e.all_labelled for e in people), ALL_LABELLED_NOTE),
                 (any(r.in_run_text() for r in self.rows), IN_RUN_NOTE),
                 (any(r.shows_verdicts() for r in self.rows), VERDICT_NOTE),
                 (any(r.shows_held_apart() for r in self.rows), HELD_APART_NOTE),
                 (any(held_apart_verdict(r) for r in self.rows), HELD_APART_VERDICT_NOTE),
                 (any(r.judge_text != "-" for r in self.rows), JUDGE_NOTE),
                 (any(r.rests_on() for r in self.rows), SCORED_NOTE)]
        return [text for on, text in shown if on]

    def flag_text(self, flag: Flag) -> str:
        """A whole-run flag's message with the samples its figure is of (`bases`; trial 83)
        and people's figure beside (`HeadlineRow.people_beside`): the console's warnings
        and the dashboard's flags; another scope's as it is."""
        if flag.scope != "overall":
            return flag.message
        row = next((r for r in self.rows if r.metric == flag.metric), None)
        return flag.beside(row.people_beside() if row is not None else "",
                           self.bases.get(flag.metric, ""))

    def section(self) -> HeadlineSection:
        """The headline as the JSON report's `headline` section."""
        rows = [HeadlineEntry(
            metric=r.metric, label=r.label, inverted=r.inverted,
            people=r.estimate.estimate if r.estimate is not None else None,
            people_ci=(r.estimate.ci_low, r.estimate.ci_high) if r.estimate is not None
            else None,
            all_labelled=r.estimate.all_labelled if r.estimate is not None else None,
            people_text=r.people_text, agreement_text=r.agreement_text,
            judge=_shown(r), judge_own=r.judge.mean if r.judge is not None else None,
            judge_turned=turns(r.scale, r.inverted) and _shown(r) is not None,
            judge_text=r.judge_text, held_apart=r.held_apart, same_as=r.same_as)
            for r in self.rows]
        return HeadlineSection(title=HEADLINE_TITLE, people_column=self.people_column,
                               rows=rows, note=self.note, prompt=self.prompt)


def headline(report: Report) -> Headline:
    """The report's headline (see the module's docstring)."""
    cor = report.corrected
    reliability = report.run.judge_reliability
    lines = reliability.lines if reliability is not None else {}
    measured = reliability.metrics if reliability is not None else {}
    rows = []
    for metric, label, inverted in linked(report):
        est = cor.find(metric) if cor is not None else None
        judge = report.aggregate(metric)
        key = canonical(est.label) if est is not None else label
        agreement = agreement_of(report, metric, key)
        skip = uncompared_of(report, metric, key) if agreement is None else None
        if est is None and skip is None and (judge is None or judge.mean is None):
            continue  # nothing scored (no reference, say) and no label: nothing to head with
        label = named(report, key)
        line = lines.get(metric, "") if metric in measured else ""
        left = (skip.abstained or 0, skip.unscored or 0) if skip is not None else (0, 0)
        rows.append(HeadlineRow(
            metric=metric, label=label, judge=judge, estimate=est,
            agreement=agreement, held_apart=line.partition(f"{metric}: ")[2] or None,
            labelled=agreement.labelled if agreement is not None else sum(left),
            uncompared=left_out_text(*left) or None,
            declined=declined_text(label, left[0], skip.abstained_positives, left[1],
                                   skip.abstained_false)
            if skip is not None else "", declines=declines_of(report, skip),
            blocked=None if est is not None else blocked_of(report, metric, key),
            scale=Scale.of(spec) if (spec := report.spec(metric)) is not None else None,
            target=target_for(spec) if spec is not None else None,
            inverted=est.inverted if est is not None else inverted,
            unchecked=unchecked_line(agreement, report.run.run_id)))
    # people's figures first; of them (and of the rest) a yes/no verdict, whose cell says
    # how often it is right, before a score's ranking figures
    rows.sort(key=lambda r: (r.estimate is None, not r.shows_verdicts()))
    rows = _same_verdicts(rows)
    if len({r.estimate.all_labelled for r in rows if r.estimate is not None}) > 1:
        rows = [replace(r, people_mark=" (all labelled)") if r.estimate is not None
                and r.estimate.all_labelled else r for r in rows]  # in a corrected column
    return Headline(tuple(rows), next_step(report, rows), bases_of(report, report.metrics))


def _same_verdicts(rows: list[HeadlineRow]) -> list[HeadlineRow]:
    """The rows, each whose readings repeat an earlier row's (`verdicts.repeated`: the
    same verdicts on every labelled sample, or a score's values, one class per label)
    naming that row (`HeadlineRow.same_as`): the first row of a class says the agreement,
    the others name it."""
    first: dict[tuple[str, str], str] = {}  # (label, class) -> the row that says it
    out = []
    for r in rows:
        same = repeated(r.agreement)
        said = first.setdefault((r.label, same[0] if same else r.metric), r.metric)
        out.append(r if said == r.metric else replace(r, same_as=said))
    return out


def _shown(r: HeadlineRow) -> float | None:
    """The judge's figure as the row's cell shows it (`turns`); None without one."""
    mean = r.judge.mean if r.judge is not None else None
    return None if mean is None else 1 - mean if turns(r.scale, r.inverted) else mean
