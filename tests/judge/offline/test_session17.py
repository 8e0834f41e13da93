"""Issue #38, session 17: a size written "3m x 3m" read as figures; questions put to
the user (after a decline: "Could you ring reception?"; after a claim: "Would you like
to book a lane?") read as no claim; a clock time worked out from a span ("30 minutes
before closing" beside "closes at 5pm": 4:30) read as the context's (worked.py). Each
judged wrongly before; wording and domains none of the probe batches use."""

from __future__ import annotations

import pytest

from ragassay.judge.offline import Analyzer
from ragassay.judge.offline.lexical import numbers
from tests.support.offline import assert_judged, evidence, flagged


def test_a_size_in_metres_is_two_figures(an: Analyzer) -> None:
    """"3m x 3m" held no figure before: the other inflatable's size was no conflict
    (flagged only for low support, 0.49); now the size is the other's, a conflict."""
    assert numbers("It needs 3m x 3m.") == ["3", "3"]
    assert numbers("a 2.5m by 4m pitch") == ["2.5", "4"]
    assert numbers("raised £3m") == ["3000000"]  # money stays money
    ev = assert_judged(an, ["The Tower inflatable needs a space of 3m x 3m and suits children "
                       "up to age 5.",
                       "The Pirate Ship inflatable needs 5m x 5m and suits children up to "
                       "age 12."],
                  "The Pirate Ship inflatable is the one for a small garden; it only needs "
                  "3m x 3m.", flags=True, question="Which fits a small garden?")
    assert ev.contradicts[0] in ("number", "entity"), ev


_MUSEUM = ["The museum opens at 10am daily. Entry to the permanent galleries is free."]


@pytest.mark.parametrize("answer", [
    "I can't find anything about parking in what I have. Could you ring reception so "
    "someone can check?",
    "I'm not sure about that one. Would you like me to pass your question to a member "
    "of staff?",
    "Sorry, I don't have details on parking. Can you check with the venue directly?",
    "I couldn't find that information. Could you tell me which site you mean?",
])
def test_a_decline_ending_in_a_question_is_an_abstention(an: Analyzer, answer: str) -> None:
    """Flagged before (1.65-1.90): the question was read as a claim."""
    ev = assert_judged(an, _MUSEUM, answer, flags=False, question="Is there parking?")
    assert ev.noncommittal


def test_a_question_naming_what_no_context_says_is_still_a_claim(an: Analyzer) -> None:
    ev = evidence(an, _MUSEUM, "I'm not sure. Did you know the café closes at 8pm on "
                  "Fridays?", "Is there a café?")
    assert flagged(ev)


_POOL = ["The pool opens at 7am. Lane swimming is for adults only."]


@pytest.mark.parametrize("answer", [
    "Yes, the pool opens at 7am. Would you like to book a lane?",
    "The pool opens at 7am. Is there anything else I can help with?",
])
def test_an_offer_after_a_claim_is_no_claim(an: Analyzer, answer: str) -> None:
    """Flagged before (2.22): the offer was a claim no context supports."""
    assert_judged(an, _POOL, answer, flags=False, question="When does the pool open?")


@pytest.mark.parametrize("answer", [
    "The pool opens at 7am. Would you like me to book the Olympic lane for you?",
    "The pool opens at 7am. Do you know that lanes cost £4?",
])
def test_a_question_that_states_something_new_is_checked(an: Analyzer, answer: str) -> None:
    assert_judged(an, _POOL, answer, flags=True, question="When does the pool open?")


_GALLERY = ["The gallery closes at 5pm. Last entry is 30 minutes before closing."]


@pytest.mark.parametrize(("answer", "contexts"), [
    ("Last entry is at 4:30pm.", _GALLERY),
    ("The doors open at 6:45pm, 15 minutes before the 7pm start.",
     ["Shows start at 7pm. Doors open 15 minutes before the show."]),
    ("Late check-out is until 1pm.",
     ["Check-out is at 11am, and late check-out is two hours later."]),
])
def test_a_time_worked_out_from_a_span_is_supported(an: Analyzer, answer: str,
                                                   contexts: list[str]) -> None:
    """Flagged before ("'4' not found in the context"): a worked-out time read as an
    invented figure (trials 71 and 72)."""
    assert_judged(an, contexts, answer, flags=False, question="When?")


@pytest.mark.parametrize(("answer", "contexts"), [
    ("Last entry is at 4pm.", _GALLERY),  # the hour of the worked time, not the time
    ("Last entry is at 3:30pm.", _GALLERY),
    # two clock times in the passage: no sum is sure
    ("Arrive at 8:45am.", ["Appointments run from 9am to 5pm. Please arrive 15 minutes "
                           "before your appointment."]),
])
def test_a_time_the_span_does_not_give_is_still_flagged(an: Analyzer, answer: str,
                                                        contexts: list[str]) -> None:
    assert_judged(an, contexts, answer, flags=True, question="When?")


def test_the_worked_time_is_read_into_its_sentence() -> None:
    from ragassay.judge.offline.worked import with_worked_times

    texts = ["The gallery closes at 5pm.", "Last entry is half an hour before closing.",
             "Doors open 45 minutes before the 7.30pm start.",
             "Appointments run from 9am to 5pm.", "Arrive 15 minutes before it.",
             "Refunds arrive 5 days after the event."]
    assert with_worked_times(texts, [0, 0, 1, 2, 2, 3]) == [
        "The gallery closes at 5pm.", "Last entry is half an hour before closing (at 4:30).",
        "Doors open 45 minutes before the 7.30pm start (at 6:45).",
        "Appointments run from 9am to 5pm.", "Arrive 15 minutes before it.",
        "Refunds arrive 5 days after the event."]


_RULES = ["Parking is not permitted on the grass verges. The main car park has 200 spaces.",
          "Camping is not permitted in the woodland. The campsite by the river has 40 "
          "pitches."]


@pytest.mark.parametrize("answer", [
    "You can park on the grass verges.",
    "Yes, you can camp in the woodland.",
    "You may park on the grass verges.",
])
def test_a_claim_that_one_may_do_what_a_context_forbids_is_a_negation(
        an: Analyzer, answer: str) -> None:
    """Passed before (8.2-9.0): "Camping is not permitted" denies no word of "you can
    camp" as the stems read them ("campi" / "camp"), and "can" says no "permitted"."""
    assert_judged(an, _RULES, answer, flags=True, kind="negation", question="Can I?")


@pytest.mark.parametrize("answer", [
    "You can park in the main car park.",
    "You can camp at the campsite by the river.",
])
def test_a_claim_that_one_may_do_what_is_not_forbidden_passes(an: Analyzer,
                                                              answer: str) -> None:
    assert_judged(an, _RULES, answer, flags=False, question="Can I?")


def test_an_ing_form_is_its_verb() -> None:
    from ragassay.judge.offline.denial import same_verb

    assert same_verb("swimming", "swim") and same_verb("diving", "dive")
    assert same_verb("parking", "park") and same_verb("cycle", "cycling")
    assert not same_verb("swimming", "fish") and not same_verb("singing", "single")


@pytest.mark.parametrize(("answer", "contexts"), [
    ("Yes, photography is allowed in all galleries.",
     ["Photography is allowed in all galleries except the Print Room."]),
    ("All rooms have a kettle.", ["All rooms except the attic singles have a kettle."]),
    ("Every class is open to beginners.",
     ["Every class apart from Advanced Pointe is open to beginners."]),
    ("Yes, all our routes run on Sundays.", ["All routes run on Sundays, except route 12."]),
    ("The shop is open every day.", ["The shop is open every day except Christmas Day."]),
])
def test_a_claim_that_drops_the_contexts_exception_is_a_scope_change(
        an: Analyzer, answer: str, contexts: list[str]) -> None:
    """Passed before (8.6-9.6): the claim is the context less its exception
    (`dropped.drops_exception`); trial 72's finding, in cases of our own."""
    assert_judged(an, contexts, answer, flags=True, kind="quantifier", question="Can I?")


@pytest.mark.parametrize(("answer", "contexts"), [
    ("Yes, photography is allowed in all galleries except the Print Room.",
     ["Photography is allowed in all galleries except the Print Room."]),
    ("Every class is open to beginners other than Advanced Pointe.",
     ["Every class apart from Advanced Pointe is open to beginners."]),
    ("Route 7 runs on Sundays.", ["All routes run on Sundays, except route 12. Route 7 "
                                  "runs every hour."]),
])
def test_a_claim_that_keeps_the_exception_or_names_one_case_is_no_scope_change(
        an: Analyzer, answer: str, contexts: list[str]) -> None:
    ev = evidence(an, contexts, answer, "Can I?")
    assert ev.contradicts != ["quantifier"], ev
