"""Review of session 26's readings that take flags away (k210): a hedged figure, a colon
lead-in and a source-scope statement each stood for more than they say.

- A hedged figure ("about 100") was read as the rounding of any figure that rounds to it
  at its one stated digit, however far (140), above it for "almost" (240), or of another
  thing (48 teachers for "around 50 pupils per teacher"): it stands only for a value of
  the same kind within a tenth of it.
- A sentence ending in a colon was set aside as a lead-in even when a clause before the
  one introducing the list denies or states something ("Refunds aren't available, but
  here's what you can do:").
- "The guide I was given only covers X: it's free" declined by scope as a whole, the
  clause after it asserting something unread.

Sentences in our own words; each rule fires where it should and stays silent on the
faithful near-miss."""

from __future__ import annotations

import pytest

from ragassay.judge.offline import Analyzer
from tests.support.offline import judged, known_limit


@pytest.mark.parametrize(("contexts", "answer", "flags"), [
    # a hedged figure far from the context's figure, though it rounds so at one digit
    (["The footbridge is 140 metres long and 3 metres wide."],
     "The footbridge is about 100 metres long.", True),
    (["The observatory dome seats 240 visitors."],
     "The observatory dome seats almost 200 visitors.", True),
    (["The boiler service takes 14 minutes and costs £60."],
     "A boiler service takes about 10 minutes.", True),
    # ... or near a figure of another thing ("48 teachers" for "50 pupils per teacher")
    (["The academy has 612 pupils and 48 teachers."],
     "The academy has around 50 pupils per teacher.", True),
    # near-misses: a rounding of the context's own figure stays faithful
    (["The observatory dome seats 196 visitors."],
     "The observatory dome seats almost 200 visitors.", False),
    (["The footbridge is 104 metres long and 3 metres wide."],
     "The footbridge is about 100 metres long.", False),
])
def test_hedged_figure_stands_near_its_own(an: Analyzer, contexts: list[str],
                                           answer: str, flags: bool) -> None:
    assert judged(an, contexts, answer) is flags


LISTS = pytest.mark.xfail(strict=True, reason="list items cut into sentences (text.sentences) "
                   "was withdrawn in session 26: it lowered SummEdits' LOO figures")


@pytest.mark.parametrize(("contexts", "answer", "flags"), [
    # a lead-in of two clauses, the first denying or stating what the context does not
    (["Deposits are refundable up to 30 days before the wedding. Email the events team "
      "to ask for one."],
     "Deposits aren't refundable, but here's what you can do:\n- Email the events team.",
     True),
    pytest.param(["The sauna is for members only. Robes can be hired at the spa desk."],
                 "The sauna is open to day guests too, and one more thing:\n- Robes can be "
                 "hired at the spa desk.", True, marks=LISTS),
    # near-miss: a bare lead-in before a faithful list stays filler
    pytest.param(["To book a court, sign in to the app, pick a slot and pay the £6 fee."],
                 "Here's how to book:\n1. Sign in to the app.\n2. Pick a slot.\n3. Pay the "
                 "£6 fee.", False, marks=LISTS),
])
def test_lead_in_with_a_claim_is_read(an: Analyzer, contexts: list[str], answer: str,
                                      flags: bool) -> None:
    assert judged(an, contexts, answer) is flags


@pytest.mark.parametrize(("contexts", "answer", "flags"), [
    (["Overnight parking at the harbour costs £12."],
     "The leaflet I was given only covers parking: it's free overnight at the harbour.",
     True),
    # near-miss: a scope statement that only says what the reading lacks still declines
    (["Overnight parking at the harbour costs £12."],
     "The leaflet I was given only covers parking; it doesn't mention the ferry.", False),
])
def test_scope_statement_with_a_claim_after_it(an: Analyzer, contexts: list[str],
                                               answer: str, flags: bool) -> None:
    assert judged(an, contexts, answer) is flags


@known_limit("the term pool matches figures by value alone: 'about 20 books' finds the "
             "21 of '21 days', a rounding of a figure of another kind")
def test_hedged_figure_near_a_figure_of_another_kind(an: Analyzer) -> None:
    assert judged(an, ["The toy library lends up to 16 toys per family for 21 days."],
                  "You can borrow about 20 toys per family.")
