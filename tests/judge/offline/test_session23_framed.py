"""Session 23: a claim that gives one context sentence's fact to a sibling thing another
sentence names in the same frame (`framed.py`, issue #38's entity swaps): lowercase
and code names ("Zone B", "items found on trams", "the evening class"). Cases in
words of our own, none from a probe batch."""

from __future__ import annotations

import pytest

from ragassay.judge.offline import Analyzer
from ragassay.judge.offline.clauses import part
from ragassay.judge.offline.framed import framed
from tests.support.offline import judged, known_limit, units_of

_ZONES = "Zone A parking is free after 6pm. Zone B is pay-and-display until 10pm."
_LOST = ("Items found on buses are kept for 30 days. Items found on trams go to the depot "
         "for 7 days.")
_KILNS = ["Kiln 3 fires stoneware at 1280°C every Tuesday.",
          "Kiln 5 is kept for raku firings at the weekend."]
_BAYS = ["Bay C, beside the loading ramp, takes vans up to 3.5 tonnes.",
         "Bay F is for cars only."]
_WARDS = ["Visitors to the children's ward may stay overnight with a pass.",
          "Visitors to the maternity ward must leave by 8pm."]


@pytest.mark.parametrize(("contexts", "answer", "flags"), [
    # the fact of one named thing given to its sibling (passed before)
    ([_ZONES], "Zone B parking is free after 6pm.", True),
    ([_LOST.replace("kept for 30 days", "sent to the Mill Road office")],
     "Items found on trams are sent to the Mill Road office.", True),
    (_KILNS, "Kiln 5 fires stoneware at 1280°C every Tuesday.", True),
    (_BAYS, "Bay F, beside the loading ramp, takes vans up to 3.5 tonnes.", True),
    (_WARDS, "Visitors to the maternity ward may stay overnight with a pass.", True),
    # faithful near-misses: the right thing, in other words or cited
    ([_ZONES], "Zone A parking is free after 6pm.", False),
    ([_ZONES], "Parking in Zone A costs nothing after 6pm [1].", False),
    ([_LOST], "Items found on buses are kept for 30 days.", False),
    ([_LOST], "Items found on trams go to the depot for 7 days.", False),
    (_KILNS, "Kiln 3 is used for stoneware at 1280°C on Tuesdays.", False),
    (_BAYS, "Vans up to 3.5 tonnes can use Bay C, next to the loading ramp.", False),
    (_WARDS, "Visitors to the children's ward can stay the night if they have a pass.",
     False),
    # ... a fact the contexts give of both, a list of both, or the parent named
    (["Zone A parking is free after 6pm. Zone B parking is free after 6pm too."],
     "Zone B parking is free after 6pm.", False),
    (["Zone A and Zone B parking is free after 6pm."], "Zone B parking is free after 6pm.",
     False),
    (["The hotel gym opens at 6am. The hotel pool opens at 7am."],
     "The gym opens at 6am.", False),
    (["Room 2 has a projector and a whiteboard.", "Room 4 has a projector too, but no "
      "whiteboard."], "Room 4 has a projector [2].", False),
    (["The south car park opens at 7am.", "The north car park, next to the station, opens "
      "at 7am as well."], "The north car park opens at 7am [2].", False),
    # ... the fact said of "it" beside the sibling's name
    (["Zone A parking costs £2 an hour all day.", "Zone B is in the basement. It is free "
      "after 6pm."], "Zone B parking is free after 6pm [2].", False),
    # ... unrelated named things in one sentence, a denial
    (["Room 4 has a projector and Room 9 has a whiteboard."],
     "Room 4 has a projector, and Room 9 has a whiteboard.", False),
    ([_ZONES], "I can't tell whether Zone B parking is free after 6pm.", False),
])
def test_a_sibling_given_another_fact(an: Analyzer, contexts: list[str], answer: str,
                                      flags: bool) -> None:
    assert judged(an, contexts, answer) is flags


@known_limit("a sibling whose name is inside the other's ('the final' / 'the quarter-final "
             "rounds'): every word of the claim is the first sentence's, no frame differs")
def test_a_sibling_inside_another_name(an: Analyzer) -> None:
    assert judged(an, ["The quarter-final rounds are judged by Priya Shah. The final is "
                       "judged by Owen Grant."],
                  "The final round is judged by Priya Shah.")


@known_limit("a predicate of one word and a figure ('are kept for 30 days'): a figure "
             "alone is left to the number checks, which bind '30 days' to no other slot")
def test_a_figure_borne_predicate(an: Analyzer) -> None:
    assert judged(an, [_LOST], "Items found on trams are kept for 30 days.")


@known_limit("a code name's number: alignment sets 'Line 1' aside since session 23b "
             "(labels.py), but support reads the best-matching document, Line 1's, where "
             "the '2' is not found ('Line 2' in one passage passes: test_session23b_bearers)")
def test_a_code_number_is_no_count(an: Analyzer) -> None:
    assert not judged(an, ["Line 1 trains run every 10 minutes at peak times.",
                           "Line 2 runs every 10 minutes all day."],
                      "Line 2 trains run every 10 minutes.")


def _framed(contexts: list[str], claim: str) -> int | None:
    return framed(part(claim), units_of(contexts))


def test_what_is_framed() -> None:
    # the sentence whose fact is moved
    assert _framed(_KILNS, "Kiln 5 fires stoneware at 1280°C every Tuesday.") == 0
    assert _framed(_ZONES.split(". ")[::-1], "Zone B parking is free after 6pm.") == 1
    # the claim says the sibling's own predicate too: a mix is no swap read here
    assert _framed(_KILNS, "Kiln 5 fires stoneware for raku at the weekend.") is None
