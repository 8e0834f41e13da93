"""A judge's measured agreement with people (`judge.reliability` loads it)."""

from __future__ import annotations

from pydantic import Field

from ragassay.types.base import Frozen

AGREEMENT_FLOOR = 0.7
"""Agreement with people below which, on some set the judge was not tuned on, its figures
are read with care: the gate warns, a diagnostics finding says so (`Agreement.weak`)."""


VERDICT_STATISTIC = "balanced accuracy"
"""The statistic of a yes/no verdict's held-apart agreement (judge.hallucination,
trace.adherence): the mean of its hit rates on people's yes and on their no, 0.5 chance
and 1 perfect as an AUROC is, so AGREEMENT_FLOOR reads it as it reads an AUROC (a verdict
has one cut, no ranking to give an AUROC; docs/trust.md)."""


class Agreement(Frozen):
    """One metric's measured agreement with people on data the judge never saw."""

    statistic: str = "AUROC"
    low: float  # the worst held-out set
    high: float  # the best held-out set
    sets: tuple[str, ...] = ()  # the held-out sets it was measured on
    lexical_low: float | None = None  # the lexical baseline's range on the same sets
    lexical_high: float | None = None

    def describe(self, judge: str, metric: str) -> str:
        """`offline judge, judge.faithfulness: AUROC 0.61-0.78 on 7 unseen human-labelled
        sets (lexical baseline 0.55-0.93)`."""
        text = (f"{judge} judge, {metric}: {self.statistic} {_span(self.low, self.high)} on "
                f"{len(self.sets)} unseen human-labelled set{'s' if len(self.sets) != 1 else ''}")
        if self.lexical_low is not None and self.lexical_high is not None:
            text += f" (lexical baseline {_span(self.lexical_low, self.lexical_high)})"
        return text

    @property
    def below_floor(self) -> bool:
        """Whether its worst held-out set is below AGREEMENT_FLOOR: the one test of a weak
        agreement (`weak`, the gate's summary and rows: `judge.reliability`)."""
        return self.low < AGREEMENT_FLOOR

    def weak(self, judge: str) -> str | None:
        """`offline judge agrees with people only at AUROC 0.60 on its worst unseen set
        (below 0.7)` when its worst held-out set is below AGREEMENT_FLOOR, else None: the
        one wording of the gate's warning and of a diagnostics finding's caveat. "Worst"
        only where there are several sets; one is named (trial 66: "its worst unseen set"
        of one set read as if others were better): `on its one unseen set, trec_dl2020`."""
        if not self.below_floor:
            return None
        where = ("its worst unseen set" if len(self.sets) > 1
                 else f"its one unseen set, {self.sets[0]}" if self.sets else "unseen data")
        return (f"{judge} judge agrees with people only at {self.statistic} {self.low:.2f} "
                f"on {where} (below {AGREEMENT_FLOOR})")


    def lowest_text(self) -> str:
        """The worst held-out set's figure, said as the lowest of the range `eval` gives
        (trial 71: the gate's `AUROC 0.64` beside eval's `0.64-0.94 on 7 unseen sets`):
        `AUROC 0.65, the lowest of 7 unseen sets (0.65-0.94)`, `Spearman 0.25 on its one
        unseen set`."""
        n, figure = len(self.sets), f"{self.statistic} {self.low:.2f}"
        if n > 1:
            return f"{figure}, the lowest of {n} unseen sets ({_span(self.low, self.high)})"
        return f"{figure} on its one unseen set" if n else f"{figure} on unseen data"


def _span(low: float, high: float) -> str:
    """`0.61-0.95`, or one figure where both ends print the same (one set)."""
    a, b = f"{low:.2f}", f"{high:.2f}"
    return a if a == b else f"{a}-{b}"


class Reliability(Frozen):
    """A judge's agreement table: per qualified metric, or nothing measured."""

    judge: str
    measured: str = ""  # date
    command: str = ""  # what reproduces it
    metrics: dict[str, Agreement] = Field(default_factory=dict)

    def of(self, metric: str) -> Agreement | None:
        return self.metrics.get(metric)

    def lines(self, metrics: list[str]) -> list[str]:
        """One line per metric of the run: its agreement, or that none was measured."""
        out = []
        for m in metrics:
            a = self.of(m)
            out.append(a.describe(self.judge, m) if a else
                       f"{self.judge} judge, {m}: no measured agreement with people")
        return out


class RunReliability(Frozen):
    """What a run stores about its judge's reliability (run meta "reliability"): the
    judge's table (`Reliability`'s fields) and one line per metric of the run, so that
    readers need not know judges."""

    judge: str
    measured: str = ""
    command: str = ""
    metrics: dict[str, Agreement] = Field(default_factory=dict)
    lines: dict[str, str] = Field(default_factory=dict)

    def weak(self, metric: str) -> str | None:
        """`Agreement.weak` of the metric's measured agreement; None where it is not weak
        or was not measured."""
        a = self.metrics.get(metric)
        return a.weak(self.judge) if a is not None else None
