"""Issue #38, session 13: two decline forms no pattern read before (each failed at
7060f25): a silent source named as what the speaker has access to ("the <noun> I have
access to don't address this"), and a source named with a possessive ("isn't mentioned
in the venue's information"). The business's own "we have" stays a claim. Wording and
domains none of the probe batches use."""

from __future__ import annotations

import pytest

from ragassay.judge.offline import Analyzer
from ragassay.judge.offline.declines import is_noncommittal
from tests.support.offline import evidence, flagged

ALLOTMENT = (["Plots are £35 a year, payable in March.",
              "Water troughs are refilled every Friday."],
             "Can I keep bees on my plot?")


@pytest.mark.parametrize("answer", [
    "The allotment rules I have access to don't address this. The site secretary would "
    "be the best person to ask.",
    "I'm not sure — beekeeping isn't mentioned in the society's information. You may want "
    "to contact the committee.",
])
def test_a_decline_in_these_forms_abstains(an: Analyzer, answer: str) -> None:
    ctx, q = ALLOTMENT
    ev = evidence(an, ctx, answer, q)
    assert ev.abstains and not flagged(ev), ev


@pytest.mark.parametrize("sentence", [
    "The plots we have don't include a shed.",  # the business's: a claim
    "The rules of the society don't allow bonfires.",
])
def test_what_the_business_says_is_no_decline(sentence: str) -> None:
    assert not is_noncommittal(sentence)
