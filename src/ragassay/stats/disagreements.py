"""The samples behind the headline's counts (trial 66: finding them was the first thing a
user did after "misses 16 of 80 people marked hallucinated, flags 15 of 52 they did not",
by joining the JSON's labels with its metrics by hand): per metric that gives a yes/no
verdict linked to a yes/no label, every sample the headline's `right on N of M` counts
wrong: those whose verdict is not people's label (`missed`: people marked the problem,
the verdict calls it fine; `flagged`: the verdict calls a problem people did not mark;
`calibration.verdict_side`, which `Verdicts` counts) and the answers that declined where
people marked the problem (`declined`: no verdict, said apart by
`verdicts.declines_apart`). Apart from people's labels, the answers whose
abstention is counted false (the judge read the contexts as answering, on its basis:
`Row.abstention`, which `abstention.rates_of` counts). `ragassay runs show RUN
--disagree` lists them all; the HTML report marks the verdicts' samples (not the false
abstentions)."""

from __future__ import annotations

from typing import Any, Literal

from ragassay.labels import problem_value
from ragassay.stats.calibration import (
    BooleanAgreement,
    Calibration,
    Verdicts,
    compared,
    verdict_side,
)
from ragassay.stats.result import Result, omitted
from ragassay.stats.table import Row, ScoreTable

Side = Literal["missed", "flagged", "declined"]
SIDES: tuple[Side, ...] = ("missed", "flagged", "declined")


class Disagreement(Result):
    """One sample whose verdict is not people's label: its id and strategy, the metric's
    value as scored (a verdict's 1 or 0), people's label, and the judge's reasoning in one
    line (`reason`: filled where the store is read, `report.with_reasons`)."""

    id: str
    strategy: str
    value: float
    label: Any
    reason: str | None = omitted()


class Declined(Result):
    """One sample whose answer declined (no verdict, no value) where people marked the
    problem: counted wrong by the headline (since report_version 2.22.0)."""

    id: str
    strategy: str
    label: Any
    reason: str | None = omitted()


class VerdictDisagreements(Result):
    """One linked verdict's samples the headline counts wrong, by side, in the run's
    order; `problem`: the label value that marks a problem (`Verdicts.problem`);
    `same_as`: the earlier metric whose verdicts are these on every labelled sample (its
    list is this one's)."""

    metric: str
    label: str
    inverted: bool
    problem: bool
    missed: list[Disagreement]
    flagged: list[Disagreement]
    declined: list[Declined] = []
    same_as: str | None = omitted()

    def side(self, name: Side) -> list[Disagreement] | list[Declined]:
        if name == "declined":
            return self.declined
        return self.missed if name == "missed" else self.flagged

    def wrong(self) -> int:
        """The samples listed: those `right on N of M` counts wrong (M - N), and the
        declines people marked the problem (said apart from it)."""
        return len(self.missed) + len(self.flagged) + len(self.declined)


class FalseAbstention(Result):
    """An answer that declined where the judge read the contexts as answering (outcome
    "false": the judge's reading on its basis, `AbstentionRates.basis`): its id,
    strategy, the metrics that say so, people's labels of it (a decline they saw no
    problem in is said apart by the headline), and the judge's reasoning (`reason`)."""

    id: str
    strategy: str
    metrics: list[str]
    labels: dict[str, Any]
    reason: str | None = omitted()

    def people_right(self) -> bool | None:
        """People's reading of this decline, which wins over the judge's heuristic where
        they labelled it (trial 81: the headline counted it right while the abstentions
        line and `--disagree` listed it as a possible false abstention): True where every
        yes/no label marks no problem (the headline counts it right: people agree with
        the judge's verdict), False where one marks the problem, None without one."""
        flags = [v != problem_value(k) for k, v in self.labels.items() if isinstance(v, bool)]
        return all(flags) if flags else None


class Disagreements(Result):
    """The report's `disagreements` (since report_version 2.21.0): per linked verdict the
    samples it misses and flags and the declines people marked the problem (2.22.0), and
    the abstentions counted false."""

    verdicts: list[VerdictDisagreements]
    false_abstentions: list[FalseAbstention]

    def marks(self) -> dict[tuple[str, str], list[tuple[str, Side]]]:
        """(strategy, id) -> the (metric, side) of each verdict disagreeing there (a
        metric repeating an earlier one's verdicts left out): what the HTML marks."""
        out: dict[tuple[str, str], list[tuple[str, Side]]] = {}
        for v in self.verdicts:
            if v.same_as is None:
                for side in SIDES:
                    for d in v.side(side):
                        out.setdefault((d.strategy, d.id), []).append((v.metric, side))
        return out

    def false_people(self, strategy: str | None = None) -> tuple[int, int]:
        """Of the abstentions counted false (one strategy's, or all), how many people
        labelled yes/no and how many of those they labelled right (`people_right`): the
        one count of them, which the abstentions line, `--disagree`, the HTML and the
        dashboard say (`report.people_on_false`)."""
        said = [a.people_right() for a in self.false_abstentions
                if strategy is None or a.strategy == strategy]
        return sum(x is not None for x in said), sum(x is True for x in said)

    def count(self) -> int:
        """The samples listed (a sample counted once however many metrics list it)."""
        keys = {(d.strategy, d.id) for v in self.verdicts for side in SIDES
                for d in v.side(side)}
        return len(keys | {(a.strategy, a.id) for a in self.false_abstentions})


def _verdict_rows(table: ScoreTable, pair: BooleanAgreement, v: Verdicts
                  ) -> tuple[list[Disagreement], list[Disagreement], list[Declined]]:
    """A verdict's missed, flagged and declined samples, from the rows
    `calibration.compared` reads (the ones `Verdicts` and the abstentions count)."""
    got = compared(table, pair.link())
    sides: dict[str, list[Disagreement]] = {"missed": [], "flagged": []}
    for r, x, label in zip(got.rows, got.values, got.labels, strict=True):
        side, value = verdict_side(x, bool(label), v.problem), r.value(pair.metric)
        if side is not None and value is not None:  # a compared row has its value
            sides[side].append(Disagreement(id=r.id, strategy=r.strategy, value=value,
                                            label=label))
    declined = [Declined(id=r.id, strategy=r.strategy, label=r.labels[pair.label])
                for r in got.declined if got.abstained_positives is not None
                and bool(r.labels[pair.label]) == v.problem]
    return sides["missed"], sides["flagged"], declined


def _verdict(table: ScoreTable, pair: BooleanAgreement, v: Verdicts) -> VerdictDisagreements:
    missed, flagged, declined = _verdict_rows(table, pair, v)
    return VerdictDisagreements(metric=pair.metric, label=pair.label, inverted=pair.inverted,
                                problem=v.problem, missed=missed, flagged=flagged,
                                declined=declined, same_as=v.same_as)


def _false(r: Row) -> FalseAbstention:
    return FalseAbstention(id=r.id, strategy=r.strategy,
                           metrics=[m for m, o in r.abstained.items() if o == "false"],
                           labels=dict(r.labels))


def disagreements(table: ScoreTable, cal: Calibration | None) -> Disagreements | None:
    """The samples behind each linked verdict's misses, flags and wrong declines (the
    calibration's pairs that count verdicts) and the abstentions counted false; None when
    there are neither verdicts compared nor false abstentions."""
    verdicts = [_verdict(table, p, p.verdicts) for p in (cal.pairs if cal else ())
                if isinstance(p, BooleanAgreement) and p.verdicts is not None]
    false = [_false(r) for r in table.rows if r.abstention == "false"]
    if not verdicts and not false:
        return None
    return Disagreements(verdicts=verdicts, false_abstentions=false)
