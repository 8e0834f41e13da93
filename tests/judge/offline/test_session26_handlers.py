"""Session 26: a thing's handler given to another thing (handlers.py), in our own words."""

from __future__ import annotations

import pytest

from ragassay.judge.offline import Analyzer
from ragassay.judge.offline.clauses import part
from ragassay.judge.offline.handlers import handler_swapped, parties
from tests.support.offline import judged, units_of

KEYS = ["Spare office keys are issued by the facilities team.",
        "Expense claims go to the finance office."]
PLOTS = ["Burial plots are reserved through the cemetery registrar.",
         "Memorial benches are arranged with the parks department."]


@pytest.fixture(scope="module")
def an() -> Analyzer:
    return Analyzer()


def test_party_slots() -> None:
    u = units_of(["To cancel, write to the Harbour Master and Pilotage Board at noon.",
                  "Tickets are sold from April by our kiosk."])
    assert frozenset({"harbo", "maste", "pilot", "board"}) in parties(u.sentence(0).part)
    assert parties(u.sentence(1).part) == [frozenset({"kiosk"})]  # (no time: "from April")


@pytest.mark.parametrize("answer", [
    "You can get a spare office key from the finance office.",
    "For a spare office key, ask the finance office.",
])
def test_other_party_flagged(an: Analyzer, answer: str) -> None:
    assert judged(an, KEYS, answer)


def test_reserved_elsewhere_flagged(an: Analyzer) -> None:
    assert judged(an, PLOTS, "Burial plots are booked with the parks department.")
    assert handler_swapped(part("Burial plots are booked with the parks department."),
                           units_of(PLOTS)) == 0


@pytest.mark.parametrize("answer", [
    "Spare office keys come from the facilities team.",
    "The facilities team hands out spare office keys, and expense claims go to finance.",
    "Expense claims are sent to the finance office.",
])
def test_right_party_kept(an: Analyzer, answer: str) -> None:
    assert not judged(an, KEYS, answer)


def test_sentence_naming_both_is_no_swap() -> None:
    ctx = [*PLOTS, "Burial plots near the benches are handled with the parks department."]
    assert handler_swapped(part("Burial plots are booked with the parks department."),
                           units_of(ctx)) is None


def test_referral_topic_after(an: Analyzer) -> None:
    assert judged(an, KEYS, "Ask the finance office for a spare office key.")


def test_a_figure_unit_is_no_thing(an: Analyzer) -> None:
    # the claim's "pounds" is no thing of the post sentence: "items over £50" are the
    # larger items the courier collects (review 18b's R4, a false flag of this rule)
    assert not judged(an, ["Parcels up to £40 can be sent back by post.",
                           "Bigger parcels are picked up by courier."],
                      "You can return parcels over £40 by courier.")


def test_a_claim_about_another_sentence_is_no_handler_swap(an: Analyzer) -> None:
    # the claim restates the first two sentences; the support sentence's "plan" and the
    # sync sentence's "calendar provider" are no handler swap (the demo's SSO answer)
    ctx = ["Calendar sync is available on the Team plan. Pinecal works with Google "
           "Calendar, Outlook and iCloud as calendar providers.",
           "Sync jobs pull events automatically from your calendar provider.",
           "Basic plan customers get chat support with a reply within 2 days."]
    assert not judged(an, ctx, "Calendar sync is available only on the Team plan, with "
                               "Google Calendar, Outlook and iCloud as supported calendar "
                               "providers.")
