"""Issue #38, session 16 (trial 69's declines): a decline ending in a conditional referral
with a contracted modal ("If you email us, we'll let you know"), and a decline that says
what the speaker's sources cover ("What I have says nothing about ...", "The information
I have covers X, but not Y", "Our information covers X, but says nothing about Y"). Each
was flagged before (claims in the same shapes: test_review16.py, H5 and H6). Wording
and domains none of the probe batches use."""

from __future__ import annotations

import pytest

from ragassay.judge.offline import Analyzer
from tests.support.offline import assert_judged

_CONTEXTS = [
    "The bike workshop services road and hybrid bikes on weekdays from 9am to 5pm. A "
    "standard service costs £45 and includes gear and brake adjustment.",
    "Bikes left for more than 30 days after a service are sold to cover storage.",
]
_QUESTION = "Do you repair electric bike motors?"


@pytest.mark.parametrize("answer", [
    "I can't find anything about electric bike motors in our information. If you "
    "email the workshop, we'll let you know.",
    "I'm not sure whether we repair e-bike motors. If you give us a ring, we'd be able "
    "to tell you.",
    "What I have says nothing about electric bike motors.",
    "The information I have covers servicing, prices and storage, but not electric bike "
    "motors.",
    "Our information covers servicing, prices and storage, but says nothing about motors.",
])
def test_a_decline_is_an_abstention_not_a_hallucination(an: Analyzer, answer: str) -> None:
    ev = assert_judged(an, _CONTEXTS, answer, flags=False, question=_QUESTION)
    assert ev.noncommittal
