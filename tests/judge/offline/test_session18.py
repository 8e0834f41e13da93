"""Issue #38, session 18: a bound said in other words ("a maximum of 8" / "up to 8",
"can't stay longer than 14 nights" / "the maximum stay is 14 nights") read as the same
bound, and a bound turned round ("more than 3 bags" against "up to 3 bags") as a
conflict; verbs coordinated under one modal ("must live or work in the parish") read as
one predicate, so a negation of the pair ("don't need to live or work ...") is a flip.
Each judged wrongly before (said per case); wording and domains none of the probe
batches use."""

from __future__ import annotations

import pytest

from ragassay.judge.offline import Analyzer
from ragassay.judge.offline.normalise import normalise_text
from ragassay.judge.offline.pieces import clause_texts
from tests.support.offline import assert_judged


@pytest.mark.parametrize(("written", "read"), [
    ("a maximum of 8 climbers", "up to 8 climbers"),
    ("no more than 25 metres away", "up to 25 metres away"),
    ("as many as 4 bags", "up to 4 bags"),
    ("no fewer than 3 nights", "at least 3 nights"),
    ("Guests can't stay longer than 14 nights.", "Guests can stay up to 14 nights."),
    ("Bags must not exceed 23 kg.", "Bags must be up to 23 kilograms."),
    ("Riders must not be under 14.", "Riders must be at least 14."),
    ("The maximum stay is 14 nights.", "The stay is up to 14 nights."),
    ("The minimum rider age is 14.", "The rider age is at least 14."),
])
def test_a_bound_is_written_one_way(written: str, read: str) -> None:
    assert normalise_text(written) == read


@pytest.mark.parametrize("text", [
    "no more than the others",  # no figure: no bound
    "You mustn't leave children under 8 alone.",  # "under 8" says which children
    "a maximum of the fee",
])
def test_words_that_bound_no_figure_stay(text: str) -> None:
    assert normalise_text(text) == text


def test_a_denied_comparison_is_the_bound_it_says(an: Analyzer) -> None:
    """Flagged before (3.28): "can't stay" read as a denial of the stay."""
    assert_judged(an, ["The maximum stay is 14 nights."],
                  "Guests can't stay longer than 14 nights.", flags=False, kind=None)


@pytest.mark.parametrize(("context", "answer"), [
    # unflagged before (9.09, 8.33, 8.73): "more than", "fewer than" were no bound
    ("You can check in up to 3 bags.", "You can check in more than 3 bags."),
    ("The maximum stay is 14 nights.", "Guests can stay for more than 14 nights."),
    ("Tours need a minimum of 6 people to run.", "Tours need fewer than 6 people to run."),
    # flagged before too (a negation then, a bound now)
    ("Guests cannot stay longer than 14 nights.", "Guests can stay longer than 14 nights."),
    ("The trailer must not carry more than 300 kg.", "The trailer can carry more than 300 kg."),
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
])
def test_a_bound_in_other_words_is_supported(an: Analyzer, context: str, answer: str) -> None:
    """Supported before too (8.20-8.40): a guard that the bounds written one way keep
    them so."""
    assert_judged(an, [context], answer, flags=False, kind=None)


def test_two_comparisons_turned_are_a_turned_relation() -> None:
    """"above 8" / "below 8" stays the antonym it was (test_session10_relations), not
    a bound: both bounds are comparisons."""
    from ragassay.judge.offline.clauses import part
    from ragassay.judge.offline.placed import _bounds
    assert _bounds(part("Store it above 8 degrees."), compared=False)[8.0] == set()
    assert _bounds(part("Store it above 8 degrees."))[8.0] == {"min"}
    assert _bounds(part("Bring up to 8 bags."), compared=False)[8.0] == {"max"}


@pytest.mark.parametrize(("text", "pieces"), [
    ("Allotment holders must live or work in the parish.", 1),
    ("You don't need to live or work in the parish to rent an allotment.", 1),
    ("Runners must register and pay online before the race.", 1),
    # a subject and a modal of its own: two clauses
    ("Parents must stay and children must wear helmets.", 2),
    # "to" of a range, no verb: two clauses
    ("The lawns are closed from October to April and members can use the hall.", 2),
])
def test_verbs_under_one_modal_are_one_clause(text: str, pieces: int) -> None:
    assert len(clause_texts(text)) == pieces


@pytest.mark.parametrize(("context", "answer"), [
    ("Allotment holders must live or work in the parish.",
     "You don't need to live or work in the parish to rent an allotment."),
    ("You don't need to live or work in the parish to rent an allotment.",
     "You must live or work in the parish to rent an allotment."),
    ("Runners must register and pay online before the race.",
     "You don't need to register or pay online before the race."),
])
def test_a_flip_of_coordinated_verbs_contradicts(an: Analyzer, context: str,
                                                 answer: str) -> None:
    """Unflagged before (7.99-9.17): the clause cut after the first verb left the
    negation with a clause too short to align and the rest without it."""
    assert_judged(an, [context], answer, flags=True, kind="negation")


def test_coordinated_verbs_said_again_are_supported(an: Analyzer) -> None:
    assert_judged(an, ["Allotment holders must live or work in the parish."],
                  "You have to live or work in the parish to hold an allotment.",
                  flags=False)
