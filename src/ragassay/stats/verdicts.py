"""The sentences a headline cell says of a yes/no verdict against people's labels (the
headline's text, report/headline.py) and a group's cell under `--by KEY`
(`groups.group_cell`, which a printed group says too): how often its verdicts are right,
first; then what it misses and flags; the answers that abstained (no verdict) apart, with
what people marked them; and the samples left out. Here, below the groups, so that a
group can say its own cell."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Protocol

from ragassay.labels import problem_value
from ragassay.stats.calibration import (
    Agreement,
    BooleanAgreement,
    Verdicts,
    left_out_text,
    same_values_text,
)
from ragassay.terminal import counted


class Counted(Protocol):
    """What has a yes/no verdict's counts: the run's agreement (`BooleanAgreement`), or
    one group's (`groups.GroupAgreement`)."""

    @property
    def n(self) -> int: ...
    @property
    def verdicts(self) -> Verdicts | None: ...
    @property
    def positives(self) -> int | None: ...
    @property
    def abstained(self) -> int: ...
    @property
    def unscored(self) -> int: ...
    @property
    def abstained_positives(self) -> int | None: ...
    @property
    def abstained_false(self) -> int | None: ...
    @property
    def labelled(self) -> int: ...


@dataclass(frozen=True)
class Declines:
    """A verdict's labelled samples none of which has a value (the calibration's skipped
    link: no verdict to compare), said as `verdict_cell` says the abstentions beside
    verdicts, with what people marked them (issue #38: 32 labelled answers that all
    declined left the headline without its rows)."""

    abstained: int
    unscored: int
    abstained_positives: int
    problem: bool  # the label's value that marks a problem (`Verdicts.problem`)
    abstained_false: int | None = None  # of the abstained, those counted false
    n: int = 0  # no verdict compared
    positives: int = 0

    @property
    def verdicts(self) -> Verdicts:
        return Verdicts(agree=0, missed=0, flagged=0, problem=self.problem)

    @property
    def labelled(self) -> int:
        return self.abstained + self.unscored

    @classmethod
    def of(cls, label: str, abstained: int | None, unscored: int | None,
           abstained_positives: int | None, abstained_false: int | None = None
           ) -> Declines | None:
        """The declines of labelled samples that all lack a value (the run's skipped link,
        or a group's under `--by KEY`), some abstained with a yes/no label; None
        otherwise."""
        if not abstained or abstained_positives is None:
            return None
        return cls(abstained=abstained, unscored=unscored or 0,
                   abstained_positives=abstained_positives, problem=problem_value(label),
                   abstained_false=abstained_false)


def pair_text(low: float | None, high: float | None) -> str:
    return "" if low is None or high is None else f" [{low:.2f}, {high:.2f}]"


OFFSET = "misses and false flags partly offset: a close rate is not agreement"


def offset_text(v: Verdicts | None) -> str:
    """`OFFSET` where the verdicts both miss problems people marked and flag samples they
    did not: the verdict's rate nets the two, so a rate close to people's is not
    agreement (the headline's judge cell says it beside people's rate); "" otherwise."""
    return OFFSET if v is not None and v.missed > 0 and v.flagged > 0 else ""


def marked(label: str, problem: bool) -> str:
    """What people marked, said from the problem side: `hallucinated`, `not faithful`."""
    return label if problem else f"not {label}"


def _sides(v: Verdicts, n: int, positives: int, label: str) -> str:
    """What a verdict misses of the problems people marked and flags of the rest, over the
    samples compared, from the label's problem side (`Verdicts.problem`): `misses 28 of 80
    people marked hallucinated, flags 18 of 55 they did not`, `misses 5 of 10 people
    marked not faithful, flags 0 of 30 they marked faithful` (a side without labels is
    not said)."""
    problems = positives if v.problem else n - positives
    fine = n - problems
    sides = [f"misses {v.missed} of {problems} people marked {marked(label, v.problem)}"
             ] if problems else []
    if fine:
        if v.problem:
            whom = "they did not" if problems else f"people did not mark {label}"
        else:
            whom = f"{'they' if problems else 'people'} marked {label}"
        sides.append(f"flags {v.flagged} of {fine} {whom}")
    return ", ".join(sides)


def verdict_cell(a: Counted, label: str) -> str:
    """How often a metric's yes/no verdict is right by people's labels, over its verdicts,
    that figure first (trial 59: it ended a cell of 14 lines), then what it rests on; the
    answers that abstained (no verdict: the judge read no claim to check) said apart, with
    what people marked them (trial 71: `right on 118 of 144` counted 16 declines the judge
    never read as right): `right on 100 of 128 (78%): misses 15 of 80 people marked
    hallucinated, flags 13 of 48 they did not; 16 declines abstained, none marked
    hallucinated by people`; `; 2 unscored not counted` after. A run stored before what
    people marked the abstained was counted says them apart (`; 9 abstained not
    counted`). With no verdict, the abstentions alone (`Declines`, or a `--by KEY` group
    of declines), counted as `right_on` counts them beside verdicts, so that the groups'
    right counts add up to the headline's (`all_declines`; a decline group said "no
    verdict compared" under a headline that counted its declines right): `right on 32
    of 32 (100%), all 32 answers the judge read as declines`. "" without verdicts or
    samples counted."""
    v, declined, lead = a.verdicts, a.abstained_positives, right_on(a)
    if not lead and (alone := all_declines(a, label)):
        return alone
    apart = declines_apart(a, label)
    if v is None or a.positives is None or not (lead or apart):
        return ""
    body = f"{lead}: {_sides(v, a.n, a.positives, label)}" if lead else "no verdict compared"
    left = left_out_text(0 if declined is not None else a.abstained, a.unscored)
    return "; ".join(x for x in (body, apart, left and f"{left} not counted") if x)


def declines_split(a: Counted, label: str) -> str:
    """A group's declines and scored answers, each in plain words (trial 89: "14 of 14
    answers the judge read as declines, 0 of 2 scored answers" took a second read): `14
    read as declines (right); of 2 scored as answers, 0 right`, `3 read as declines (2
    right, 1 marked hallucinated by people)`, the judge's own reading of some declines
    after theirs (`false_declines`); "" without declines people marked, or a verdict."""
    v, right = a.verdicts, declines_right(a)
    if v is None or right is None or not a.abstained:
        return ""
    wrong = a.abstained - right
    read = "right" if not wrong else (
        f"{right} right, {wrong} marked {marked(label, v.problem)} by people")
    said = (f"{a.abstained} read as decline{'s' * (a.abstained != 1)} ({read})"
            + false_declines(a.abstained_false))
    if not a.n:
        return said
    return f"{said}; of {a.n} scored as {'answers' if a.n != 1 else 'an answer'}, {v.agree} right"


def group_verdict_cell(a: Counted, label: str) -> str:
    """A group's verdict cell (`--by KEY`): `verdict_cell`, except where some answers
    were read as declines and people marked them: the lead, then `declines_split`, then
    what the scored answers miss and flag: `right on 5 of 5 (100%): 4 read as declines
    (right); of 1 scored as an answer, 1 right (flags 0 of 1 people did not mark
    hallucinated)`."""
    split, v = declines_split(a, label), a.verdicts
    if not split or v is None or a.positives is None or not a.n:
        return verdict_cell(a, label)
    sides = _sides(v, a.n, a.positives, label)
    left = left_out_text(0, a.unscored)
    return (f"{right_on(a, abstentions=False)}: {split}" + (f" ({sides})" if sides else "")
            + (f"; {left} not counted" if left else ""))


def all_declines(a: Counted, label: str) -> str:
    """A group's cell where every labelled answer with a value to compare was read as a
    decline by the judge (none scored), counted as the headline's `right_on` counts
    declines (`declines_right`: right where people marked no problem), in its words
    (`judge_declines`), so that the groups' right counts add up to the headline's (a
    decline group said "no verdict compared" while the headline counted its declines
    right): `right on 16 of 16 (100%), all 16 answers the judge read as declines`,
    `right on 5 of 6 (83%), all 6 answers the judge read as declines; 1 marked
    hallucinated by people`, `; 2 unscored not counted` after; "" with a verdict
    compared, or without declines people marked."""
    v, right = a.verdicts, declines_right(a)
    if v is None or right is None or a.n or not a.abstained:
        return ""
    n, wrong = a.abstained, a.abstained - right
    which = ("the one answer the judge read as a decline" if n == 1
             else f"all {judge_declines(n)}")
    left = left_out_text(0, a.unscored)
    return "; ".join(x for x in (
        f"right on {right} of {n} ({right / n:.0%}), {which}",
        wrong and f"{wrong} marked {marked(label, v.problem)} by people",
        left and f"{left} not counted") if x) + false_declines(a.abstained_false)


def unchecked_text(a: Counted) -> str:
    """How many of the `right on` figure's right ones are declines the judge did not
    check (abstained: no verdict, counted right because people marked no problem; a
    plain answer the judge read as a decline counts right unseen): `Of the 11 right, 4
    are declines the judge never checked`, `Of the 11 right, 1 is ...` (a word first:
    a line of words never opens on a figure); "" where the figure counts none."""
    v, right = a.verdicts, declines_right(a)
    if v is None or not right or a.positives is None or not a.n:
        return ""
    total = v.agree + right
    verb = "is a decline" if right == 1 else "are declines"
    return f"Of the {total} right, {right} {verb} the judge never checked"


def declines_apart(a: Counted, label: str) -> str:
    """The answers that abstained, said apart from the verdicts' figure, with what people
    marked them from the problem side: `16 declines abstained, none marked hallucinated
    by people`, `1 decline abstained, 1 marked not faithful by people`; "" without
    abstained ones or what people marked them."""
    if not a.abstained or a.abstained_positives is None or a.verdicts is None:
        return ""
    wrong = _declines_wrong(a)
    return (f"{counted(a.abstained, 'decline')} abstained, {wrong or 'none'} marked "
            f"{marked(label, a.verdicts.problem)} by people" + false_declines(a.abstained_false))


def false_declines(false: int | None) -> str:
    """What a decline sentence adds where the run's own abstention metric counted some of
    its declines false (trial 72: `offline:accurate` counted one correct decline a false
    abstention while the headline read every decline right; the two count different
    things: people's mark of the answer, the judge's reading that the contexts answer the
    question), in words no reader takes for people's verdict (trial 78: "false" beside
    people's count of the same declines right): `, 1 of them where the judge read the
    contexts as answering it (its reading, not people's)`; "" where it counted none."""
    if not false:
        return ""
    return (f", {false} of them where the judge read the contexts as answering it (its "
            "reading, not people's)")


def _declines_wrong(a: Counted) -> int:
    """Of the abstained, those people marked a problem."""
    assert a.verdicts is not None and a.abstained_positives is not None
    declined = a.abstained_positives
    return declined if a.verdicts.problem else a.abstained - declined


def declines_right(a: Counted) -> int | None:
    """Of the abstained, those right by people's labels (marked no problem): the one
    count of them, which `right_on` and the abstentions line (`report.abstentions_said`)
    say (trial 78: "right on 11 of 16" beside "9 correct, 2 false" of the same declines);
    None where people did not mark them (or the metric has no verdict)."""
    if a.verdicts is None or a.abstained_positives is None:
        return None
    return a.abstained - _declines_wrong(a)


def right_on(a: Counted, abstentions: bool = True) -> str:
    """How often the yes/no verdict is people's label, the one wording of it (the
    headline's figure, `verdict_cell`'s lead, which the short summary, the `--by KEY`
    groups, the HTML, the dashboard, calibrate, meta-eval and the gate say too). Where
    some answers abstained (no verdict) and people marked them, the figure over all the
    labelled answers leads (trial 75: a group of declines read `right on 0 of 2 (0%)`
    first), an abstention right where people marked no problem (not hallucinated,
    faithful), wrong where they marked one (a false abstention: the answer should have
    said something); then how it splits, the declines and the scored answers, each as
    "right on N of M" (trial 76: "its 11 correct abstentions included; 0 of 5 on the
    answers it scored" took several reads), the scored answers' percentage where they
    are no fewer than the declines: `right on 110 of 144 (76%): 14 of 14 answers the
    judge read as declines, 96 of 130 (74%) scored answers`, `right on 11 of 16 (69%):
    11 of 11 answers the judge read as declines, 0 of 5 scored answers`.
    Without abstentions, or a run stored before what people marked them was counted,
    the verdicts' figure alone: `right on 21 of 22 (95%)`. `abstentions=False`: the lead
    alone, for a one-line row that says the rest under it. "" without a verdict
    compared."""
    v = a.verdicts
    if v is None or a.positives is None or not a.n:
        return ""
    scored = f"{v.agree} of {a.n}"
    if not a.abstained or a.abstained_positives is None:
        return f"right on {scored} ({v.agree / a.n:.0%})"
    right = declines_right(a) or 0
    agree, total = v.agree + right, a.n + a.abstained
    lead = f"right on {agree} of {total} ({agree / total:.0%})"
    if not abstentions:
        return lead
    # (trial 77: "12 of 12 declines, 0 of 4 scored answers" read as every decline right;
    # the 4 were declines the judge scored: what it set aside is said as such)
    declines = f"{right} of {judge_declines(a.abstained)}"
    share = f" ({v.agree / a.n:.0%})" if a.n >= a.abstained else ""
    return f"{lead}: {declines}, {scored}{share} scored answer{'s' * (a.n != 1)}"


def judge_declines(n: int) -> str:
    """The answers a judge read as declines (abstained: no verdict), the one wording of
    them, which `right_on`, the abstentions line and the `--disagree` listing say (trial
    80: "7 of 7 set aside as declines" and "7 of 144 declined" read as every decline in
    the data, while 9 more the judge scored): `7 answers the judge read as declines`,
    `1 answer the judge read as a decline`."""
    return f"{n} answer the judge read as a decline" if n == 1 else (
        f"{n} answers the judge read as declines")


def declined_text(label: str, abstained: int, positives: int | None, unscored: int = 0,
                  false: int | None = None) -> str:
    """What people marked the labelled samples whose answer abstained (no verdict to
    compare, so left out of the agreement, never taken for one), from the problem side:
    `people marked 0 of them hallucinated`, `people marked 2 of the 9 abstained not
    faithful` (beside unscored ones); "" without abstained ones or a yes/no label."""
    if not abstained or positives is None:
        return ""
    problem = problem_value(label)
    problems = positives if problem else abstained - positives
    which = f"the {abstained} abstained" if unscored else "them"
    return f"people marked {problems} of {which} {marked(label, problem)}" + false_declines(
        false)


def left_out_said(a: Agreement | Counted, label: str) -> str:
    """Why agreement counts fewer labels than people's figure: a labelled sample without
    a value of the metric (its answer abstains, or the metric left it unscored) has
    nothing to compare, while the corrected estimate still counts its label; what people
    marked the abstaining ones (`declined_text`): ` of 144: 13 abstained not counted,
    people marked 0 of them hallucinated`; "" when none is left out."""
    left = left_out_text(a.abstained, a.unscored)
    if not left:
        return ""
    if isinstance(a, BooleanAgreement) or not isinstance(a, Agreement):
        positives, false = a.abstained_positives, a.abstained_false
    else:  # a graded label's: no positives
        positives, false = None, None
    said = declined_text(label, a.abstained, positives, a.unscored, false)
    return f" of {a.labelled}: {left} not counted" + (f", {said}" if said else "")


def same_verdicts_text(same_as: str, labelled: int) -> str:
    """What stands for a verdict's agreement when another metric's verdicts are its own
    on every labelled sample (`Verdicts.same_as`), in the headline's words, which the
    `--by KEY` table, calibrate and meta-eval say too (trial 64: they repeated the full
    "right on 123 of 144 ..." line): `same verdicts as METRIC on all 144 labelled
    samples`."""
    on = "the one labelled sample" if labelled == 1 else f"all {labelled} labelled samples"
    return f"same verdicts as {same_as} on {on}"


def repeated(a: Agreement | None) -> tuple[str, str] | None:
    """The earlier linked metric whose readings this one's repeat, and which readings:
    `("A", "verdicts")` (`Verdicts.same_as`: the same verdict on every labelled sample),
    `("B", "values")` (`Agreement.same_values`: the same value on all but a few); None
    for a measurement of its own."""
    if isinstance(a, BooleanAgreement) and a.verdicts is not None and a.verdicts.same_as:
        return a.verdicts.same_as, "verdicts"
    if a is not None and a.same_values is not None:
        return a.same_values.metric, "values"
    return None


def repeat_text(a: Agreement) -> str | None:
    """What stands for the agreement of a metric that repeats another's readings, in
    the headline's words: `same verdicts as A on all 44 labelled samples`, `same values
    as B on all 44 labelled samples: its agreement with people is that metric's, not a
    second measurement`; None for a measurement of its own."""
    if (same := repeated(a)) is None:
        return None
    if same[1] == "verdicts":
        return same_verdicts_text(same[0], a.labelled)
    assert a.same_values is not None
    return same_values_text(a.same_values, a.labelled)


def repeat_extent(a: Agreement) -> str | None:
    """How far a metric that repeats another's readings (`repeated`) differs from it: None
    where they are the same on every labelled sample (it "repeats"), else on how many
    they are alike, `alike on 143 of 144 labelled samples` (it "nearly repeats"). The one
    rule every surface words a repeat by (trial 73: calibrate said "repeats" where the
    headline said "nearly")."""
    same = repeated(a)
    if same is None or same[1] != "values" or a.same_values is None \
            or a.same_values.samples == a.labelled:
        return None  # verdicts repeat only on every labelled sample (`same_verdicts`)
    return f"alike on {a.same_values.samples} of {a.labelled} labelled samples"


def repeat_mark(a: Agreement | None) -> str:
    """What a row that repeats another's readings says beside its metric's name: `same
    verdicts as A`, `same values as B`, or `nearly the same values as B` where they differ
    on a few labelled samples (`repeat_extent`); "" for a measurement of its own."""
    if a is None or (same := repeated(a)) is None:
        return ""
    return f"{'nearly the ' if repeat_extent(a) else ''}same {same[1]} as {same[0]}"


def repeat_phrase(a: Agreement) -> str | None:
    """`repeats A's verdicts`, `repeats B's values`, or where the values differ on a few
    labelled samples `nearly repeats B's values (alike on 143 of 144 labelled samples)`
    (`repeat_extent`); None for a measurement of its own."""
    if (same := repeated(a)) is None:
        return None
    extent = repeat_extent(a)
    return (f"{'nearly ' if extent else ''}repeats {same[0]}'s {same[1]}"
            + (f" ({extent})" if extent else ""))


def measurements_lines(pairs: Sequence[Agreement]) -> list[str]:
    """Per label some of whose linked metrics repeat another's readings (`repeated`), how
    many measurements its metrics are (trial 71: five agreement rows against
    `hallucinated` read as five results where two repeat others): `hallucinated: 5
    linked metrics, 3 measurements (C repeats A's verdicts, D repeats B's values)`, a
    metric whose values differ on a few samples `nearly repeats` (`repeat_phrase`)."""
    by_label: dict[str, list[Agreement]] = {}
    for p in pairs:
        by_label.setdefault(p.label, []).append(p)
    out = []
    for label, linked in by_label.items():
        said = [f"{p.metric} {phrase}" for p in linked
                if (phrase := repeat_phrase(p)) is not None]
        if said:
            out.append(f"{label}: {len(linked)} linked metrics, "
                       f"{len(linked) - len(said)} measurements ({', '.join(said)})")
    return out
