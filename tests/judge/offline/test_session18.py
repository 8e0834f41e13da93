"""Issue #38, session 18: a bound said in other words ("a maximum of 8" / "up to 8",
"the maximum stay is 14 nights" / "the stay is up to 14 nights") read as the same bound;
a denied comparison the unit states as its bound ("can't weigh more than 95 kg" / "the
maximum rider weight is 95 kg") no flip of polarity; a comparison after a modal a bound
of its side ("can check in more than 3 bags" against "up to 3 bags": a conflict); verbs
offered in each other's place under one modal one clause ("must live or work in the
parish"); a denied "need to" said by "must"; "only" said of one of two things listed
together. Wording and domains none of the probe batches use; each case says how
2c87eb3's judge read it."""

from __future__ import annotations

import pytest

from ragassay.judge.offline import Analyzer
from ragassay.judge.offline.clauses import part
from ragassay.judge.offline.normalise import normalise_text
from ragassay.judge.offline.pieces import clause_texts
from tests.support.offline import assert_judged


@pytest.mark.parametrize(("written", "read"), [
    ("a maximum of 8 climbers", "up to 8 climbers"),
    ("no more than 25 metres away", "up to 25 metres away"),
    ("as many as 4 bags", "up to 4 bags"),
    ("no fewer than 3 nights", "at least 3 nights"),
    ("The maximum stay is 14 nights.", "The stay is up to 14 nights."),
    ("The minimum rider age is 14.", "The rider age is at least 14."),
])
def test_a_bound_is_written_one_way(written: str, read: str) -> None:
    assert normalise_text(written) == read


@pytest.mark.parametrize("text", [
    "no more than the others",  # no figure: no bound
    "a maximum of the fee",
    "Guests can't stay longer than 14 nights.",  # a denial stays a denial (review 18 F1)
])
def test_words_that_bound_no_figure_stay(text: str) -> None:
    assert normalise_text(text) == text


def test_min_and_max_abbreviations_are_no_named_limit() -> None:
    """Review 18 F5: "min" is minutes, "Max" a name."""
    assert normalise_text("The 30 min tour is 8 pounds.") == "The 30 minutes tour is 8 pounds."
    assert normalise_text("Max Jones is 1 of our 3 trainers.") == (
        "Max Jones is 1 of our 3 trainers.")


def test_a_denied_comparison_the_unit_states_as_its_bound_is_no_flip(an: Analyzer) -> None:
    """Flagged before (1.72, "contradicts ... (negation)")."""
    assert_judged(an, ["For the welfare of our ponies, the maximum rider weight is 80 kg."],
                  "Riders can't weigh more than 80 kg.", flags=False, kind=None)


@pytest.mark.parametrize(("context", "answer"), [
    # unflagged before (9.09, 8.33): "more than" after "can" was no bound
    ("You can check in up to 3 bags.", "You can check in more than 3 bags."),
    ("The maximum stay is 14 nights.", "Guests can stay for more than 14 nights."),
    # flagged before as an antonym (minimum / maximum); both are now bounds written one
    # way, and "at least 12" counts no "least", so the bounds are set against each other
    ("The maximum group size is 12.", "The minimum group size is 12."),
])
def test_a_bound_turned_round_is_a_number_conflict(an: Analyzer, context: str,
                                                   answer: str) -> None:
    assert_judged(an, [context], answer, flags=True, kind="number")


@pytest.mark.parametrize(("context", "answer"), [
    ("Each climbing wall holds up to 8 climbers at once.",
     "Each wall takes a maximum of eight climbers at a time."),
    ("In peak season the minimum stay is 3 nights.",
     "You can stay no fewer than three nights in peak season."),
    ("Coach passengers may bring up to 4 bags.",
     "You can bring as many as four bags on the coach."),
    # a comparison that says which things, not a bound after a modal (review 18 F3)
    ("Checked bags can weigh up to 23 kg.", "Checked bags over 23 kg are not accepted."),
])
def test_a_bound_in_other_words_is_supported(an: Analyzer, context: str, answer: str) -> None:
    """Supported before too (8.20-8.81): guards of the bounds written one way."""
    assert_judged(an, [context], answer, flags=False, kind=None)


@pytest.mark.parametrize(("text", "pieces"), [
    ("Allotment holders must live or work in the parish.", 1),
    ("You don't need to live or work in the parish to rent an allotment.", 1),
    # "and" may open a clause of its own (review 18 F6)
    ("Parents must stay and children must wear helmets.", 2),
    ("You must not swim and lifeguards patrol every beach.", 2),
    # "to" of a range, no verb: two clauses
    ("The lawns are closed from October to April or members use the hall.", 2),
])
def test_verbs_offered_under_one_modal_are_one_clause(text: str, pieces: int) -> None:
    assert len(clause_texts(text)) == pieces


@pytest.mark.parametrize(("context", "answer"), [
    # unflagged before (7.99, 9.17): the clause cut after the first verb left the negation
    # with a clause too short to align and the rest without it
    ("Allotment holders must live or work in the parish.",
     "You don't need to live or work in the parish to rent an allotment."),
    ("You don't need to live or work in the parish to rent an allotment.",
     "You must live or work in the parish to rent an allotment."),
])
def test_a_flip_of_coordinated_verbs_contradicts(an: Analyzer, context: str,
                                                 answer: str) -> None:
    assert_judged(an, [context], answer, flags=True, kind="negation")


def test_need_to_is_said_by_must(an: Analyzer) -> None:
    """A guard (both judged so before): with "need" said by "must", the claim restates
    the unit, so its negation is read against it and a restatement stays supported."""
    assert_judged(an, ["All riders must be able to trot unaided before the beach ride."],
                  "No, you don't need to be able to trot unaided for the beach ride.",
                  flags=True, kind="negation")
    assert_judged(an, ["All riders must be able to trot unaided before the beach ride."],
                  "You need to be able to trot unaided before the beach ride.", flags=False,
                  kind=None)


@pytest.mark.parametrize(("context", "answer"), [
    # unflagged before (9.17, 8.16, 9.10)
    ("Tours run in English and Spanish.", "The tour is run in English only."),
    ("Members and guests can book courts.", "Only members can book courts."),
    ("The pool is open on Saturdays and Sundays.", "The pool is open only on Saturdays."),
])
def test_only_said_of_one_of_two_listed_things_is_a_scope_change(
        an: Analyzer, context: str, answer: str) -> None:
    assert_judged(an, [context], answer, flags=True, kind="quantifier")


@pytest.mark.parametrize(("context", "answer"), [
    ("Courts can be booked by members only.", "Only members can book courts."),
    ("Tours run in English and Spanish.", "Tours run in English and Spanish only."),
    ("We take cards and cash.", "It only takes cards and cash."),
])
def test_only_that_drops_nothing_listed_is_supported(an: Analyzer, context: str,
                                                     answer: str) -> None:
    assert_judged(an, [context], answer, flags=False)


def test_at_least_counts_no_least() -> None:
    assert part("The minimum group size is 12.").figures == ((12.0, None),)


@pytest.mark.parametrize(("context", "answer"), [
    ("Kites are not allowed on the common.", "Kites are banned from the common."),
    ("Barbecues are prohibited on the common.", "Barbecues are not permitted on the common."),
    ("Pets are welcome in the lodges.", "Pets are allowed in the lodges."),
])
def test_permission_said_in_other_words_is_no_flip(an: Analyzer, context: str,
                                                   answer: str) -> None:
    """Guards (unflagged before too): the words of permission as one class were tried
    and withdrawn (review 18c: a permit read as a grant, a grant and a ban in one
    sentence); a negation and an antonym still cancel."""
    assert_judged(an, [context], answer, flags=False)


def test_only_x_is_a_denial_with_its_exception(an: Analyzer) -> None:
    """A guard (unflagged before too): "Only X are allowed" says what "not permitted,
    apart from X" says."""
    assert_judged(an, ["Dogs are not permitted in the tea room, apart from guide dogs."],
                  "Only guide dogs are allowed in the tea room.", flags=False)
