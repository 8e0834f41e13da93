"""Session 22: a claim that gives the hours of "every day" or "all year" is read against
the context clause that gives those same hours (the clock times are the evidence, whatever
the other words): where that clause holds them on part of the week or the year only, the
claim widens its scope. Cases in words of our own, none from a probe batch."""

from __future__ import annotations

import pytest

from ragassay.judge.offline import Analyzer
from ragassay.judge.offline.clauses import part
from ragassay.judge.offline.hours import clock_values, needed_days
from tests.support.offline import judged, known_limit

_LIBRARY = ("The Riverside library is open Monday to Thursday from 9am to 8pm and on "
            "Fridays from 9am to 5pm.")
_DESK = ("Returns are accepted between 10am and 4pm and collections between 1pm and 3pm, "
         "Tuesday to Saturday. The desk is closed on Sundays and Mondays.")
_FERRY = ("The ferry ticket office is staffed 7am to 7pm from May to September and 8am to "
          "5pm from October to April.")
_DENTIST = ("Harbourside Dental is open Monday to Friday from 8am to 6pm and on Saturdays "
            "from 9am to 12pm.")
_KEYS = ("Key collection is between 2pm and 6pm, Monday to Friday. Keys cannot be collected "
         "at weekends.")
_GYM = "Gym inductions run from 7:30am to 9:30am on weekdays. Bring a towel."


@pytest.mark.parametrize(("contexts", "answer", "flags"), [
    # the hours of part of the week said of every day, in other words than the hours'
    # own sentence (passed before)
    ([_DENTIST], "The practice is open every day of the week from 8am to 6pm.", True),
    ([_KEYS], "Keys can be picked up between 2pm and 6pm every day.", True),
    ([_DESK], "Returns are accepted between 10am and 4pm, every day of the week.", True),
    ([_FERRY], "The ticket office is staffed from 7am to 7pm all year round.", True),
    # (flagged before too, by the older scope rules)
    ([_LIBRARY], "The library opens daily from 9am until 8pm.", True),
    ([_GYM], "Gym inductions run every morning from 7:30 to 9:30am.", True),
    # faithful near-misses: the days the claim names are the clause's
    ([_LIBRARY], "From Monday to Thursday the library is open 9am to 8pm.", False),
    ([_DESK], "Returns are accepted between 10am and 4pm, Tuesday to Saturday.", False),
    ([_DENTIST], "The practice is open from 8am to 6pm, Monday to Friday.", False),
    ([_KEYS], "Keys can be collected from 2pm to 6pm on weekdays.", False),
    ([_FERRY], "The ticket office is staffed 7am to 7pm in summer, May to September.", False),
    # ... hours the contexts hold on every day
    (["The museum café is open from 10am to 5pm, seven days a week."],
     "The café is open every day from 10am to 5pm.", False),
    (["Reception is staffed 8am to 6pm, Monday to Sunday."],
     "Reception is staffed every day from 8am to 6pm.", False),
    (["The car park is open daily from 6am to midnight."],
     "The car park is open every day from 6am until midnight.", False),
    # ... the hours one clause gives, the rest of the week given the same hours
    (["The pool is open 6am to 10pm on weekdays, and 6am to 10pm at weekends too."],
     "The pool is open every day from 6am to 10pm.", False),
    # ... the months fill out the year with these hours
    (["The visitor centre is open 9am to 5pm from April to September and 9am to 5pm "
      "from October to March."],
     "The visitor centre is open 9am to 5pm all year round.", False),
    # ... hours of another thing on part of the week: no bearing on the claim
    (["The bakery is open every day from 7am to 3pm. Deliveries are made 7am to 3pm on "
      "weekdays."],
     "The bakery is open every day from 7am to 3pm.", False),
])
def test_hours_said_of_every_day(an: Analyzer, contexts: list[str], answer: str,
                                 flags: bool) -> None:
    assert judged(an, contexts, answer) is flags


def test_clock_values_and_needed_days() -> None:
    assert clock_values(part("Open from 9am to 8pm every day.")) == frozenset({9.0, 8.0})
    assert clock_values(part("Open every day.")) == frozenset()
    # a claim that names no days needs the week; one that names days, those
    assert len(needed_days(part("Open every day from 9am to 8pm."))) == 7
    assert needed_days(part("Open every weekend from 9am to 1pm.")) == frozenset(
        {"saturday", "sunday"})


@known_limit("hours on part of the week given by another sentence than the hours' own "
             "(\"The season runs from April to September. The green is open 10am to 6pm.\") "
             "are not tied to those hours")
def test_a_season_in_another_sentence(an: Analyzer) -> None:
    assert judged(an, ["The bowls season runs from April to September. The green is open "
                       "10am to 6pm on weekdays and 9am to 5pm at weekends."],
                  "The green is open all year round: 10am to 6pm on weekdays.")


@known_limit("a claim naming the days of its hours with a quantifier (\"every weekday "
             "morning\", \"every Monday to Thursday\") is read as widened by the older "
             "scope rules (scope.py), whatever hours.py finds")
@pytest.mark.parametrize(("contexts", "answer"), [
    ([_LIBRARY], "The library is open from 9am to 8pm every Monday to Thursday."),
    ([_GYM], "Gym inductions run every weekday morning from 7:30 to 9:30am."),
])
def test_days_named_with_every(an: Analyzer, contexts: list[str], answer: str) -> None:
    assert not judged(an, contexts, answer)
