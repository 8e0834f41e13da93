"""Review of session 26's added flags (k209): a refusal now reads as a denial
(carried_negation.py), so "refuses to X without Y" met the claim's "won't X unless Y" or
"only X if Y" by a parity of words. "unless Y" and "only ... if Y" say the same
condition as a counted "not ... without Y" (unless_without.py)."""

from __future__ import annotations

from ragassay.judge.offline import Analyzer
from tests.support.offline import judged


def test_unless_keeps_a_refusal_without(an: Analyzer) -> None:
    ctx = ["The kennel refuses to board dogs without an up-to-date vaccination card."]
    assert not judged(an, ctx, "The kennel won't board your dog unless you have an "
                               "up-to-date vaccination card.")
    assert judged(an, ctx, "The kennel boards dogs without a vaccination card.")
    # (a refusal whose verb is not the claim's: its "unless" is left to count as before)
    ctx = ["The studio refuses to admit anyone without a booking reference."]
    assert not judged(an, ctx, "You can't get into the studio unless you have a "
                               "booking reference.")


def test_unless_keeps_a_plain_denial_without(an: Analyzer) -> None:
    ctx = ["Parking permits are never issued without proof of residence."]
    assert not judged(an, ctx, "A parking permit won't be issued unless proof of "
                               "residence is shown.")
    assert judged(an, ctx, "Parking permits are issued without proof of residence.")


def test_only_if_keeps_a_refusal_without(an: Analyzer) -> None:
    ctx = ["The rental desk refuses to release kayaks without a signed waiver."]
    assert not judged(an, ctx, "The rental desk only releases kayaks if you have a "
                               "signed waiver.")
    assert judged(an, ctx, "The rental desk releases kayaks without a signed waiver.")
