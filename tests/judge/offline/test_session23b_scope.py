"""Session 23b (issue #38, scope): "always" said where the unit says "usually",
"normally", "in most cases" (`frequency.always_hedged`), and "only" said of one of the
things a context sentence lists together ("Fees can only be paid by cheque" for "Fees
can be paid by cheque, voucher or card"), left as known limits: the rule tried for it
measured nothing on the dev probes. Cases in words of our own, none from a probe
batch."""

from __future__ import annotations

import pytest

from ragassay.judge.offline import Analyzer
from tests.support.offline import judged, known_limit

_FEES = ["Fees can be paid by cheque, voucher or card. Receipts are emailed."]
_SEATS = ["The minibus seats adults, children or wheelchair users. It leaves at noon."]
_ONLY_CHEQUE = ["Fees can be paid by cheque only. Receipts are emailed."]
_PARKING = ["Guests may park on the gravel, the grass or the lane."]
_PERMITS = ["Stall permits can usually be renewed for another year. Fees are paid in "
            "March."]
_TIDES = ["In most cases the causeway floods twice a day. The cafe is open all year."]
_HIRE = ["Van hires can generally be extended once for a further two weeks, subject to "
         "availability. The van is cleaned before each hire."]
_ALWAYS = ["Stall permits can be renewed for another year at any time."]



@pytest.mark.parametrize(("contexts", "answer", "flags"), [
    # "only" of one listed item, the others dropped: known limits (test_only_limits_left)
    # near-misses that keep passing: "only" restated, the list restated or left unsaid,
    # "only" of something the list does not hold, an unrelated negation
    (_ONLY_CHEQUE, "Fees can only be paid by cheque.", False),
    (_ONLY_CHEQUE, "Only cheques are accepted for fees.", False),
    (_FEES, "Fees can be paid by cheque.", False),
    (_FEES, "Fees can be paid by cheque, voucher or card.", False),
    (_FEES, "You can pay the fees by cheque, voucher or card.", False),
    (_FEES, "Receipts are only sent by email.", False),
    (_SEATS, "The minibus seats adults, children or wheelchair users.", False),
    (_SEATS, "The minibus does not leave before noon.", False),
])
def test_only_of_one_listed_item(an: Analyzer, contexts: list[str], answer: str,
                                 flags: bool) -> None:
    assert judged(an, contexts, answer) is flags


@pytest.mark.parametrize(("contexts", "answer", "flags"), [
    # "always" where the unit hedges how often (missed before)
    (_PERMITS, "Yes, stall permits can always be renewed for another year.", True),
    (_PERMITS, "Yes, you can always renew your stall permit for another year.", True),
    (_TIDES, "The causeway always floods twice a day.", True),
    # ... in other words, so that no unit restates the claim
    (_HIRE, "Yes, you can always extend your van hire for another two weeks.", True),
    # near-misses that keep passing: the hedge kept or said in other words, no
    # frequency said, "always" where the unit says it of every time, another sentence
    (_PERMITS, "Stall permits can usually be renewed for another year.", False),
    (_PERMITS, "Stall permits can normally be renewed for another year.", False),
    (_PERMITS, "In most cases, stall permits can be renewed for another year.", False),
    (_TIDES, "The causeway usually floods twice a day.", False),
    (_TIDES, "The causeway typically floods twice a day.", False),
    (_ALWAYS, "Yes, stall permits can always be renewed for another year.", False),
    (_TIDES, "The cafe is always open.", False),
    (_PERMITS, "Fees are always paid in March.", False),
    (_HIRE, "The van is always cleaned before each hire.", False),
    (_HIRE, "Van hires can generally be extended for a further two weeks.", False),
])
def test_always_for_usually(an: Analyzer, contexts: list[str], answer: str,
                            flags: bool) -> None:
    assert judged(an, contexts, answer) is flags


_ONLY_CLAUSE = ("the clause that restates the claim holds its item alone ('... by cheque "
                "| , voucher or card'); reading the sentence's list for it measured "
                "nothing on the dev probes, so it was withdrawn")


@pytest.mark.parametrize(("contexts", "answer", "flags"), [
    pytest.param(_FEES, "Fees can only be paid by cheque.", True,
                 marks=known_limit(_ONLY_CLAUSE)),
    pytest.param(_SEATS, "The minibus only seats adults.", True,
                 marks=known_limit(_ONLY_CLAUSE)),
    pytest.param(_FEES, "You can pay the fees by cheque only.", True,
                 marks=known_limit("the claim in the active voice ('you can pay the "
                                   "fees') restates no unit of the passive one")),
    pytest.param(_PARKING, "Guests may only park on the gravel.", True,
                 marks=known_limit("list items of several words ('the grass', 'the "
                                   "lane') are not read as listed with 'gravel'")),
    pytest.param(["The Bronze badge test can be taken at home with a video. Silver and "
                  "Gold tests must be taken at the club pool."],
                 "Yes, all the swimming badge tests can be taken at home.", True,
                 marks=known_limit("the other parts named as a list of modifiers ('Silver "
                                   "and Gold tests'), the claim's kind with a word of its "
                                   "own ('swimming')")),
    pytest.param(["The Bronze badge test can be taken at home with a video. Silver and "
                  "Gold tests can be taken at home too."],
                 "Yes, all the badge tests can be taken at home.", False,
                 marks=known_limit("every part said the same, in two sentences: the unit "
                                   "naming one part reads as narrowing the claim")),
    pytest.param(["Deliveries are usually made before noon."],
                 "Deliveries are made before noon.", True,
                 marks=known_limit("'usually' dropped with no 'always' said reads as a "
                                   "paraphrase")),
])
def test_only_limits_left(an: Analyzer, contexts: list[str], answer: str,
                          flags: bool) -> None:
    assert judged(an, contexts, answer) is flags
