"""Where mid-sentence markers that cite different passages cut an answer sentence into
pieces (text.unmarked.cited_pieces, read through the citation parse)."""

from __future__ import annotations

import pytest

from ragassay.text.markers import parse_answer

_CONTEXTS = ["one", "two", "three"]


@pytest.mark.parametrize(("answer", "pieces"), [
    # a marker at a clause's end, another passage cited after it: cut there, the joining
    # word ("or", "and", "except") left out of the piece
    ("Parking is £3 an hour [1], or £1 for blue badge holders [2].",
     ("Parking is £3 an hour", "£1 for blue badge holders.")),
    ("The hall seats 120 (Source 1), and the stage is 8 metres wide (Source 2).",
     ("The hall seats 120", "the stage is 8 metres wide.")),
    ("Lessons run on Mondays¹, except at half term, when they move online².",
     ("Lessons run on Mondays", "at half term, when they move online.")),
    # a condition's opening word stays: the piece supposes, it does not claim
    ("Entry is free [1], unless you bring a trailer, which costs £5 [2].",
     ("Entry is free", "unless you bring a trailer, which costs £5.")),
])
def test_markers_citing_different_passages_cut_a_sentence(answer: str,
                                                          pieces: tuple[str, ...]) -> None:
    (sentence,) = parse_answer(answer, _CONTEXTS, {}).sentences
    assert sentence.pieces == pieces


@pytest.mark.parametrize("answer", [
    "Parking is £3 an hour [1], and blue badge holders pay £1 [1].",  # one passage
    "Parking is £3 an hour and blue badge holders pay £1 [1][2].",  # markers at the end
    "Parking is £3 an hour [1], and blue badge holders pay £1.",  # a piece citing nothing
    "Parking is £3 an hour and blue badge holders pay £1.",  # no marker
])
def test_no_cut_without_two_cited_pieces(answer: str) -> None:
    (sentence,) = parse_answer(answer, _CONTEXTS, {}).sentences
    assert sentence.pieces == ()
