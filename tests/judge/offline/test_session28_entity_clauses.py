"""Session 28 (k236): the question's thing given the answer a sister clause of the same
sentence gives another thing (answered_elsewhere.py, `_others`), both ways: the swap
flagged; the right clause's fact in other words and a list split into clauses left
alone."""

from __future__ import annotations

import pytest

from ragassay.judge.offline import Analyzer
from tests.support.offline import assert_judged

_KENNEL = ["Kennel drop-off is from 8am to 10am and collection from 5pm to 7pm."]
_FAIRS = ["The book fair is on Friday and the plant sale is on Sunday."]
_LOCKERS = ["Day lockers cost £2 whereas weekly lockers cost £9."]
_RADIO = ["The station plays jazz, soul, reggae and folk, with new shows each week."]


@pytest.mark.parametrize(("contexts", "question", "answer"), [
    (_KENNEL, "When can I drop off my cat at the kennel?",
     "You can drop off your cat from 5pm to 7pm."),
    (_FAIRS, "Which day is the book fair?", "The book fair is on Sunday."),
    (_LOCKERS, "How much is a day locker?", "A day locker costs £9."),
])
def test_answer_from_a_sister_clause_is_flagged(an: Analyzer, contexts: list[str],
                                                question: str, answer: str) -> None:
    assert_judged(an, contexts, answer, True, question=question)


@pytest.mark.parametrize(("contexts", "question", "answer"), [
    (_KENNEL, "When can I drop off my cat at the kennel?",
     "Drop-off for your cat is between 8am and 10am."),
    (_FAIRS, "Which day is the book fair?", "The book fair takes place on Friday."),
    (_LOCKERS, "How much is a day locker?", "Day lockers are £2."),
    (_LOCKERS, "How much is a weekly locker?", "A weekly locker costs £9."),
    (_RADIO, "Does the station play reggae?",
     "Yes, reggae is on the playlist, with new shows each week."),
])
def test_the_right_clause_in_other_words_is_left_alone(an: Analyzer, contexts: list[str],
                                                       question: str, answer: str) -> None:
    assert_judged(an, contexts, answer, False, question=question)
