"""Session 24 (k185): open or closed, available or not, said the other way.

A claim that something is open, available, offered, provided, in stock or in print (or
on by default) is read against a context piece saying the opposite of the same slot
("closed on Wednesdays and Thursdays" for "open on Thursdays") or of the claim's whole
subject ("Printed maps are not provided" for "Printed maps are provided at the desk,
along with lanyards"). Faithful answers that name another day, a place the closed piece
does not cover, a condition of their own, or use "on"/"off" as a phrasal verb stay
unflagged. Cases in words of our own."""

from __future__ import annotations

import pytest

from ragassay.judge.offline import Analyzer
from ragassay.judge.offline.availability import CLOSED, OPEN, stance
from tests.support.offline import judged, known_limit

_POTTERY = ["The studio is open 10am to 6pm Friday to Tuesday and closed Wednesdays and "
            "Thursdays."]
_LIBRARY = ["Returns are accepted between 8am and 8pm, Monday to Friday.",
            "We are closed for returns and renewals on Saturdays."]
_BIKES = ["Standard servicing takes five working days.",
          "Priority servicing is available for bikes booked in before 9am, for an extra £20."]
_RECORDS = ["Albums released in the last two years can be bought in the shop for £12.",
            "Albums older than two years are out of stock."]
_TRIAL = ["Dark mode is turned on by default for every new account; you can switch it off "
          "in Settings.", "You can log on with your email address."]
_HALL = ["Lanyards are provided at the front desk. Printed maps are not provided, so please "
         "download the app."]
_GYM = ["The gym is closed on Mondays."]
# flagged before this change by other rules (the days or place said open are none the
# context states); this change does not reach them
_BEFORE = known_limit("an open slot the context leaves unsaid is flagged by other rules")
_SPA = ["The sauna is not available online, only in the club."]


def test_stance_reading() -> None:
    assert stance(("we're", "open", "today"))[0] == OPEN  # type: ignore[index]
    assert stance(("is", "not", "offered"))[0] == CLOSED  # type: ignore[index]
    assert stance(("out", "of", "print"))[0] == CLOSED  # type: ignore[index]
    assert stance(("off", "by", "default"))[0] == CLOSED  # type: ignore[index]
    # phrasal "on"/"off" and a verb "open" state no stance
    assert stance(("you", "can", "log", "on", "here")) is None
    assert stance(("turn", "it", "off")) is None
    assert stance(("sign", "on", "at", "the", "desk")) is None
    assert stance(("you", "can", "open", "an", "account")) is None


@pytest.mark.parametrize(("contexts", "answer", "flags"), [
    # the slot a closed piece covers, said open
    (_POTTERY, "Yes, the studio is open on Thursdays from 10am to 6pm.", True),
    (_LIBRARY, "Yes, renewals are available on Saturdays.", True),
    # a flat denial of what a restricted piece makes available
    (_BIKES, "Sorry, we don't offer priority servicing.", True),
    # the subject a piece says is out of stock, said in stock
    (_RECORDS, "Yes, older albums are still in stock.", True),
    # a default state turned
    (_TRIAL, "Dark mode is turned off by default for new accounts.", True),
    # one sibling's sentence agrees, the subject's own sentence denies it
    (_HALL, "Yes, printed maps are provided at the front desk, along with lanyards.", True),
])
def test_turned_availability_flagged(an: Analyzer, contexts: list[str], answer: str,
                                     flags: bool) -> None:
    assert judged(an, contexts, answer) is flags


@pytest.mark.parametrize(("contexts", "answer"), [
    # faithful: days the closed piece does not name
    (_POTTERY, "The studio is open on Fridays from 10am to 6pm."),
    (_POTTERY, "The studio is closed on Thursdays."),
    pytest.param(_GYM, "The gym is open Tuesday to Sunday.", marks=_BEFORE),
    pytest.param(_GYM, "The gym is open every day except Mondays.", marks=_BEFORE),
    # faithful: the place the denial leaves open
    pytest.param(_SPA, "The sauna is available in the club.", marks=_BEFORE),
    (_SPA, "The sauna isn't available online."),
    # faithful restatements of the restricted offer and of the sibling
    (_BIKES, "Priority servicing is available if you book your bike in before 9am."),
    (_HALL, "Lanyards are provided at the front desk."),
    (_HALL, "Printed maps are not provided, so download the app."),
    (_RECORDS, "Albums from the last two years can be bought in the shop for £12."),
    # faithful: phrasal on/off, and the default said as it is
    (_TRIAL, "Dark mode is on by default, and you can switch it off in Settings."),
    (_TRIAL, "You can log on with your email address."),
    (_TRIAL, "Dark mode starts on for new accounts, and you can switch it off in Settings."),
    # cited answers restating a piece
    (_POTTERY, "The studio is closed on Wednesdays and Thursdays [1]."),
    (_LIBRARY, "We're closed for renewals on Saturdays [2]."),
])
def test_faithful_near_misses_unflagged(an: Analyzer, contexts: list[str],
                                        answer: str) -> None:
    assert judged(an, contexts, answer) is False
