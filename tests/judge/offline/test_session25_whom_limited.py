"""Session 25 (k196): whom or what part of a kind a statement is limited to, dropped.

Two general readings, each checked both ways:

- "only" naming whom (only_who.py): a fronted "Only members can ..." or a trailing
  "available to residents only", restated of no one or of "you";
- part of a kind said of the kind (partial_subject.py): "Some/Most/Several/Certain X
  ..." restated with the bare or definite plural ("X ...", "Our X ...", "The X ...").

Faithful answers that keep whom or the partial word, name the case in the question, or
read "only" as "merely" ("Only 3 rooms ...") stay unflagged. Sentences in our own words
and domains."""

from __future__ import annotations

import pytest

from ragassay.judge.offline import Analyzer
from ragassay.judge.offline.clauses import part
from ragassay.judge.offline.only_who import only_dropped
from ragassay.judge.offline.partial_subject import partial_widened
from tests.support.offline import evidence, flagged

_SQUASH = ["Only members can reserve the squash courts through the app."]
_LANE = ["Only residents may leave a car in the lane overnight."]
_ABBEY = ["Visitors are welcome in the cloister garden, but only ticket holders may "
          "climb the bell tower."]
_PARKING = ["Parking in the courtyard is available to tenants only."]
_POOL = ["Only the outdoor pool is heated in spring."]
_ROOMS = ["Only 3 cottages have a private hot tub."]
_PARCELS = ["Some medicines, such as sealed cough syrup, may be posted to Norway. "
            "Liquids over one litre are refused."]
_CABINS = ["Most of the forest cabins have a wood-burning stove."]
_TRAILS = ["Several of the moorland trails are suitable for buggies."]
_LOCKERS = ["Certain lockers at the station can be rented by the week."]
_FERRIES = ["Some ferries call at Brodick on Sundays."]


@pytest.mark.parametrize(("contexts", "answer", "question"), [
    (_SQUASH, "Yes, you can reserve the squash courts through the app.",
     "Can I reserve a court in the app?"),
    (_LANE, "Yes, you may leave a car in the lane overnight.", "Can I park in the lane?"),
    (_ABBEY, "Visitors may climb the bell tower.", "Can we go up the tower?"),
    (_PARKING, "Yes, parking in the courtyard is available.", "Is there parking?"),
    (_PARCELS, "Medicines may be posted to Norway.", "Can I post medicine to Norway?"),
    (_CABINS, "The forest cabins have a wood-burning stove.", "Are the cabins heated?"),
    (_TRAILS, "Yes, our moorland trails are suitable for buggies.",
     "Can I take a buggy on the trails?"),
    (_LOCKERS, "Lockers at the station can be rented by the week.",
     "Can I rent a locker weekly?"),
    (_FERRIES, "Ferries call at Brodick on Sundays.", "Is there a Sunday ferry?"),
])
def test_limit_dropped_flagged(an: Analyzer, contexts: list[str], answer: str,
                               question: str) -> None:
    ev = evidence(an, contexts, answer, question)
    assert flagged(ev) is True
    assert ev.contradicts == ["quantifier"]


@pytest.mark.parametrize(("contexts", "answer", "question"), [
    # whom kept, or named by the question (the answer's "you" is theirs)
    (_SQUASH, "Members can reserve the squash courts through the app.",
     "Can I reserve a court in the app?"),
    (_SQUASH, "Yes, you can reserve the squash courts through the app.",
     "Can members reserve the squash courts through the app?"),
    (_ABBEY, "Ticket holders may climb the bell tower.", "Can we go up the tower?"),
    (_PARKING, "Yes, parking in the courtyard is available for tenants.",
     "Is there parking?"),
    # "only" of a thing the claim keeps, or of an amount ("merely")
    (_POOL, "The pool is heated in spring.", "Is the pool heated?"),
    (_ROOMS, "Cottages have a private hot tub.", "Is there a hot tub?"),
    # the partial word kept, or the claim naming which
    (_PARCELS, "Some medicines may be posted to Norway, such as sealed cough syrup.",
     "Can I post medicine to Norway?"),
    (_PARCELS, "Sealed cough syrup may be posted to Norway.",
     "Can I post medicine to Norway?"),
    (_CABINS, "Most forest cabins have a wood-burning stove.", "Are the cabins heated?"),
    (_TRAILS, "Yes, several moorland trails are suitable for buggies.",
     "Can I take a buggy on the trails?"),
    (_LOCKERS, "Yes, certain lockers at the station can be rented by the week.",
     "Can I rent a locker weekly?"),
    (_FERRIES, "Yes, some ferries call at Brodick on Sundays.", "Is there a Sunday ferry?"),
])
def test_limit_kept_unflagged(an: Analyzer, contexts: list[str], answer: str,
                              question: str) -> None:
    assert flagged(evidence(an, contexts, answer, question)) is False


def test_rules_called_directly() -> None:
    squash = part(_SQUASH[0])
    assert only_dropped(part("You can reserve the squash courts through the app."), squash)
    assert not only_dropped(part("Members can reserve the squash courts through the app."),
                            squash)
    # a time range is no whom: "from May to September only"
    season = part("The lido opens from May to September only.")
    assert not only_dropped(part("The lido opens."), season)
    # a fragment states no predicate
    assert not only_dropped(part("Yes, both the lido"), season)
    cabins = part(_CABINS[0])
    assert partial_widened(part("Forest cabins have a wood-burning stove."), cabins)
    assert not partial_widened(part("Not all forest cabins have a wood-burning stove."),
                               cabins)
    # the question asking of "most" makes it the answer's case
    assert not partial_widened(part("Forest cabins have a wood-burning stove."), cabins,
                               frozenset({"most"}))
