"""Issue #38, session 14: decline forms no pattern read before (each failed at 61c14ab):
"that isn't something the <texts> I have covers", "I don't see anything about X", a
referral to a named business ("It's best to give Hollybank Stables a call"), what "nothing
here covers" (its object is the topic declined, no claim), and a declined topic going on
after "or" ("details about the ferry or the island buses"). A claim beside a decline is
still one. Wording and domains none of the probe batches use."""

from __future__ import annotations

import pytest

from ragassay.judge.offline import Analyzer
from ragassay.judge.offline.referrals import is_referral
from tests.support.offline import evidence, flagged

RIDING = (["Hollybank Stables offers 45-minute group lessons for £28.",
           "Riders must wear a hat that meets PAS 015; hats can be borrowed free."],
          "Can I bring my own pony for a lesson?")


@pytest.mark.parametrize("answer", [
    "That isn't something the Hollybank guidance I have covers, so I can't say for sure. "
    "Please check with the yard office.",
    "Hmm, I don't see anything about own ponies in the stable details I have. The yard "
    "manager can tell you more.",
    "The information I have doesn't say whether you can bring your own pony. It's best "
    "to give Hollybank Stables a call to ask.",
    "Unfortunately I don't know: nothing here covers visiting riders stabling horses "
    "overnight.",
    "I don't have details about the livery yard or winter grazing paddocks, sorry. The yard "
    "office will be able to advise you.",
])
def test_a_decline_in_these_forms_abstains(an: Analyzer, answer: str) -> None:
    ctx, q = RIDING
    ev = evidence(an, ctx, answer, q)
    assert ev.abstains and not flagged(ev), ev


def test_a_named_referral_is_a_referral() -> None:
    assert is_referral("It's best to give Hollybank Stables a call to ask.")
    assert not is_referral("It's best to give the pony a rest after an hour.")


def test_a_claim_beside_a_decline_is_still_scored(an: Analyzer) -> None:
    ctx, q = RIDING
    ev = evidence(an, ctx, "I don't see anything about own ponies, or rather lessons cost "
                  "£40 and last two hours.", q)
    assert flagged(ev), ev
