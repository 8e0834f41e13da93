"""The judge's agreement with people held apart (on human-labelled sets it was not tuned
on), said one line per metric beside a run's summary (the console's `runs show` and
eval, the dashboard's overview), and which metrics only this run's labels measure (the
headline's rows)."""

from __future__ import annotations

from ragassay.report.facts import Report
from ragassay.report.headline import headline


def reliability_lines(report: Report, metrics: list[str], after_headline: bool = False
                      ) -> list[str]:
    """The judge's agreement with people held apart (on human-labelled sets it was not
    tuned on), one line per metric measured there; then, one line each, the metrics with
    none: those this run's labels measure said measured in this run only, the rest not
    measured held apart. [] when the run stores no reliability. `after_headline` (`runs
    show`, under the headline): a metric whose headline row said its held-apart figure
    (`HeadlineRow.shows_held_apart`) is named on one line instead of said again (session
    25: each lexical baseline figure twice on one screen)."""
    rel = report.run.judge_reliability
    if rel is None:
        return []
    rows = headline(report).rows
    in_run = {r.metric for r in rows if r.in_run_text()}
    said = ({r.metric for r in rows if r.shows_held_apart() and r.held_apart}
            if after_headline else set())
    out = [rel.lines[m] for m in metrics if m in rel.metrics and m in rel.lines
           and m not in said]
    if named := [m for m in metrics if m in rel.metrics and m in rel.lines and m in said]:
        out.append(f"{rel.judge} judge, held apart: {', '.join(named)} as the headline says "
                   "above")
    none = [m for m in metrics if m in rel.lines and m not in rel.metrics]
    if rest := [m for m in none if m not in in_run]:
        out.append(f"{rel.judge} judge: no held-apart agreement with people measured (on "
                   f"human-labelled sets it was not tuned on) for {', '.join(rest)}")
    if only := [m for m in none if m in in_run]:
        out.append(f"{rel.judge} judge: agreement with people measured in this run only "
                   f"(the headline), on no held-apart set, for {', '.join(only)}")
    return out
