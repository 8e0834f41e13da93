"""Session 26 (k202): figures moved between slots, and faithful rewordings of figures.

Sentences in our own words: each rule fires where the figure is another slot's, and
stays silent where the same figure is written another way."""

from __future__ import annotations

import pytest

from ragassay.judge.offline import Analyzer
from ragassay.judge.offline.normalise import normalise_text
from tests.support.offline import judged


@pytest.mark.parametrize(("contexts", "answer", "flags"), [
    # a length of time in another unit, the other clause's length
    (["The helpdesk answers tickets within 24 hours; refund requests are settled within "
      "72 hours."], "The helpdesk answers tickets within three days.", True),
    (["The helpdesk answers tickets within 24 hours; refund requests are settled within "
      "72 hours."], "The helpdesk answers tickets within a day.", False),
    # a clause whose subject is its sentence's, with another thing's figure
    (["Standard passports are usually posted within 10 days. Urgent renewals take up to "
      "3 days because they are checked by hand."],
     "Urgent renewals are checked by hand and are usually posted within 10 days.", True),
    (["Standard passports are usually posted within 10 days. Urgent renewals take up to "
      "3 days because they are checked by hand."],
     "Urgent renewals are checked by hand and take up to 3 days.", False),
    # a hedged figure: the context's own, rounded; not another value
    (["The marina has 312 berths."], "The marina has around 300 berths.", False),
    (["The marina has 312 berths."], "The marina has around 350 berths.", True),
    # dozens, thousands of grams, litres as "L"
    (["Each crate holds 36 jars."], "Each crate holds three dozen jars.", False),
    (["Each crate holds 36 jars."], "Each crate holds two dozen jars.", True),
    (["Checked bags may weigh up to 3 kg."], "Checked bags may weigh up to 3,000 grams.", False),
    (["The water butt holds 200 litres."], "The water butt holds 200 L.", False),
])
def test_figures(an: Analyzer, contexts: list[str], answer: str, flags: bool) -> None:
    assert judged(an, contexts, answer) is flags


@pytest.mark.parametrize(("text", "written"), [
    ("takes 3-4 weeks", "takes 21–28 days"),
    ("takes 1 to 2 weeks", "takes 7 to 14 days"),
    ("half a dozen eggs", "6 eggs"),
    ("1500 ml", "1.5 litres"),
])
def test_measures_written_one_way(text: str, written: str) -> None:
    assert normalise_text(text) == written
