"""silent.py: a decline that says what the source does not cover ("That's not something
the FAQ covers; there's nothing here about X", trial 75), as a grammar of shapes, and the
near-misses that stay claims (a "not covered" statement the passage contradicts, a decline
beside a wrong fact). At 62aff3c every decline below but the first was flagged, and the
first two "not covered" statements passed; the rest are guards. Wording and domains of
their own (k148)."""

from __future__ import annotations

import pytest

from ragassay.judge.offline import Analyzer
from ragassay.judge.offline.lexical import TermPool
from ragassay.judge.offline.silent import covers_stated_topic, unnamed
from tests.support.offline import assert_judged, known_limit

ALLOTMENT = ["Allotment plots are let by the year from 1 April and cost £48 for a half plot.",
             "Plot holders must keep at least three quarters of the plot cultivated. "
             "Bonfires are only allowed between October and March."]
BEES = "Can I keep bees on my allotment?"
INSURANCE = ["Your home contents policy covers accidental damage, theft and escape of water "
             "from fixed pipes.", "Cover for bicycles is limited to £500 per bike."]


@pytest.mark.parametrize("answer", [
    "That's not something the allotment rules cover; there's nothing here about beekeeping.",
    "That's not something the FAQ covers.",
    "Keeping bees is not something the plot rules address.",
    "Beekeeping isn't something the site rules talk about.",
    "Nothing in the rules mentions bees or hives.",
    "These passages never mention beekeeping.",
    "There was nothing in the tenancy rules about bees.",
    "Bees aren't mentioned anywhere in what I was given.",
    "The allotment guidance hasn't got anything on bees.",
    "The rules I have don't go into beekeeping, and nothing else here mentions hives.",
])
def test_a_silent_source_is_a_decline(an: Analyzer, answer: str) -> None:
    ev = assert_judged(an, ALLOTMENT, answer, flags=False, question=BEES)
    assert ev.abstains


@pytest.mark.parametrize(("contexts", "question", "answer"), [
    (INSURANCE, "Does the policy cover pet injuries?",
     "The policy wording here says nothing about pets."),
    (["Paws & Suds grooms dogs of all sizes from Tuesday to Saturday."], "Do you groom cats?",
     "That's not something the salon's page covers; there's nothing here about cats."),
])
def test_a_silent_source_in_other_domains(an: Analyzer, contexts: list[str], question: str,
                                          answer: str) -> None:
    assert_judged(an, contexts, answer, flags=False, question=question)


@pytest.mark.parametrize("answer", [
    # a "not covered" statement of the policy's scope that the passage contradicts
    "The policy does not cover water damage.",
    "Escape of water isn't covered by the policy.",
    "Burst pipes aren't covered under your home contents policy.",
])
def test_a_scope_the_passage_contradicts_is_a_claim(an: Analyzer, answer: str) -> None:
    assert_judged(an, INSURANCE, answer, flags=True,
                  question="Is water damage from a burst pipe covered?")


@known_limit("the negation of 'X is not something the policy covers' is not read against "
             "'covers ... theft': the claim is scored, as supported")
def test_limit_not_something_the_policy_covers(an: Analyzer) -> None:
    assert_judged(an, INSURANCE, "Theft is not something the policy covers.", flags=True,
                  question="Is theft covered?")


@pytest.mark.parametrize("answer", [
    # a decline beside a wrong fact: the fact is scored
    "I'm not sure about bees, but a half plot costs £60 a year.",
    "There's nothing here about beekeeping, and bonfires are allowed all year.",
    "The rules don't mention bees; plots are let from 1 January.",
])
def test_a_wrong_fact_beside_a_silent_source_is_flagged(an: Analyzer, answer: str) -> None:
    assert_judged(an, ALLOTMENT, answer, flags=True, question=BEES)


def test_covers_stated_topic_reads_the_source_and_the_topic() -> None:
    pool = TermPool.of(" ".join(INSURANCE))
    assert covers_stated_topic("The policy does not cover water damage.", pool)
    assert not covers_stated_topic("The policy does not cover pet injuries.", pool)
    assert not covers_stated_topic("The documents do not cover water damage.", pool)
    assert not covers_stated_topic("The policy doesn't mention water damage.", pool)


def test_unnamed_drops_the_source_keeps_a_figure() -> None:
    assert "FAQ" not in unnamed("That's not something the FAQ covers.")
    assert "2024" in unnamed("That's not something the 2024 FAQ covers.")


@pytest.mark.parametrize("answer", [
    "Our guide doesn't include anything on parking charges.",
    "Sorry, the brochure doesn't cover parking charges.",
    "The leaflet doesn't list charges for parking.",
])
def test_a_text_by_its_kind_is_a_source(an: Analyzer, answer: str) -> None:
    """A guide, a brochure or a leaflet is a text the bot answers from, not a plan whose
    scope it states: its "doesn't include" declines, even where the contexts hold the
    topic's words apart ("Parking is free ... Charges apply for ..."; the guide's was
    read as a claim and flagged, session 20)."""
    contexts = ["Parking is free for hotel guests.", "Charges apply for a late check-out."]
    assert_judged(an, contexts, answer, False, question="How much is parking?")


_STUDIO = ["Our studio offers yoga and pilates classes every weekday. Mats are provided free "
           "of charge.", "Classes cost £12 each or £90 for a ten-class pass."]


@pytest.mark.parametrize("answer", [
    "Details on spin classes aren't included.",
    "Spin classes aren't covered.",
    "Hmm, spin classes aren't in the list of classes.",
    "Nothing about spin classes, I'm afraid.",
])
def test_a_topic_not_covered_with_no_source_named(an: Analyzer, answer: str) -> None:
    """A topic the contexts lack, said not to be covered, included or listed, no source
    named (trial 76: declines "without a first-person 'I don't know'"; flagged before,
    session 20)."""
    assert_judged(an, _STUDIO, answer, False, question="Do you run spin classes?")


@pytest.mark.parametrize("answer", [
    "Breakfast isn't included.",
    "Sorry, breakfast isn't included.",  # (its "Sorry" no word of the topic)
])
def test_a_stated_topic_not_included_is_a_claim(an: Analyzer, answer: str) -> None:
    assert_judged(an, ["Breakfast is included in all room rates."], answer, True,
                  question="Is breakfast included?")


@pytest.mark.parametrize(("contexts", "answer"), [
    (["Towels and linen are included in every booking."], "No, towels aren't included."),
    (["Evening classes run on Tuesdays at 7pm."], "Nothing about evening classes."),
    (["Free parking is included with every room."],
     "Parking isn't mentioned, so it's not included."),
])
def test_no_source_named_of_a_stated_topic_is_a_claim(an: Analyzer, contexts: list[str],
                                                      answer: str) -> None:
    """With no source named the topic decides, whatever the verb: one the contexts state
    is a claim, and here a false one (its "No" and "not" no words of the topic; each read
    as a decline by the first version, session 20)."""
    assert_judged(an, contexts, answer, True, question="Is that included?")
