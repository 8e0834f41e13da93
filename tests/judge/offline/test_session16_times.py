"""Issue #38, session 16: time phrases that say "at every time" without a universal word
("daily", "all week", "year-round", "all year round", "throughout the year", "any day of
the week": judge/offline/whole_time.py), a clause that says only that read with the
clause before it ("..., all year round": conditions.conditioned), and a season or term
("during term time") bounding "all year". Each flagged case passed before; the faithful
ones keep passing. Wording and domains none of the probe batches use."""

from __future__ import annotations

import pytest

from ragassay.judge.offline import Analyzer
from tests.support.offline import assert_judged


@pytest.mark.parametrize(("context", "answer"), [
    ("Apprentices get 20% off tools Tuesday to Thursday.",
     "Apprentices get 20% off tools all week."),
    ("Guided canal walks run from April to October, weather permitting.",
     "Guided canal walks run year-round, weather permitting."),
    ("Guided canal walks run from April to October, weather permitting.",
     "Guided canal walks run all year round, weather permitting."),
    ("Night tours of the castle are offered in November only, for a £12 supplement.",
     "Night tours of the castle are offered throughout the year, for a £12 supplement."),
    ("The repair desk takes walk-ins on Mondays and Fridays.",
     "The repair desk takes walk-ins daily."),
    ("The study hall is open 24 hours a day during term time.",
     "The study hall is open 24 hours a day, all year round."),
])
def test_a_whole_time_against_a_bounded_one_is_flagged(
        an: Analyzer, context: str, answer: str) -> None:
    assert_judged(an, [context], answer, flags=True, kind="quantifier")


@pytest.mark.parametrize(("context", "answer"), [
    ("The repair desk takes walk-ins every day from 9am to 4pm.",
     "The repair desk takes walk-ins daily from 9am to 4pm."),
    ("Guided canal walks run all year, weather permitting.",
     "Guided canal walks run year-round, weather permitting."),
    ("The study hall is open 24 hours a day all year.",
     "The study hall is open 24 hours a day, all year round."),
    # a "daily" the context bounds itself, and the adjective "daily"
    ("Seedlings in the greenhouse need misting daily during heatwaves.",
     "Seedlings in the greenhouse need misting daily during heatwaves."),
    ("The daily cap on parking charges is £9 on weekdays.",
     "The daily cap on parking charges is £9 on weekdays."),
    # "every day" said first, before the clause it times
    ("The repair desk opens at 9am every day.", "Every day, the repair desk opens at 9am."),
])
def test_the_same_time_said_another_way_is_not_flagged(
        an: Analyzer, context: str, answer: str) -> None:
    assert_judged(an, [context], answer, flags=False)
