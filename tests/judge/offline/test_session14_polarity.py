"""Issue #38, session 14: named contradictions that were not there. Wording and domains
none of the probe batches use; each faithful case was flagged at 61c14ab.

- "at no charge" / "free of charge": a price denied is what "free" says, so it turns no
  polarity (`polarity.free_price`); "comes at an extra cost" against "at no extra cost"
  still does.
- "lasts 45 minutes" is a length of time, not the antonym of a "first" visit
  (`polarity.antonym_pool`); "the last session" still is.
- "On the Basic plan, meetings ...": a word before a comma modifies no word after it, so a
  claim quantifying "each meeting" on the Basic plan widens no kind (`scope.narrowed`)."""

from __future__ import annotations

import pytest

from ragassay.judge.offline import Analyzer
from tests.support.offline import assert_judged


@pytest.mark.parametrize(("contexts", "answer"), [
    (["Racks can be borrowed from the workshop free of charge, but inner tubes are not "
      "supplied and cost £6 each."],
     "Yes, you can borrow a rack from the workshop at no charge."),
    (["Guests may use the hotel bicycles at no extra cost; helmets are not included."],
     "Yes, the hotel bicycles are free for guests to use."),
])
def test_no_charge_is_what_free_says(an: Analyzer, contexts: list[str], answer: str) -> None:
    assert_judged(an, contexts, answer, flags=False, kind=None)


def test_a_price_added_where_there_is_none_is_still_a_flip(an: Analyzer) -> None:
    assert_judged(an, ["Repairs under warranty are carried out at no extra cost."],
                  "Repairs under warranty are carried out at an extra cost.", flags=True)


def test_lasts_is_no_antonym_of_first(an: Analyzer) -> None:
    contexts = ["An initial consultation at Lowther Tailors lasts 40 minutes and costs £30. "
                "Later fittings take 20 minutes."]
    answer = "Your first visit is an initial consultation of 40 minutes, costing £30."
    ev = assert_judged(an, contexts, answer, flags=False)
    assert "antonym" not in ev.contradicts, ev


def test_first_for_last_is_still_an_antonym(an: Analyzer) -> None:
    assert_judged(an, ["Orders must be placed by the last Friday of the month."],
                  "Orders must be placed by the first Friday of the month.", flags=True)


def test_a_word_before_a_comma_modifies_nothing_after_it(an: Analyzer) -> None:
    contexts = ["On the StreamBox Lite plan, uploads are limited to 2 GB and 50 files. The "
                "Pro plan allows uploads of up to 20 GB with 500 files."]
    answer = "Lite caps each upload at 2 GB, with room for up to 50 files."
    ev = assert_judged(an, contexts, answer, flags=False)
    assert "quantifier" not in ev.contradicts, ev


def test_a_kind_named_before_the_word_still_narrows_it(an: Analyzer) -> None:
    assert_judged(an, ["Lite plan uploads are limited to 2 GB."],
                  "Every upload is limited to 2 GB.", flags=True)
