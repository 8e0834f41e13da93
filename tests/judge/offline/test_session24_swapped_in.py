"""Session 24 (k179): a word of one entity put in another's slot, taken from elsewhere in
the contexts (phrase_swap.py).

The unit's run bounded by the claim's next shared word when the claim fronts a time or
opens on its run ("On Friday evenings lanes 1-4 are kept for birthday parties"); and a
word another clause of the unit's own sentence states, that clause not naming the unit's
word nor listing both ("Weekday tours start at the visitor centre" against "weekday
tours start at the north gate; weekend tours start at the visitor centre"). Cases in words
of our own, none from a probe batch; each mistake beside faithful answers that must stay
unflagged."""

from __future__ import annotations

import pytest

from ragassay.judge.offline import Analyzer
from tests.support.offline import assert_judged, known_limit

_SYMPTOMS = ["Common symptoms include nausea and dizziness.",
             "Do not drive if you have epilepsy, as it may trigger seizures."]
_LANES = ["Lanes 1-4 are kept for league play on Friday evenings.",
          "Birthday parties are held on Sundays."]
_PARKING = ["Volunteers get free parking.", "Coaches can park in the overflow field."]
_VANS = ["Our large vans are refrigerated; dry goods are delivered by bicycle within the "
         "ring road."]
_CARS = ["Our cars are Ford Fiestas; the cars are serviced every month."]


@pytest.mark.parametrize(("contexts", "answer", "flags"), [
    # a lowercase word of another sentence: faithful answers stay unflagged
    (_SYMPTOMS, "Common symptoms are nausea and dizziness [1].", False),
    (_SYMPTOMS, "Common symptoms are nausea and dizziness, so do not drive if you have "
                "epilepsy.", False),
    # a near-synonym another sentence uses is a rewording, no swap
    (["Rooms include a kettle and a fridge.",
      "A refrigerator can be added to any tent pitch for £3."],
     "Rooms include a kettle and a refrigerator.", False),
    # the other sentence says the claim's predicate of its word in other words
    (["Parcels left at the front desk are kept for 14 days.",
      "Parcels left in lockers follow the same rule."],
     "Parcels left in lockers are kept for 14 days.", False),
    (["A licence is needed to fish in the reservoir.", "Fishing from the jetty is free."],
     "You don't need a licence to fish from the jetty.", False),
    # the claim fronts the time: the unit's run ends at the next shared word
    (_LANES, "On Friday evenings lanes 1-4 are kept for birthday parties.", True),
    (_LANES, "On Friday evenings lanes 1-4 are kept for league play.", False),
    (["Lanes 1-4 are kept for league play on Friday evenings.",
      "League play costs £4 a game."],
     "On Friday evenings lanes 1-4 are kept for league play.", False),
    # the claim opens on its run: the unit's run starts after the last shared word
    (_PARKING, "Coaches get free parking.", True),
    (_PARKING, "Volunteers get free parking [1].", False),
])
def test_word_from_another_sentence(an: Analyzer, contexts: list[str], answer: str,
                                    flags: bool) -> None:
    assert_judged(an, contexts, answer, flags)


@pytest.mark.parametrize(("contexts", "answer", "flags"), [
    # another clause of the unit's sentence sets the two apart
    (_VANS, "Refrigerated goods are delivered by bicycle within the ring road.", True),
    (_VANS, "Dry goods are delivered by bicycle within the ring road.", False),
    (["In Leeds the market opens on Tuesdays; in York the market opens on Thursdays."],
     "In Leeds the market opens on Thursdays.", True),
    (["In Leeds the market opens on Tuesdays; in York the market opens on Thursdays."],
     "In York the market opens on Thursdays [1].", False),
    # the other clause names the unit's word too: one thing, no swap
    (_CARS, "Ford Fiestas are serviced monthly.", False),
    (_CARS, "Our Ford Fiestas are serviced every month.", False),
    # one list the sentence's clauses cut apart: an item of it, no swap
    (["Opened glues, paints and varnishes can only be returned if faulty."],
     "Opened varnishes can only be returned if they are faulty [1].", False),
    # a fact of one clause merged with another's, each said of its own thing
    (["Our instructors are certified; group sessions are held in the main hall and last "
      "an hour."], "Group sessions are held in the main hall with certified instructors.",
     False),
    (["Tickets for adults and children can be bought at the door; seniors must book "
      "online."], "Tickets for children can be bought at the door.", False),
])
def test_word_from_a_sibling_clause(an: Analyzer, contexts: list[str], answer: str,
                                    flags: bool) -> None:
    assert_judged(an, contexts, answer, flags)


@known_limit("a lowercase word another sentence states, put in the unit's word's place "
             "('nausea and epilepsy' for 'nausea and dizziness'): k179's reading of it was "
             "withdrawn after it flagged a faithful cited answer of a held-out set")
def test_lowercase_word_from_another_sentence(an: Analyzer) -> None:
    assert_judged(an, _SYMPTOMS, "Common symptoms are nausea and epilepsy.", True)


# (a known limit until session 25: mixed.named_elsewhere reads a titled name opening its
# sentence as its doer)
def test_task_sent_to_a_sibling(an: Analyzer) -> None:
    assert_judged(an, ["The club captain, Rosa Lind, picks the Saturday team.",
                       "Ben Okoro, the fixtures secretary, books the away pitches."],
                  "Ask Rosa Lind, the club captain; she books the away pitches.", True)
