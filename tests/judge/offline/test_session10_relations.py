"""Session 10 of issue #38: a relation turned in stopwords ("after" for "before",
"below" for "above", "without" for "with") is a contradiction of the sentence it
restates, though every content word agrees (relations.relation_turned)."""

from __future__ import annotations

import pytest

from ragassay.judge.offline import Analyzer
from tests.support.offline import assert_judged

BOARDING = ["Boarding closes 30 minutes before departure."]
TEMPERATURE = ["Store the vaccine below 8 degrees Celsius."]
ROOMS = ["Standard rooms come with a private balcony."]


@pytest.mark.parametrize(("contexts", "answer"), [
    (BOARDING, "Boarding closes 30 minutes after departure."),
    (TEMPERATURE, "Store the vaccine above 8 degrees Celsius."),
    (ROOMS, "Standard rooms come without a private balcony."),
])
def test_a_turned_relation_contradicts(an: Analyzer, contexts: list[str], answer: str) -> None:
    assert_judged(an, contexts, answer, flags=True, kind="antonym")


@pytest.mark.parametrize(("contexts", "answer"), [
    (BOARDING, "Boarding shuts 30 minutes before departure."),
    (TEMPERATURE, "Keep the vaccine below 8 degrees Celsius."),
    (ROOMS, "Standard rooms come with a private balcony."),
])
def test_the_same_relation_passes(an: Analyzer, contexts: list[str], answer: str) -> None:
    assert_judged(an, contexts, answer, flags=False)
