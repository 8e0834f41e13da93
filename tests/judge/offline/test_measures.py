"""Round 3 of issue #38: figures and units read by value, whatever words write them.

A length of time or a quantity written in other words ("a fortnight", "three dozen",
"half an hour", "5°C", "20 mph") is the same figure and unit as its context's, so a
faithful paraphrase is not flagged and a unit symbol is not read as a name; a figure in
another scale ("°F" for "°C") or another length is still a figure of its own. The cases
are in other words than the probe batches."""

from __future__ import annotations

import pytest

from ragassay.judge.offline import HALLUCINATION_THRESHOLD, Analyzer
from ragassay.judge.offline.lexical import key_terms
from ragassay.judge.offline.normalise import normalise_text, quantities
from tests.support.offline import evidence as _ev
from tests.support.offline import faith as _faith


@pytest.mark.parametrize(("a", "b"), [
    ("a fortnight", "two weeks"),
    ("a fortnight", "14 days"),
    ("for a week", "for seven days"),
    ("three weeks", "21 days"),
    ("within a day", "within 24 hours"),
    ("half an hour", "30 minutes"),
    ("a quarter of an hour", "fifteen minutes"),
    ("an hour and a half", "90 minutes"),
    ("every twelve months", "every year"),
    ("annually", "once a year"),
    ("twenty thousand miles", "20,000 miles"),
    ("5°C", "5 degrees Celsius"),
    ("40 km/h", "40 kilometres per hour"),
    ("12kg", "12 kilograms"),
    # session 6 (trial 52's paraphrases, in other words)
    ("three quarters of an hour", "45 minutes"),
    ("one and a half hours", "90 minutes"),
    ("two and a half hours", "150 minutes"),
    ("a week or two", "1 or 2 weeks"),
    ("an hour or two", "1 or 2 hours"),
    # session 10: a list of lengths is no range, and no rate
    ("one week or two weeks", "7 days or 14 days"),
    ("for 2 days, a week or a fortnight", "for 2 days, 7 days or 14 days"),
])
def test_one_figure_written_two_ways_reads_the_same(a: str, b: str) -> None:
    assert normalise_text(a) == normalise_text(b)


@pytest.mark.parametrize(("rate", "period"), [
    ("twice a week", "week"), ("3 times a day", "day"), ("€9 a day", "day"),
    ("24 hours a day", "day"), ("once a week", "week"),
    # session 10: a price in a currency's code
    ("12 EUR a day", "day"), ("30 GBP a week", "week"),
])
def test_a_rate_keeps_its_period(rate: str, period: str) -> None:
    # "twice a week" is how often, no length of 7 days; "a day" no length of 24 hours
    written = normalise_text(rate)
    assert written.endswith(f" a {period}") and "days" not in written, written


def test_number_words_and_scales_have_their_value() -> None:
    assert [q.value for q in quantities("about forty thousand visitors")] == [40000.0]
    assert [q.value for q in quantities("a dozen eggs")] == [12.0]
    assert [q.value for q in quantities("the one on the left")] == []  # "one" counts nothing


def test_a_degree_sign_is_no_name() -> None:
    # the scale is named, so another scale is a name no context has
    assert key_terms("Keep it below 8°C.") == ["8", "Celsius"]
    assert key_terms("Bake at 180°C for 20 min.") == ["180", "20", "Celsius"]


# faithful paraphrases whose figure or unit is written in other words
HIRE = "Rental vans must be returned within 14 days of collection."
CHILL = "Store the vaccine between 2 and 8 degrees Celsius."
SERVICE = "The boiler must be serviced every 12 months by a registered engineer."
WALK = "The coastal trail is 20,000 metres long and takes about 6 hours."


PORK = ("Pork is cooked when its core reaches 63 degrees Celsius (145 degrees "
        "Fahrenheit).")


@pytest.mark.parametrize(("contexts", "answer", "supported"), [
    # a paraphrase of a figure is supported
    ([HIRE], "Rental vans have to be returned within a fortnight of collection.", True),
    ([HIRE], "You must return rental vans within two weeks of collecting them.", True),
    ([CHILL], "Store the vaccine between 2°C and 8°C.", True),
    ([SERVICE], "A registered engineer must service the boiler annually.", True),
    ([WALK], "The coastal trail is twenty thousand metres long and takes about six hours.",
     True),
    # a range in words ("a day or two" for "1-2 days"; was "'24' not found")
    (["Custom frames are ready in 1-2 days."], "Custom frames are ready in a day or two.",
     True),
    (["The ferry crossing takes 45 minutes."], "The crossing takes three quarters of an hour.",
     True),
    # another figure in other words is still flagged
    (["Custom frames are ready in 3-4 days."], "Custom frames are ready in a day or two.",
     False),
    (["The ferry crossing takes 60 minutes."], "The crossing takes three quarters of an hour.",
     False),
    ([HIRE], "Rental vans have to be returned within three weeks of collection.", False),
    ([HIRE], "Rental vans have to be returned within a week of collection.", False),
    ([CHILL], "Store the vaccine between 2°F and 8°F.", False),
    ([WALK], "The coastal trail is thirty thousand metres long and takes about six hours.",
     False),
    # a figure of one scale is not the other scale's
    ([PORK], "Pork is cooked once its core hits 145°C.", False),
])
def test_a_figure_in_other_words_is_read_by_its_value(
        an: Analyzer, contexts: list[str], answer: str, supported: bool) -> None:
    ev = _ev(an, contexts, answer)
    assert (_faith(ev) >= HALLUCINATION_THRESHOLD) is supported, ev
    assert not supported or ev.contradicts == [None], ev
