"""Session 23 (k164): correct answers a rule reported as contradicting the context.

A negation is read against the verb it bears on in either form: "are logged" and "do
not log" are one verb, so "No X are logged" agrees with "We do not log X" and "X are
logged" turns it (before, a short verb's -ed form and its base were two words, so the
first was flagged and the second passed). A claim's universal word the unit states of
the same word is the unit's own, no widening ("There are always three soups made
without meat" / "We always have three meat-free soups on the menu, made with ...").
Cases in words of our own, none from a probe batch; the lead's cases of the trial-81
report beside them."""

from __future__ import annotations

import pytest

from ragassay.judge.offline import Analyzer
from ragassay.judge.offline.clauses import part
from ragassay.judge.offline.inflection import bases
from ragassay.judge.offline.shared_quantifier import shared_quantifier
from tests.support.offline import judged, known_limit

_GATE = ["Security staff do not log visitor names, phone numbers or car registrations at "
         "the gate."]
_PARCELS = ["We do not ship parcels on Sundays."]
_TIPS = ["We do not add tips to the bill."]



def test_bases_of_regular_forms() -> None:
    assert {"log"} <= bases(("logged",))
    assert {"ship"} <= bases(("shipped",))
    assert {"store"} <= bases(("stored",))
    assert {"add"} <= bases(("added",))
    assert {"swim"} <= bases(("swimming",))
    assert not bases(("red", "bed", "need", "the"))  # no -ed form of a verb


@pytest.mark.parametrize(("contexts", "answer", "flags"), [
    # "no" agreeing with the passage's "not", the verb in its other form
    (_GATE, "No visitor names, phone numbers or car registrations are logged at the gate.",
     False),
    (_GATE, "Visitor names, phone numbers and car registrations aren't logged at the gate.",
     False),
    (_PARCELS, "No parcels are shipped on Sundays.", False),
    (_TIPS, "No tips are added to the bill.", False),
    # ... an unrelated negation, a cited answer and a decline in the same shape
    (["We do not ship parcels on Sundays. Orders placed on Saturday go out on Monday."],
     "Orders placed on Saturday are shipped on Monday.", False),
    (_GATE, "Visitor names are not logged at the gate [1].", False),
    # the passage's "not" turned, the verb in its other form: caught now
    (_GATE, "Visitor names are logged at the gate.", True),
])
def test_negated_verb_in_either_form(an: Analyzer, contexts: list[str], answer: str,
                                     flags: bool) -> None:
    assert judged(an, contexts, answer) is flags


def test_reach_of_part_unchanged() -> None:
    # the bases are read beside the stems, never in place of them
    assert "logge" in part("Visitor names are logged.").stems


@pytest.mark.parametrize(("contexts", "answer", "flags"), [
    # the lead's trial-81 cases (words of our own) and their unfaithful neighbours
    (["Parking permits are issued to residents only."],
     "Only residents can get a parking permit.", False),
    (["Parking permits are issued to residents only."],
     "Anyone can get a parking permit.", True),
    (["The garden tour is free, but the house tour costs £5."], "The garden tour is free.",
     False),
    (["The garden tour is free, but the house tour costs £5."], "The house tour is free.",
     True),
    (["The garden tour is free, but the house tour costs £5."], "The garden tour costs £5.",
     True),
    (["The library opens at 8am on weekdays and 9am on Saturdays."],
     "The library opens at 9am on Saturdays.", False),
    (["The library opens at 8am on weekdays and 9am on Saturdays."],
     "The library opens at 8am on Saturdays.", True),
    (["Check-out is by 12:00. Late check-out is not available at weekends."],
     "Checkout is at noon.", False),
    (["Check-out is by 12:00. Late check-out is not available at weekends."],
     "Checkout is at 11am.", True),
])
def test_trial81_cases(an: Analyzer, contexts: list[str], answer: str, flags: bool) -> None:
    assert judged(an, contexts, answer) is flags


_SOUPS = ["We always have three meat-free soups on the menu, made with vegetables and stock."]


def test_shared_quantifier() -> None:
    assert shared_quantifier(part("There are always three soups made without meat."),
                             part(_SOUPS[0]))
    # "all" of the unit bears on its own rooms, before the semicolon; not on "other rooms"
    assert not shared_quantifier(part("All rooms have a balcony."),
                                 part("Sea-view rooms all have a balcony; other rooms have "
                                      "a window."))
    assert not shared_quantifier(part("Every flight serves a hot meal."),
                                 part("On long-haul flights, a hot meal is always served."))


@pytest.mark.parametrize(("contexts", "answer", "flags"), [
    # the passage's own "always" over the same word: no widening
    (_SOUPS, "There are always three soups made without meat.", False),
    (_SOUPS, "There are always three soups made without meat, just vegetables and stock.",
     False),
    (["The campsite always has four car-free tent pitches, kept for walkers and cyclists."],
     "The campsite always has four pitches kept for tents without cars.", False),
    # ... a universal word the passage does not state of it still widens
    (["Sea-view rooms always have a balcony, and are cleaned daily."],
     "All rooms always have a balcony.", True),
    (["On long-haul flights, a hot meal is always served, with a choice of drinks."],
     "Every flight serves a hot meal.", True),
    (["Sea-view rooms all have a balcony; other rooms have a window."],
     "All rooms have a balcony.", True),
    (["At weekends we always have two first-aid trained nurses on duty, working in shifts."],
     "There are always two nurses trained in first aid on duty.", True),
])
def test_shared_universal(an: Analyzer, contexts: list[str], answer: str,
                          flags: bool) -> None:
    assert judged(an, contexts, answer) is flags


def _limit(contexts: list[str], answer: str, flags: bool, reason: str) -> object:
    return pytest.param(contexts, answer, flags, marks=known_limit(reason))


@pytest.mark.parametrize(("contexts", "answer", "flags"), [
    # (a floating 'all' after a listed subject: no quantifier since session 25,
    # unquantified.py; it was read as quantifying the verb and widening the list)
    (["We repair violins, violas and cellos, including crack repairs."],
     "Violins, violas and cellos are all repaired here.", False),
    *(_limit(c, a, True, "a flip of a short sentence whose verb is in the other form is "
             "not aligned at all (the restating share counts 'shipp' and 'ship' as two words)")
      for c, a in ((_PARCELS, "Parcels are shipped on Sundays."),
                   (["We ship parcels on Sundays."], "No parcels are shipped on Sundays."),
                   (_TIPS, "Tips are added to the bill."))),
    _limit(["Entry is free for children; adults pay £8."],
           "No, the museum doesn't charge for children.", False,
           "a 'no' answer agreeing with a passage that says 'free' in other words is read "
           "as unsupported (support, no rule: 'charge' is stated by no context)"),
    _limit(["You can return items until 11:59pm on the last day of the month, 31 days max."],
           "Returns close at midnight on the 31st.", False,
           "'midnight' where the passage gives 11:59pm on the last day of the month: a time "
           "phrase read as no time of the passage (support)"),
    _limit(["Check-out is by 12:00. Late check-out is not available at weekends."],
           "Checkout is at midnight.", True,
           "'midnight' where the passage says 12:00 (noon) is not caught: both are read as 12"),
])
def test_known_limits(an: Analyzer, contexts: list[str], answer: str, flags: bool) -> None:
    assert judged(an, contexts, answer) is flags
