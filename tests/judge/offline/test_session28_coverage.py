"""Session 28 round 2: what a plan or package covers turned by another verb
(coverage.py), a price against "free" (charges.py), a time bound turned to the other
side (compared_sides.py), flagged; the same coverage, price or bound said in other
words, left alone. Sentences in our own wording."""

from __future__ import annotations

import pytest

from ragassay.judge.offline import Analyzer
from tests.support.offline import judged

_TURNED = [
    (["The travel cover excludes winter sports."], "The travel cover covers winter sports."),
    (["The welcome box doesn't include a corkscrew."], "The welcome box comes with a corkscrew."),
    (["The broadband deal comes with a router."], "The broadband deal does not include a router."),
    (["Hearing tests are not covered by the eye care plan."],
     "The eye care plan covers hearing tests."),
    (["Valet parking is part of the wedding package."],
     "The wedding package excludes valet parking."),
    (["The boat trip costs £9."], "The boat trip is free."),
    (["Cashback claims must be made within 60 days of the purchase."],
     "Cashback claims must be made after 60 days of the purchase."),
    (["Bulky waste can be put out before 7 am."], "Bulky waste can be put out from 7 am."),
]

_KEPT = [
    (["The travel cover excludes winter sports."],
     "Winter sports aren't covered by the travel cover."),
    (["The broadband deal comes with a router."],
     "A router is included in the broadband deal."),
    (["The welcome box doesn't include a corkscrew."],
     "A corkscrew is not included in the welcome box."),
    (["The dental plan covers check-ups but excludes whitening."],
     "Whitening is not covered by the dental plan."),
    (["The boat trip costs £9, but it's free for children."],
     "The boat trip is free for children."),
    (["The boat trip costs £9."], "A ticket for the boat trip is £9."),
    (["Cashback claims must be made within 60 days of the purchase."],
     "You have up to 60 days after the purchase to make a cashback claim."),
    (["Refunds within 30 days go back to the card; after 30 days you get a voucher."],
     "After 30 days you get a voucher."),
    (["Seat covers are sold separately for the van."],
     "Seat covers for the van are sold separately."),
]


@pytest.fixture(scope="module")
def an() -> Analyzer:
    return Analyzer()


@pytest.mark.parametrize(("contexts", "answer"), _TURNED)
def test_turned_coverage_price_or_bound_is_flagged(an: Analyzer, contexts: list[str],
                                                   answer: str) -> None:
    assert judged(an, contexts, answer)


@pytest.mark.parametrize(("contexts", "answer"), _KEPT)
def test_the_same_coverage_price_or_bound_is_kept(an: Analyzer, contexts: list[str],
                                                  answer: str) -> None:
    assert not judged(an, contexts, answer)
