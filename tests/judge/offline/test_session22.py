"""Session 22: a decline that goes on to say what the sources do cover (trial 80: "all
the declines that explained what the passages cover were scored as answers"): "What I
have covers X and Y", "The tours I have details of are X and Y", "I only have X",
"X and Y are covered, but ..."; the items are read against the contexts one by one, a
noun of an aspect ("prices", "opening times") standing for the value the contexts give.
Cases in words of our own, none from a probe batch."""

from __future__ import annotations

import pytest

from ragassay.judge.offline import Analyzer
from ragassay.judge.offline.summary import listed_end, passive_items
from tests.support.offline import judged, known_limit

_CLASSES = ["Drop-in classes cost £9 each.",
            "Classes cancelled more than 12 hours ahead are refunded."]
_TOURS = ["The Harbour Walk leaves at 10:00.", "The Castle Trail takes about two hours."]
_COURSE = ["A deposit of £30 secures a place.", "The course starts on a Saturday in March."]
_VENUE = ["Entry costs £5 for adults.", "We open from 9am to 5pm daily."]
_CAFE = ["The rooftop café serves brunch from 9:00 to 13:00 during the summer season."]


@pytest.fixture(scope="module")
def an() -> Analyzer:
    return Analyzer()


@pytest.mark.parametrize(("contexts", "answer", "flags"), [
    # what the speaker has, listed item by item (flagged before)
    (_CLASSES, "I couldn't find anything on gift vouchers. What I have covers class "
     "prices and cancellations; please ask the front desk.", False),
    (_TOURS, "I don't have details on group rates. The tours I have information on are "
     "the Harbour Walk and the Castle Trail.", False),
    (_VENUE, "I can't say whether dogs are allowed; the pricing and opening times are "
     "covered, but pets aren't mentioned.", False),
    (_CAFE, "I only have the summer brunch times for the rooftop café; nothing about the "
     "winter months.", False),
    (_COURSE, "Sorry, I can't see anything about refunds. The course details I have "
     "information on are the £30 deposit and the Saturday start.", False),
    # an item the contexts lack makes the listing a claim (a coverage invented)
    (_CLASSES, "I couldn't find anything on gift vouchers. What I have covers class "
     "prices, cancellations and a free trial week.", True),
    (_TOURS, "I don't have details on group rates. The tours I have information on are "
     "the Harbour Walk and the River Cruise.", True),
    (_VENUE, "I can't say whether dogs are allowed; the pricing and the parking charges "
     "are covered, but pets aren't mentioned.", True),
    (_CAFE, "I only have the brunch times for the garden terrace; nothing about other "
     "seasons.", True),
    pytest.param(_CAFE, "I only have the winter brunch times for the rooftop café; "
                 "nothing about other seasons.", True,
                 marks=known_limit("a season swapped for another is read as a detail "
                                   "added, the café's times supported (also before)")),
    # a figure the contexts give another value keeps it a claim
    (_COURSE, "Sorry, I can't see anything about refunds. The course details I have "
     "information on are the £50 deposit and the Saturday start.", True),
])
def test_what_the_sources_cover_beside_a_decline(an: Analyzer, contexts: list[str],
                                                 answer: str, flags: bool) -> None:
    assert judged(an, contexts, answer) is flags


def test_the_frames() -> None:
    assert listed_end("What I have covers prices") == len("What I have covers")
    assert listed_end("The tours I have details of are A and B") == len(
        "The tours I have details of are")
    assert listed_end("The services described here are framing and printing") == len(
        "The services described here are")
    assert listed_end("We only have oat milk") == len("We only have")
    # the business's own listing is no frame ("The rooms we have include ..." claims)
    assert listed_end("The rooms have sea views") == 0
    assert passive_items("the prices and opening times are covered") == (
        "the prices and opening times")
    assert passive_items("the terrace is covered") == ""  # one thing: a claim about it


def test_a_passive_listing_without_a_decline_is_a_claim(an: Analyzer) -> None:
    # "covered" of the world, with no decline beside it: checked as a claim
    assert judged(an, ["The terrace has heaters."],
                  "The terrace and the garden are covered.")


_SOCIETY = ["The astronomy society meets on the first Friday of each month at the Village "
            "Hall. Membership is £25 a year.",
            "Telescopes can be borrowed by members for up to two weeks."]


@pytest.mark.parametrize(("answer", "flags"), [
    # advice naming a day the contexts state is whom and when to ask, no claim
    ("The society's information doesn't cover children's courses, sorry! If you come along "
     "on the first Friday, someone there can point you in the right direction.", False),
    # ... a day they lack is a claim of when
    ("The society's information doesn't cover children's courses, sorry! If you come along "
     "on a Wednesday, someone there can point you in the right direction.", True),
    # what the speaker's pages or info cover, read item by item or as its sources
    ("I wasn't able to confirm that. Our pages only talk about meetings, membership and "
     "borrowing telescopes. The committee secretary would know about children's courses.",
     False),
    ("I wasn't able to confirm that. Our pages only talk about meetings, membership and "
     "stargazing trips abroad.", True),
    ("No idea, to be honest - the info here is just about meetings, fees and telescope "
     "loans. Best to ask a committee member.", False),
])
def test_declines_with_advice_and_coverage(an: Analyzer, answer: str, flags: bool) -> None:
    assert judged(an, _SOCIETY, answer) is flags
