"""Trial 76: the console's "see" line said "2 declines they marked hallucination", which
read as if the user's decline labels were wrong; it meant two answers the judge set
aside as declines that people had marked hallucinated. `declines_marked` says so."""

from __future__ import annotations

from ragassay.report.disagreements import declines_marked


def test_the_declines_people_marked_the_problem_are_said_in_plain_words() -> None:
    assert declines_marked(2, "hallucinated", True) == (
        "2 answers the judge read as declines were marked hallucinated by people "
        "(false abstentions by their labels)")
    assert declines_marked(1, "faithful", False) == (
        "1 answer the judge read as a decline was marked not faithful by people "
        "(a false abstention by their labels)")
    assert declines_marked(0, "hallucinated", True) == ""
