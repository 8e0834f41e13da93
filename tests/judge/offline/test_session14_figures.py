"""Issue #38, session 14: figures no reader saw. Wording and domains none of the probe
batches use; each case failed at ac1a13e.

- "20p" is 20 pence (not "6pm", a clock time), "the 1860s" is a decade from 1860
  (`normalise`): a price or decade changed is a figure changed.
- "a day" before a noun it modifies ("a day ticket", "a week pass") is no length of time
  (`measures._AFTER_SPAN`); "a day's notice", "a day or two", "within a day of" still are."""

from __future__ import annotations

import pytest

from ragassay.judge.offline import Analyzer
from ragassay.judge.offline.measures import canonical_measures
from ragassay.judge.offline.sentences import sentence_info
from tests.support.offline import assert_judged


@pytest.mark.parametrize(("text", "figures"), [
    ("Printing costs 15p per page.", ["15"]),
    ("The mill dates from the 1780s.", ["1780"]),
    ("Doors open at 6pm.", ["6"]),
])
def test_pence_and_decades_are_figures(text: str, figures: list[str]) -> None:
    assert [q.text for q in sentence_info(text).numbers] == figures


@pytest.mark.parametrize(("text", "canonical"), [
    ("You can buy a day ticket at the gate.", "You can buy a day ticket at the gate."),
    ("Buy a week pass online.", "Buy a week pass online."),
    ("Give us a day's notice.", "Give us 24 hours's notice."),
    ("Cancel within a day of booking.", "Cancel within 24 hours of booking."),
])
def test_a_day_before_a_noun_is_no_length(text: str, canonical: str) -> None:
    assert canonical_measures(text) == canonical


@pytest.mark.parametrize(("contexts", "answer"), [
    (["Black-and-white printing costs 10p a page and colour printing 40p a page.",
      "Scanning is free; a USB stick costs £5."],
     "Colour printing is 10p a page."),
    (["The oldest maps in the collection date from the 1780s.",
      "Most of the collection, about 900 maps, covers 1850 to 1900."],
     "The oldest maps in the collection date from the 1850s."),
])
def test_a_changed_price_or_decade_is_flagged(an: Analyzer, contexts: list[str],
                                              answer: str) -> None:
    assert_judged(an, contexts, answer, flags=True)


def test_a_day_ticket_names_no_figure(an: Analyzer) -> None:
    ev = assert_judged(an, ["Day tickets for the river can be bought from the bait shop on "
                            "Mill Lane."],
                       "Yes, you can buy a day ticket from the bait shop on Mill Lane.",
                       flags=False)
    assert not ev.hallucinated_terms, ev


@pytest.mark.xfail(strict=True, reason="known limit: a rate's 'per day' against 'daily' is "
                   "not aligned, so a price moved to the other charge passes (it failed at "
                   "ac1a13e only because '24p' was an unknown word)")
def test_limit_a_daily_charge_said_per_day(an: Analyzer) -> None:
    assert_judged(an, ["The daily parking charge is 80 pence.",
                       "Overnight parking is 30 pence per hour."],
                  "The parking charge is 30p per day.", flags=True)
