"""Review 18c of d2ee02a..65846e7 (c8aab94, ba4ee16, 65846e7: review 18b mended, words of
permission one class, "only X" against a denial with its exception). Each finding as a
test of the right behaviour, in help-centre wording; xfail(strict=True) where 65846e7's
judge got it wrong. Each case notes how 2c87eb3 (OLD) and d2ee02a (MID) read it. Mended
after it: the words of permission as one class and "only X" against a denial with its
exception withdrawn (C1-C4: the verdicts as at OLD), a case of the claim's own read only
in a sentence with another of its words (C5, in part), a comparison past an adverb or a
negation after the modal and "exceed" as the verb read as a bound (C6), a figure's every
noun matched (C7), and C8 gone with the antonym pairs. Left as known limits: C2b, the C2
guard, C4b, C5 in part, C9."""

from __future__ import annotations

import pytest

from ragassay.judge.offline import Analyzer
from tests.support.offline import judged, known_limit


# --- C1 (high, regression): a permit (a document), permission, an allowance share the
# 5-letter stem of "permitted" / "allowed" ('permi', 'allow'), so lexical.GRANTS fires and
# polarity's `turned` counts the claim's "not allowed" as a flip. Passed at OLD (0.80),
# flagged now (0.08, negation).
@pytest.mark.parametrize(("context", "answer"), [
    ("You need a resident's permit to park on Elm Street.",
     "You are not allowed to park on Elm Street without a resident's permit."),
    ("A permit is required to fly a drone in the park.",
     "You are not allowed to fly a drone in the park without a permit."),
    ("Fishing in the lake requires a permit from the office.",
     "Fishing in the lake is not allowed without a permit from the office."),
])
def test_c1_a_permit_is_no_grant(an: Analyzer, context: str, answer: str) -> None:
    assert not judged(an, [context], answer)


# --- C2 (high, regression): one sentence grants one thing and bans another. The claim's
# permission word is "said" by the unit's grant (clauses.said_otherwise puts it in
# `used`), so the unit's ban word is never counted as its antonym, while `turned` counts
# the claim's negation: a faithful denial of the banned thing is a flip. Passed at OLD
# (0.81-0.84), flagged now (0.08, negation).
@pytest.mark.parametrize(("context", "answer"), [
    ("Bikes are allowed on the towpath but prohibited in the park.",
     "Bikes are not permitted in the park."),
    ("Phones are permitted in the lobby but forbidden in the exam hall.",
     "Phones are not allowed in the exam hall."),
    ("Walkers are welcome on the estate, but cyclists are banned.",
     "Cyclists are not allowed on the estate."),
    ("Dogs are welcome in the garden but banned from the café.",
     "Dogs are not allowed in the café."),
])
def test_c2_a_ban_beside_a_grant_is_restated(an: Analyzer, context: str, answer: str) -> None:
    assert not judged(an, [context], answer)


# C2's mirror (medium, older: passed at OLD too): the claim grants the banned thing.
@known_limit("C2b: granting the thing a sentence bans beside a grant passes "
             "(words of permission are one class no more: withdrawn after this review, C1-C3)")
@pytest.mark.parametrize(("context", "answer"), [
    ("Dogs are welcome in the garden but banned from the café.", "Dogs are allowed in the café."),
    ("Walkers are welcome on the estate, but cyclists are banned.",
     "Cyclists are allowed on the estate."),
])
def test_c2b_granting_the_banned_thing_is_flagged(an: Analyzer, context: str,
                                                 answer: str) -> None:
    assert judged(an, [context], answer)


def test_c2_guard_the_granted_thing_denied_is_flagged(an: Analyzer) -> None:
    """What the class is for (passed at OLD, missed after C1-C3's withdrawal; mended in
    session 22 by `deontic.py`: the clause's stance, each clause's own, is compared)."""
    assert judged(an, ["Walkers are welcome on the estate, but cyclists are banned."],
                  "Walkers are not allowed on the estate.")


# --- C3 (high, regression): any grant word in the unit, whatever it is said of (an
# invitation, an allowance of an amount), turns the claim's negated permission word into
# a counted negation, while the unit denies the thing in other words ("not available",
# "closed to", "goes in the hold"). Passed at OLD (0.82-0.88), flagged now (0.08).
@pytest.mark.parametrize(("context", "answer"), [
    ("You are welcome to park in the visitor car park, but overnight parking is not "
     "available.", "Overnight parking is not allowed in the visitor car park."),
    ("Everyone is welcome at the open day, though the labs are closed to the public.",
     "The public are not allowed in the labs during the open day."),
    ("You're allowed 2 bags in the cabin; a third bag goes in the hold.",
     "A third bag is not permitted in the cabin."),
    ("Each student is allowed 90 minutes for the exam.",
     "Students are not permitted more than 90 minutes for the exam."),
])
def test_c3_a_grant_of_something_else_is_no_flip(an: Analyzer, context: str,
                                                answer: str) -> None:
    assert not judged(an, [context], answer)


# --- C4 (high, regression): polarity._only_as_exception hides a flip whenever one side
# has "only" anywhere and the other any exception word and a negation: it never checks
# that "only X" names what the exception excepts. Flagged at OLD (0.08, negation), passed
# now (0.76-0.90).
@pytest.mark.parametrize(("context", "answer"), [
    ("Dogs are not allowed in the restaurant, except assistance dogs.",
     "Only small dogs are allowed in the restaurant."),
    ("Cash is not accepted on board, except for small change.", "Cash is only accepted on board."),
    ("Guests are not allowed in the pool, except on Sundays.",
     "Guests are allowed in the pool only with a member."),
    ("Cash is only accepted on board.", "Cash is not accepted on board other than small change."),
])
def test_c4_only_x_against_another_exception_is_flagged(an: Analyzer, context: str,
                                                        answer: str) -> None:
    assert judged(an, [context], answer)


# C4b (medium, the rule's reverse half; flagged at OLD and now): a claim's "not ...,
# except X" is cut at its exception before polarity reads it, so the reverse call
# (_only_as_exception(u.sentence, p)) does not fire for ordinary wording; no test fails
# when it is removed.
@known_limit("C4b: a denial with its exception against 'only X' (the rule withdrawn with "
             "the class of permission words)")
@pytest.mark.parametrize(("context", "answer"), [
    ("Only assistance dogs are allowed in the restaurant.",
     "Dogs are not allowed in the restaurant, except assistance dogs."),
    ("Members are allowed in the pool only on Sundays.",
     "Members are not allowed in the pool except on Sundays."),
])
def test_c4b_a_denial_with_its_exception_restates_only_x(an: Analyzer, context: str,
                                                         answer: str) -> None:
    assert not judged(an, [context], answer)


# --- C5 (medium-high, R3's fix too wide): placed._elsewhere excuses a comparison's bound
# whenever any claim word missing from the bound's sentence occurs in any other context
# sentence ("pool", "month", "bring"), not only a case of its own. Passed at OLD, flagged
# at MID (0.08, number), passed now (0.80-0.82).
@pytest.mark.parametrize(("contexts", "answer"), [
    (["You can bring up to 2 guests.", "The pool opens at 7am."],
     "You can bring more than 2 guests to the pool."),
    pytest.param(["Members can bring up to 2 guests.", "Membership costs £30 a month."],
                 "Members can bring more than 2 guests each month.",
                 marks=known_limit("C5: a word another sentence says with another of the "
                                   "claim's words still reads as a case of its own")),
    pytest.param(["Each member may invite up to 2 guests.", "Guests must bring photo ID."],
                 "Members can bring more than 2 guests.",
                 marks=known_limit("C5: a word another sentence says with another of the "
                                   "claim's words still reads as a case of its own")),
])
def test_c5_an_incidental_word_is_no_case_of_its_own(an: Analyzer, contexts: list[str],
                                                     answer: str) -> None:
    assert judged(an, contexts, answer)


# --- C6 (medium, R4's fix too narrow): placed._compared wants the modal exactly one
# token before the verb (and only "not" between): an adverb ("now", "also") loses the
# bound, "never" / "ever" is no denial (so denied_bound fails and the negation flips), and
# "exceed", itself the verb, can never be "right after a modal's verb".
@pytest.mark.parametrize(("context", "answer"), [
    # passed at OLD, flagged at MID (0.08, number), passed now
    ("Members can borrow up to 6 books.", "Members can now borrow more than 6 books."),
    ("Members can borrow up to 6 books.", "Members can also borrow more than 6 books."),
    ("Bags can weigh up to 23 kg.", "Bags can exceed 23 kg."),
])
def test_c6a_a_bound_past_an_adverb_is_flagged(an: Analyzer, context: str, answer: str) -> None:
    assert judged(an, [context], answer)


@pytest.mark.parametrize(("context", "answer"), [
    # flagged at OLD (0.08, negation), passed at MID, flagged now
    ("Each class can take up to 12 pupils.", "Classes can never have more than 12 pupils."),
    ("Each class can take up to 12 pupils.", "A class can't ever take more than 12 pupils."),
])
def test_c6b_never_more_than_is_the_bound(an: Analyzer, context: str, answer: str) -> None:
    assert not judged(an, [context], answer)


# --- C7 (medium, R5's fix): denied_bound matches what the figure counts through
# dict(u.figures): two figures of one value keep only the last one's noun. Flagged at
# OLD, passed at MID, flagged now (0.08, negation).
def test_c7_a_bound_of_two_things_of_one_value(an: Analyzer) -> None:
    assert not judged(an, ["You can borrow up to 6 books and 6 DVDs at a time."],
                      "You can't borrow more than 6 books at a time.")


# --- C8 (medium, regression): the new antonym pairs feed features.antonym_clashes, which
# does not see the negation: "not banned" for "welcome" falls under the line (0.78 at
# OLD, 0.25 now) with no conflict found.
def test_c8_not_banned_restates_welcome(an: Analyzer) -> None:
    assert not judged(an, ["Children are welcome at the ceremony."],
                      "Children are not banned from the ceremony.")


# --- C9 (low, the class's gaps; same at OLD): the ban words are not one class ("not
# prohibited" against "forbidden"), and "a ban on" ('ban', not 'banne') is no antonym.
@known_limit("C9: the words of a ban are no class of their own")
@pytest.mark.parametrize(("context", "answer"), [
    ("Smoking is forbidden on the terrace.", "Smoking is not prohibited on the terrace."),
    ("There is a ban on dogs in the park.", "Dogs are allowed in the park."),
])
def test_c9_a_ban_in_other_words(an: Analyzer, context: str, answer: str) -> None:
    assert judged(an, [context], answer)
