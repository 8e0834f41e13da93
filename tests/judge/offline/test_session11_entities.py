"""Session 11 of issue #38: entity swaps the offline judge missed.

- a clause whose subject stands for what its sentence named ("X is the one to use: it
  ...", "..., which ...") and says what a context sentence says of another subject
  (referents.py);
- the month "May" after a word ("The May workshop") is a word, not the modal;
- a name that opens the claim is a name where the contexts name it ("Anika teaches
  ..." for "... are taught by Jonas. ... are taught by Anika.").
Each in other words and domains than the probes."""

from __future__ import annotations

import pytest

from ragassay.judge.offline import Analyzer
from ragassay.judge.offline.clauses import part
from tests.support.offline import assert_judged, evidence

GLAZES = ["Celadon glaze gives a glossy pale-green finish. Tenmoku glaze gives a dark "
          "brown finish that breaks to rust on the rims."]
PRUNING = ["Hard pruning cuts the shrub back to a few buds above the ground. Light "
           "pruning removes the spent flower heads and keeps the shape."]


@pytest.mark.parametrize(("contexts", "answer"), [
    (GLAZES, "Celadon is the one you want: it gives a dark brown finish that breaks to "
             "rust on the rims."),
    (PRUNING, "You'd want light pruning, which cuts the shrub back to a few buds above "
              "the ground."),
])
def test_a_clause_about_the_wrong_referent_is_an_entity_swap(
        an: Analyzer, contexts: list[str], answer: str) -> None:
    assert_judged(an, contexts, answer, flags=True, kind="entity")


@pytest.mark.parametrize(("contexts", "answer"), [
    (GLAZES, "Tenmoku is the one you want: it gives a dark brown finish that breaks to "
             "rust on the rims."),
    (PRUNING, "You'd want hard pruning, which cuts the shrub back to a few buds above "
              "the ground."),
    # "it" stands for the process, not the subject: the context's sentence on it
    (["We can reupholster dining chairs in leather or fabric. Reupholstering takes two "
      "weeks and costs from £80 a chair."],
     "Yes, dining chairs can be reupholstered in leather or fabric; it takes two weeks "
     "and costs from £80 a chair."),
])
def test_a_clause_about_its_own_referent_is_not_flagged(
        an: Analyzer, contexts: list[str], answer: str) -> None:
    assert_judged(an, contexts, answer, flags=False)


def test_the_month_may_is_a_word_after_another() -> None:
    assert "may" in part("The May workshop meets in the barn.").words
    assert "may" not in part("Visitors may park in the barn.").words


def test_a_month_swapped_for_may_is_an_entity_swap(an: Analyzer) -> None:
    contexts = ["The April workshop is held in the old barn. The May workshop takes "
                "place in the orchard."]
    assert_judged(an, contexts, "The April workshop takes place in the orchard.",
                  flags=True, kind="entity")


def test_a_name_opening_the_claim_is_read_where_the_contexts_name_it(an: Analyzer) -> None:
    contexts = ["Saturday life-drawing classes are taught by Jonas. Sunday watercolour "
                "classes are taught by Anika."]
    assert_judged(an, contexts, "Anika teaches the Saturday life-drawing classes.",
                  flags=True, kind="entity")
    assert_judged(an, contexts, "Jonas teaches the Saturday life-drawing classes.",
                  flags=False)


def test_a_description_of_the_referent_is_no_other_subject(an: Analyzer) -> None:
    """"The chain is ..." names what the passage is about again, not another subject."""
    contexts = ["Brightmart is a grocery chain founded in 1998. The chain is the largest "
                "organic retailer in the region."]
    assert_judged(an, contexts, "I shop at Brightmart, which is the largest organic "
                                "retailer in the region.", flags=False)


def test_a_month_is_no_alternative_of_a_name(an: Analyzer) -> None:
    contexts = ["The opening of the ferry service to Hollin Quay may be delayed into "
                "next year."]
    ev = evidence(an, contexts, "The opening of the ferry service was delayed to November.")
    assert ev.contradicts == [None], ev  # (unsupported, maybe: no entity swap)
