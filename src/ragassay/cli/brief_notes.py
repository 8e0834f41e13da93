"""What `eval`'s short summary says under its table besides the figures (trial 75: a new
user could not act on "the lexical baseline is read backwards (0.596)", "5 linked
metrics, 3 measurements", and read eight warnings, several on context metrics their
labels do not measure, before the one number they needed): each note in plain words with
what to do, or left to `runs show` where there is nothing to do; the warnings on the
metrics people's labels measure in full, the others counted on one line that names the
command listing them (`runs show` prints every warning, `summary.print_summary`)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from ragassay.stats.baseline import baseline_lines
from ragassay.stats.verdicts import repeat_extent, repeated
from ragassay.terminal import counted

if TYPE_CHECKING:
    from collections.abc import Iterable

    from ragassay.dataset import DatasetCheck
    from ragassay.report import Report
    from ragassay.stats import Flag

MAX_WARNINGS = 10

NO_LABELS = ("judge check: no people's labels in this data, so nothing to check the judge "
             "against: give each row a labels object, {\"hallucination\": true} or false "
             "(README, \"Check the judge on your own labelled data\")")
"""What `eval --judge-check` says of data without a label (its run, or its --dry-run)."""


def repeats_line(report: Report) -> str | None:
    """Where some row's agreement repeats another's (its table cell: `repeats A`), how many
    independent readings the table's rows on each label are, which rows repeat which and
    what to do: `5 metrics on hallucination labels in this table are 3 independent
    readings:
    trace.adherence repeats judge.hallucination's verdicts; ragas.faithfulness nearly
    repeats trace.adherence_ratio's values: count each as that metric's measurement, not a
    second one` (trial 82: "five support rows are two or three measurements"); None where
    none repeats."""
    if report.calibration is None:
        return None
    said: dict[str, str] = {}
    rows: dict[str, list[int]] = {}  # per label: its rows, those that repeat another's
    for p in report.calibration.pairs:
        counts = rows.setdefault(p.label, [0, 0])
        counts[0] += 1
        if (same := repeated(p)) is not None:
            counts[1] += 1
            if p.metric not in said:
                said[p.metric] = (f"{'nearly ' if repeat_extent(p) else ''}repeats "
                                  f"{same[0]}'s {same[1]}")
    if not said:
        return None
    readings = "; ".join(f"{counted(n, 'metric')} on {label} labels in this table are "
                         f"{counted(n - same, 'independent reading')}"
                         for label, (n, same) in rows.items() if same)
    which = "; ".join(f"{m} {s}" for m, s in said.items())
    return f"{readings}: {which}: count each as that metric's measurement, not a second one"


def baseline_notes(report: Report) -> list[str]:
    """What a lexical baseline below chance means (`LexicalComparison.meaning`), said only
    where a metric linked to that label is not above it: then its agreement is no more
    than wording's; where every one is above it there is nothing to act on."""
    if report.calibration is None:
        return []
    return baseline_lines(p for p in report.calibration.pairs
                          if (b := getattr(p, "baseline", None)) is not None
                          and b.verdict != "yes")


def overall_warnings(report: Report) -> list[Flag]:
    """The whole run's warnings (a flag at `warning` level on the whole run), in order:
    what the summaries list (`warning_lines`, `summary.print_summary`) and what `eval
    --judge-check` counts instead (`judge_check_lines`)."""
    return [f for f in report.interpretation if f.level == "warning" and f.scope == "overall"]


def warning_lines(report: Report) -> list[str]:
    """The whole run's warnings: with people's labels, those on the metrics they measure
    (the headline rows with an agreement) in full, people's figure beside the judge's
    (`Headline.flag_text`), and the others on one line: `2 more warnings, on metrics
    people's labels do not measure (trace.context_relevance, trace.context_utilization):
    ragassay runs show RUN lists them`; without labels, every one (at most
    `MAX_WARNINGS`, then how many more)."""
    head, run_id = report.headline, report.run.run_id
    warnings = overall_warnings(report)
    measured = {r.metric for r in head.rows if r.agreement is not None}
    shown = [f for f in warnings if not measured or f.metric in measured]
    out = [head.flag_text(f) for f in shown[:MAX_WARNINGS]]
    listed = f"ragassay runs show {run_id} lists them"
    if len(shown) > MAX_WARNINGS:
        out.append(f"... and {len(shown) - MAX_WARNINGS} more: {listed}")
    if rest := [f.metric for f in warnings if measured and f.metric not in measured]:
        out.append(f"{counted(len(rest), 'more warning')} on metrics people's labels do not "
                   f"measure ({', '.join(rest)}): {listed}")
    return out


def judge_check_lines(report: Report) -> list[str]:
    """What `eval --judge-check` says in place of the warnings it leaves out (trial 83: a
    run made only to check the judge against people's labels read warnings about the RAG
    system, whose answers were written to be wrong): how many it left out and where they
    are; where the data has no label to check the judge against, that instead: its labels
    linked to no metric the run scores, each with how to link it (`unlinked_line`), or
    none at all."""
    if not any(r.labelled or r.estimate is not None for r in report.headline.rows):
        if (said := unlinked_line(report)) is not None:
            return [said]
        return [NO_LABELS]
    if not (warnings := overall_warnings(report)):
        return []
    return [f"judge check: {counted(len(warnings), 'warning')} on the RAG system's own "
            f"figures left out (ragassay runs show {report.run.run_id} --warnings lists "
            "them)"]


def unlinked_line(report: Report) -> str | None:
    """Where the data has people's labels but none is linked to a metric the run scores
    (a label of the user's own, a typo, a label whose metrics are in another suite), the
    judge check's line saying so, each label with how to link it (`unlinked_reason`'s
    words, the run named): `judge check: people's labels found (tone), but none is linked
    to a metric this run scores, so nothing to check the judge against: label 'tone' is
    not linked to any metric (...; link it with ragassay calibrate RUN --link
    tone=METRIC)` (new users read "no people's labels in this data" of data that had
    them); None where there is no such label."""
    cal, run_id = report.calibration, report.run.run_id
    unlinked = [s for s in cal.skipped if s.metric is None] if cal is not None else []
    if not unlinked:
        return None
    names = ", ".join(dict.fromkeys(s.label for s in unlinked))
    how = "; ".join(f"label {s.label!r} is {s.reason.replace(' RUN ', f' {run_id} ')}"
                    for s in unlinked)
    return (f"judge check: people's labels found ({names}), but none is linked to a metric "
            f"this run scores, so nothing to check the judge against: {how}")


def judge_check_plan(check: DatasetCheck | None, suites: Iterable[str]) -> str:
    """What `eval --judge-check --dry-run` says the run would check the judge against:
    people's labels of the data and the metrics of `suites` each is compared with
    (`labels.linked_metrics`), or that there is none to check it against; a dry run
    stores nothing, so the choice is kept only by the run itself."""
    from ragassay.labels import linked_metrics
    from ragassay.metrics import all_specs

    rows = check.label_rows if check is not None else {}
    if not rows:
        return NO_LABELS
    specs = list(all_specs(suites).values())
    linked = {name: [m for m, _ in linked_metrics(name, specs)] for name in rows}
    if not any(linked.values()):
        return (f"judge check: people's labels found ({', '.join(rows)}), but none is "
                "linked to a metric this run would score, so nothing to check the judge "
                "against (the run plan's note on each says how to link it)")
    said = "; ".join(f"{name} on {counted(rows[name], 'row')}, compared with "
                     f"{', '.join(metrics)}" for name, metrics in linked.items() if metrics)
    return (f"judge check: the run would check the judge against people's labels ({said}) "
            "and leave the warnings on the RAG system's own figures out of its summary")
