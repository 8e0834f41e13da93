"""Issue #38, session 12: a universal phrase opened by the unit's own limiting word
("free for everyone" for "free for local members"; the first and the last flagged case
passed at cc526ac, because the claim's "for" was read as the unit's and the phrase
skipped; "for every order" against a figure was flagged already), while a claim
keeping the unit's case ("for all members of the club" for "for members of the club")
stays unflagged. Wording and domains none of the probe batches use."""

from __future__ import annotations

import pytest

from ragassay.judge.offline import Analyzer
from tests.support.offline import assert_judged


@pytest.mark.parametrize(("contexts", "answer"), [
    (["Tool loans are free for members of the makers' guild; non-members pay £2 a day."],
     "Yes, tool loans are free for everyone."),
    (["Gift wrapping is free for orders over £50."],
     "Gift wrapping is free for every order."),
    (["Sauna sessions are included for gold members."],
     "Sauna sessions are included for everybody."),
])
def test_a_universal_phrase_after_the_units_limiting_word_is_flagged(
        an: Analyzer, contexts: list[str], answer: str) -> None:
    assert_judged(an, contexts, answer, flags=True, kind="quantifier")


@pytest.mark.parametrize(("contexts", "answer"), [
    (["Tool loans are free for members of the makers' guild."],
     "Yes, tool loans are free for all members of the makers' guild."),
    (["The shuttle bus is free for everyone staying at the hotel."],
     "The shuttle bus is free for everyone staying at the hotel."),
])
def test_a_claim_keeping_the_case_is_not_flagged(
        an: Analyzer, contexts: list[str], answer: str) -> None:
    assert_judged(an, contexts, answer, flags=False)


@pytest.mark.parametrize(("contexts", "answer"), [
    # review 11 (M3): flagged "quantifier" at cc526ac
    (["Our lavender, harvested in July, goes into our soaps."],
     "All our soaps contain lavender."),
    (["Our lavender, harvested in July, is dried on site."],
     "Yes, all our lavender is dried on site."),
    (["The hives, kept on the north field, are inspected every week."],
     "All the hives are inspected every week."),
])
def test_a_participle_aside_is_no_case_of_the_claim(
        an: Analyzer, contexts: list[str], answer: str) -> None:
    """A participle phrase set off by commas describes all of what it follows: its time
    or place limits nothing the claim says of every one."""
    assert_judged(an, contexts, answer, flags=False)


@pytest.mark.parametrize(("contexts", "answer"), [
    (["Members registered on the scheme get 10% off."], "All members get 10% off."),
    (["Hives kept on the north field are inspected every week."],
     "All the hives are inspected every week."),
])
def test_a_participle_without_commas_still_limits(
        an: Analyzer, contexts: list[str], answer: str) -> None:
    assert_judged(an, contexts, answer, flags=True, kind="quantifier")
