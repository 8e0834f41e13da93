"""Round 3 of issue #38: a decline that explains itself or sends the user elsewhere is
still a decline. A sentence saying what the sources cover ("Those notes only deal with
...", "the guide I was given is about ...") or where to ask instead ("I'd try the
council's website", "your pharmacist is the best person to ask") asserts nothing about
the world; a claim after a decline is still checked. In other words than the probes.
The grammar of source scopes and referrals is tested in test_decline_variety.py."""

from __future__ import annotations

import pytest

from ragassay.judge.offline import Analyzer, Evidence, reasoning
from tests.support.offline import evidence, flagged

CTX = ["The museum opens at 9 am and closes at 5 pm. Entry is free for under-12s.",
       "Guided tours leave from the main hall every hour."]
Q = "Can I bring my dog to the museum café?"


def _ev(an: Analyzer, answer: str) -> Evidence:
    return evidence(an, CTX, answer, Q)


@pytest.mark.parametrize("answer", [
    "I'm afraid I can't say. Those notes only deal with painting restoration and "
    "sculpture loans, not catering.",
    "I don't have that information; the leaflet I was given is about parking permits and "
    "wheelchair hire.",
    "Sorry, I can't tell from what I have. It mainly covers school visits and membership "
    "renewals.",
    "I'm not able to answer that. I'd try the museum's front desk.",
    "The documents don't mention dogs. Your local council would be the best place to ask.",
    "I have no guidance on pets here. Please ask the visitor services manager.",
    "I don't know, the pages I can see only cover locker rental and photography rules, "
    "and nothing on animals.",
])
def test_a_decline_with_its_reason_or_a_referral_is_not_a_hallucination(
        an: Analyzer, answer: str) -> None:
    ev = _ev(an, answer)
    assert not flagged(ev), ev


@pytest.mark.parametrize("answer", [
    # a claim after a decline is checked: the café rule is in no context
    "I'm not sure about dogs. The café allows pets on a lead every weekday until 3 pm.",
    # a referral that names a number no context has is a claim (whom to call is made up)
    "I don't know. Please call the café on 0161 555 0199.",
])
def test_a_claim_after_a_decline_is_still_checked(an: Analyzer, answer: str) -> None:
    ev = _ev(an, answer)
    assert flagged(ev), ev


def test_the_reasoning_of_a_decline_says_what_was_scored(an: Analyzer) -> None:
    """Trial 53: an abstained answer's reasoning ended "faithfulness 1.00" while its
    faithfulness is no value; trials 52 and 53: "the answer is noncommittal" beside a low
    score read as a contradiction."""
    ctx = ["The museum opens at 10 am and closes at 6 pm."]
    whole = evidence(an, ctx, "I'm sorry, the documents I have don't mention parking.",
                     "Is there parking?")
    assert whole.abstains
    said = reasoning(whole)
    assert "abstained, no faithfulness" in said and "faithfulness 1.00" not in said
    part = evidence(an, ctx, "I'm not sure about parking, but the car park costs 9 EUR "
                             "a day.", "Is there parking?")
    assert not part.abstains
    assert "declines in part, and what else it says is scored as claims" in reasoning(part)
