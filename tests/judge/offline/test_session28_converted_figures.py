"""Session 28 (k232): faithful answers that restate a figure in another form (a
frequency as its period, "half of" as 50 percent, "N and a half hours" in minutes, "for a
month" as 30 days, working days for a length excluding weekends), each next to a
near-miss whose converted figure differs, which must stay flagged.

Sentences are our own, in domains of our own.
"""

from __future__ import annotations

import pytest

from ragassay.judge.offline import Analyzer
from ragassay.judge.offline.converted import frequencies, working_days
from ragassay.judge.offline.normalise import normalise_text, written_values
from tests.support.offline import judged


@pytest.fixture(scope="module")
def an() -> Analyzer:
    return Analyzer()


@pytest.mark.parametrize(("text", "value"), [
    ("Gutters are cleared every 90 days.", 4.0),  # 4 times a year
    ("Gutters are cleared quarterly.", 90.0),  # every 90 days
    ("The aquarium pump is checked every 6 hours.", 4.0),  # 4 times a day
    ("The aquarium pump is checked 3 times a day.", 8.0),  # every 8 hours
])
def test_a_frequency_offers_its_other_form(text: str, value: float) -> None:
    assert value in written_values(text)


def test_a_period_no_whole_divides_offers_nothing() -> None:
    assert not frequencies(normalise_text("The logs rotate every 7 hours."))
    assert not frequencies(normalise_text("Tyres are rotated every 45 days."))


@pytest.mark.parametrize(("text", "normal"), [
    ("The tasting lasts three and a half hours.", "The tasting lasts 210 minutes."),
    ("Half of the fee is kept.", "50 percent of the fee is kept."),
    ("The trial runs for a month.", "The trial runs for 30 days."),
])
def test_figures_written_one_way(text: str, normal: str) -> None:
    assert normalise_text(text) == normal


@pytest.mark.parametrize("text", [
    "The first half of the season is sold out.",  # a part of a period, no share
    "Storage costs 4 euros a month.",  # a rate's period
    "Members can book two classes in a month.",
])
def test_no_figure_read_where_none_is_said(text: str) -> None:
    assert "50 percent" not in normalise_text(text)
    assert "30 days" not in normalise_text(text)


def test_working_days_says_weekends_do_not_count() -> None:
    sentence = "Statements are issued within 48 hours, excluding weekends."
    assert working_days("Statements come out within two working days.", sentence)
    assert not working_days("Statements come out within two days.", sentence)
    assert not working_days("Statements come out within two working days.",
                            "Statements are issued within 48 hours, only for members, "
                            "excluding weekends.")


@pytest.mark.parametrize(("context", "answer", "flags"), [
    ("Hives are inspected every 60 days during the season.",
     "During the season the hives get inspected six times a year.", False),
    ("Hives are inspected every 60 days during the season.",
     "During the season the hives get inspected four times a year.", True),
    ("Insulin pumps must be checked twice a year by a nurse.",
     "A nurse has to check insulin pumps every 180 days.", False),
    ("Insulin pumps must be checked twice a year by a nurse.",
     "A nurse has to check insulin pumps every 90 days.", True),
    ("Half of the entry fee is refunded if the race is cancelled.",
     "If the race is cancelled you get 50% of the entry fee back.", False),
    ("Half of the entry fee is refunded if the race is cancelled.",
     "If the race is cancelled you get 75% of the entry fee back.", True),
    ("The wine tasting tour runs from 1 pm to 4:30 pm.",
     "The wine tasting tour takes three and a half hours.", False),
    ("The glass-blowing course lasts 150 minutes.",
     "The glass-blowing course takes three and a half hours.", True),
    ("Visitor badges are valid for 30 days.",
     "A visitor badge stays valid for a month.", False),
    ("Visitor badges are valid for 14 days.",
     "A visitor badge stays valid for a month.", True),
    ("Warranty claims are assessed within 72 hours, excluding weekends.",
     "Warranty claims are looked at within three working days.", False),
    ("Warranty claims are assessed within 72 hours, excluding weekends.",
     "Warranty claims are looked at within five working days.", True),
])
def test_a_figure_in_another_form_both_ways(an: Analyzer, context: str, answer: str,
                                             flags: bool) -> None:
    assert judged(an, [context], answer) is flags
