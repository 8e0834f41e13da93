"""The headline's footnotes: what each figure a headline shows is, said only for the
figures shown (`Headline.note`)."""

from __future__ import annotations

from typing import Protocol

from ragassay.stats.calibration import BooleanAgreement, NumericAgreement
from ragassay.stats.describe import SCALE_NOTE
from ragassay.stats.verdicts import repeated, unchecked_text
from ragassay.types.reliability import VERDICT_STATISTIC

DISAGREE = "ragassay runs show {run} --disagree"
"""The command that lists the samples (`runs show --disagree`, `--json` for scripts);
here, below the headline, which names it too (`headline.unchecked_line`)."""

PEOPLE_NOTE = ("people (corrected): human labels on a sample corrected by every judge "
               "score (its 95% interval holds however biased the judge is)")
ALL_LABELLED_NOTE = ("people (all labelled): the labels' own rate, nothing corrected (its "
                     "95% interval is of the population the samples come from)")
IN_RUN_NOTE = "in this run: how well the judge's scores rank this run's labels"
VERDICT_NOTE = ("right on: how often the judge's yes/no verdict is people's label, over "
                "every labelled answer (a decline right where people marked no problem), "
                "then on the declines and on the scored answers apart")
JUDGE_NOTE = f"judge's own: {SCALE_NOTE}"
SCORED_NOTE = "N of M scored: the judge's figure rests on the N samples it scored, not all M"
HELD_APART_NOTE = ("held apart: how well the judge's scores ranked people's labels on sets "
                   "it was not tuned on")
HELD_APART_VERDICT_NOTE = (f"a yes/no verdict's held apart is its {VERDICT_STATISTIC}: the "
                           "mean of how often it says people's yes and people's no (0.5 is "
                           "chance)")
"""Said where a verdict's row shows its held-apart figure (a verdict has no ranking to give
an AUROC; trial 72: `held apart: not measured` beside the AUROC of the score it cuts)."""


class _Row(Protocol):
    @property
    def held_apart(self) -> str | None: ...

    def shows_held_apart(self) -> bool: ...


def held_apart_verdict(row: _Row) -> bool:
    """Whether a headline row shows a yes/no verdict's held-apart figure."""
    return row.shows_held_apart() and (row.held_apart or "").startswith(VERDICT_STATISTIC)


def unchecked_line(a: BooleanAgreement | NumericAgreement | None, run: str) -> str:
    """How many of a verdict's `right on` right ones are declines the judge did not check
    (`verdicts.unchecked_text`; a plain answer the judge read as a decline counts right
    where people marked no problem, and a reader of the headline never noticed), and the
    command that lists them under "check each": `Of the 11 right, 4 are declines the judge
    never checked: ragassay runs show RUN --disagree`; "" where none."""
    if not isinstance(a, BooleanAgreement) or repeated(a) is not None:
        return ""
    said = unchecked_text(a)
    return f"{said}: {DISAGREE.format(run=run)}" if said else ""
