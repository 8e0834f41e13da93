"""`eval`'s default console: the run on one screen (trial 73: about 190 lines for 144
samples, headline cells wrapped over ten lines at 100 columns). People's figure per label,
then one line per metric: the judge's figure with its interval and its agreement with
people's labels said short; the headline's notes, next step and warnings; the cost. Every
other figure (the headline's full cells, per-strategy tables with intervals, held-apart
agreement, corrected estimates, people's labels, abstentions) is in `ragassay runs show
RUN`, the full summary `eval --verbose` prints instead (`summary.print_summary`)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from rich import box
from rich.console import Console
from rich.markup import escape
from rich.table import Table

from ragassay.cli.brief_notes import (
    baseline_notes,
    judge_check_lines,
    repeats_line,
    warning_lines,
)
from ragassay.cli.cost_view import cost_text
from ragassay.cli.fmt import auroc_of, ci_text, penalty_note
from ragassay.cli.ragas_note import ragas_lines
from ragassay.console import UNWRAPPED, figure_wrapped, print_said
from ragassay.stats import BooleanAgreement, NumericAgreement
from ragassay.stats.verdicts import repeat_extent, repeated, right_on
from ragassay.terminal import counted
from ragassay.types import LACKING_INPUT

if TYPE_CHECKING:
    from ragassay.report import Report
    from ragassay.stats.calibration import Agreement

MAX_STRATEGY_COLUMNS = 3
"""Strategies shown as a column each (their means); more are left to `runs show`."""


def agreement_short(p: Agreement, of: str | None = None) -> str:
    """A metric's agreement with people's labels in a few words: the metric whose
    readings it repeats (`repeats A`, `nearly repeats B`: `verdicts.repeat_extent`), a
    verdict's `right on 21 of 22 (95%)`, a score's `AUROC 0.99 [0.94, 1.00]`, a grade's
    `Spearman 0.61`; `of`: what the AUROC ranks, said after it (`fmt.auroc_of`: `AUROC
    0.99 [0.94, 1.00] of the 1-10 rating`)."""
    if (same := repeated(p)) is not None:
        return f"{'nearly ' if repeat_extent(p) else ''}repeats {same[0]}"
    if isinstance(p, BooleanAgreement):
        if lead := right_on(p, abstentions=False):  # what it counts: `abstentions_lines`
            return lead
        if p.auroc is not None:
            return (f"AUROC {p.auroc:.2f} {ci_text(p.auroc_ci, digits=2)}"
                    + (f" of {of}" if of else ""))
    if isinstance(p, NumericAgreement) and p.spearman is not None:
        return f"Spearman {p.spearman:.2f}"
    return "-"


def _split_said(p: Agreement) -> str | None:
    """A verdict's `right on` in full where its row gives the lead alone (its abstentions
    counted, `agreement_short`): `right on 110 of 144 (76%): 14 of 14 answers the judge
    read as declines, 96 of 130 (74%) scored answers`; None where the row says it all."""
    if not isinstance(p, BooleanAgreement) or repeated(p) is not None:
        return None
    said = right_on(p)
    return said if said != right_on(p, abstentions=False) else None


def abstentions_lines(report: Report) -> list[str]:
    """Under the table, per verdict whose row gives its `right on` over every labelled
    answer, its abstentions counted, how that figure splits into the declines and the
    scored answers (trial 75: which figure is "how many it got right"; the row stays one
    line): `judge.hallucination: right on 110 of 144 (76%): 14 of 14 answers the
    judge read as declines, 96 of 130 (74%) scored answers`, which says what its row's "scored" cell
    (130/144) counts (trial 76: "scored 131/144" beside "right on 109 of 144" mixed two
    totals; trial 77: a blank "scored" cell in that row only, read as missing); beside
    its figure why it counts fewer than the labelled samples where some were left
    unscored (`left_out_why`; trial 78: the demo's "right on 22 of 23" of 24 samples was
    explained only at the bottom): `right on 22 of 23 (96%; 1 sample has no answer): ...`;
    under it, as the headline says it, how many of the right ones are declines the judge
    did not check, and the command that lists them (`headline.unchecked_line`)."""
    if report.calibration is None:
        return []
    out, seen = [], set()
    for p in report.calibration.pairs:
        if p.metric in seen:
            continue
        seen.add(p.metric)
        said = _split_said(p)
        lead = right_on(p, abstentions=False) if isinstance(p, BooleanAgreement) else ""
        why = left_out_why(report, p) if lead and repeated(p) is None else ""  # a verdict
        if why:  # lead ends "(96%)": the reason inside its brackets
            said = f"{lead[:-1]}; {why}){(said or lead)[len(lead):]}"
        if said is not None:
            out.append(f"{p.metric}: {said}")
        if said is not None or lead:  # the headline's count of declines it never checked,
            # a line of its own naming the metric (not indented: no continuation of the
            # line above, which a pipe prints whole)
            out.extend(f"{p.metric}: {r.unchecked}" for r in report.headline.rows
                       if r.metric == p.metric and r.unchecked)
    return out


def left_out_why(report: Report, p: Agreement) -> str:
    """Why a verdict's agreement counts fewer samples than people labelled, besides its
    abstentions: its labelled samples left unscored, by the input they lack where every
    sample the metric left unscored is one of them, for one such reason (`1 sample has
    no answer`, `2 samples have no contexts`), else counted (`3 labelled samples
    unscored`); "" where none was."""
    if not p.unscored:
        return ""
    figure = report.per_metric_statistics.get(p.metric)
    reasons = (figure.unscored_reasons or {}) if figure is not None else {}
    lacks = LACKING_INPUT.get(next(iter(reasons), ""))
    if len(reasons) == 1 and sum(reasons.values()) == p.unscored and lacks:
        return f"{counted(p.unscored, 'sample')} {'has' if p.unscored == 1 else 'have'} no {lacks}"
    return f"{counted(p.unscored, 'labelled sample')} unscored"


def notes_said(report: Report) -> list[str]:
    """The notes under the table (`brief_notes`): what the rows marked "repeats" mean,
    and what the ragas suite is where they name its metric (`ragas_lines`), then what a
    reversed lexical baseline means where a metric is not above it; how many
    measurements each label's metrics are stays in `runs show` (`Report.note_lines`)."""
    said = [x for x in (repeats_line(report),) if x]
    return said + ragas_lines(said) + baseline_notes(report)


def _people_line(report: Report) -> str | None:
    """People's figure per label on one line, once per label (`HeadlineRow.people_text`:
    corrected, or of every sample labelled): `people (all labelled): hallucinated 0.333
    [0.165, 0.502]; correct 0.750 [...]`; None without one."""
    seen = {r.label: r.people_text for r in report.headline.rows if r.estimate is not None}
    if not seen:
        return None
    return f"{report.headline.people_column}: {'; '.join(seen.values())}"


def _table(report: Report, per: list[str]) -> Table:
    """One row per metric: the judge's figure (its mean or rate with the 95% CI), on how
    many samples where some metric has fewer than all (a verdict's line under the table
    says how its `right on` splits: `abstentions_lines`), the means of the strategies `per`, and the
    agreement with people's labels."""
    from ragassay.report.no_reference import needs_reference

    skipped = needs_reference(report)  # said in one line under the table (`_metrics`)
    metrics = {n: m for n, m in report.aggregate_metrics.metrics.items() if n not in skipped}
    pairs: dict[str, Agreement] = {}
    if report.calibration is not None:
        for pair in report.calibration.pairs:
            pairs.setdefault(pair.metric, pair)
    partial = any(m.unscored or m.abstained for m in metrics.values())
    t = Table(box=box.SIMPLE_HEAD, show_edge=False, pad_edge=False)
    t.add_column("metric", no_wrap=True)
    t.add_column("judge (95% CI)", justify="right", no_wrap=True)
    if partial:
        t.add_column("scored", justify="right", no_wrap=True)
    for name in per:
        t.add_column(escape(name), justify="right", no_wrap=True)
    t.add_column("agreement with people", no_wrap=True)
    for name, m in metrics.items():
        total = m.count + m.unscored + (m.abstained or 0)
        linked = pairs.get(name)
        cells = [escape(name), "-" if m.mean is None else f"{m.mean:.3f} {m.text()}",
                 *([f"{m.count}/{total}"] if partial else [])]
        for s in per:
            entry = report.strategies[s].metrics.get(name)
            cells.append("-" if entry is None or entry.mean is None else f"{entry.mean:.2f}")
        cells.append(escape(agreement_short(linked)) if linked is not None
                     else "[dim]no labels[/dim]")
        t.add_row(*cells)
    return t


def auroc_line(report: Report) -> str | None:
    """What the table's AUROCs rank, named once under it (trial 87: "AUROC 0.90" here,
    judge.faithfulness's, and "AUROC 0.82" in `gate`, the yes/no verdict's, could not be
    told apart): `AUROC above: of judge.faithfulness's 1-10 rating, trace.adherence_ratio's
    0-1 rating` (ranked against people's labels); None without one."""
    if report.calibration is None:
        return None
    said: dict[str, str] = {}
    for p in report.calibration.pairs:
        if (p.metric in said or not isinstance(p, BooleanAgreement) or p.auroc is None
                or repeated(p) is not None or right_on(p, abstentions=False)):
            continue
        of = auroc_of(report.metric_specs.get(p.metric), p.verdicts is not None)
        said[p.metric] = f"{p.metric}'s {of.removeprefix('the ')}"
    if not said:
        return None
    return f"AUROC above: of {', '.join(said.values())}"


def _print_table(table: Table, console: Console) -> None:
    """The metrics' table as it is where it fits, else with its agreement cells wrapped
    between words (never inside a figure) and `scored` headed `n`, else a metric a block of lines
    (`console.print_whole`; trial 84: at 80 columns its figures were cut, `6.773
    [6.214, 7.`)."""
    import copy

    from ragassay.console import print_whole

    whole = [i for i, c in enumerate(table.columns) if c.header != "metric"]
    wrapped = copy.deepcopy(table)
    wrapped.columns[-1].no_wrap = False  # the agreement's words, its figures kept whole
    for c in wrapped.columns:
        c.header = "n" if c.header == "scored" else c.header  # `22/24` needs no more
    print_whole(console, [(table, whole), (wrapped, whole)])


def _headline_metrics(report: Report) -> list[tuple[str, str]]:
    """The metrics with a headline place (`MetricSpec.headline`, lower first), as (metric,
    its short name)."""
    specs = [s for s in report.metric_specs.values() if s.headline is not None]
    return [(s.name, s.short.replace("_", " "))
            for s in sorted(specs, key=lambda s: s.headline or 0)]


def scale_line(report: Report, width: int = UNWRAPPED) -> str:
    """The scales of the table's figures in one plain sentence (trial 83: `scale 0-1,
    but 1-10: ...; 0-10: ...` read as a formula): `Scales: judge.context_relevance and
    judge.faithfulness run from 1 to 10, judge.overall from 0 to 10, and every other
    metric from 0 to 1; higher is better, except for judge.hallucination.`; over lines
    no wider than `width`, broken between metrics, never inside a name (`packed`; trial
    74)."""
    from ragassay.console import packed
    from ragassay.report.no_reference import needs_reference

    other: dict[str, list[str]] = {}
    lower: list[str] = []
    skipped = needs_reference(report)  # not in the table
    for name in report.aggregate_metrics.metrics:
        spec = None if name in skipped else report.metric_specs.get(name)
        if spec is None:
            continue
        if (spec.low, spec.high) != (0, 1):
            other.setdefault(f"from {spec.low:g} to {spec.high:g}", []).append(name)
        if not spec.higher_is_better:
            lower.append(name)
    groups = [["Scales:"]]
    for i, (span, names) in enumerate(other.items()):
        verb = ("runs " if len(names) == 1 else "run ") if i == 0 else ""
        groups.append([*_listed(names), f"{verb}{span},"])
    rest = "every other metric from 0 to 1" if other else "every metric runs from 0 to 1"
    groups.append([*(["and"] if other else []), *rest.split(" ")])
    groups[-1][-1] += ";"
    unless = _listed(lower)
    groups.append(["higher", "is", "better,", "except", "for", *unless] if unless
                  else ["higher", "is", "better"])
    groups[-1][-1] += "."
    return "\n".join(packed(groups, width))


def _listed(names: list[str]) -> list[str]:
    """Names as a sentence lists them, one item each: `a,`, `b`, `and c`."""
    if len(names) < 2:
        return list(names)
    return [*(f"{n}," for n in names[:-2]), names[-2], f"and {names[-1]}"]


def _metrics(report: Report, console: Console) -> None:
    """The table, with a column per strategy where a few fit the console whole (else a
    line naming where their means are)."""
    from ragassay.console import line_width, unsplit_width
    from ragassay.report.no_reference import needs_reference, needs_reference_line

    strategies = list(report.strategies)
    per = strategies if 1 < len(strategies) <= MAX_STRATEGY_COLUMNS else []
    table = _table(report, per)
    if per and unsplit_width(console, table) > console.width:
        table, per = _table(report, []), []
    _print_table(table, console)
    if said := needs_reference_line(needs_reference(report)):
        print_said(console, said)
    for line in abstentions_lines(report):
        print_said(console, line)
    if auroc := auroc_line(report):
        print_said(console, auroc, dim=True)
    console.print(f"[dim]{escape(scale_line(report, line_width(console)))}[/dim]",
                  highlight=False)
    for name in report.aggregate_metrics.metrics:  # trial 83: an overall of 0, said why
        spec = report.metric_specs.get(name)
        if spec is not None and (note := penalty_note(spec)) is not None:
            print_said(console, note, dim=True)
    if len(strategies) > 1 and not per:
        print_said(console, f"per strategy ({', '.join(strategies)}): ragassay runs show "
                   f"{report.run.run_id}", dim=True)


def see_line(verdicts: str | None, report: Report) -> str | None:
    """The "see" line: the verdicts' disagreements (`disagree_lines`), and how many
    answers the judge read as declines, which `runs show --disagree` lists too (trial 87:
    a right answer read as a decline counts right and was listed nowhere): `... --disagree
    lists them, and the 8 answers the judge read as declines (check each)`."""
    from ragassay.report.disagreements import DISAGREE
    from ragassay.stats.verdicts import judge_declines

    n = sum(a.abstained for a in (report.abstentions or {}).values())
    if not n:
        return verdicts
    if verdicts:
        return f"{verdicts}, and the {judge_declines(n)} (check each)"
    return (f"{DISAGREE.format(run=report.run.run_id)} lists the {judge_declines(n)} "
            "(check each)")


def print_brief(report: Report, console: Console, judge_check: bool = False) -> None:
    """The run on one screen (module docstring), with its figures as published;
    `judge_check` (`eval --judge-check`): the warnings on the system's figures left out,
    counted on one line (`judge_check_lines`)."""
    from ragassay.report import published
    from ragassay.report.disagreements import abstentions_short, disagree_lines

    report = published(report)
    meta = report.run
    console.print(f"[bold]run {meta.run_id}[/bold]  dataset {escape(meta.dataset)}  "
                  f"judge {escape(meta.judge)}  samples {meta.total_samples}",
                  highlight=False)
    head = report.headline
    if (people := _people_line(report)) is not None:  # its intervals whole (trial 84)
        console.print(escape(figure_wrapped(console, people)), highlight=False)
    if report.aggregate_metrics.metrics:
        _metrics(report, console)
    if report.groups is not None:  # --by KEY: the headline's figures per group
        from ragassay.cli.groups_view import print_groups_short

        print_groups_short(report.groups, _headline_metrics(report), console, meta.run_id)
    # every line of words below broken only between words, never before a number
    # (`console.print_said`): at 60 columns rich split intervals
    for line in notes_said(report):  # plain words, each with what to do
        print_said(console, line, head="note")
    if head.prompt:
        print_said(console, head.prompt, head="next")
    verdicts, _ = disagree_lines(report)
    if said := see_line(verdicts, report):
        print_said(console, said, head="see")
    if said := abstentions_short(report):  # in full: `runs show` (`summary`)
        print_said(console, said)
    if judge_check:  # the warnings on the system's figures counted, not said
        for line in judge_check_lines(report):
            print_said(console, line, dim=True)
    else:
        for line in warning_lines(report):  # those on what people's labels measure
            print_said(console, line, head="warning")
    usage = report.usage
    print_said(console, f"judge calls {usage.calls}, tokens "
               f"{usage.input_tokens + usage.output_tokens}, {cost_text(report)}")
    if usage.batch is not None:
        print_said(console, usage.batch.describe())
    if report.hops is not None:
        from ragassay.cli.summary import print_hops

        print_hops(report.hops, console)
    if report.routing is not None:
        from ragassay.cli.routing_view import print_routing

        print_routing(report.routing, console)
    print_said(console, last_line(report), dim=True)


def last_line(report: Report) -> str:
    """Where every table is: `every table (per strategy, ..., the headline in full):
    ragassay runs show RUN, or eval --verbose`; with `--by KEY`, what `runs show RUN --by
    KEY` adds too (`groups_pointer`; trial 87: said on a line of its own before)."""
    run_id = report.run.run_id
    said = (f"every table (per strategy, held-apart agreement, corrected estimates, people's "
            f"labels, the headline in full): ragassay runs show {run_id}, or eval --verbose")
    if report.groups is None:
        return said
    from ragassay.cli.groups_view import groups_pointer

    return (f"every table (per strategy, held-apart agreement, corrected estimates, people's "
            f"labels, the headline in full; {groups_pointer(report.groups)}): ragassay runs "
            f"show {run_id} [--by {report.groups.key}], or eval --verbose")
