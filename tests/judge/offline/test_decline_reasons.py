"""Round 3 of issue #38: a decline that explains itself or sends the user elsewhere is
still a decline. A sentence saying what the sources cover ("Those notes only deal with
...", "the guide I was given is about ...") or where to ask instead ("I'd try the
council's website", "your pharmacist is the best person to ask") asserts nothing about
the world; a claim after a decline is still checked. In other words than the probes."""

from __future__ import annotations

import pytest

from ragassay.judge.offline import HALLUCINATION_THRESHOLD, Analyzer, Evidence
from ragassay.judge.offline.declines import is_referral, is_source_scope
from ragassay.types import Sample

CTX = ["The museum opens at 9 am and closes at 5 pm. Entry is free for under-12s.",
       "Guided tours leave from the main hall every hour."]
Q = "Can I bring my dog to the museum café?"


def _ev(an: Analyzer, answer: str) -> Evidence:
    return an.analyze(Sample(id="d", question=Q, contexts=tuple(CTX), answer=answer))


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
    assert ev.faithfulness is None or ev.faithfulness >= HALLUCINATION_THRESHOLD, ev


@pytest.mark.parametrize("answer", [
    # a claim after a decline is checked: the café rule is in no context
    "I'm not sure about dogs. The café allows pets on a lead every weekday until 3 pm.",
    # a referral that names a number no context has is a claim (whom to call is made up)
    "I don't know. Please call the café on 0161 555 0199.",
])
def test_a_claim_after_a_decline_is_still_checked(an: Analyzer, answer: str) -> None:
    ev = _ev(an, answer)
    assert ev.faithfulness is not None and ev.faithfulness < HALLUCINATION_THRESHOLD, ev


@pytest.mark.parametrize(("text", "scope"), [
    ("They only cover flights, not hotels.", True),
    ("The handbook I have is about payroll.", True),
    ("These guidelines mostly relate to dosing in adults.", True),
    # a plain statement about a policy, a plan or a product is a claim
    ("The policy covers theft and fire.", False),
    ("It covers theft and fire.", False),
    ("The Gold plan only covers dental care.", False),
])
def test_what_the_sources_cover_is_told_from_a_claim(text: str, scope: bool) -> None:
    assert is_source_scope(text) is scope


@pytest.mark.parametrize("text", [
    "I'd check the club's noticeboard.",
    "Your pharmacist would be the best person to ask.",
    "You'd be better off asking the registrar.",
])
def test_referrals_in_more_forms(text: str) -> None:
    assert is_referral(text)
