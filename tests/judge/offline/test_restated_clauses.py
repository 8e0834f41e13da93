"""Issue #38, session 7: an answer sentence whose clauses each restate a context sentence
(of two documents: "Gates open 60 minutes before kick-off [1], and the pre-match show
starts 20 minutes after that [2]") is supported: claim-level alignment found what
supports each clause, though no one document states it all (flagged before). A changed
figure or an added detail in one clause still flags it."""

from __future__ import annotations

import pytest

from ragassay.judge.offline import Analyzer
from tests.support.offline import assert_judged

CONTEXTS = ["Gates open 60 minutes before the advertised kick-off time.",
            "The pre-match show usually begins 20 minutes after the gates open."]


def test_each_clause_restated_by_another_document_is_supported(an: Analyzer) -> None:
    assert_judged(an, CONTEXTS, "Gates open 60 minutes before the advertised kick-off time "
                                "[1], and the pre-match show usually starts 20 minutes "
                                "after that [2].", flags=False)


@pytest.mark.parametrize("answer", [
    "Gates open 60 minutes before the advertised kick-off time [1], and the pre-match show "
    "usually starts 30 minutes after that [2].",
    "Gates open 60 minutes before the advertised kick-off time [1], and the pre-match show "
    "usually starts 20 minutes after that with free drinks for season ticket holders [2].",
])
def test_a_changed_or_added_detail_in_one_clause_is_still_flagged(an: Analyzer,
                                                                  answer: str) -> None:
    assert_judged(an, CONTEXTS, answer, flags=True)
