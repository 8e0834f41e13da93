"""Trial 74: the headline said `right on 97 of 131 (74%)` and counted its 13 correct
abstentions apart, so no figure said how often the judge was right over all 144 labelled
probes (the user added them back by hand: 110 of 144); and the `decline` group of the
`--by kind` table read `right on 1 of 3 (33%)`, a failing kind, where 14 of its 16 were
right. `verdicts.right_on` (the one place every surface's `right on` is built) now gives
the figure with the abstentions counted too: an abstention people marked no problem is
right, one they marked a problem (a false abstention) wrong; since trial 75 that figure
leads (tests/stats/test_trial75_right_on.py)."""

from __future__ import annotations

from ragassay.stats import group_by
from ragassay.stats.calibration import Verdicts
from ragassay.stats.groups import GroupAgreement, group_cell
from ragassay.stats.table import Row, ScoreTable
from ragassay.stats.verdicts import right_on, verdict_cell
from ragassay.types import LinkedLabel, MetricSpec

FLAG = MetricSpec(name="toy.flag", kind="bool", higher_is_better=False,
                  labels=(LinkedLabel(label="hallucinated"),))


def _agreement(agree: int, n: int, abstained: int, marked: int | None,
               label: str = "hallucinated", problem: bool = True) -> GroupAgreement:
    """A verdict's counts: `agree` right of `n` compared, `abstained` apart, `marked` of
    them marked True by people."""
    return GroupAgreement(label=label, metric="toy.flag", n=n, positives=n // 2,
                          verdicts=Verdicts(agree=agree, missed=n - agree, flagged=0,
                                            problem=problem),
                          abstained=abstained, abstained_positives=marked)


def test_the_headline_figure_also_counts_the_correct_abstentions() -> None:
    a = _agreement(97, 131, 13, 0)
    assert right_on(a) == ("right on 110 of 144 (76%): 13 of 13 answers the judge read as "
                           "declines, "
                           "97 of 131 (74%) scored answers")
    # the cell leads with both figures, then what they rest on and the declines apart
    assert verdict_cell(a, "hallucinated").startswith(right_on(a) + ": misses 34 of 65 ")


def test_a_false_abstention_counts_wrong() -> None:
    """An abstention people marked a problem (hallucinated; not faithful) is wrong."""
    def lead(*counts: int, label: str = "hallucinated", problem: bool = True) -> str:
        return right_on(_agreement(*counts, label=label, problem=problem)).split(", ")[0]

    assert lead(40, 60, 4, 1) == (
        "right on 43 of 64 (67%): 3 of 4 answers the judge read as declines")
    assert lead(40, 60, 2, 2) == (
        "right on 40 of 62 (65%): 0 of 2 answers the judge read as declines")
    # a label whose problem side is False: people marked 3 of 4 faithful, 1 not
    assert lead(40, 60, 4, 3, label="faithful", problem=False) == (
        "right on 43 of 64 (67%): 3 of 4 answers the judge read as declines")
    assert lead(9, 10, 1, 0) == "right on 10 of 11 (91%): 1 of 1 answer the judge read as a decline"


def test_nothing_is_added_without_abstentions_or_what_people_marked_them() -> None:
    assert right_on(_agreement(21, 22, 0, 0)) == "right on 21 of 22 (95%)"
    # a run stored before what people marked the abstained was counted
    assert right_on(_agreement(21, 22, 3, None)) == "right on 21 of 22 (95%)"


def test_the_decline_group_reads_with_its_abstentions() -> None:
    """The `--by kind` row of 16 declines, 13 abstained (all marked not hallucinated), 3
    given a verdict of which 1 right: the row says 14 of 16, not only 1 of 3."""
    rows = [Row(id=f"s{i}", values={"toy.flag": None if i < 13 else float(i != 13)},
                labels={"hallucinated": False},
                abstained={"toy.flag": "correct"} if i < 13 else {})
            for i in range(16)]
    rows += [Row(id=f"t{i}", values={"toy.flag": float(i % 2)},
                 labels={"hallucinated": bool(i % 2)}) for i in range(8)]
    values = {("default", r.id): "decline" if r.id.startswith("s") else "faq" for r in rows}
    groups = group_by(ScoreTable.from_rows(rows, {FLAG.name: FLAG}), values, "kind",
                      n_resamples=50)
    decline, faq = groups.group("decline"), groups.group("faq")
    assert decline is not None and faq is not None
    cell = decline.agreement_of("hallucinated", "toy.flag")
    assert cell is not None
    assert group_cell(cell).startswith(
        "right on 14 of 16 (88%): 13 read as declines (right); of 3 scored as answers, 1 "
        "right (")  # (trial 89: plain words)
    other = faq.agreement_of("hallucinated", "toy.flag")
    assert other is not None and group_cell(other).startswith("right on 8 of 8 (100%): ")
