"""Session 26 round 2 (k214): worked totals, ranks of things, verbs with their particle.

- A total the answer works out of the contexts' figures (a sum it says is one, the
  claim's own count of items times a price, two figures of one sentence multiplied) is
  stated by them; a wrong total is still a figure no context gives (totals.py).
- A rank before its noun ("the fourth floor", "the 4th floor") counts the thing as
  "floor 4" does: another rank of it is a number change (counts.place_rank).
- A verb ending in its particle ("sign in", "sign out") read with it, so the two acts
  are different words (counts.lemma_stems): withdrawn in session 26, a strict xfail.
"""

from __future__ import annotations

import pytest

from ragassay.judge.offline import Analyzer
from ragassay.judge.offline.clauses import part
from ragassay.judge.offline.totals import with_worked_totals
from tests.support.offline import judged

PAINT = ["A tin of primer costs £18. Brushes are £7."]
POTTERY = ["The pottery course is 5 evenings of 3 hours each."]
KENNEL = ["Day care for dogs is $22 per day."]
ZOO = ["Entry is €16 for adults and €9 for children."]


@pytest.mark.parametrize(("contexts", "answer"), [
    (PAINT, "The primer and a brush come to £25 altogether."),
    (POTTERY, "That's 15 hours of pottery in all."),
    (KENNEL, "Five days of day care would cost $110."),
    (ZOO, "A family of two adults and two children pays €50 in total."),
])
def test_worked_total_is_stated(an: Analyzer, contexts: list[str], answer: str) -> None:
    assert not judged(an, contexts, answer)


@pytest.mark.parametrize(("contexts", "answer"), [
    (PAINT, "The primer and a brush come to £27 altogether."),
    (POTTERY, "That's 18 hours of pottery in all."),
    (KENNEL, "Five days of day care would cost $120."),
    (ZOO, "A family of two adults and two children pays €54 in total."),
])
def test_wrong_total_is_flagged(an: Analyzer, contexts: list[str], answer: str) -> None:
    assert judged(an, contexts, answer)


def test_sum_needs_the_claim_to_say_it_is_one() -> None:
    # two prices of two things: "£25" said of one of them is no total
    texts = ["A tin of primer costs £18.", "Brushes are £7."]
    assert with_worked_totals(texts, [0, 0], "Brushes are £25.") == texts
    assert "(£25 in total)" in with_worked_totals(texts, [0, 0], "Both cost £25 in total.")[1]


def test_count_priced_by_the_passage_is_not_multiplied(an: Analyzer) -> None:
    ctx = ["One swim is £5, or £40 for a pass of 10 swims."]
    assert judged(an, ctx, "A pass of 10 swims costs £50, which is £5 a swim.")


@pytest.mark.parametrize(("contexts", "answer", "flagged"), [
    (["The archive is on the fourth floor; the reading room is on the first floor."],
     "The reading room is on the 4th floor.", True),
    (["The second payment is taken in March and the third payment in June."],
     "Your 3rd payment is taken in March.", True),
    (["The archive is on the fourth floor."], "The archive is on floor 4.", False),
    (["The archive is on the 4th floor."], "You'll find the archive on the fourth floor.",
     False),
])
def test_rank_of_a_thing(an: Analyzer, contexts: list[str], answer: str,
                         flagged: bool) -> None:
    assert judged(an, contexts, answer) is flagged


def test_rank_reads_no_span_or_date() -> None:
    assert part("The first month is free.").figures == ()
    assert part("Fees are due on 1st April.").figures == ()
    assert part("The fourth floor is closed.").figures == ((4.0, "floor"),)


@pytest.mark.xfail(strict=True, reason="a verb read with its particle was withdrawn in "
                   "session 26 (held-out answers went right to wrong)")
def test_particle_read_with_its_verb() -> None:
    assert part("Sign out is by 5pm.").words != part("Sign in is by 5pm.").words
    assert part("Staff sign out by 5pm.").words == part("Staff must sign-out by 5pm.").words
    # a preposition opening its object: no particle
    assert "sign" in part("Please sign in the visitors' book.").words
