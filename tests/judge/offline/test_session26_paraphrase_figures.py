"""Session 26 (k204): faithful paraphrases read by their figures.

A clause whose words tie between the two sentences a claim draws on goes to the one
holding its figure (paraphrase.restated_across); whole hours counted in minutes are
hours (measures.canonical_measures)."""

from __future__ import annotations

import pytest

from ragassay.judge.offline.measures import canonical_measures
from ragassay.judge.offline.paraphrase import _draws_on_both
from ragassay.judge.offline.sentences import sentence_info

SERVICE = ("A routine boiler check takes about 35 minutes.",
           "If the flue also needs testing, allow an extra 10 minutes.")


def _draws(claim: str) -> bool:
    a, b = (sentence_info(canonical_measures(t)) for t in SERVICE)
    return _draws_on_both(sentence_info(canonical_measures(claim)), a, b)


@pytest.mark.xfail(strict=True, reason="withdrawn in session 26: a held-out answer went "
                   "right to wrong with the tie read by the clause's figure")
def test_tied_clause_goes_to_the_sentence_holding_its_figure() -> None:
    assert _draws("A routine check is around 35 minutes; add another 10 minutes "
                  "if the flue needs testing too.")


def test_tied_clause_with_the_other_figure_does_not_draw() -> None:
    assert not _draws("A routine check is around 10 minutes; add another 35 minutes "
                      "if the flue needs testing too.")


@pytest.mark.xfail(strict=True, reason="withdrawn in session 26: a held-out answer went "
                   "right to wrong with whole hours read in minutes")
def test_whole_hours_in_minutes_read_as_hours() -> None:
    assert canonical_measures("Check-in closes 180 minutes before departure.") == (
        "Check-in closes 3 hours before departure.")
    assert canonical_measures("a 150 minutes lecture") == "a 150 minutes lecture"
    assert canonical_measures("allow 90 minutes") == "allow 90 minutes"
