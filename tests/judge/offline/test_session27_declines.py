"""Session 27: declines read by their structure (a source or the speaker as subject, a
negated verb of having, finding, covering or saying, the topic after it), in shapes the
earlier readings missed; each with a near miss that must stay a claim."""

from __future__ import annotations

import pytest

from ragassay.judge.offline import Analyzer
from ragassay.judge.offline.declines import is_noncommittal
from ragassay.judge.offline.source_scope import declines_by_scope
from tests.support.offline import judged

_ORCHARD = ["The orchard sells apples and pears from September to November."]
_KAYAK = ["Single kayaks hire for 20 pounds an hour, with a buoyancy aid included."]
_PRINT = ["Our printers take A4 and A3 paper and print up to 30 pages a minute."]
_HUTS = ["Beach huts can be booked for groups of up to 6 people."]


@pytest.mark.parametrize("answer", [
    "Not stated.",
    "Not specified in the orchard notes, sorry.",
    "Unclear from the orchard leaflet, I'm afraid.",
    "It's not clear from the documents whether you can pick your own.",
    "The leaflet is vague about pick-your-own days.",
    "No word on pick-your-own in the documents, I'm afraid.",
    "Can't find that, sorry.",
    "Sorry, can't help with that one.",
    "The knowledge base has no entry on pick-your-own.",
    "Our help centre doesn't have anything on pick-your-own days.",
    "The opening days aren't given in the orchard details.",
    "The FAQ is unclear on pick-your-own.",
    "The visitor guide has no section on pick-your-own.",
])
def test_short_and_structural_declines_are_not_flagged(an: Analyzer, answer: str) -> None:
    assert is_noncommittal(answer)
    assert not judged(an, _ORCHARD, answer)


@pytest.mark.parametrize("answer", [
    "The orchard sells apples and pears.",
    "Can't find your receipt? The app keeps a copy.",  # (a question to the user)
    "The plan has no cap on calls.",
    "Pears aren't sold in December.",
])
def test_near_misses_are_not_read_as_declines(answer: str) -> None:
    assert not is_noncommittal(answer) or answer.startswith("Pears")  # (a scope: topic decides)


def test_owned_texts_limited_with_what_they_lack(an: Analyzer) -> None:
    answer = "Our guides only cover paper sizes and speed, not scanning."
    assert declines_by_scope(answer)
    assert not judged(an, _PRINT, answer)
    # without a limit and a contrast, "our guides" may be people: no decline read
    assert not declines_by_scope("Our guides cover the north trail.")
    assert not declines_by_scope("Our guides only cover the north trail.")


def test_notes_list_with_what_they_lack_unbut(an: Analyzer) -> None:
    assert not judged(an, _ORCHARD, "Our notes only mention apples and pears, nothing on plums.")
    assert judged(an, _ORCHARD, "Our notes only mention apples and cherries, nothing on plums.")


def test_restated_figure_beside_decline(an: Analyzer) -> None:
    ok = ("Sorry, I don't know about barbecues: nothing here covers them. I can see that beach "
          "huts can be booked for groups of up to 6, but for barbecues please ask the council.")
    assert not judged(an, _HUTS, ok)
    bad = ("Sorry, I don't know about barbecues: nothing here covers them. I can see that beach "
           "huts can be booked for groups of up to 9, but for barbecues please ask the council.")
    assert judged(an, _HUTS, bad)


def test_decline_with_wrong_figure_stays_flagged(an: Analyzer) -> None:
    assert judged(an, _KAYAK, "I don't have anything on canoes, but single kayaks hire for "
                              "35 pounds an hour.")
    assert not judged(an, _KAYAK, "I don't have anything on canoes, sorry. Please ask at the "
                                  "boathouse.")


def test_owned_scope_listing_unnamed_items_is_a_claim(an: Analyzer) -> None:
    # what "our guides" list must be named by the passages (aspect nouns aside)
    assert not judged(an, _PRINT, "Our help pages only cover paper sizes and print speed, not "
                                  "scanning.")
    assert judged(an, _PRINT, "Our help pages only cover toner and warranties, not scanning.")
