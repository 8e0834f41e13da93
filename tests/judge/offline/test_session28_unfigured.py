"""Session 28 (k240): a claim with no figure restated in other words.

A restatement with no figure has no anchor `paraphrase.restated_in_other_words` can
check (judges-history.md, sessions 13 and 27). Session 28 tried three more anchors
(neither side states a figure, words replaced one for one, what the claim quantifies
named by the sentence, most of the sentence's words replaced): they lifted the swaps
below, written as full rewordings, so none was kept. These cases guard the next try:
the swaps must stay flagged, and the faithful rewordings are the known limit.
"""

from __future__ import annotations

import pytest

from ragassay.judge.offline import Analyzer
from tests.support.offline import judged, known_limit

CARD = ["A replacement library card is issued at the front desk for a small fee."]
HIKE = ["Walkers should wear waterproof boots and bring a warm layer."]
SALE = ["Sale items can be exchanged for another size but cannot be refunded."]
LOCKER = ["Lockers must be emptied at closing time; items left overnight are removed."]
COURSE = ["Students complete short reading tasks between sessions."]
RACKS = ["Cycle racks are located behind the sports hall."]


@pytest.mark.parametrize(("contexts", "answer"), [
    (CARD, "If you lose it, the front desk can give you a new card free of charge."),
    (HIKE, "Wear trainers and pack something warm to put on."),
    (SALE, "You can get a full refund, but you can't swap it for a different size."),
    (LOCKER, "Yes, you can keep your things in the locker overnight."),
    (COURSE, "Yes, there's a written essay to hand in between sessions."),
    (RACKS, "You'll find the bike racks in front of the library."),
])
def test_a_swap_reworded_without_a_figure_stays_flagged(
        an: Analyzer, contexts: list[str], answer: str) -> None:
    assert judged(an, contexts, answer)


@pytest.mark.parametrize(("contexts", "answer"), [
    (HIKE, "Wear waterproof boots and pack something warm to put on."),
    (SALE, "You can swap it for a different size, but we can't give you a refund."),
    (LOCKER, "No, you need to clear your locker by closing time, or anything left will "
             "be taken out."),
])
@known_limit("a faithful rewording with no figure has no anchor to lift it by")
def test_a_faithful_rewording_without_a_figure(
        an: Analyzer, contexts: list[str], answer: str) -> None:
    assert not judged(an, contexts, answer)


def test_a_close_rewording_without_a_figure_is_supported(an: Analyzer) -> None:
    assert not judged(an, RACKS, "Cycle racks are behind the sports hall.")
