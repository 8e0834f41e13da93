"""subjects.stranded: a contrasting clause whose verb phrase is left out ("Phone support
is not included, but email support is") says the first clause's predicate of its own
subject, without its negation. Before session 20 the claim it supports was read against
the negated first clause (or, opening "Email ...", taken for a referral)."""

from __future__ import annotations

import pytest

from ragassay.judge.offline import Analyzer
from ragassay.judge.offline.clauses import part
from ragassay.judge.offline.subjects import stranded
from tests.support.offline import judged

_PLANS = "Phone support is not included in the Starter plan, but email support is."
_PETS = "Dogs are not allowed in the yurts, but cats are."
_FEES = "Under-fives don't have to pay the entry fee, but adults do."


@pytest.mark.parametrize(("context", "answer", "flags"), [
    (_PETS, "Cats are allowed in the yurts.", False),  # flagged before
    (_FEES, "Adults have to pay the entry fee.", False),  # flagged before
    (_PLANS, "Email support is included in the Starter plan.", False),
    # the flips and the swaps stay caught
    (_PETS, "Dogs are allowed in the yurts.", True),
    (_PETS, "Cats are not allowed in the yurts.", True),
    (_FEES, "Under-fives have to pay the entry fee.", True),
    (_PLANS, "Email support is not included in the Starter plan.", True),  # passed before
    (_PLANS, "Phone support is included in the Starter plan.", True),
])
def test_a_stranded_clause_takes_the_predicate(an: Analyzer, context: str, answer: str,
                                               flags: bool) -> None:
    assert judged(an, [context], answer) is flags


@pytest.mark.parametrize(("text", "is_stranded"), [
    ("but cats are", True),
    ("while the Pro plan does", True),
    ("but not on Sundays", False),  # a negation: an elliptic case of its own
    ("but the bar is open until midnight", False),  # a predicate of its own
    ("and cats are", False),  # no contrast
])
def test_stranded(text: str, is_stranded: bool) -> None:
    assert stranded(part(text)) is is_stranded
