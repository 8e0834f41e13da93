"""Issue #38, session 7: a universal claim against a unit that places what it quantifies
("customers within the city centre", "members registered on the scheme", "guests on the
Gold package"), names a day of the time it quantifies ("on Friday evenings" for "every
evening"), or restricts it in a relative clause split off its sentence ("students who
have passed the induction"): the claim widens the unit's scope. Each failed before; the
faithful forms beside them (the claim states the place, "on request" in both) stay
supported."""

from __future__ import annotations

import pytest

from ragassay.judge.offline import Analyzer
from ragassay.judge.offline.clauses import part
from ragassay.judge.offline.pieces import clause_texts
from ragassay.judge.offline.scope import denied_of_all
from tests.support.offline import assert_judged, evidence

WIDENED = [
    ("Late checkout is free for guests within the loyalty programme.",
     "Late checkout is free for all guests."),
    ("Free parking is available to visitors registered with the front desk.",
     "Free parking is available to any visitor."),
    ("Interest-free loans are offered to members outside their probation period.",
     "Interest-free loans are offered to all members."),
    ("Bike servicing is included for riders on the Premium plan.",
     "Bike servicing is included for every rider."),
    ("Guided walks leave the visitor centre on Friday evenings.",
     "Guided walks leave the visitor centre every evening."),
    ("The darkroom is open to students who have passed the induction, on weekdays.",
     "The darkroom is open to all students on weekdays."),
]


@pytest.mark.parametrize(("context", "answer"), WIDENED)
def test_a_claim_that_drops_the_units_placing_is_flagged(an: Analyzer, context: str,
                                                        answer: str) -> None:
    assert_judged(an, [context], answer, flags=True, kind="quantifier")


@pytest.mark.parametrize(("context", "answer"), [
    ("Free parking is available to visitors on request.",
     "Free parking is available to all visitors on request."),
    ("Customers in the city centre get same-day delivery.",
     "All customers in the city centre get same-day delivery."),
    ("The cafe serves hot breakfasts every morning in the garden room.",
     "The cafe serves breakfast every morning in the garden room."),
    ("Members registered on the scheme earn points on every purchase.",
     "Every member registered on the scheme earns points on purchases."),
])
def test_a_claim_that_keeps_the_scope_is_supported(an: Analyzer, context: str,
                                                    answer: str) -> None:
    assert_judged(an, [context], answer, flags=False, kind=None)


def test_a_negation_in_another_clause_denies_nothing_of_all() -> None:
    """ "... before any swimming lesson for new pupils and for anyone who hasn't had
    swimming lessons with us": the relative clause's negation is of its own subject, not
    of every lesson (a faithful answer was read as a negation flip)."""
    unit = part("A water safety check is required at least 48 hours before any swimming "
                "lesson for new pupils and for anyone who hasn't had swimming lessons with "
                "us in 6 months.")
    claim = part("As a new pupil you'll need a water safety check at least two days before "
                 "your swimming lesson.")
    assert not denied_of_all(claim, unit)
    assert denied_of_all(part("Dogs are allowed in ground-floor rooms."),
                         part("Dogs are not allowed in any room."))


@pytest.mark.parametrize(("text", "pieces"), [
    ("only guests aged 18 or over can join the tasting", 1),
    ("groups of 10 or more get a discount", 1),
    ("You can pay by card or you can pay in cash", 2),
])
def test_the_or_of_a_bound_opens_no_clause(text: str, pieces: int) -> None:
    """ "18 or over" is one bound: split at its "or", "or over can join the wine
    tasting" took the sentence's first subject ("children") and read as a swap."""
    assert len(clause_texts(text)) == pieces


def test_a_bound_after_a_semicolon_is_no_swap(an: Analyzer) -> None:
    ctx = ["Children are welcome on the farm walk and get a free apple juice tasting.",
           "Guests must be 18 or over to take part in the cider tasting."]
    ev = evidence(an, ctx, "Children are welcome and get a free apple juice tasting; only "
                           "guests aged 18 or over can join the cider tasting.")
    assert ev.contradicts == [None], ev
