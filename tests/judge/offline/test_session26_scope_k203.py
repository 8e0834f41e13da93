"""Session 26 (k203): scope and quantifier changes read as evidence: a benefit's holders
named by a word before their noun, a figure said "exactly" against a bound, a possibility
said as a certainty, part of a kind said of all of it, a place said of everywhere, a
month range written "between ... and ...". Each rule fires, and stays silent on the same
facts kept in other words."""

from __future__ import annotations

import pytest

from ragassay.judge.offline import Analyzer
from tests.support.offline import assert_judged

CASES = [
    # a benefit of "Silver cardholders" said of everyone
    (["Silver cardholders earn double points on fuel purchases."],
     "Fuel purchases earn double points.", True),
    (["Silver cardholders earn double points on fuel purchases."],
     "If you hold a Silver card you earn double points on fuel purchases.", False),
    # "exactly" for a bound written after the noun
    (["Workshops run for 6 students or more."], "Workshops run for exactly 6 students.", True),
    (["Workshops run for 6 students or more."],
     "Workshops need 6 students or more to run.", False),
    # a possibility said as a certainty
    (["Deliveries to the islands might be delayed by bad weather."],
     "Deliveries to the islands will be delayed by bad weather.", True),
    (["Deliveries to the islands might be delayed by bad weather."],
     "Deliveries to the islands could be delayed by bad weather.", False),
    (["There can be roadworks on the bypass in the evenings."],
     "There are always roadworks on the bypass in the evenings.", True),
    # part of a kind said of all of it
    (["Several of the cabins have a wood-burning stove."],
     "All of the cabins have a wood-burning stove.", True),
    (["Several of the cabins have a wood-burning stove."],
     "Several cabins have a wood-burning stove.", False),
    # a place said of everywhere
    (["Bulky waste is collected on request in the harbour and mill districts."],
     "Bulky waste is collected on request across the city.", True),
    (["Bulky waste is collected on request in the harbour and mill districts."],
     "Bulky waste is collected on request in the harbour and mill districts.", False),
    (["Our vouchers can be redeemed worldwide."], "You can redeem the vouchers anywhere.", False),
    (["We collect broken bikes from any address in the borough within a day."],
     "Yes, we collect broken bikes anywhere in the borough within a day.", False),
    # a month range written "between ... and ..."
    (["The rooftop bar opens daily between May and September."],
     "The rooftop bar opens daily all year.", True),
    (["The rooftop bar opens between May and September."],
     "The rooftop bar opens from May to September.", False),
]


@pytest.mark.parametrize(("contexts", "answer", "flags"), CASES)
def test_scope_read(an: Analyzer, contexts: list[str], answer: str, flags: bool) -> None:
    assert_judged(an, contexts, answer, flags)


def test_named_holders_stand(an: Analyzer) -> None:
    """The question naming the holders makes them the answer's case."""
    assert_judged(an, ["Silver cardholders earn double points on fuel purchases."],
                  "Yes, fuel purchases earn double points.", False,
                  question="Do Silver cardholders earn extra points on fuel?")
