"""Issue #38, session 7: a phrase swapped for another that the contexts name elsewhere
(judge/offline/phrase_swap.py). Each flagged answer passed before as supported; the
faithful forms beside them (the claim keeps the unit's phrase, rewords a word no context
names, or names both as the sentence does) stay supported."""

from __future__ import annotations

import pytest

from ragassay.judge.offline import Analyzer
from tests.support.offline import assert_judged, evidence

SWAPPED = [
    (["The otters live in the Wetland Walk beside the boathouse.",
      "The giant tortoises are kept in the Desert Dome, next to the gift shop."],
     "The otters are kept in the Desert Dome, next to the gift shop."),
    (["Wedding dress alterations are handled at our Castle Street workroom.",
      "Curtain hemming is done only at our Riverside warehouse."],
     "Curtain hemming is done only at our Castle Street workroom."),
    (["Our sweep for the Leeds area is Priya, who works Mondays and Tuesdays.",
      "Tom covers Otley and Ilkley on Thursdays and Fridays."],
     "Priya covers Otley on Thursdays and Fridays."),
    (["Our 2020 Merlot won a bronze medal at the regional show.",
      "The 2019 sparkling Chardonnay took a gold medal at the national awards."],
     "Our sparkling Chardonnay won a bronze medal at the regional show."),
]


@pytest.mark.parametrize(("contexts", "answer"), SWAPPED)
def test_a_phrase_the_contexts_name_elsewhere_is_a_swap(an: Analyzer, contexts: list[str],
                                                       answer: str) -> None:
    assert_judged(an, contexts, answer, flags=True, kind="entity")


@pytest.mark.parametrize(("contexts", "answer"), [
    # the unit's own phrase
    (["The otters live in the Wetland Walk beside the boathouse.",
      "The giant tortoises are kept in the Desert Dome, next to the gift shop."],
     "The giant tortoises are kept in the Desert Dome, next to the gift shop."),
    # a word in other words that no other sentence names
    (["Wedding dress alterations are handled at our Castle Street workroom.",
      "Curtain hemming is done only at our Riverside warehouse."],
     "Curtain hemming is carried out only at our Riverside warehouse."),
    # both named as the sentence names them
    (["Tom covers Otley and Ilkley on Thursdays and Fridays.",
      "Our sweep for the Leeds area is Priya, who works Mondays and Tuesdays."],
     "Tom covers Otley and Ilkley on Thursdays and Fridays."),
])
def test_the_units_own_phrase_is_no_swap(an: Analyzer, contexts: list[str],
                                         answer: str) -> None:
    assert_judged(an, contexts, answer, flags=False, kind=None)


@pytest.mark.parametrize(("contexts", "answer"), [
    # another frame: "This is a list of ..." is no slot of "The peregrine falcon is ..."
    (["You can help by adding missing items. This is a list of the fastest animals in the "
      "world, by types of animal.", "The peregrine falcon is the fastest bird, and the "
      "fastest member of the animal kingdom."],
     "The peregrine falcon is the fastest animal in the world."),
    # a longer run of the unit's is its predicate, not a phrase for the claim's
    (["Jupiter and Saturn have extensive mantles of liquid hydrogen.",
      "Each giant planet has a core of ice and rock."],
     "Jupiter and Saturn are giant planets."),
])
def test_a_run_in_another_frame_is_no_swap(an: Analyzer, contexts: list[str],
                                           answer: str) -> None:
    ev = evidence(an, contexts, answer)
    assert "entity" not in ev.contradicts, ev


def test_an_acronym_of_the_phrase_is_no_swap(an: Analyzer) -> None:
    """ "the PGA documentary award" names the Producers Guild of America: one name."""
    ctx = ["The film won the PGA documentary award in 2016, its makers said.",
           "Members of the Producers Guild of America vote each January."]
    ev = evidence(an, ctx, "The film won the Producers Guild of America documentary award "
                           "in 2016.")
    assert "entity" not in ev.contradicts, ev
