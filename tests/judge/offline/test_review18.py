"""Review 18 of 2c87eb3..96239a2 (session 18: bounds written one way in normalise.py,
comparisons as bounds in placed.bound_flipped, verbs coordinated under one modal kept one
clause in pieces.py, "need to" no content word). Each finding as a test of the right
behaviour, in the reviewer's own help-centre wording. F1-F6 (regressions of 96239a2) are
mended: the denied comparison is no longer rewritten (a flip of polarity it is not, where
the unit states its bound: placed.denied_bound), a comparison bounds only after a modal,
"need" stays a word ("must" says it: clauses.said_otherwise), "min"/"max" are no named
limit, only "or" joins coordinated verbs. F7-F9, older than the change, stay known limits
(xfail(strict=True))."""

from __future__ import annotations

import pytest

from ragassay.judge.offline import Analyzer
from ragassay.judge.offline.normalise import normalise_text
from tests.support.offline import judged as _judged
from tests.support.offline import known_limit as _xf


# --- F1 (high, regression): "can't X more than N" rewritten "can X up to N" drops the
# negation that was the only thing set against an unlimited claim. Flagged at 2c87eb3
# (0.08, negation), passed now (0.78-0.84).
@pytest.mark.parametrize(("context", "answer"), [
    ("You can't bring more than 2 guests.", "You can bring unlimited guests."),
    ("You can't bring more than 2 guests.", "You can bring as many guests as you like."),
    ("You can't borrow more than 6 books at a time.",
     "You can borrow any number of books at a time."),
    ("Members can't book more than 3 classes a week.",
     "Members can book classes every day of the week."),
])
def test_f1_unlimited_against_a_denied_comparison_is_flagged(an: Analyzer, context: str,
                                                             answer: str) -> None:
    assert _judged(an, [context], answer)


# --- F2 (high, regression): the rewrite keeps "must"/"should" and drops "not" ("mustn't
# book more than 2 days before" reads "must book up to 2 days before"), and a span before
# something is no bound, so the flip is gone. Flagged at 2c87eb3 (0.08), passed now.
@pytest.mark.parametrize(("context", "answer"), [
    ("You must book at least 2 days before your visit.",
     "You mustn't book more than 2 days before your visit."),
    ("You must book at least 2 days ahead.", "You can't book more than 2 days ahead."),
    ("You must arrive at least 15 minutes before your class.",
     "You mustn't arrive more than 15 minutes before your class."),
    ("Children mustn't be more than 2 metres from an adult.",
     "Children must be 2 metres from an adult."),
    ("You shouldn't take more than 2 tablets at once.", "You should take 2 tablets at once."),
])
def test_f2_a_denied_modal_bound_turned_is_flagged(an: Analyzer, context: str,
                                                   answer: str) -> None:
    assert _judged(an, [context], answer)


def test_f2_the_rewrite_keeps_what_the_modal_says() -> None:
    """"mustn't arrive more than 10 minutes late" is no obligation to arrive late."""
    assert "must arrive up to" not in normalise_text(
        "You mustn't arrive more than 10 minutes late.")


# --- F3 (high, regression): a comparison is now a bound whatever its clause says: a
# negated or complementary claim that names which things by "over"/"under"/"fewer than"
# is a number conflict. Faithful; passed at 2c87eb3 (0.80-0.88), flagged now (0.08).
@pytest.mark.parametrize(("context", "answer"), [
    ("Checked bags can weigh up to 23 kg.", "Checked bags over 23 kg are not accepted."),
    ("Delivery costs £4 on orders up to £40 and is free above that.",
     "Delivery is free for orders over £40."),
    ("Tours run with at least 6 people.", "Tours with fewer than 6 people are cancelled."),
    ("Standard delivery is free on orders of at least £40.",
     "Orders under £40 pay for standard delivery."),
])
def test_f3_a_comparison_that_says_which_is_no_turned_bound(an: Analyzer, context: str,
                                                            answer: str) -> None:
    assert not _judged(an, [context], answer)


def test_f3_a_turned_bound_is_still_flagged(an: Analyzer) -> None:
    """The guard the mending must keep (session 18's own case)."""
    assert _judged(an, ["You can check in up to 3 bags."], "You can check in more than 3 bags.")


# --- F4 (high, regression): "need to" no content word leaves "You need to book." one
# content word, under alignment.MIN_WORDS: the claim is aligned with nothing and its flip
# passes. Flagged at 2c87eb3 (0.08, negation), passed now (0.85-0.90).
@pytest.mark.parametrize(("context", "answer"), [
    ("You don't need to book.", "You need to book."),
    ("You need to book.", "You don't need to book."),
    ("You need to pay.", "You don't need to pay."),
    ("No need to book.", "You need to book."),
])
def test_f4_a_short_need_to_flip_is_flagged(an: Analyzer, context: str, answer: str) -> None:
    assert _judged(an, [context], answer)


# --- F5 (high, regression): _NAMED_LIMIT reads "min"/"max" as minimum/maximum wherever
# 1-3 words and "is"/"are" + a figure follow: "30 min tour is 8 pounds" becomes "30 tour is
# at least 8 pounds" (the unit gone, a bound invented); "Max" the name is deleted.
def test_f5_a_price_moved_between_min_slots_is_flagged(an: Analyzer) -> None:
    assert _judged(an, ["The 30 min tour is 8 pounds and the 60 min tour is 14 pounds."],
                   "The 30 minute tour is 14 pounds.")  # 0.08 at 2c87eb3, 0.85 now


@pytest.mark.parametrize(("text", "kept"), [
    ("Our 45 min class is 12 pounds.", "at least"),
    ("Max Jones is 1 of our 3 trainers.", "up to"),
])
def test_f5_min_and_max_that_are_no_limit_stay(text: str, kept: str) -> None:
    assert kept not in normalise_text(text)


# --- F6 (medium, regression): _open_verb merges "<modal> <verb> | and <noun> <verb> ..."
# when no auxiliary follows within two words, across a comma too: two subjects, one
# clause, and a universal claim of the second is read against the first's negation.
# Faithful; passed at 2c87eb3 (0.96), flagged now (0.08, quantifier).
@pytest.mark.parametrize(("context", "answer"), [
    ("You must not swim and lifeguards patrol every beach.", "Lifeguards patrol every beach."),
    ("You can't smoke, and staff check every room daily.", "Staff check every room daily."),
])
def test_f6_a_second_subject_is_a_clause_of_its_own(an: Analyzer, context: str,
                                                    answer: str) -> None:
    assert not _judged(an, [context], answer)


# --- F7 (medium, not a regression: same at 2c87eb3): a negation bears on the first of
# coordinated verbs only (pieces._open_verb's docstring says so now).
@_xf("F7: the negation of coordinated verbs bears on the first verb only")
@pytest.mark.parametrize(("context", "answer", "flags"), [
    ("You should not drive or operate machinery after taking this medicine.",
     "You can operate machinery after taking this medicine.", True),
    ("You should not drive or operate machinery after taking this medicine.",
     "You should not operate machinery after taking this medicine.", False),
])
def test_f7_a_shared_negation_bears_on_each_verb(an: Analyzer, context: str, answer: str,
                                                 flags: bool) -> None:
    assert _judged(an, [context], answer) is flags


# F7 mended where the negation is a prohibition (session 22, `deontic.py`: the stance of
# the whole clause, "must not" / "can't", against the claim's "can")
@pytest.mark.parametrize(("context", "answer"), [
    ("You must not run or dive in the pool area.", "You can dive in the pool area."),
    ("You can't walk or cycle on the towpath in winter.",
     "You can cycle on the towpath in winter."),
])
def test_f7_a_prohibition_bears_on_each_verb(an: Analyzer, context: str, answer: str) -> None:
    assert _judged(an, [context], answer) is True


# --- F8 (medium-low; verdicts as at 2c87eb3): a second verb or comparison under the
# negation of a denied comparison is not read as denied (F7's limit; the rewrite that
# also erased the negation is withdrawn).
@_xf("F8: a second verb under a denied comparison's negation is not read as denied")
@pytest.mark.parametrize(("context", "answer"), [
    ("Guests can't stay longer than 14 nights or bring pets.", "Guests can bring pets."),
    ("Drivers must not be under 25 or have more than 6 penalty points.",
     "Drivers can have more than 6 penalty points."),
    ("Passengers must not be under 18 or over 75.", "Passengers can be over 75."),
])
def test_f8_the_second_denied_verb_stays_denied(an: Analyzer, context: str,
                                                answer: str) -> None:
    assert _judged(an, [context], answer)


# --- F9 (low; same at 2c87eb3): comparisons are bounds now, but a strict bound and the
# inclusive one said of the next whole number are still a number conflict.
@_xf("F9: 'under 5' / 'up to 4', 'over 17' / '18 or over' read as different figures")
@pytest.mark.parametrize(("context", "answer"), [
    ("Children under 5 travel free.", "Children aged up to 4 travel free."),
    ("Adults aged 18 or over need photo ID.", "Adults over 17 need photo ID."),
])
def test_f9_strict_and_inclusive_bounds_agree(an: Analyzer, context: str,
                                              answer: str) -> None:
    assert not _judged(an, [context], answer)
