"""Review 13 of session 13's judge change (fe00d55..3ec9833): each case below was judged
right at 7060f25 and wrong at 3ec9833; fixed in the commit after the review, except the
strict-xfail limits (an invented clause on the sentence's topic, 0.6 close by static
sentence embeddings, is read as said in other words)."""

from __future__ import annotations

import pytest

from ragassay.judge.offline import Analyzer
from ragassay.judge.offline.declines import is_noncommittal
from tests.support.offline import evidence, flagged

# --- R1 (high): a business's own statement read as a decline -> a contradiction abstains

INSURANCE = ["Flood damage is covered by the building's insurance policy up to £50,000.",
             "Claims must be made within 30 days."]


@pytest.mark.parametrize(("contexts", "answer"), [
    (INSURANCE, "Flood damage isn't covered by the building's insurance policy."),
    (["Emergency medical costs are covered by the traveller's basic policy.",
      "Cover for winter sports costs extra."],
     "Medical costs are not covered in the traveller's basic policy."),
    (["Gift wrapping is available in the shop's online site for £2."],
     "Gift wrapping is not available in the shop's online site."),
    (["Saturday morning slots can be booked from 9 am."],
     "The slots I can see don't include Saturday mornings."),
])
def test_r1_a_contradicting_statement_is_no_decline(
        an: Analyzer, contexts: list[str], answer: str) -> None:
    ev = evidence(an, contexts, answer)
    assert not ev.abstains and flagged(ev), ev


@pytest.mark.parametrize("sentence", [
    "Flood damage isn't covered by the building's insurance policy.",
    "Medical costs are not covered in the traveller's basic policy.",
    "Your booking reference is not shown in the app's booking section.",
])
def test_r1_possessive_business_statement_is_no_decline(sentence: str) -> None:
    assert not is_noncommittal(sentence)


# --- R2 (high): "each one of X" / "every one of X" no longer quantifies X

@pytest.mark.parametrize(("contexts", "answer"), [
    (["Ground-floor rooms have a private patio."],
     "Each one of our rooms has a private patio."),
    (["Ground-floor rooms have a private patio."],
     "Every one of our rooms has a private patio."),
    (["Junior members can borrow a racket for each session."],
     "Every one of our members can borrow a racket for each session."),
])
def test_r2_each_one_of_x_is_universal(an: Analyzer, contexts: list[str], answer: str) -> None:
    ev = evidence(an, contexts, answer)
    assert flagged(ev), ev


# --- R3 (high): _TRAILING "in": a measure phrase ("in value", "in total") read as a limit

@pytest.mark.parametrize(("contexts", "answer"), [
    (["Orders over £40 in value ship free."], "Every order over £40 ships free."),
    (["Orders over £40 in total qualify for free delivery."],
     "Any order over £40 qualifies for free delivery."),
    (["Parcels over 2 kg in weight cost £5 extra to send."],
     "Any parcel over 2 kg costs £5 extra to send."),
    (["Items over 2 metres in length are delivered by van."],
     "All items over 2 metres are delivered by van."),
    (["Bookings over £200 in total need a 10% deposit."],
     "Any booking over £200 needs a 10% deposit."),
])
def test_r3_a_measure_phrase_is_no_dropped_limit(
        an: Analyzer, contexts: list[str], answer: str) -> None:
    ev = evidence(an, contexts, answer)
    assert not flagged(ev) and "quantifier" not in ev.contradicts, ev


# --- R4 (high): the no-figure paraphrase path lifts a one-for-one word swap

ISLAND = ["Guests are welcome to swim in the sheltered cove on the west side of the island.",
          "The harbour is reserved for fishing boats."]
SURF = ["Wetsuits can be hired from the beach hut.", "Lessons run every morning."]


@pytest.mark.parametrize(("contexts", "answer"), [
    (ISLAND, "Sure, feel free to swim in the sheltered bay on the island's eastern side."),
    (ISLAND, "Sure, feel free to kayak in the sheltered bay on the island's western side."),
    (ISLAND, "Sure, feel free to fish in the sheltered bay on the island's western side."),
    (ISLAND, "Sure, feel free to swim in the harbour on the island's western side."),
    # restated_across: two sentences joined give the swap more "spare" words
    (SURF, "You can rent a wetsuit at the beach hut, and lessons are held each afternoon."),
    (["Wetsuits can be hired from the beach hut.", "Lessons run every morning for beginners."],
     ("You can rent a wetsuit at the beach hut, and tuition for novices is free every "
      "morning.")),
])
def test_r4_a_word_swapped_without_a_figure_is_no_paraphrase(
        an: Analyzer, contexts: list[str], answer: str) -> None:
    assert flagged(evidence(an, contexts, answer))


# --- R5 (medium): stated.said_otherwise lets an invented clause ride on 0.6 static cosine,
# and compares figures by value only

QUIZ = ["Each quiz team has between four and six members.",
        "Three members answer in every round."]


@pytest.mark.xfail(strict=True, reason="known limit: an invented clause on the sentence's "
                   "topic is 0.6 close to it by static sentence embeddings")
@pytest.mark.parametrize("answer", [
    "A quiz team has four to six members, and three of them take a break each round.",
    "A quiz team has four to six members, and three of them write questions for each round.",
])
def test_limit_an_invented_clause_on_the_topic_is_said_otherwise(
        an: Analyzer, answer: str) -> None:
    assert flagged(evidence(an, QUIZ, answer))


def test_r5_a_figure_of_another_span_is_no_figure_of_the_unit(an: Analyzer) -> None:
    answer = ("A quiz team has four to six members, and each of them takes a break of 3 "
              "minutes each round.")
    assert flagged(evidence(an, QUIZ, answer))


def test_r5_a_figure_of_another_count_is_reported_unstated(an: Analyzer) -> None:
    # the clause's 3 is minutes, the sentence's 3 is members: the clause is invented
    ev = evidence(an, QUIZ, "A quiz team has four to six members, and each of them takes a "
                  "break of 3 minutes each round.")
    assert ev.unstated != [None], ev


# --- sanity: the session's own intended behaviour still holds (not xfail)

def test_session_intent_the_quiz_paraphrase_still_passes(an: Analyzer) -> None:
    ev = evidence(an, QUIZ, "A quiz team has four to six members, and three of them take "
                  "part in each round.")
    assert not flagged(ev), ev

