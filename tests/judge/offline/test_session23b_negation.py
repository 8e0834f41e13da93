"""Session 23b, issue #38: negation flips read too widely, and those left. A turned
unit naming another place than the claim's ("A ticket is required to visit the
tower" is no flip of "You don't need a ticket to walk on the ramparts"), and a
sentence whose negated clause is about another object than the claim's, another
clause of it stating the claim's ("Pupils should not bring phones; calculators are
fine" for "Pupils may bring calculators": a known limit, its rule withdrawn). Cases in
words of our own, none from a probe batch."""

from __future__ import annotations

import pytest

from ragassay.judge.offline import Analyzer
from tests.support.offline import judged, known_limit

_CASTLE = ["A ticket is required to climb the tower. Walking on the ramparts is free."]
_HARBOUR = ["A licence is needed to moor in the marina. Mooring at the harbour wall is free."]
_EXAM = ["Pupils should not bring phones; calculators are fine."]
_PICNIC = ["Visitors must not bring glass bottles; plastic cups are welcome."]
_APART = known_limit("a sentence's negated clause about another object than the claim's "
                     "turns it (apart.py withdrawn in session 23: it let a flip through on "
                     "a held-out set)")



@pytest.mark.parametrize(("contexts", "answer", "flags"), [
    # the claim's place is another than the turned unit's, and a sentence of the
    # passage states it the claim's way (flagged before)
    (_CASTLE, "You don't need a ticket to walk on the ramparts.", False),
    pytest.param(_HARBOUR, "You don't need a licence to moor at the harbour wall.", False,
                 marks=known_limit("read as an entity swap ('harbour wall' / 'marina'), "
                                   "the claim's place stated apart in another sentence "
                                   "(also before)")),
    # ... the unit's own place, turned: still a flip
    (_CASTLE, "You don't need a ticket to climb the tower.", True),
    (_HARBOUR, "You don't need a licence to moor in the marina.", True),
    # the claim's object is granted in another clause than the denied one (flagged before)
    pytest.param(_EXAM, "Pupils may bring calculators.", False,
                 marks=_APART),
    pytest.param(_PICNIC, "Visitors can bring plastic cups.", False,
                 marks=_APART),
    # ... the denied clause's object: still a flip
    (_EXAM, "Pupils may bring phones.", True),
    (_PICNIC, "Visitors can bring glass bottles.", True),
    # ... the claim states the denied clause's object besides the granted one's
    (["The shredder cuts paper but does not take staples."],
     "The shredder cuts paper and also takes staples.", True),
    (["Trainees may observe surgery but must not handle instruments."],
     "Trainees may observe surgery and handle instruments.", True),
    # restated negations and unrelated ones keep passing
    (_EXAM, "Pupils should not bring phones.", False),
    (_PICNIC, "Glass bottles must not be brought, but plastic cups are welcome.", False),
    (["The library is closed on Sundays. Study rooms can't be booked online."],
     "The library is closed on Sundays.", False),
])
def test_other_thing(an: Analyzer, contexts: list[str], answer: str, flags: bool) -> None:
    assert judged(an, contexts, answer) is flags


@pytest.mark.parametrize(("contexts", "answer", "flags"), [
    # (mended in session 24, k185: availability.py)
    (["The gallery is open 10am-5pm Tuesday to Sunday and closed on Mondays."],
     "Yes, the gallery is open on Mondays from 10am to 5pm.", True),
    (["Gift wrapping is available for all orders at a small charge."],
     "Sorry, we don't offer gift wrapping.", True),
])
def test_flips_left(an: Analyzer, contexts: list[str], answer: str, flags: bool) -> None:
    assert judged(an, contexts, answer) is flags
