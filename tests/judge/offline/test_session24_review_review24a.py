"""Session 24 review (review24a): a restriction the claim's own sentence states in another
clause is no restriction dropped (`subject_scope.restriction_dropped`'s `said`).

A conditional imperative ("Stay three nights or more and airport transfers are free",
"Spend over £50 and delivery is free") is split into clauses; the second, read alone,
says of everyone what the unit says of "Guests staying three nights or more" or "Orders
over £50", and k183's reading flagged it. The clause's sentence names the restriction,
so the rules stand down, as they do for a restriction the question names. The unit's
subject noun alone in the other clause ("Place an order and delivery is free") names no
restriction: still flagged. Cases in words of our own, none from a probe batch."""

from __future__ import annotations

import pytest

from ragassay.judge.offline import Analyzer
from tests.support.offline import judged, known_limit

_HOTEL = ["Guests staying three nights or more get free airport transfers. Late checkout is "
          "available on request."]
_SHOP = ["Orders over £50 get free delivery; otherwise delivery costs £4.95."]
_CLUB = ["Members of the Gold Club get free parking at every branch."]
_GYM = ["Members aged over 65 get a 30% discount on monthly fees. Classes are free for all "
        "members."]


@pytest.mark.parametrize(("contexts", "answer"), [
    # the restriction stated by the imperative clause before "and"
    (_HOTEL, "Book three nights or more and your airport transfers are free [1]."),
    (_HOTEL, "Stay three nights or more and you get free airport transfers."),
    (_HOTEL, "Stay for at least three nights, and your airport transfers will be free."),
    (_SHOP, "Spend over £50 and delivery is free [1]."),
    (_SHOP, "Order over £50 and you get free delivery."),
    (_CLUB, "Join the Gold Club and parking is free at every branch."),
    # near-misses that were never flagged: the restriction in the claim's own clause
    (_HOTEL, "Guests staying three or more nights get free airport transfers."),
    (_SHOP, "Delivery is free on orders over £50, and £4.95 otherwise."),
    (_GYM, "If you're over 65, you get a 30% discount on monthly fees [1]."),
])
def test_restriction_in_a_sibling_clause_kept(an: Analyzer, contexts: list[str],
                                             answer: str) -> None:
    assert not judged(an, contexts, answer)


@pytest.mark.parametrize(("contexts", "answer"), [
    # the other clause names no restriction: the subject's noun alone, or nothing of it
    (_SHOP, "Place an order and delivery is free."),
    (_HOTEL, "Stay with us and airport transfers are free."),
    (_CLUB, "Sign up today and you get free parking at every branch."),
    # the restriction dropped outright
    (_HOTEL, "Guests get free airport transfers."),
    (_SHOP, "Delivery is free."),
    (_GYM, "Members get a 30% discount on monthly fees."),
])
def test_restriction_dropped_still_flagged(an: Analyzer, contexts: list[str],
                                           answer: str) -> None:
    assert judged(an, contexts, answer)


@known_limit("a clause with no subject noun of the unit and no word of the restriction "
             "('Book now') leaves the unit's subject unread: not flagged")
def test_book_now_widens(an: Analyzer) -> None:
    assert judged(an, _HOTEL, "Book now and your airport transfers are free.")
