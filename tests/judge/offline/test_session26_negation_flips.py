"""Session 26 (k200): polarity carried by other words than "not": "no longer", a
refusing verb ("refuses to", "declines to"), "barred from", "are denied X", "neither ...
nor" as one denial, a denied modality ("isn't possible"), "must" as a word of need, a
verb's third person against the antonym lexicon, and "proof of" / "less than" read as
no privative. Each rule both ways: it turns a flip, and leaves a faithful rewording."""

from __future__ import annotations

import pytest

from ragassay.judge.offline import Analyzer

from ...support.offline import judged

FLIPS = [
    ("The ferry company no longer carries bicycles on weekday sailings.",
     "The ferry still carries bicycles on weekday sailings."),
    ("The council refuses to collect bins left out after 8 a.m.",
     "The council collects bins left out after 8 a.m."),
    ("Players are barred from entering the pitch during the other team's warm-up.",
     "Players may enter the pitch during the other team's warm-up."),
    ("Changing your exam date isn't possible after the registration deadline.",
     "You can change your exam date after the registration deadline."),
    ("Wearing a lifejacket is optional on the lake cruise.",
     "You must wear a lifejacket on the lake cruise."),
    ("The archive rejects requests submitted without a reference number.",
     "The archive accepts requests submitted without a reference number."),
    ("The printed timetable omits the night bus routes.",
     "The printed timetable includes the night bus routes."),
    ("Neither the sauna nor the steam room is open to under-16s.",
     "Both the sauna and the steam room are open to under-16s."),
]

FAITHFUL = [
    ("The ferry company no longer carries bicycles on weekday sailings.",
     "Bicycles are no longer carried on weekday sailings."),
    ("The council refuses to collect bins left out after 8 a.m.",
     "The council won't collect bins left out after 8 a.m."),
    ("Players are barred from entering the pitch during the other team's warm-up.",
     "Players can't enter the pitch during the other team's warm-up."),
    ("Changing your exam date isn't possible after the registration deadline.",
     "After the registration deadline you can't change your exam date."),
    ("Wearing a lifejacket is optional on the lake cruise.",
     "You don't have to wear a lifejacket on the lake cruise."),
    ("Neither cash nor cheques are taken at the ticket machine.",
     "The ticket machine doesn't take cash or cheques."),
    ("Proof of address is not required to register at the surgery.",
     "No, you don't need proof of address to register at the surgery."),
    ("The stall sells tide tables.", "You can buy tide tables at the stall."),
    ("Overnight parking isn't allowed on the harbour road.",
     "You can't park overnight on the harbour road."),
]


@pytest.mark.parametrize(("context", "answer"), FLIPS)
def test_turned_polarity_is_flagged(an: Analyzer, context: str, answer: str) -> None:
    assert judged(an, [context], answer)


@pytest.mark.parametrize(("context", "answer"), FAITHFUL)
def test_same_polarity_in_other_words_is_kept(an: Analyzer, context: str,
                                              answer: str) -> None:
    assert not judged(an, [context], answer)


def test_no_later_than_is_still_a_bound(an: Analyzer) -> None:
    assert not judged(an, ["Returns must reach us no later than 30 days after delivery."],
                      "Returns have to arrive within 30 days of delivery.")
