"""Review 17 of a224282 (session 17: questions put to the user, worked clock times,
"3m x 3m" sizes): each finding as a test of the right behaviour. F1-F3 and F5-F8 were
mended after the review (an offer or a question beside a decline names at most one or
two things of its own and no clause of its own; a span counts only from the clock it
names or times; an hour given alone is evidence; sizes of three figures and "3x3m");
what is left is xfail(strict=True) with its reason. Wording is the reviewer's own
(help-centre style), none from the probe batches."""

from __future__ import annotations

import pytest

from ragassay.judge.offline import Analyzer
from tests.support.offline import evidence, flagged

_HALF = pytest.mark.xfail(strict=True, reason="known limit: a clock time's half of the day is "
                          "not compared (docs/judges.md), a worked-out time's neither")


@pytest.fixture(scope="module")
def an() -> Analyzer:
    return Analyzer()


_POOL = ["The pool opens at 7am. Lane swimming is for adults only."]
_GYM = ["The gym opens at 6am. Personal training sessions cost £30."]
_SAUNA = ["The gym opens at 6am. The sauna is closed on Mondays."]
_LIBRARY = ["The library opens at 9am. Laptops can be borrowed for up to 3 hours."]
_RETURNS = ["Returns are accepted within 30 days with a receipt. Refunds go to the original "
            "card."]
_MUSEUM = ["The museum opens at 10am daily. Entry to the permanent galleries is free."]


# --- F1 (high): an offer beside a claim is set aside even when what it offers
# contradicts the contexts; only a key term no context has keeps it a claim. Each was
# flagged at dbad969 and passes (0.958) at a224282.
@pytest.mark.parametrize(("contexts", "answer"), [
    (_GYM, "The gym opens at 6am. Would you like me to book you a free personal training "
           "session?"),
    (_SAUNA, "The gym opens at 6am. Shall I book you the sauna for Monday?"),
    (_LIBRARY, "The library opens at 9am. Would you like me to reserve a laptop for the "
               "whole day?"),
    (_RETURNS, "Returns are accepted within 30 days with a receipt. Shall I refund you in "
               "cash instead?"),
    (_POOL, "The pool opens at 7am. Can I remind you that lane swimming is open to "
            "children too?"),
    (_POOL, "The pool opens at 7am. Should I book a lane for your children, since lanes "
            "are open to everyone?"),
    (_GYM, "The gym opens at 6am. Can you believe personal training is completely free?"),
])
def test_an_offer_that_contradicts_the_contexts_is_a_claim(
        an: Analyzer, contexts: list[str], answer: str) -> None:
    assert flagged(evidence(an, contexts, answer, "When does it open?"))


@pytest.mark.xfail(strict=True, reason="an offer naming three things of its own is judged "
                   "as a claim since F1's fix (OFFER_WORDS), and this one reads as unsupported")
def test_an_offer_the_contexts_support_stays_set_aside(an: Analyzer) -> None:
    """The change's gain, kept only for offers naming one thing (flagged at dbad969)."""
    ev = evidence(an, _GYM, "The gym opens at 6am. Would you like to book a personal "
                  "training session for £30?", "When does the gym open?")
    assert not flagged(ev)


def test_do_you_know_that_stays_a_claim(an: Analyzer) -> None:
    """Pins _ASKS_USER's `(?!\\s+know)`: session 17's own "Do you know that lanes cost
    £4?" also flags without it (the £4 is a missing term), so nothing guarded it."""
    ev = evidence(an, _POOL, "The pool opens at 7am. Do you know that lanes are open to "
                  "children too?", "When does the pool open?")
    assert flagged(ev)


# --- F2 (high): beside a decline every question naming no missing key term is set aside
# (REFERRAL), so the whole answer reads as an abstention (faithfulness 1.0,
# noncommittal) whatever the question asserts or presupposes, "Did you know ...?"
# included (docs/judges.md step 4 says those stay claims). All flagged at dbad969.
@pytest.mark.parametrize(("contexts", "answer"), [
    (_MUSEUM, "I can't find anything about parking. Why not visit the permanent galleries, "
              "since they're open all night?"),
    (_MUSEUM, "I can't find anything about parking. Could you pay the entry fee for the "
              "permanent galleries at reception?"),
    (_MUSEUM, "I can't find anything about parking. Did you know entry to the permanent "
              "galleries isn't free?"),
    (_POOL, "I'm not sure about parking. Did you know children can use the swimming lanes "
            "too?"),
    (_POOL, "I can't find parking details. Isn't lane swimming open to children too?"),
    (_POOL, "I'm not sure about parking. Would you like to book a lane for your children?"),
    (_RETURNS, "I don't have information about exchanges. Would you like me to refund you "
               "in cash instead?"),
])
def test_a_question_beside_a_decline_that_asserts_is_a_claim(
        an: Analyzer, contexts: list[str], answer: str) -> None:
    assert flagged(evidence(an, contexts, answer, "Is there parking?"))


# --- F3 (high): a span read from a clock it does not count from. "The passage's only
# clock" is taken as the span's anchor whatever the span is before/after, so a time
# the contexts never give passes. All flagged at dbad969 (missing "8", "11", "4", ...).
@pytest.mark.parametrize(("contexts", "answer"), [
    (["The reception desk opens at 6am. Guests should check in at least 2 hours before "
      "their flight."], "Check in at 4am."),
    (["The pharmacy opens at 9am. Take one tablet 30 minutes before breakfast."],
     "Take one tablet at 8:30am."),
    (["Orders placed before 2pm are dispatched within 3 hours."],
     "Orders placed before 2pm are dispatched by 11am."),
    (["Buses run every 20 minutes after 6pm."], "The last bus leaves at 6:20pm."),
])
def test_a_span_not_counted_from_that_clock_gives_no_time(
        an: Analyzer, contexts: list[str], answer: str) -> None:
    assert flagged(evidence(an, contexts, answer, "When?"))


# --- F4 (high): the worked time drops am/pm ("(at 4:30)"), so the wrong half of the day
# passes. Flagged at dbad969.
@pytest.mark.parametrize(("contexts", "answer"), [
    pytest.param(["The gallery closes at 5pm. Last entry is 30 minutes before closing."],
                 "Last entry is at 4:30am.", marks=_HALF),
    pytest.param(["The pool closes at 21:00. Last entry is 30 minutes before closing."],
                 "Last entry is at 8:30am.", marks=_HALF),
    (["Check-out is at 11am. Late check-out is available up to two hours later."],
     "Late check-out is until 1am."),  # ("up to": a bound, no time worked out)
])
def test_a_worked_time_keeps_its_half_of_the_day(an: Analyzer, contexts: list[str],
                                                 answer: str) -> None:
    assert flagged(evidence(an, contexts, answer, "When?"))


def test_a_worked_time_in_24_hour_form_passes(an: Analyzer) -> None:
    """The change's gain (flagged at dbad969), to keep."""
    assert not flagged(evidence(an, ["The pool closes at 21:00. Last entry is 30 minutes "
                                     "before closing."], "Last entry is at 20:30.", "When?"))


# --- F5 (high): clock_unstated flags a correct time whenever the context writes it in a
# form `part` does not read as a clock ("7-10am", "from 7 until 10am", "at 7 o'clock",
# "opens at 6.", "12-2pm") and another time shares its hour. All passed at dbad969;
# at a224282 each is flagged (0.177) with no hallucinated term named.
@pytest.mark.parametrize(("contexts", "answer"), [
    (["Breakfast is served 7-10am. The gym opens at 7:30am."], "Breakfast starts at 7am."),
    (["Breakfast is served from 7 until 10am. Room service starts at 7:15am."],
     "Breakfast is served from 7am until 10am."),
    (["Doors open at 7 o'clock. The film starts at 7:30pm."],
     "Doors open at 7pm and the film starts at 7:30pm."),
    (["The bar opens at 6. Happy hour runs until 6:30pm."], "The bar opens at 6pm."),
    (["Lunch is 12-2pm. The café opens at 12:30pm on Sundays."], "Lunch is served from 12pm."),
])
def test_a_time_the_context_gives_is_not_flagged(an: Analyzer, contexts: list[str],
                                                 answer: str) -> None:
    assert not flagged(evidence(an, contexts, answer, "When?"))


# --- F6 (medium): a claim flagged by clock_unstated names no hallucinated term (dbad969
# named "4"); docs/judges.md step 2 calls it "a missing term".
def test_a_clock_unstated_flag_names_its_time(an: Analyzer) -> None:
    ev = evidence(an, ["The gallery closes at 5pm. Last entry is 30 minutes before "
                       "closing."], "Last entry is at 4pm.", "When?")
    assert flagged(ev)
    assert ev.hallucinated_terms


# --- F7 (medium): worked.py's docstring says "A span of days or more is a date's, left
# alone", but "1 day" is normalised to 24 hours first and worked out.
def test_a_span_of_days_is_left_alone() -> None:
    from ragassay.judge.offline.worked import with_worked_times

    text = "Refunds are made 1 day after the 5pm deadline."
    assert with_worked_times([text], [0]) == [text]


# --- F8 (low): a size's third dimension is dropped ("3m x 3m x 2m" gives 3, 3), so a
# wrong height is no conflict; "3x3m" gives no figure at all.
def test_a_third_dimension_is_a_figure() -> None:
    from ragassay.judge.offline.lexical import numbers

    assert numbers("a 3m x 3m x 2m container") == ["3", "3", "2"]


def test_a_size_written_3x3m_is_two_figures() -> None:
    from ragassay.judge.offline.lexical import numbers

    assert numbers("a 3x3m gazebo") == ["3", "3"]
