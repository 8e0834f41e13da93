"""Session 22: "both X" said where the contexts say it of one case and set another case
apart (both.py). Cases in words of our own, none from a probe batch."""

from __future__ import annotations

import pytest

from ragassay.judge.offline import Analyzer
from ragassay.judge.offline.both import both_head
from ragassay.judge.offline.clauses import part
from tests.support.offline import judged, known_limit

_WINGS = "Dogs are allowed in the North Wing. Only guide dogs may enter the South Wing."
_RALLY = "Children under 5 travel free on the Friday. On Saturday, the last day, children pay £3."
_DEPOTS = ("The Harbour depot is staffed around the clock. Our Canal Road depot is staffed "
           "from 8am to 6pm.")


@pytest.mark.parametrize(("contexts", "answer", "flags"), [
    # one case's predicate said of both (passed before)
    ([_WINGS], "Dogs are allowed in both wings.", True),
    ([_RALLY], "Children under 5 travel free on both days of the rally.", True),
    ([_DEPOTS], "Both of our depots are staffed around the clock.", True),
    # faithful near-misses: both said, each said, or the two named
    (["Both of our studios have free parking."], "Both studios have free parking.", False),
    (["The course is offered in French and German."],
     "The course is offered in both French and German.", False),
    (["Court 1 and Court 2 both have floodlights."], "Both courts have floodlights.", False),
    (["The main pool and the learner pool are heated to 29°C."],
     "Yes, both pools are heated.", False),
    (["The Garden Room has a private bathroom. The Attic Room also has its own bathroom."],
     "Both rooms have a private bathroom.", False),
    (["Dogs are allowed in the North Wing and the South Wing. Only guide dogs may enter the "
      "café."], "Dogs are allowed in both wings.", False),
    # ... the case the claim names is the one the contexts state
    ([_WINGS], "Dogs are allowed in the North Wing.", False),
    ([_DEPOTS], "The Harbour depot is staffed around the clock.", False),
])
def test_both_said_of_one_case(an: Analyzer, contexts: list[str], answer: str,
                               flags: bool) -> None:
    assert judged(an, contexts, answer) is flags


def test_what_both_quantifies() -> None:
    assert both_head(part("Both of our depots are open.")) == part("depots").first
    assert both_head(part("It is offered in both French and German.")) is None
    assert both_head(part("The depot is open.")) is None


@known_limit("another case set apart by a different predicate only, with no restriction, "
             "negation or figure (\"Parking at our Bridge Road studio is pay-and-display\"), "
             "is not read as a case apart")
def test_a_case_apart_by_its_predicate(an: Analyzer) -> None:
    assert judged(an, ["The Elm Street studio has free parking. Parking at our Bridge Road "
                       "studio is pay-and-display."], "Both of our studios have free parking.")


def test_both_before_a_coordination_far_on(an: Analyzer) -> None:
    # "both" with its "and" five words on names the two (a paraphrase flagged in a draft)
    assert not judged(an, ["Helmets must be worn on the road loop and in the skills park. "
                           "Headphones are not permitted."],
                      "You'll need a helmet both out on the road loop and in the skills park.")
