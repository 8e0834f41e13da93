"""Issue #38, session 7: a pronoun with its auxiliary ("you're", "it's", "we'll") is no
content word: a chatty answer that says the context's fact with them is not a word short
of restating it (the tax answer failed before: "you're" and "it's" counted as two of its
six words, so no unit restated its clause and a changed rate passed)."""

from __future__ import annotations

import pytest

from ragassay.judge.offline import Analyzer
from ragassay.judge.offline.lexical import STOPWORDS
from tests.support.offline import assert_judged


@pytest.mark.parametrize("word", ["you're", "it's", "we'll", "that's", "there's", "i'm",
                                  "they've", "he'd"])
def test_a_pronoun_with_its_auxiliary_is_a_stopword(word: str) -> None:
    assert word in STOPWORDS


@pytest.mark.parametrize("word", ["o'clock", "driver's", "children's", "ma'am"])
def test_other_apostrophe_words_stay_content_words(word: str) -> None:
    assert word not in STOPWORDS


def test_a_changed_rate_in_a_chatty_clause_is_flagged(an: Analyzer) -> None:
    ctx = ["If your licence is up to 2 months overdue, you'll pay a fixed £50 charge. "
           "After 2 months, an additional £5 per day is charged, up to a maximum of £500."]
    assert_judged(an, ctx, "If you're up to 2 months overdue it's a flat £50. After that "
                           "you're charged an extra £50 per day, capped at £500.", flags=True)
