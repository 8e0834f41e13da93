"""Session 28: everyday phrases misread as figures or quantifiers. A rate's period
after a counted thing ("two cups of tea a day") is a rate, not a length of 24 hours; a
rate whose period changes ("twice a week" for "twice a day") is a figure change; the
"all" of "not at all" quantifies no noun, and "Not at all." alone is a reply."""

from __future__ import annotations

import pytest

from ragassay.judge.offline import Analyzer
from ragassay.judge.offline.clauses import part
from ragassay.judge.offline.measures import canonical_measures
from ragassay.judge.offline.rate_change import period_changed
from tests.support.offline import judged


@pytest.mark.parametrize("text", [
    "Give the kitten one sachet of wet food a day.",
    "Most riders use about three litres of fuel a week.",
    "Guests get a bottle of water a day.",
])
def test_counted_rate_keeps_its_period(text: str) -> None:
    assert "24 hours" not in canonical_measures(text) and "7 days" not in canonical_measures(text)


@pytest.mark.parametrize("text", ["The varnish dries in a day.", "Allow a day for delivery.",
                                  "Send the form a day before your visit."])
def test_a_length_is_still_a_length(text: str) -> None:
    assert "24 hours" in canonical_measures(text)


def test_rate_period_change() -> None:
    assert period_changed("Guests may use the sauna twice a day.",
                          "Guests may use the sauna twice per week.")
    assert period_changed("Bike hire costs 6 pounds a day.", "Bike hire costs 6 pounds per hour.")
    assert not period_changed("Guests may use the sauna twice a day.",
                              "Guests may use the sauna twice per day.")
    assert not period_changed("The desk is staffed 24 hours a day.",
                              "The desk is staffed 24 hours a day, 7 days a week.")
    assert not period_changed("Weekly classes are paid at an hourly rate.",
                              "Classes are paid at an hourly rate.")


def test_rate_judged_both_ways(an: Analyzer) -> None:
    ctx = ["Each guest may take two towels per day from the pool desk."]
    assert not judged(an, ctx, "Each guest may take two towels a day from the pool desk.")
    assert judged(an, ctx, "Each guest may take two towels a week from the pool desk.")


@pytest.mark.parametrize("text", [
    "No, not at all: your card details are never stored.",
    "Renters are not charged at all for key replacement.",
    "Above all, keep the receipt.",
    "First of all, you can change the date online.",
    "Every now and then the ferry leaves early.",
    "Members can message each other in the app.",
])
def test_idiom_quantifies_nothing(text: str) -> None:
    assert part(text).quantified == ()


@pytest.mark.parametrize("text", ["Cards are not accepted at all kiosks.",
                                  "All lockers have a key.", "Each other member pays 5 euros."])
def test_quantifier_still_quantifies(text: str) -> None:
    assert part(text).quantified != ()


def test_not_at_all_judged_both_ways(an: Analyzer) -> None:
    ctx = ["The clinic never sells patient data to insurers."]
    assert not judged(an, ctx, "No, not at all: patient data is never sold to insurers.")
    assert not judged(an, ctx, "Not at all. The clinic does not sell patient data to insurers.")
    assert judged(an, ctx, "No, not at all: patient data is sold to insurers.")
