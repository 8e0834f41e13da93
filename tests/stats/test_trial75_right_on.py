"""Trial 75: `eval --by kind` printed the decline row as `right on 0 of 2 (0%); 14 of 16
(88%) with its 14 correct abstentions` (a new user's eye lands on 0%), and the headline's
two figures left them to look up which one is "how many it got right". `right_on` (the
one wording of a verdict's agreement) now leads with the figure over every labelled
answer, the abstentions counted, then the figure over the answers it scored, without a
percentage where those are fewer than the abstentions."""

from __future__ import annotations

from ragassay.stats.calibration import Verdicts
from ragassay.stats.groups import GroupAgreement, group_cell
from ragassay.stats.verdicts import right_on


def _agreement(agree: int, n: int, abstained: int, marked: int | None) -> GroupAgreement:
    return GroupAgreement(label="hallucinated", metric="toy.flag", n=n, positives=n,
                          verdicts=Verdicts(agree=agree, missed=n - agree, flagged=0,
                                            problem=True),
                          abstained=abstained, abstained_positives=marked)


def test_the_figure_over_every_labelled_answer_leads() -> None:
    assert right_on(_agreement(96, 130, 14, 0)) == (
        "right on 110 of 144 (76%), its 14 correct abstentions included; 96 of 130 (74%) "
        "on the answers it scored")
    assert right_on(_agreement(96, 130, 14, 0), abstentions=False) == (
        "right on 110 of 144 (76%)")


def test_a_group_of_declines_does_not_lead_with_0_percent() -> None:
    a = _agreement(0, 2, 14, 0)
    assert right_on(a) == ("right on 14 of 16 (88%), its 14 correct abstentions included; "
                           "0 of 2 on the answers it scored")
    assert "0%" not in group_cell(a).replace("(88%)", "")


def test_without_abstentions_the_verdicts_figure_alone() -> None:
    assert right_on(_agreement(0, 2, 0, 0)) == "right on 0 of 2 (0%)"
    assert right_on(_agreement(21, 22, 3, None), abstentions=False) == "right on 21 of 22 (95%)"
