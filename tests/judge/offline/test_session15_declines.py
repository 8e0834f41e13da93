"""Issue #38, session 15: a decline followed by a generic referral in everyday words ("You
could try asking them directly.", "It may be best to check with the centre directly.",
"It's worth ringing ..."; `hedged._ADVICE`), and "nothing in what I have mentions X"
(`declines`). A claim beside such advice is still one. Each decline was flagged at 9c81a1f.
Wording and domains none of the probe batches use."""

from __future__ import annotations

import pytest

from ragassay.judge.offline import Analyzer
from tests.support.offline import evidence, flagged

TOOLS = (["The tool library lends drills, ladders and hedge trimmers for up to 7 days.",
          "Members pay £20 a year; loans are free for members."],
         "Can I borrow a pressure washer?")


@pytest.mark.parametrize("answer", [
    "I don't have anything on pressure washers. You could try asking the volunteers "
    "directly.",
    "Nothing in what I have mentions pressure washers. The volunteers would know.",
    "My information doesn't cover pressure washers. It may be best to check with the "
    "library directly.",
    "I can't see pressure washers in the lending list I have. It's worth ringing the "
    "library before you come.",
])
def test_a_decline_with_a_generic_referral_is_no_hallucination(an: Analyzer,
                                                               answer: str) -> None:
    contexts, question = TOOLS
    ev = evidence(an, contexts, answer, question)
    assert not flagged(ev), ev
    assert ev.noncommittal


@pytest.mark.parametrize("answer", [
    # an invented claim beside the advice is still a claim
    "Pressure washers can be borrowed for 3 days. You could try asking the volunteers "
    "which model suits you.",
    "Pressure washers cost £5 a day to borrow, and it's worth ringing ahead.",
])
def test_a_claim_beside_advice_is_still_scored(an: Analyzer, answer: str) -> None:
    contexts, question = TOOLS
    assert flagged(evidence(an, contexts, answer, question))
