"""Session 28 (scope): whom or what a fact holds for, widened.

- holders.own_words / premodified_dropped: a subject picked out by a word or two before
  a noun of people ("Silver cardholders", "Theatre nurses") said of another noun of
  people the unit lacks ("All drivers", "Staff");
- holders.age_group_dropped: an age group as the subject ("Under-14s", "Over 70s") left
  out;
- carried_limit.carried_limit: a limit in the next sentence carried back by "This" /
  "That ..." ("This applies only to ...") dropped by a universal claim.
Cases in words of our own, none from a probe batch."""

from __future__ import annotations

import pytest

from ragassay.judge.offline import Analyzer
from ragassay.judge.offline.clauses import part
from ragassay.judge.offline.holders import own_words
from tests.support.offline import evidence, flagged, judged


@pytest.mark.parametrize(("context", "answer", "flags"), [
    # another noun of people for a premodified subject: widened
    ("Silver cardholders can skip the queue at the ticket desk.",
     "All visitors can skip the queue at the ticket desk.", True),
    ("Senior volunteers may use the staff canteen after midnight.",
     "Employees may use the staff canteen after midnight.", True),
    ("Trade account holders can collect orders from the yard at 7am.",
     "Customers can collect orders from the yard at 7am.", True),
    # faithful: the picking word kept with another noun, or no picking word at all
    ("Silver cardholders can skip the queue at the ticket desk.",
     "Silver card members can skip the queue at the ticket desk.", False),
    ("Trade account holders can collect orders from the yard at 7am.",
     "Trade customers can collect orders from the yard at 7am.", False),
    ("Volunteers can park behind the community hall.",
     "Helpers can park behind the community hall.", False),
    # an age group dropped: widened; kept in other words: faithful
    ("Under-14s must be accompanied in the climbing hall.",
     "You must be accompanied in the climbing hall.", True),
    ("Over 70s get a free eye test every year.", "Everyone gets a free eye test every year.",
     True),
    ("Under-14s must be accompanied in the climbing hall.",
     "Climbers under 14 must be accompanied in the climbing hall.", False),
    ("Over 70s get a free eye test every year.",
     "If you are over 70 you get a free eye test every year.", False),
    # a limit carried back from the next sentence
    ("You can change the delivery date online up to a day before. This is only possible "
     "for standard parcels.", "You can change the delivery date online for every parcel up to "
     "a day before.", True),
    ("We match any lower price you find. That promise is limited to electrical goods.",
     "We match a lower price you find on every product.", True),
    ("You can change the delivery date online up to a day before. This is only possible "
     "for standard parcels.", "For standard parcels you can change the delivery date online "
     "up to a day before.", False),
    ("Every room has a desk. It is the only furniture supplied in the annex rooms.",
     "Every room has a desk.", False),
])
def test_scope_widened(an: Analyzer, context: str, answer: str, flags: bool) -> None:
    assert judged(an, [context], answer) is flags


@pytest.mark.parametrize(("question", "flags"), [
    ("Can I skip the queue?", True),
    ("I have a Silver card. Can I skip the queue?", False),
])
def test_question_names_the_group(an: Analyzer, question: str, flags: bool) -> None:
    ev = evidence(an, ["Silver cardholders can skip the queue at the ticket desk."],
                  "Yes, you can skip the queue at the ticket desk.", question)
    assert flagged(ev) is flags


def test_own_words_leave_out_another_noun_of_people() -> None:
    u = part("Silver cardholders can skip the queue.")
    assert "visit" not in own_words(part("All visitors can skip the queue."), u)
    kept = part("Silver card members can skip the queue.")
    assert own_words(kept, u) == kept.words
