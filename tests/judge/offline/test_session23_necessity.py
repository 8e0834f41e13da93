"""Session 23, issue #38: negation flips told by words of necessity that differ between
the answer and the passage ("optional" / "is required", "isn't needed" / "is
essential", "required" / "recommended but not required"): the necessity stance of a
claim against a unit of its passage on the same thing (necessity.py). Cases in words
of our own, none from a probe batch."""

from __future__ import annotations

import pytest

from ragassay.judge.offline import Analyzer
from ragassay.judge.offline.clauses import part
from ragassay.judge.offline.necessity import OPTIONAL, REQUIRED, need
from tests.support.offline import judged, known_limit

_POTTERY = ["Pottery taster sessions run on Saturday mornings but not in August.",
            "Booking is essential, as places are limited to eight."]
_LAKE = ["A permit is required to fish in the lake."]
_SWIM = ["Wetsuits are optional for the river swim."]
_BIKES = ["Our e-bikes have a top speed of 15 mph.",
          "Gloves are recommended but not required."]
_DEPOSIT = ["A deposit of £80 is needed to secure any hire."]
_CLINIC = ["The walk-in clinic sees patients without an appointment.",
           "An appointment is required for the travel clinic."]
_CAVES = ["No previous climbing experience is required for the beginners' wall."]



@pytest.mark.parametrize(("contexts", "answer", "flags"), [
    # the opposite necessity, in other words (the swim and the deposit passed before;
    # the pottery and the gloves were flagged before only as unsupported)
    (_POTTERY, "No, booking isn't needed for the pottery taster sessions.", True),
    (_SWIM, "Wetsuits are compulsory for the river swim.", True),
    (_BIKES, "Yes, gloves are required on all our e-bikes.", True),
    (_DEPOSIT, "A deposit is optional.", True),
    # the same necessity, in other words or restated
    (_POTTERY, "Yes, booking is essential because places are limited to eight.", False),
    (_SWIM, "Wetsuits are optional for the river swim.", False),
    (_SWIM, "You don't need a wetsuit for the river swim.", False),
    (_BIKES, "Gloves are recommended, but they are not required.", False),
    (_DEPOSIT, "Yes, an £80 deposit is required to secure a hire.", False),
    (_LAKE, "A permit is needed to fish in the lake.", False),
    # another thing than the unit's ("walk-in" / "travel" clinic), a denial by "no"
    (_CLINIC, "No appointment is needed for the walk-in clinic.", False),
    (_CAVES, "You can try the beginners' wall without climbing experience.", False),
    (_CAVES, "You need previous climbing experience for the beginners' wall.", True),
    # unrelated negation beside the stance
    (_POTTERY, "Booking is essential, and the sessions don't run in August.", False),
])
def test_necessity_said_the_other_way_is_a_flip(an: Analyzer, contexts: list[str],
                                                 answer: str, flags: bool) -> None:
    assert judged(an, contexts, answer) is flags


@pytest.mark.parametrize(("text", "stance"), [
    ("Booking is essential", REQUIRED),
    ("The course requires a deposit", REQUIRED),
    ("A deposit is optional", OPTIONAL),
    ("Booking isn't needed", OPTIONAL),
    ("No previous experience is needed", OPTIONAL),
    ("Gloves are recommended but not required", OPTIONAL),
    ("You need to book", None),  # (a need to do is left to its own words)
    ("The essential guide to the coast", None),
    ("Booking is required for groups, optional for others", None),
])
def test_the_necessity_stance_of_a_clause(text: str, stance: str | None) -> None:
    assert need(part(text)) == stance


@pytest.mark.parametrize(("contexts", "answer", "flags"), [
    pytest.param(["Breakfast is charged separately at £12."],
                 "Breakfast is included in the price.", True,
                 marks=known_limit("'charged separately' is no antonym of 'included' the "
                                   "judge reads")),
    # "open to ..., including" read as a grant (session 25, inclusion.denied_inclusion)
    (["The league is open to all members, including juniors."],
     "Juniors can't play in the league.", True),
    # another place than the turned unit's (places.other_place, session 23b)
    (["A permit is required to fish in the lake. Fishing from the pier is free."],
     "You don't need a permit to fish from the pier.", False),
    pytest.param(["Dogs should not be taken onto the beach."],
                 "Dogs are welcome on the beach.", True,
                 marks=known_limit("'should not' is no prohibition the deontic stance "
                                   "reads (tried in session 23: nothing on dev)")),
    pytest.param(["The heating is switched on overnight in winter."],
                 "The heating is switched off overnight in winter.", True,
                 marks=known_limit("a verb's particle turned ('on' / 'off', stopwords) "
                                   "reads as restated (tried in session 23: a held-out "
                                   "cited answer newly flagged)")),
])
def test_flips_left(an: Analyzer, contexts: list[str], answer: str, flags: bool) -> None:
    assert judged(an, contexts, answer) is flags
