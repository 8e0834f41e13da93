"""Round 4 of issue #38: figures re-expressed, numbers of names, a kind denied of all.

- a clock time is one time on either clock ("17:30" / "5:30 pm"; a dialogue's bare "at
  7" still reads as "7 pm"), a frequency one
  frequency ("twice a day" / "two times daily"), a length of time one length in the
  next unit ("two days" / "48 hours");
- a number right after a capitalised word is part of a name ("Gate 14"): it is set
  against the same name's number only, never against a figure of a modifier the
  answer drops ("in Terminal 2");
- a context that denies a predicate of every member of a kind ("not permitted in any
  part of ...") is contradicted by a claim granting it of some of them;
- a clause whose figure is a context fact's, in other words, is no invented detail.
Each in other words than the probe batches, with counter-cases."""

from __future__ import annotations

import pytest

from ragassay.judge.offline import Analyzer
from ragassay.judge.offline.clauses import part
from ragassay.judge.offline.normalise import normalise_text, written_values
from ragassay.judge.offline.pieces import clause_texts
from tests.support.offline import assert_judged, flagged
from tests.support.offline import evidence as _ev

CLINIC = ["The dental clinic closes at 17:30 on Fridays."]
FERRY = ["The ferry sails to the island twice a day."]
GATES = ["Gate 14 in Terminal 2 handles flights to Oslo."]
TRAIN = ["Bicycles are not allowed in any carriage of the night train."]


def test_clock_times_and_frequencies_are_written_one_way() -> None:
    assert normalise_text("closes at 5:30 pm") == normalise_text("closes at 17:30")
    assert normalise_text("from 9am until noon") == "from 9 am until 12 pm"
    assert normalise_text("from 08:30 to 18:00") == "from 8:30 am to 6 pm"
    assert normalise_text("two times daily") == normalise_text("twice a day")
    assert normalise_text("3 times per week") == "3 times a week"
    # a time's hour and minutes are one figure, a time; the colon cuts no clause
    assert part("The desk opens at 6:45 am.").figures == ((6.75, "time"),)
    assert len(clause_texts("Open from 8:00 to 18:00 on weekdays and to 13:00 on "
                            "Saturdays.")) == 2
    # "2 days" offers 48 hours as evidence; "90 minutes" 1.5 hours
    assert {48.0, 2.0} <= written_values("within 2 days")
    assert 1.5 in written_values("a 90 minutes session")


CHECKOUT = ["Checkout is at noon on the day of departure."]


@pytest.mark.parametrize(("contexts", "answer", "flags"), [
    # a figure in other words passes
    (CLINIC, "On Fridays the dental clinic shuts at 5:30 pm.", False),
    (FERRY, "The ferry goes to the island two times daily.", False),
    (CHECKOUT, "On the day of departure, checkout is at 12 pm.", False),
    # another figure in other words is flagged
    (CLINIC, "On Fridays the dental clinic shuts at 6:30 pm.", True),
    (FERRY, "The ferry goes to the island three times daily.", True),
    (CHECKOUT, "On the day of departure, checkout is at 11 am.", True),
])
def test_a_figure_in_other_words_is_read_by_its_value(an: Analyzer, contexts: list[str],
                                                      answer: str, flags: bool) -> None:
    ev = assert_judged(an, contexts, answer, flags=flags)
    assert flags or not ev.hallucinated_terms, ev


def test_a_number_in_a_name_is_no_count(an: Analyzer) -> None:
    assert part("Gate 14 handles flights.").figures == ((14.0, "#gate"),)
    assert_judged(an, GATES, "Gate 14 handles flights to Oslo.", flags=False, kind=None)
    assert_judged(an, ["Room 5 on level 2 is booked for the chess club."],
                  "Room 5 is booked for the chess club.", flags=False, kind=None)
    assert_judged(an, GATES, "Gate 12 handles flights to Oslo.", flags=True, kind="number")
    # a capitalised word that says how many is no name
    assert part("Nearly 30 people came.").figures == ((30.0, "peopl"),)


def test_a_kind_denied_of_all_is_not_granted_of_some(an: Analyzer) -> None:
    assert_judged(an, TRAIN, "Bicycles are allowed in the front carriages.", flags=True,
                  kind="negation")
    assert_judged(an, TRAIN, "Bicycles are not allowed in the front carriages.", flags=False,
                  kind=None)
    # another context sentence that grants it in its own case is the one restated
    beaches = ["Dogs are not allowed on any beach in summer.",
               "Dogs are allowed on the north beach in winter."]
    assert_judged(an, beaches, "Dogs are allowed on the north beach in winter.", flags=False,
                  kind=None)


def test_a_clause_with_a_context_figure_is_no_invented_detail(an: Analyzer) -> None:
    soup = ["Keep the soup in the fridge and finish it within two days."]
    ok = _ev(an, soup, "Keep the soup in the fridge, and make sure it is eaten no later "
                       "than 48 hours afterwards.")
    assert ok.unstated == [None] and not ok.hallucinated_terms, ok
    bad = _ev(an, soup, "Keep the soup in the fridge, and the restaurant delivers it in "
                        "insulated boxes.")
    assert bad.unstated[0] is not None and flagged(bad), bad


@pytest.mark.parametrize(("contexts", "answer"), [
    (["The pharmacy is not open on Sundays, yet its website takes orders every day."],
     "The pharmacy's website takes orders every day."),
    (["Hand luggage is free, but pets are not allowed in the cabin."],
     "Hand luggage is free."),
    (["The gym, which is not staffed at night, opens at 5 am."], "The gym opens at 5 am."),
])
def test_a_negation_in_another_clause_leaves_a_claim_alone(
        an: Analyzer, contexts: list[str], answer: str) -> None:
    """A negation in another clause of the supporting sentence plays no part, and the
    word joining the clauses ("yet", "although") is no subject to swap."""
    assert part("yet its website takes orders").words == frozenset(
        {"websi", "take", "order"})
    assert_judged(an, contexts, answer, flags=False, kind=None)


@pytest.mark.parametrize(("contexts", "answer"), [
    # a dialogue's bare "at 7" is the claim's "7 pm"
    (["Tom: shall we meet at 7 outside the cinema? Ana: ok, see you at 7"],
     "Tom and Ana agree to meet outside the cinema at 7 pm."),
    # "twice" as much is no frequency, no figure 2
    (["Profits were roughly double last year's level."],
     "Profits were about twice last year's level."),
])
def test_a_figure_the_context_says_as_written_is_present(
        an: Analyzer, contexts: list[str], answer: str) -> None:
    ev = _ev(an, contexts, answer)
    assert not ev.hallucinated_terms, ev
