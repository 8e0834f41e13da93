"""Trial 75: `eval --by kind` printed the decline row as `right on 0 of 2 (0%); 14 of 16
(88%) with its 14 correct abstentions` (a new user's eye lands on 0%), and the headline's
two figures left them to look up which one is "how many it got right". `right_on` (the
one wording of a verdict's agreement) now leads with the figure over every labelled
answer, the abstentions counted, then the figure over the answers it scored, without a
percentage where those are fewer than the abstentions.

Trial 76: "right on 11 of 16, its 11 correct abstentions included; 0 of 5 on the answers
it scored" took a new user several reads: the figure over every labelled answer is now
split as "right on N of M" parts, the declines, then the scored answers."""

from __future__ import annotations

from ragassay.stats.calibration import Verdicts
from ragassay.stats.groups import GroupAgreement, group_cell
from ragassay.stats.verdicts import right_on


def _agreement(agree: int, n: int, abstained: int, marked: int | None,
               label: str = "hallucinated", problem: bool = True) -> GroupAgreement:
    return GroupAgreement(label=label, metric="toy.flag", n=n, positives=n,
                          verdicts=Verdicts(agree=agree, missed=n - agree, flagged=0,
                                            problem=problem),
                          abstained=abstained, abstained_positives=marked)


def test_the_figure_over_every_labelled_answer_leads() -> None:
    assert right_on(_agreement(96, 130, 14, 0)) == (
        "right on 110 of 144 (76%): 14 of 14 answers the judge read as declines, 96 of 130 "
        "(74%) scored answers")
    assert right_on(_agreement(96, 130, 14, 0), abstentions=False) == (
        "right on 110 of 144 (76%)")


def test_a_group_of_declines_does_not_lead_with_0_percent() -> None:
    a = _agreement(0, 2, 14, 0)
    assert right_on(a) == ("right on 14 of 16 (88%): 14 of 14 answers the judge read as "
                           "declines, 0 of 2 "
                           "scored answers")
    assert "0%" not in group_cell(a).replace("(88%)", "")


def test_without_abstentions_the_verdicts_figure_alone() -> None:
    assert right_on(_agreement(0, 2, 0, 0)) == "right on 0 of 2 (0%)"
    assert right_on(_agreement(21, 22, 3, None), abstentions=False) == "right on 21 of 22 (95%)"


def test_the_split_reads_as_declines_and_scored_answers() -> None:
    assert right_on(_agreement(0, 5, 11, 0)) == (
        "right on 11 of 16 (69%): 11 of 11 answers the judge read as declines, 0 of 5 scored "
        "answers")
    assert right_on(_agreement(98, 131, 13, 2)) == (
        "right on 109 of 144 (76%): 11 of 13 answers the judge read as declines, 98 of 131 "
        "(75%) scored answers")


def test_one_of_each_is_said_in_the_singular() -> None:
    assert right_on(_agreement(1, 1, 1, 1)) == (
        "right on 1 of 2 (50%): 0 of 1 answer the judge read as a decline, 1 of 1 (100%) scored "
        "answer")


def test_a_label_whose_problem_side_is_false_counts_the_declines_people_marked_fine() -> None:
    # people marked 3 of the 4 declines faithful (no problem): 3 right
    assert right_on(_agreement(40, 60, 4, 3, label="faithful", problem=False)) == (
        "right on 43 of 64 (67%): 3 of 4 answers the judge read as declines, 40 of 60 (67%) "
        "scored answers")


def test_the_row_keeps_the_lead_alone() -> None:
    assert right_on(_agreement(0, 5, 11, 0), abstentions=False) == "right on 11 of 16 (69%)"
