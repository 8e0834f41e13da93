"""Session 25 (k186): a universal claim against a sentence that limits what it says.

Two general readings, each checked both ways:

- (a known limit, strict xfail) a claim of all of a kind ("all the courses") against the
  one sentence that states its predicate of a sort of that kind only, named by a
  modifier the claim drops ("Evening pottery courses ..."): k186's kind_scope.py was
  withdrawn in session 25 after it flagged a faithful held-out answer (counts only);
- a claim of all times ("whenever", "at any time") against a clause placed in part of the
  week, whose sentence gives the rest of the week to something else (other_times.py).

Faithful answers that keep the modifier, restate a sentence that says it of the whole
kind, or read "every day" off a sentence whose times fill out the week stay unflagged.
Sentences in our own words and domains."""

from __future__ import annotations

import pytest

from ragassay.judge.offline import Analyzer
from ragassay.judge.offline.beneficiary import qualified_for
from ragassay.judge.offline.clauses import part
from ragassay.judge.offline.other_times import other_times
from tests.support.offline import evidence, flagged, judged, units_of

_POTTERY = ["Evening pottery courses can be paid for in two instalments. Weekend taster "
            "sessions must be paid in full when you book."]
_LICENCE = ["The Category B licence test can be booked online through the portal. "
            "Category C and D tests have to be arranged by phone."]
_TOURS = ["Tours leave the harbour at 10am. All tours include a packed lunch."]
_LOCKERS = ["Lockers in the changing rooms are free to use on weekdays; at weekends "
            "please bring a pound coin for the deposit box by reception."]
_CAFE = ["The cafe is open 8am to 6pm on weekdays, and 9am to 4pm at weekends."]


_KIND = "known limit: a universal over a kind against one sort of it (kind_scope withdrawn)"


@pytest.mark.parametrize(("contexts", "answer"), [
    pytest.param(_POTTERY, "Yes, all our courses and sessions can be paid for in two "
                 "instalments.", marks=pytest.mark.xfail(strict=True, reason=_KIND)),
    pytest.param(_LICENCE, "Yes, all the driving licence tests can be booked online through "
                 "the portal.", marks=pytest.mark.xfail(strict=True, reason=_KIND)),
    (_LOCKERS, "Yes, the lockers in the changing rooms are free to use whenever you visit."),
])
def test_widened_scope_flagged(an: Analyzer, contexts: list[str], answer: str) -> None:
    assert judged(an, contexts, answer) is True


@pytest.mark.parametrize(("contexts", "answer"), [
    # the modifier kept, or a sentence saying it of the whole kind
    (_POTTERY, "Evening pottery courses can be paid for in two instalments."),
    (_LICENCE, "The Category B test can be booked online through the portal."),
    (_TOURS, "Yes, all tours include a packed lunch."),
    # the part of the week kept; "every day" read off a sentence filling the week
    (_LOCKERS, "The lockers in the changing rooms are free on weekdays."),
    (_CAFE, "Yes, the cafe is open every day."),
    # "each" distributes what the sentence says of the kind
    (_POTTERY, "Each evening pottery course can be paid for in two instalments."),
])
def test_faithful_near_misses_unflagged(an: Analyzer, contexts: list[str],
                                        answer: str) -> None:
    assert judged(an, contexts, answer) is False


def test_rules_directly() -> None:
    lockers = units_of(_LOCKERS)
    every = part("The lockers in the changing rooms are free to use at any time.")
    assert other_times(every, lockers.near(every, None, 2))
    cafe = units_of(_CAFE)
    open_daily = part("The cafe is open every day.")
    assert not other_times(open_daily, cafe.near(open_daily, None, 2))


_FRAMES = ["Glazing is free for frames bought in our gallery shop."]
_ENGRAVING = ["Engraving is free for everyone who orders before Friday."]


@pytest.mark.parametrize(("contexts", "answer", "flags"), [
    # a benefit for a qualified case said of every case, no price in the passage
    (_FRAMES, "Yes, glazing is free.", True),
    # the case kept, or a benefit for everyone
    (_FRAMES, "Glazing is free for frames bought in the gallery shop.", False),
    (_ENGRAVING, "Engraving is free.", False),
    # the relative clause another clause's
    (["Parking is free for visitors, and the shop, which opened in June, sells maps."],
     "Visitors can park free.", False),
])
def test_benefit_for_a_qualified_case(an: Analyzer, contexts: list[str], answer: str,
                                      flags: bool) -> None:
    assert judged(an, contexts, answer) is flags


def test_benefit_case_the_question_names_is_no_drop() -> None:
    toks = ("glazing", "is", "free", "for", "frames", "bought", "in", "our", "shop")
    assert qualified_for(toks, frozenset({"free"}), frozenset())
    assert qualified_for(toks, frozenset({"free"}), frozenset({"frame"}))  # the thing
    assert not qualified_for(toks, frozenset({"free"}), frozenset({"frame", "shop"}))
    assert not qualified_for(("free", "for", "30", "days", "once", "registered"),
                             frozenset({"free"}), frozenset())


_STUDIO = ["The print studio is open 9am to 9pm on weekdays, and 10am to 4pm at weekends."]
_POOL = ["The pool opens 6am to 9pm, Monday to Friday."]


@pytest.mark.parametrize(("contexts", "answer", "question", "flags"), [
    # one part of the week's hours given as the hours
    (_STUDIO, "The print studio is open from 9am to 9pm.", "When can I use the studio?",
     True),
    # the days kept, asked about, or no other hours given for the other days
    (_STUDIO, "The print studio is open from 9am to 9pm on weekdays.",
     "When can I use the studio?", False),
    (_STUDIO, "It's open from 9am to 9pm.", "When is the studio open on weekdays?", False),
    (_POOL, "The pool is open from 6am to 9pm.", "When is the pool open?", False),
])
def test_hours_of_some_days_given_bare(an: Analyzer, contexts: list[str], answer: str,
                                       question: str, flags: bool) -> None:
    assert flagged(evidence(an, contexts, answer, question)) is flags
