"""`ragassay runs show RUN --disagree`: the samples behind the headline's counts, a line
each (trial 66): per linked yes/no verdict those it misses and flags of people's labels,
with the judge's value and its reasoning on one line, then the abstentions counted false.
`--json` prints the same for scripts."""

from __future__ import annotations

import json
from collections.abc import Callable

from rich.console import Console
from rich.markup import escape

from ragassay.report import Report
from ragassay.stats import BooleanAgreement
from ragassay.stats.disagreements import (
    SIDES,
    Disagreement,
    Disagreements,
    VerdictDisagreements,
)
from ragassay.stats.verdicts import marked, same_verdicts_text, verdict_cell

NOTHING = ("no yes/no verdict compared with people's labels and no abstention counted false "
           "(labels: ragassay labels import FILE, or ragassay annotate RUN)")


def disagreements_json(report: Report, found: Disagreements | None) -> str:
    """The listing as JSON: the run id, the verdicts' samples and the false abstentions
    (empty lists when there are none)."""
    data = found.model_dump(mode="json") if found is not None else {
        "verdicts": [], "false_abstentions": []}
    return json.dumps({"run_id": report.run.run_id, **data}, indent=2, ensure_ascii=False)


def print_disagreements(report: Report, found: Disagreements | None,
                        console: Console) -> None:
    """Per verdict, the headline's cell, then its missed and flagged samples, one line
    each (`  ID [STRATEGY]  METRIC VALUE; people LABEL: REASONING`); then the abstentions
    counted false."""
    def say(text: str) -> None:
        console.print(escape(text), highlight=False, soft_wrap=True)

    say(f"run {report.run.run_id}: where the judge's verdict and people's label disagree")
    if found is None:
        say(NOTHING)
        return
    several = len({r.strategy for v in found.verdicts for r in [*v.missed, *v.flagged]}
                  | {a.strategy for a in found.false_abstentions}) > 1
    for v in found.verdicts:
        _print_verdict(report, v, several, say)
    if found.false_abstentions:
        say(f"abstentions counted false (declined although the contexts held the answer): "
            f"{len(found.false_abstentions)}")
        for a in found.false_abstentions:
            where = f" [{a.strategy}]" if several else ""
            people = "".join(f"; people {k} {_said(v)}" for k, v in a.labels.items())
            say(f"  {a.id}{where}  {', '.join(a.metrics)}{people}"
                + (f": {a.reason}" if a.reason else ""))


def _print_verdict(report: Report, v: VerdictDisagreements, several: bool,
                   say: Callable[[str], None]) -> None:
    pair = next((p for p in (report.calibration.pairs if report.calibration else ())
                 if p.metric == v.metric and p.label == v.label), None)
    if v.same_as is not None and pair is not None:
        say(f"{v.metric}: {same_verdicts_text(v.same_as, pair.labelled)}: the same samples")
        return
    cell = verdict_cell(pair, v.label) if isinstance(pair, BooleanAgreement) else ""
    say(f"{v.metric} against people's {v.label}" + (f": {cell}" if cell else ""))
    problem = marked(v.label, v.problem)
    titles = {"missed": f"missed (people marked {problem}, the judge's verdict did not)",
              "flagged": f"flagged (the judge's verdict is {problem}, people did not mark it)"}
    for side in SIDES:
        rows = v.side(side)
        say(f"{titles[side]}: {len(rows)}")
        for d in rows:
            say(_line(report, v, d, several))


def _line(report: Report, v: VerdictDisagreements, d: Disagreement, several: bool) -> str:
    """`  a013  METRIC no; people hallucinated yes: 2 of 2 claims ...`."""
    spec = report.spec(v.metric)
    value = (("yes" if d.value else "no") if spec is not None and spec.kind == "bool"
             else f"{d.value:g}")
    where = f" [{d.strategy}]" if several else ""
    return (f"  {d.id}{where}  {v.metric} {value}; people {v.label} {_said(d.label)}"
            + (f": {d.reason}" if d.reason else ""))


def _said(label: object) -> str:
    """People's label as the line says it: yes / no, else its value."""
    return ("yes" if label else "no") if isinstance(label, bool) else str(label)
