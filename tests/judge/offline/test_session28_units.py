"""Session 28: a context's value given in another unit of its kind, or at another rate
(measure_kinds.py), flagged; the same value restated, converted or given per its own
rate, left alone. Sentences in our own wording."""

from __future__ import annotations

import pytest

from ragassay.judge.offline import Analyzer
from tests.support.offline import judged

_SWAPS = [
    (["Parking permits expire after 90 days."], "Parking permits expire after 90 minutes."),
    (["The canal path runs for 8 km beside the river."],
     "The canal path runs for 8 miles beside the river."),
    (["Carry-on bags may weigh up to 7 kg on this route."],
     "Carry-on bags may weigh up to 7 lb on this route."),
    (["Loyalty members save 15% on every repair."], "Loyalty members save £15 on every repair."),
    (["Kayak rental costs $12 per hour at the boathouse."],
     "Kayak rental costs $12 per day at the boathouse."),
    (["The family plan shares 50 GB between 6 users."],
     "The family plan shares 50 TB between 6 users."),
]

_KEPT = [
    (["Parking permits expire after 90 days."], "Parking permits run out after 90 days."),
    (["The canal path runs for 8 km (about 5 miles) beside the river."],
     "The canal path is about 5 miles long beside the river."),
    (["Carry-on bags may weigh up to 7 kg on this route."],
     "On this route carry-on bags can weigh up to 7 kilograms."),
    (["Loyalty members save 15% on every repair."],
     "Loyalty members save 15 percent on every repair."),
    (["Kayak rental costs $12 per hour or $40 per day at the boathouse."],
     "Kayak rental is $40 a day at the boathouse."),
    (["Backups are kept for 21 days."], "Backups are kept for 3 weeks."),
    (["Orders over £20 get 20% off gift wrapping."], "Orders over £20 get 20% off gift wrapping."),
]


@pytest.fixture(scope="module")
def an() -> Analyzer:
    return Analyzer()


@pytest.mark.parametrize(("contexts", "answer"), _SWAPS)
def test_value_in_another_unit_is_flagged(an: Analyzer, contexts: list[str],
                                          answer: str) -> None:
    assert judged(an, contexts, answer)


@pytest.mark.parametrize(("contexts", "answer"), _KEPT)
def test_value_in_its_own_unit_or_converted_is_kept(an: Analyzer, contexts: list[str],
                                                    answer: str) -> None:
    assert not judged(an, contexts, answer)


# a figure's comparison turned to the other side, the sentence otherwise restated
# (compared_sides.py); a complement (the other side with the other outcome) kept
_TURNED = [
    (["Members aged 75 and over ride the tram free."], "Members under 75 ride the tram free."),
    (["Crates heavier than 30 kg need a two-person lift."],
     "Crates lighter than 30 kg need a two-person lift."),
    (["Groups of fewer than 4 climbers share a guide."],
     "Groups of more than 4 climbers share a guide."),
]

_SIDES_KEPT = [
    (["Members aged 75 and over ride the tram free."], "If you're over 75 you ride the tram free."),
    (["Workshops go ahead with at least 4 climbers."],
     "Workshops with fewer than 4 climbers are called off."),
    (["Crates over 30 kg ship by freight. Crates under 30 kg ship by courier."],
     "Crates under 30 kg ship by courier."),
]


@pytest.mark.parametrize(("contexts", "answer"), _TURNED)
def test_comparison_turned_is_flagged(an: Analyzer, contexts: list[str], answer: str) -> None:
    assert judged(an, contexts, answer)


@pytest.mark.parametrize(("contexts", "answer"), _SIDES_KEPT)
def test_comparison_kept_or_complement_is_kept(an: Analyzer, contexts: list[str],
                                               answer: str) -> None:
    assert not judged(an, contexts, answer)
