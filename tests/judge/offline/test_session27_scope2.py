"""Session 27 (scope, round 2): faithful rewordings of a quantifier that read as a
widening, and the widenings beside them that must still be read.

- negated_any.same_denial: "you don't need any X" says what "No X is needed" says, even
  where the unit goes on with "only" or "except" of something else;
- withdrawn in session 27 (a held-out answer went right to wrong): a floating "all" ("The
  spa's pools are all heated") and a possessive ("all the spa's pools") read as
  quantifying the noun, not the word after "all" (strict xfails below);
- time_limit.names_limit: a claim that names the one time an "only" unit limits to keeps
  the limit ("In winter, ... every day" for "... only in winter").
Cases in words of our own, none from a probe batch."""

from __future__ import annotations

import pytest

from ragassay.judge.offline import Analyzer
from ragassay.judge.offline.clauses import part
from ragassay.judge.offline.negated_any import same_denial
from ragassay.judge.offline.time_limit import names_limit
from tests.support.offline import judged

_WITHDRAWN = pytest.mark.xfail(strict=True, reason="withdrawn in session 27: the noun a floating "
                               "or possessive 'all' quantifies (a held-out answer went wrong)")


@pytest.mark.parametrize(("context", "answer", "flags"), [
    # a negated "any" for a "no" beside an "only" / "except" of something else: faithful
    ("No waders are needed for the river walk, only sturdy boots.",
     "You don't need any waders for the river walk, only sturdy boots.", False),
    ("No deposit is taken except for parties of twelve or more.",
     "We don't take any deposit except for parties of twelve or more.", False),
    ("Apart from a helmet, no kit is needed for the taster ride.",
     "You don't need any kit for the taster ride apart from a helmet.", False),
    ("No prescription is required for the hay fever tablets, only for the nasal spray.",
     "You don't need any prescription for the hay fever tablets, only for the nasal spray.",
     False),
    # ... and the widenings of a denial still read
    ("Toddlers under two don't need a seat ticket.", "Nobody needs any seat ticket.", True),
    ("No booking is needed on weekdays, but weekend climbs must be booked.",
     "You don't need any booking to climb.", True),
    ("No fee is charged for the tasting, except for the rare-whisky flight.",
     "There isn't any fee for any tasting flight.", True),
    # a floating "all" and a possessive: the noun is what is quantified
    ("The spa's pools are all heated to 30 degrees.",
     "Every pool at the spa is heated to 30 degrees.", False),
    pytest.param("The campsite's pitches all have a hook-up point.",
                 "Every pitch has a hook-up point.", False, marks=_WITHDRAWN),
    ("All the marina's berths are metered for electricity.",
     "Every berth in the marina is metered for electricity.", False),
    # ... and a modifier of that noun still narrows it
    pytest.param("The spa's outdoor pools are heated to 30 degrees.",
                 "All the spa's pools are heated to 30 degrees.", True, marks=_WITHDRAWN),
    # a claim naming the one time the unit limits to
    ("The ski lift only runs in winter. It opens at 8am every day.",
     "In winter, the ski lift opens at 8am every day.", False),
    ("The ski lift only runs in winter.", "The ski lift runs every day of the year.", True),
    ("Saturday tastings are held in November only, for a 5 pound fee.",
     "Saturday tastings are held throughout the year, for a 5 pound fee.", True),
])
def test_scope_round2(context: str, answer: str, flags: bool) -> None:
    assert judged(Analyzer(), [context], answer) is flags


def test_same_denial_both_ways() -> None:
    unit = part("No waders are needed for the river walk, only sturdy boots.")
    assert same_denial(part("You don't need any waders for the river walk."), unit)
    # "any" not under a negation, or another universal beside it: no
    assert not same_denial(part("Any waders will do for the river walk."), unit)
    assert not same_denial(part("You don't need any waders on every walk."), unit)
    # a denial of something else
    assert not same_denial(part("You don't need any boots for the river walk."), unit)


@_WITHDRAWN
def test_quantified_heads() -> None:
    assert part("The spa's pools are all heated.").quantified == ("pool",)
    assert part("All the marina's berths are metered.").quantified == ("berth",)
    # a listed subject still quantifies nothing; "open all day" still the day
    assert part("Kayaks, canoes and paddleboards are all for hire.").quantified == ()
    assert part("The café is open all day.").quantified == ("day",)


def test_names_limit_both_ways() -> None:
    unit = part("The ski lift only runs in winter.")
    assert names_limit(part("In winter, the ski lift opens at 8am every day."), unit)
    assert not names_limit(part("The ski lift opens at 8am every day."), unit)
    assert not names_limit(part("In spring, the ski lift opens at 8am every day."), unit)
    # a month the unit names and the claim lacks, or the whole year: no
    held = part("Saturday tastings are held in November only.")
    assert not names_limit(part("Saturday tastings are held all year round."), held)
    assert not names_limit(part("Saturday tastings are held every week."), held)
