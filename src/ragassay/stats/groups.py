"""Figures per group of samples: a run split by one metadata value (`ragassay report RUN
--by kind`, `EvalResult.by("kind")`).

Per group: its samples, each metric's mean (a yes/no verdict's rate) with its interval
(`describe.mean_ci`: a rate's exact one, a score's bootstrap) when the group has
`MIN_INTERVAL` values or more, and the samples it rests on when fewer than the group's
(`0.29 [0.15, 0.45] (12 scored, 4 abstained)`; counts first when most have no value:
`15 abstained; 1 scored: 1.00`), and, where its samples carry a human label a metric is
compared with, the judge's agreement with people in that group
(a yes/no verdict's counts: "right on 12 of 16"; else AUROC, or Spearman for a grade).
Groups are in the order their values first appear in the rows (the data's order).
Samples without the value (or with an empty one) are their own group, `NONE_GROUP`; past
`MAX_GROUPS` the smallest groups are pooled into one row, `OTHER_GROUP`, and the
`Groups.note` says so. The values come from the caller (`report.groups_for` reads them
from the store): the score table holds no metadata.
"""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from typing import Any

from pydantic import Field

from ragassay.stats import agreement as ag
from ragassay.stats.calibration import (
    Compared,
    LabelLink,
    SameValues,
    Verdicts,
    compared,
    default_links,
    label_problem,
    nothing_text,
    same_values_text,
    verdicts_of,
)
from ragassay.stats.describe import Interval, Scale, interval_text, mean_ci
from ragassay.stats.readings import same_values, same_verdicts
from ragassay.stats.result import Result, omitted
from ragassay.stats.table import Row, ScoreTable
from ragassay.stats.verdicts import (
    Declines,
    declined_text,
    group_verdict_cell,
    left_out_said,
    same_verdicts_text,
    verdict_cell,
)

NONE_GROUP = "(none)"
"""The group of samples without the value (missing, null or empty)."""
OTHER_GROUP = "(other)"
"""The pooled row of the smallest groups past MAX_GROUPS."""
MAX_GROUPS = 25
"""Groups shown one row each (the largest, `NONE_GROUP` always); the rest are pooled."""
MIN_INTERVAL = 5
"""A group with fewer values of a metric shows its mean without an interval (a percentile
bootstrap of 2-4 values is far too narrow; a rate's exact one, nearly the whole range)."""

RowKey = tuple[str, str]


class UnknownGroupKey(ValueError):
    """A key to group by that no sample has (one line naming the keys there are)."""


def group_name(value: Any) -> str:
    """A metadata value as its group's name: a string as it is, true/false, a number or
    a list or object as JSON; missing, null or "" is NONE_GROUP."""
    if value is None or value == "":
        return NONE_GROUP
    if isinstance(value, str):
        return value
    return json.dumps(value, ensure_ascii=False, sort_keys=True)


class GroupFigure(Interval):
    """One metric in one group: its mean (`Interval`; a yes/no verdict's rate) over the
    `count` samples scored, with an interval only from MIN_INTERVAL values, and the
    group's samples without a value (`missing`), of which `abstained` (the answer
    declined) and the others unscored."""

    missing: int = 0
    abstained: int = 0

    @property
    def unscored(self) -> int:
        return self.missing - self.abstained

    @property
    def mostly_missing(self) -> bool:
        """Most of the group's samples have no value (abstained or unscored): its figure
        rests on the fewer, and is said after their counts (`value_text`)."""
        return self.count < self.missing

    def missing_text(self) -> str:
        """`15 abstained` (`, 2 unscored`): the group's samples without a value; "" when
        none."""
        return ", ".join([*([f"{self.abstained} abstained"] if self.abstained else []),
                          *([f"{self.unscored} unscored"] if self.unscored else [])])

    def value_text(self, digits: int = 2, sep: str = " ") -> str:
        """`0.29 [0.15, 0.45]`; `0.67 (n=3)` below MIN_INTERVAL values; `-` without one.
        When some of the group's samples have no value, the samples it rests on: after
        the figure while most are scored, `0.29 [0.15, 0.45] (12 scored, 4 abstained)`;
        first when most are not, so that a rate over 1 of 16 samples does not lead as if
        over 16: `15 abstained; 1 scored: 1.00`, `9 abstained; 7 scored: 1.00 [0.59,
        1.00]`, `13 unscored; 3 scored: 0.67`, `16 abstained; none scored`. `sep` goes
        between the figure and its interval (a narrow table's "\\n")."""
        figure = "-" if self.mean is None else f"{self.mean:.{digits}f}"
        if self.mean is not None and self.ci_low is not None and self.ci_high is not None:
            figure += f"{sep}{interval_text(self.ci_low, self.ci_high, None, digits)}"
        elif self.mean is not None and not self.missing:
            figure += f" (n={self.count})"
        if not self.missing:
            return figure
        if self.mostly_missing:
            scored = f"{self.count} scored: {figure}" if self.count else "none scored"
            return f"{self.missing_text()}; {scored}"
        return f"{figure} ({self.count} scored, {self.missing_text()})"

    def __str__(self) -> str:
        return self.value_text(3)


class GroupAgreement(Result):
    """The judge against people's labels in one group, for one label and the metric it is
    compared with, over the `n` samples having both: a yes/no verdict's counts against a
    yes/no label (`verdicts`), the AUROC of the metric against a yes/no label, Spearman's
    rho against a graded one (None where not computable: one class, fewer than 3); the
    group's labelled samples left out for want of a value, as the headline counts them
    (`calibration.Agreement`). Its cell's words are `group_cell`'s."""

    label: str
    metric: str
    n: int
    verdicts: Verdicts | None = omitted()
    auroc: float | None = omitted()
    spearman: float | None = omitted()
    # why no figure is computable over the n labels: `all one class (all hallucinated)`,
    # `too few (need 3)`, `all one grade`, `the metric's values all alike`; or, when the
    # group's labelled samples all lack a value (n is 0) and no verdict counts them (a
    # score's; `verdicts` counts a verdict's abstentions), why: `all 16 abstained:
    # nothing to compare` (`calibration.nothing_text`)
    unmeasured: str | None = omitted()
    positives: int | None = omitted()  # a yes/no label: of the n, how many people marked True
    abstained: int = 0  # labelled samples left out: the answer abstained
    unscored: int = 0  # labelled samples left out: the metric gave no value
    # a yes/no label: of the `abstained`, how many people marked True (as `positives`)
    abstained_positives: int | None = omitted()
    # of the `abstained`, those the run's abstention metric counted false (2.26.0)
    abstained_false: int | None = omitted()
    # a score's: the metric whose values are its own on all but a few labelled samples of
    # the run, as `calibration.pairs[].same_values` (since report_version 2.19.0)
    same_values: SameValues | None = omitted()

    @property
    def labelled(self) -> int:
        """The group's samples with the label, compared or left out."""
        return self.n + self.abstained + self.unscored

    @property
    def measured(self) -> bool:
        """It gives a figure: a yes/no verdict's counts, an AUROC or Spearman's rho (else
        its cell says why none: `group_cell`)."""
        return (bool(self.verdicts is not None and verdict_cell(self, self.label))
                or self.auroc is not None
                or self.spearman is not None)


def link_name(metric: str, label: str) -> str:
    """A metric's agreement with a label of people's, named in words wherever the `--by
    KEY` views show it (a column's header, a line's lead; trial 78: `METRIC ~ LABEL` read
    as cryptic): `METRIC vs people (LABEL)`."""
    return f"{metric} vs people ({label})"


def group_cell(a: GroupAgreement) -> str:
    """A group's agreement cell (`--by KEY`: console, HTML), in the headline's words: a
    yes/no verdict's `verdict_cell`, its declines said apart so that a group of them
    does not read as 0 of 3 (trials 58, 71): `right on 0 of 3 (0%): flags 3 of 3 people
    did not mark hallucinated; 13 declines abstained, none marked hallucinated by people`;
    else `AUROC 0.81 on 16` (`Spearman 0.40 on 16`), else why neither (`16 labels, all
    one class (all hallucinated)`, `2 labels, too few (need 3)`), the labelled samples
    left out said as the headline does (`AUROC 0.81 (12 labels of 16: 4 abstained not
    counted, ...)`); a group of answers that all abstained, for a verdict as the headline
    says it, counted as its `right on` counts declines (`right on 16 of 16 (100%), all 16
    answers the judge read as declines`: the groups' right counts add up to the
    headline's), for a score `all 16 abstained: nothing to compare, people marked 0
    of them hallucinated`; `no labels`; a verdict that repeats another's on every
    labelled sample of the run names it (`same verdicts as METRIC on all 16 labelled
    samples`, `_twin`)."""
    if a.verdicts is not None and a.verdicts.same_as:
        return same_verdicts_text(a.verdicts.same_as, a.labelled)
    if a.verdicts is not None and (cell := group_verdict_cell(a, a.label)):
        return cell
    left = left_out_said(a, a.label)
    counted = f" ({a.n} labels{left})" if left else ""
    for name, value in (("AUROC", a.auroc), ("Spearman", a.spearman)):
        if value is not None:
            return f"{name} {value:.2f}" + (counted or f" on {a.n}")
    why = a.unmeasured or "no figure computable"
    if a.n:
        return f"{why}{counted}" if left else f"{a.n} labels, {why}"
    if not a.unmeasured:
        return "no labels"
    said = declined_text(a.label, a.abstained, a.abstained_positives, a.unscored,
                         a.abstained_false)
    return a.unmeasured + (f", {said}" if said else "")


class Group(Result):
    """One group: its name (`group_name`), its samples, each metric's figure, and the
    judge's agreement with people for each linked label and metric (`Groups.links`);
    the pooled row says how many values it pools (`pooled`)."""

    value: str
    n: int
    metrics: dict[str, GroupFigure]
    agreement: list[GroupAgreement] = Field(default_factory=list)
    pooled: int | None = omitted()

    def __str__(self) -> str:
        """The group and each metric's figure, its samples without a value first where
        most are (`decline (16 samples)`, then per metric `  METRIC: 15 abstained; 1
        scored: 1.000`), so that a printed group does not lead with a bare mean; then the
        judge's agreement with people per linked metric and label, in the words of the
        `--by KEY` tables (`  METRIC vs people (LABEL): right on 13 of 16 (81%): ...`, `group_cell`;
        trial 60: it was only in `.agreement`)."""
        return "\n".join([f"{self.value} ({self.n} samples)",
                          *(f"  {m}: {f}" for m, f in self.metrics.items()),
                          *(f"  {link_name(a.metric, a.label)}: {group_cell(a)}"
                            for a in self.agreement)])

    def agreement_of(self, label: str, metric: str) -> GroupAgreement | None:
        return next((a for a in self.agreement if a.label == label and a.metric == metric),
                    None)


class Groups(Result):
    """A run by one metadata key: each metric's `Scale` (what its figures are), the
    groups (in the order their values first appear; NONE_GROUP, then OTHER_GROUP last), the
    (label, metric) links whose agreement each group gives, and how many distinct values
    the key has (`values`: more than the rows shown when some are pooled)."""

    key: str
    scales: dict[str, Scale]
    links: list[tuple[str, str]]
    groups: list[Group]
    values: int

    def group(self, value: str) -> Group | None:
        """The group of a value, by its name (`group_name`: "(none)" for missing)."""
        return next((g for g in self.groups if g.value == value), None)

    def agreement_columns(self, twins: bool = True) -> tuple[list[tuple[str, str]], list[str]]:
        """The links some group gives a figure for (`GroupAgreement.measured`: a column of
        the `--by KEY` agreement table, a row of the HTML's), and a line for the others,
        said once instead of a cell per group (trial 61: "16 labels, all one class" in
        every row of 3 of 5 columns), links whose cells are alike in one line: `METRIC vs
        people (hallucinated), METRIC vs people (hallucinated): no figure in any kind;
        every kind: 16 labels, all one class (none hallucinated)`, or where the groups'
        cells differ `...; pricing, lookup: ...; decline: ...`; a verdict whose verdicts
        are an earlier column's on every labelled sample (`Verdicts.same_as`, as the
        headline collapses it; trial 64: a trace verdict's column identical to the judge
        suite's) is a line
        too: `METRIC vs people (hallucinated): same verdicts as OTHER on all 144 labelled
        samples`; a score whose values are an earlier column's on all but a few (the
        `same_values` of the headline's note; trial 64: the ragas suite's faithfulness
        AUROC column identical to the trace suite's adherence ratio) likewise: `METRIC vs
        people (hallucinated): same values as OTHER on all 144 labelled samples: its agreement with
        people is that metric's, not a second measurement`. `twins=False`: without those
        lines (`runs show`, whose headline says them)."""
        kept: list[tuple[str, str]] = []
        alike: dict[tuple[tuple[str, str], ...], list[str]] = {}
        repeats: list[str] = []
        for label, metric in self.links:
            found = [(g.value, g.agreement_of(label, metric)) for g in self.groups]
            if (twin := _twin_text([a for _, a in found if a is not None])) is not None:
                repeats.append(f"{link_name(metric, label)}: {twin}")
                continue
            if any(a is not None and a.measured for _, a in found):
                kept.append((label, metric))
                continue
            cells = tuple((name, group_cell(a) if a is not None else "-") for name, a in found)
            alike.setdefault(cells, []).append(link_name(metric, label))
        lines = []
        for cells, names in alike.items():
            texts: dict[str, list[str]] = {}
            for name, text in cells:
                texts.setdefault(text, []).append(name)
            said = (f"every {self.key}: {cells[0][1]}" if len(texts) == 1 else "; ".join(
                f"{', '.join(groups)}: {text}" for text, groups in texts.items()))
            lines.append(f"{', '.join(names)}: no figure in any {self.key}; {said}")
        return kept, (repeats if twins else []) + lines

    def one_label(self) -> bool:
        """Whether the links no group gives a figure for (`agreement_columns`' lines) are
        there because every group's labelled samples hold one label only (trial 88: every
        kind written all faithful or all hallucinated): then no per-group AUROC can exist,
        and the console says so in one short line (`one_label_line`)."""
        unmeasured = [(label, metric) for label, metric in self.links
                      if not any((a := g.agreement_of(label, metric)) is not None
                                 and (a.measured or _twin_text([a]) is not None)
                                 for g in self.groups)]
        return bool(unmeasured) and all(
            _one_label(g.agreement_of(label, metric)) for label, metric in unmeasured
            for g in self.groups)

    def one_label_line(self, table: bool) -> str:
        """The one short line said in place of the no-figure lines when `one_label`:
        what to read instead (`table`: the agreement table above gives each group's
        `right on N of M`)."""
        instead = (f"read each {self.key}'s right on N of M above" if table
                   else "the run's AUROC is in the headline")
        return f"every {self.key} holds one label, so no AUROC per {self.key}: {instead}"

    @property
    def note(self) -> str | None:
        """What the pooled row holds, when there is one."""
        other = self.group(OTHER_GROUP)
        if other is None or other.pooled is None:
            return None
        return (f"{self.key} has {self.values} values: the smallest {other.pooled} "
                f"({other.n} samples) are pooled in the {OTHER_GROUP} row")


def _one_label(a: GroupAgreement | None) -> bool:
    """A group's labelled samples of a link all one class: those compared (`all one
    class`) and those left out (abstained, their positives counted; none unscored)."""
    if a is None or not a.labelled or a.unscored:
        return False
    why, marked = a.unmeasured or "", set()
    if a.n:
        if not why.startswith("all one class"):
            return False
        marked.add(why.startswith("all one class (all"))
    if a.abstained:
        if a.abstained_positives not in (0, a.abstained):
            return False
        marked.add(a.abstained_positives == a.abstained)
    return len(marked) == 1


def _twin_text(found: Sequence[GroupAgreement]) -> str | None:
    """What stands for a link's column when the run's readings of it repeat an earlier
    column's (its groups' `verdicts.same_as` or `same_values`), over the run's labelled
    samples (`verdicts.same_verdicts_text`, `calibration.same_values_text`); None when
    they do not."""
    labelled = sum(a.labelled for a in found)
    for a in found:
        if a.verdicts is not None and a.verdicts.same_as:
            return same_verdicts_text(a.verdicts.same_as, labelled)
        if a.same_values is not None:
            return same_values_text(a.same_values, labelled)
    return None


def _figure(rows: Sequence[Row], metric: str, rate: bool, seed: int,
            n_resamples: int) -> GroupFigure:
    values = [v for r in rows if (v := r.value(metric)) is not None]
    seen = {"missing": len(rows) - len(values),
            "abstained": sum(metric in r.abstained for r in rows)}
    if len(values) < MIN_INTERVAL:
        mean = sum(values) / len(values) if values else None
        return GroupFigure(mean=mean, count=len(values), **seen)
    return GroupFigure(**dict(mean_ci(values, rate=rate, seed=seed,
                                      n_resamples=n_resamples)), **seen)


def _agreement(table: ScoreTable, link: LabelLink, kind: str) -> GroupAgreement:
    got = compared(table, link)
    out = GroupAgreement(label=link.label_key, metric=link.metric, n=len(got.values),
                         abstained=got.abstained, unscored=got.unscored,
                         abstained_positives=got.abstained_positives,
                         abstained_false=got.abstained_false or None)
    if not got.values and got.labelled:  # labels, none with a value
        declines = _declines(table, link, got)
        if declines is not None:  # a verdict's abstentions, counted as the headline does
            return out.model_copy(update={"verdicts": declines.verdicts,
                                          "positives": declines.positives})
        return out.model_copy(update={"unmeasured": nothing_text(got.abstained,
                                                                 got.unscored)})
    if not got.values or got.kind is None or label_problem(link.label_key, got.labels):
        return out
    if kind == "boolean":
        truth = [bool(v) for v in got.labels]
        auc = ag.auroc(got.values, truth)
        return out.model_copy(update={
            "positives": sum(truth),
            "verdicts": verdicts_of(link, table.spec(link.metric), got.values, truth),
            "auroc": auc,
            "unmeasured": None if auc is not None else
            f"all one class ({'all' if truth[0] else 'none'} {link.label_key})"})
    grades = [float(v) for v in got.labels]
    rho = ag.correlation(got.values, grades, "spearman")[0]
    return out.model_copy(update={"spearman": rho, "unmeasured": None if rho is not None
                                  else _unranked(got.values, grades)})


def _declines(table: ScoreTable, link: LabelLink, got: Compared) -> Declines | None:
    """A group's labelled samples none of which has a value of a metric that gives a
    verdict, some abstained with a yes/no label, counted as the headline counts them
    (`verdicts.Declines`: right where people marked no problem), so that a group of
    correct declines does not read "nothing to compare" under a headline that counts
    them right (trial 62); None otherwise (a score's AUROC has nothing to rank)."""
    if not table.spec(link.metric).gives_verdict:
        return None
    return Declines.of(link.label_key, got.abstained, got.unscored, got.abstained_positives,
                       got.abstained_false or None)


def _unranked(values: Sequence[float], grades: Sequence[float]) -> str:
    """Why Spearman's rho has no value (`agreement.correlation`): too few pairs, or a
    side all alike."""
    if len(values) < ag.MIN_PAIRS:
        return f"too few (need {ag.MIN_PAIRS})"
    if len(set(grades)) == 1:
        return "all one grade"
    return "the metric's values all alike"


def _links(table: ScoreTable, links: Sequence[LabelLink] | None
           ) -> list[tuple[LabelLink, str]]:
    """The links measurable over the whole table, each with its label's kind."""
    out = []
    for link in (default_links(table.label_names, table.specs.values()) if links is None
                 else links):
        if link.metric not in table.specs:
            continue
        got = compared(table, link)
        if got.values and got.kind is not None and not label_problem(link.label_key,
                                                                      got.labels):
            out.append((link, got.kind))
    return out


def _one(table: ScoreTable, name: str, rows: Sequence[Row],
         links: Sequence[tuple[LabelLink, str]], seed: int, n_resamples: int,
         twins: Mapping[tuple[str, str], str],
         alike: Mapping[tuple[str, str], tuple[str, int]]) -> Group:
    sub = ScoreTable(rows=tuple(rows), specs=table.specs)
    return Group(value=name, n=len(rows),
                 metrics={m: _figure(rows, m, table.spec(m).gives_verdict, seed, n_resamples)
                          for m in table.metrics},
                 agreement=[_twin(_agreement(sub, link, kind), twins, alike)
                            for link, kind in links])


def _twin(a: GroupAgreement, twins: Mapping[tuple[str, str], str],
          alike: Mapping[tuple[str, str], tuple[str, int]]) -> GroupAgreement:
    """`a` with its verdicts' `same_as`: the metric whose verdicts are its own on every
    labelled sample of the run (`readings.same_verdicts`, as the headline says it), or a
    score's `same_values`: the metric whose values are its own on all but a few of them
    (`readings.same_values`, as the headline's note says it), so that its column is said
    once (`Groups.agreement_columns`)."""
    key = (a.label, a.metric)
    if key in alike:
        metric, samples = alike[key]
        return a.model_copy(update={"same_values": SameValues(metric=metric, samples=samples)})
    same = twins.get(key)
    if same is None or a.verdicts is None:
        return a
    return a.model_copy(update={"verdicts": a.verdicts.model_copy(update={"same_as": same})})


def group_by(table: ScoreTable, values: Mapping[RowKey, Any], key: str, *, seed: int = 0,
             n_resamples: int = 2000, most: int = MAX_GROUPS,
             links: Sequence[LabelLink] | None = None) -> Groups:
    """The table's samples grouped by their value of `key` (`values`: a row's key ->
    its value; a row without one is in NONE_GROUP), each group's figures (see the
    module's docstring); `links` default to the label links the metrics declare."""
    members: dict[str, list[Row]] = {}  # in the order the values first appear
    for row in table.rows:
        members.setdefault(group_name(values.get(row.key)), []).append(row)
    none = members.pop(NONE_GROUP, None)
    # past `most`, the largest keep their rows (ties: the first seen), in the data's order
    largest = set(sorted(members, key=lambda name: -len(members[name]))[:most])
    shown = [name for name in members if name in largest]
    rest = [name for name in members if name not in largest]
    measured = _links(table, links)
    split: dict[bool, list[LabelLink]] = {True: [], False: []}  # a yes/no verdict's, a score's
    for link, kind in measured:
        split[kind == "boolean" and table.spec(link.metric).gives_verdict].append(link)
    twins, alike = same_verdicts(table, split[True]), same_values(table, split[False])
    args = (measured, seed, n_resamples, twins, alike)
    groups = [_one(table, name, members[name], *args) for name in shown]
    if none is not None:
        groups.append(_one(table, NONE_GROUP, none, *args))
    if rest:
        pooled = [r for name in rest for r in members[name]]
        groups.append(_one(table, OTHER_GROUP, pooled, *args)
                      .model_copy(update={"pooled": len(rest)}))
    return Groups(key=key, scales={m: Scale.of(table.spec(m)) for m in table.metrics},
                  links=[(link.label_key, link.metric) for link, _ in measured],
                  groups=groups, values=len(members) + (none is not None))
