"""Round 4 of issue #38: a claim that restates one context sentence in other words.

Its figures (by value, written any way) and names are the sentence's, its polarity and
scope agree, and it replaces the sentence's words rather than adding to them: it is
supported, though static word vectors place its synonyms far apart ("traveller" /
"passenger", "carry-on" / "cabin"). A changed figure, an added clause and a flipped
polarity are still flagged. In other words than the probe batches."""

from __future__ import annotations

import pytest

from ragassay.judge.offline import Analyzer
from ragassay.judge.offline.paraphrase import restated_in_other_words
from ragassay.judge.offline.sentences import sentence_info
from tests.support.offline import assert_judged

BAG = ["Each passenger may bring one cabin bag weighing up to 8 kg."]
LOCKERS = ["Gym lockers can be rented for 30 euros a month by registered members."]
CRUISE = ["Tickets for the harbour cruise cost 18 pounds for adults."]
HIKE = ["The summit trail is about 12 km long and takes roughly five hours to walk."]


@pytest.mark.parametrize(("contexts", "answer", "supported"), [
    # a restatement in other words is supported
    (BAG, "Every traveller can take a single carry-on bag of at most eight kilograms.", True),
    (HIKE, "Expect to spend around 5 hours on foot covering the twelve kilometres to the "
           "top.", True),
    (CRUISE, "Grown-ups pay eighteen pounds to board the harbour cruise.", True),
    # another figure is still flagged
    (BAG, "Every traveller can take a single carry-on bag of at most ten kilograms.", False),
    (LOCKERS, "Registered members can hire a gym locker at forty euros per month.", False),
    # an added clause the sentence has no counterpart for is still flagged
    (LOCKERS, "Registered members can hire a gym locker at thirty euros per month, and "
              "towels are handed out free at reception.", False),
    (HIKE, "Expect to spend around 5 hours on foot covering the twelve kilometres to the "
           "top, and a mountain hut sells hot soup there.", False),
    (CRUISE, "Grown-ups pay eighteen pounds to board the harbour cruise, which sails "
             "past the old lighthouse.", False),
])
def test_a_restatement_is_supported_a_changed_figure_or_an_addition_flagged(
        an: Analyzer, contexts: list[str], answer: str, supported: bool) -> None:
    ev = assert_judged(an, contexts, answer, flags=not supported)
    assert not supported or ev.support[0] >= 0.5, ev


def test_what_the_rule_checks() -> None:
    ctx = sentence_info(LOCKERS[0])
    ok = "Registered members can hire a gym locker at thirty euros per month."
    assert restated_in_other_words(sentence_info(ok), ctx, 0.8)
    assert not restated_in_other_words(sentence_info(ok), ctx, 0.3)  # far apart as a whole
    for bad in (
        "Registered members cannot hire a gym locker at thirty euros per month.",  # polarity
        "All visitors can hire a gym locker at thirty euros per month.",  # scope
        "Registered members can hire a gym locker cheaply.",  # no figure to check it by
        "Registered Cityfit members can hire a gym locker at thirty euros per month.",
    ):
        assert not restated_in_other_words(sentence_info(bad), ctx, 0.8), bad
