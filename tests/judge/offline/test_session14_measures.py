"""Issue #38, session 14: lengths of time and heights written another way, and a
restatement's scope said in other words. Wording and domains none of the probe batches
use; each faithful case was flagged at c3a17f7.

- "per fortnight" is "every 14 days", as "every two weeks" is (a rate's "£20 per
  fortnight" is "£20 a fortnight"); "each quarter of an hour" is "each 15 minutes"; 100 cm
  or more is written in metres ("140 cm" is "1.4 metres"). ("an hour" as "1 hour" was
  withdrawn after review 14: tests/judge/offline/test_review14.py.)
- A restatement's scope: "per week" distributes over weeks as "in each week" does (over
  the claim's quantified word only), and "restricted to" / "exclusive to" / "limited to"
  (before no figure) restrict as "only" does (`paraphrase.restated_in_other_words`)."""

from __future__ import annotations

import pytest

from ragassay.judge.offline import Analyzer
from ragassay.judge.offline.measures import canonical_measures
from ragassay.judge.offline.paraphrase import restated_in_other_words
from ragassay.judge.offline.sentences import sentence_info
from ragassay.judge.offline.words import static_table
from tests.support.offline import assert_judged, evidence


@pytest.mark.parametrize(("text", "canonical"), [
    ("one slot per fortnight", "one slot every 14 days"),
    ("one slot every two weeks", "one slot every 14 days"),
    ("£20 per fortnight", "£20 a fortnight"),  # a rate keeps its period
    ("£2 for each quarter of an hour", "£2 for each 15 minutes"),
    ("at least 140 cm tall", "at least 1.4 metres tall"),
    ("Tutors charge £30 an hour.", "Tutors charge £30 an hour."),  # a rate: no length
    ("Buses run once an hour.", "Buses run once an hour."),
    ("a 30 cm ruler", "a 30 centimetres ruler"),  # under a metre: as written
])
def test_lengths_are_written_one_way(text: str, canonical: str) -> None:
    assert canonical_measures(text) == canonical


@pytest.mark.parametrize(("contexts", "answer"), [
    (["The hall can be hired for one four-hour slot per fortnight."],
     "You can book one four-hour slot every two weeks."),
    (["Parking costs £2 for every 15 minutes."],
     "Parking is £2 for each quarter of an hour."),
])
def test_a_length_written_another_way_is_supported(
        an: Analyzer, contexts: list[str], answer: str) -> None:
    ev = assert_judged(an, contexts, answer, flags=False)
    assert not ev.hallucinated_terms, ev


def test_a_height_in_centimetres_is_the_metres_of_the_context(an: Analyzer) -> None:
    ev = evidence(an, ["Riders must be at least 1.4 metres tall."],
                  "You need to be 140 cm or taller to ride.")
    assert not ev.hallucinated_terms, ev


@pytest.mark.parametrize(("contexts", "answer"), [
    (["The hall can be hired for one four-hour slot per fortnight.",
      "Weekend slots must be booked 3 weeks ahead."],
     "You can book one four-hour slot every three weeks."),
])
def test_another_length_is_still_flagged(
        an: Analyzer, contexts: list[str], answer: str) -> None:
    assert_judged(an, contexts, answer, flags=True)


def _restated(claim: str, sentence: str) -> bool:
    e = static_table().embed([claim, sentence])
    return restated_in_other_words(sentence_info(claim), sentence_info(sentence),
                                   float(e[0] @ e[1]))


def test_per_distributes_as_each_does(an: Analyzer) -> None:
    contexts = ["Subscribers can pause deliveries for up to three weeks per calendar year."]
    answer = ("You're able to put deliveries on hold for a maximum of three weeks in each "
              "calendar year.")
    assert _restated(answer, contexts[0])
    assert_judged(an, contexts, answer, flags=False)


def test_restricted_to_restricts_as_only_does() -> None:
    assert _restated("Reservations for more than 6 people are limited to phone bookings.",
                     "Bookings for over 6 people are taken by phone only.")
    # a claim that drops the restriction restates nothing
    assert not _restated("Reservations for more than 6 people can be made by phone.",
                         "Bookings for over 6 people are taken by phone only.")


def test_a_scope_widened_with_per_is_still_flagged(an: Analyzer) -> None:
    assert_judged(an, ["Subscribers can pause deliveries for up to three weeks per "
                       "calendar year.", "Pauses longer than one week need 5 days' notice."],
                  "You're able to put deliveries on hold for a maximum of five weeks in "
                  "each calendar year.", flags=True)
