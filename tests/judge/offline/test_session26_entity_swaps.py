"""Session 26, entity swaps: a day or month is when, not what, in a parallel slot's
entity (parallel.py: "Choir practice is on Tuesdays" read against "Band practice is on
Tuesdays. Choir practice is on Thursdays."); a slot whose subject the other shares owns
its names ("Buses to Harwick ..." / "Buses to Dunmore ..."); and a claim whose pronoun
subject stands for the one thing its answer's sentence before names (carried.py). Cases
in words of our own, none from a probe batch."""

from __future__ import annotations

import pytest

from ragassay.judge.offline import Analyzer
from ragassay.judge.offline.carried import carried
from tests.support.offline import judged

_PRACTICE = "Band practice is held on Tuesdays. Choir practice is held on Thursdays."
_BUSES = "Buses to Harwick leave from stop 4. Buses to Dunmore leave from stop 9."
_BIKES = ("The Ridge 29 bike has hydraulic disc brakes. The Town 26 bike has a "
          "front basket and mudguards.")


@pytest.mark.parametrize(("contexts", "answer", "flags"), [
    # one slot's day given to the other
    ([_PRACTICE], "Choir practice is held on Tuesdays.", True),
    ([_PRACTICE], "Choir practice is on Thursdays.", False),
    ([_PRACTICE], "Band practice is held on Tuesdays and choir practice on Thursdays.",
     False),
    # one slot's stop given to the other, their subjects shared ("Buses")
    ([_BUSES], "Your Dunmore bus leaves from stop 4.", True),
    ([_BUSES], "Buses to Dunmore go from stop 9.", False),
    # a pronoun subject carrying the sentence before's one thing
    ([_BIKES], "I'd pick the Ridge 29. It has a front basket and mudguards.", True),
    ([_BIKES], "I'd pick the Town 26. It has a front basket and mudguards.", False),
    ([_BIKES], "I'd pick the Ridge 29. It has hydraulic disc brakes.", False),
])
def test_session26_entity_swaps(an: Analyzer, contexts: list[str], answer: str,
                                flags: bool) -> None:
    assert judged(an, contexts, answer) is flags


@pytest.mark.parametrize(("prev", "text", "want"), [
    ("I'd go for the Harbour Suite.", "It has a sea view.", "The Harbour Suite has a sea view."),
    ("Course B suits beginners.", "They include a workbook.", "The Course B include a workbook."),
    # the dummy "it", a sentence naming two things or none, a day: no referent carried
    ("The Harbour Suite is lovely.", "It's worth booking early.", None),
    ("The Harbour Suite is lovely.", "It takes ten minutes to walk there.", None),
    ("The Harbour Suite and the Garden Suite are both free.", "It has a sea view.", None),
    ("Great question!", "It has a sea view.", None),
    ("Bookings open on Mondays.", "It fills up fast.", None),
])
def test_carried_referent(prev: str, text: str, want: str | None) -> None:
    assert carried(prev, text) == want
