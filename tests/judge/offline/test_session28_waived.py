"""Session 28 (k244): a grant of what an obligation rules out ("must be accompanied"
against "on their own", "is required" against "without"), read by waived.py; the same
duty said in other words stays faithful. Sentences are our own."""

from __future__ import annotations

import pytest

from ragassay.judge.offline import Analyzer
from tests.support.offline import judged


@pytest.fixture(scope="module")
def an() -> Analyzer:
    return Analyzer()


@pytest.mark.parametrize(("context", "answer"), [
    ("Pupils in year 7 must be accompanied by a teacher in the chemistry store.",
     "Year 7 pupils can go into the chemistry store on their own."),
    ("Trainee divers must be supervised by an instructor in the deep tank.",
     "Trainee divers may use the deep tank unsupervised."),
    ("Safety goggles must be worn in the glass studio.",
     "You can work in the glass studio without safety goggles."),
    ("A permit is required to fish in the upper lake.",
     "You can fish in the upper lake without a permit."),
    ("Novice climbers may use the bouldering wall by themselves.",
     "Novice climbers must be supervised on the bouldering wall."),
])
def test_grant_of_what_a_duty_rules_out_is_flagged(an: Analyzer, context: str,
                                                    answer: str) -> None:
    assert judged(an, [context], answer)


@pytest.mark.parametrize(("context", "answer"), [
    ("Pupils in year 7 must be accompanied by a teacher in the chemistry store.",
     "Year 7 pupils need a teacher with them in the chemistry store."),
    ("A permit is required to fish in the upper lake.",
     "You have to get a permit to fish in the upper lake."),
    ("Safety goggles must be worn in the glass studio.",
     "Safety goggles are compulsory in the glass studio."),
    ("Novice climbers may use the bouldering wall by themselves.",
     "Novice climbers can use the bouldering wall alone."),
    # a grant under a case the duty does not state is no flip of it
    ("Trainee divers must be supervised by an instructor in the deep tank.",
     "Trainee divers may use the deep tank alone once they have qualified."),
])
def test_the_same_duty_in_other_words_is_kept(an: Analyzer, context: str, answer: str) -> None:
    assert not judged(an, [context], answer)
