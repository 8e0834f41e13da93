"""Letter-and-digit source labels (trial 75, `text/codes.py`): `[A1]`, `[S2]`, `(A1)`,
`[a1]`, `[A1][B2]`, `[A1, B2]`, `[A1; B2]` are markers where a clause ends, read as the
passage at their number or the passage so labelled; the same spelling as text ("Room
[B2] is ...", a word the passages write) stays in the answer."""

from __future__ import annotations

import pytest

from ragassay.text import numbering, parse_citations

TWO = ("Refunds are issued within 14 days of the return.",
       "Standard shipping takes 3 working days.")
CLAIM = "Refunds are issued within 14 days"


def read(answer: str, contexts: tuple[str, ...] = TWO, **metadata: object
         ) -> list[tuple[str, tuple[int, ...], tuple[str, ...]]]:
    nb, _ = numbering(contexts, metadata)
    out = parse_citations(answer, nb)
    return [(s.text, s.cited, s.fabricated) for s in out.sentences]


def kept(answer: str, contexts: tuple[str, ...] = TWO) -> str:
    nb, _ = numbering(contexts, {})
    return parse_citations(answer, nb).text


@pytest.mark.parametrize(("marker", "cited"), [
    ("[A1]", (0,)), ("[S2]", (1,)), ("[P1]", (0,)), ("[D1]", (0,)), ("[Doc 2]", (1,)),
    ("[Passage 1]", (0,)), ("[Source A]", (0,)), ("(A1)", (0,)), ("[a1]", (0,)),
    ("(s2)", (1,)), ("[A1][B2]", (0, 1)), ("[A1, B2]", (0, 1)), ("[A1; B2]", (0, 1)),
    ("(A1)(B2)", (0, 1)), ("(A1, B2)", (0, 1)), ("[A-1]", (0,)), ("[A1: returns]", (0,)),
])
def test_a_letter_and_digit_label_ending_a_sentence_is_a_marker(marker, cited):
    assert read(f"{CLAIM} {marker}.") == [(f"{CLAIM}.", cited, ())]


def test_labels_ending_each_clause_or_line_are_markers():
    assert read(f"{CLAIM} [a1], and shipping takes 3 working days (b2).") == [
        (f"{CLAIM}, and shipping takes 3 working days.", (0, 1), ())]
    assert kept(f"{CLAIM} [S1]\nShipping takes 3 working days [S2]") == (
        f"{CLAIM}\nShipping takes 3 working days")


def test_mid_clause_a_square_label_is_a_marker_only_where_the_answer_cites_so():
    # another label of the answer ends a sentence: this one cites too
    assert read(f"{CLAIM} [A1] and shipping takes 3 working days [B2].") == [
        (f"{CLAIM} and shipping takes 3 working days.", (0, 1), ())]
    # none does: a room, kept as written
    assert kept("Room [B2] is on the second floor.") == "Room [B2] is on the second floor."
    # round brackets mid-clause never cite
    assert kept(f"Print it on (A1) paper, {CLAIM.lower()} [A2].") == (
        f"Print it on (A1) paper, {CLAIM.lower()}.")


@pytest.mark.parametrize("text", [
    "Bring a towel [optional].",
    "The array [x1, x2] is sorted.",
    "Room [B2] is on the second floor.",
    "Call cell(A1) first.",
    "Steps: (a1) open the form, (a2) sign it.",
])
def test_brackets_that_are_not_markers_stay(text):
    nb, _ = numbering(TWO, {})
    out = parse_citations(text, nb)
    assert out.n_markers == 0 and out.text == text and out.problems == []


@pytest.mark.parametrize("answer", ["The course is for upper-intermediate learners (B2).",
                                    "The course is for upper-intermediate learners [B2]."])
def test_a_label_the_passages_write_as_a_word_is_that_word(answer):
    """A language level, a paper size: what the passages say, kept for the judge to find
    there, not a citation of passage 2."""
    contexts = ("Our evening course is for upper-intermediate learners (level B2).",
                "Classes run on Tuesdays.")
    nb, _ = numbering(contexts, {})
    out = parse_citations(answer, nb)
    assert out.n_markers == 0 and out.text == answer and out.problems == []


def test_a_passages_letter_and_digit_label_names_it():
    """Passages labelled "[A1] ...", "B1: ..." are cited by those labels, not by number."""
    labelled = ("[A1] Refunds are issued within 14 days of the return.",
                "B1: Standard shipping takes 3 working days.",
                "Source C1: Returns are free.")
    assert read(f"{CLAIM} [B1]. Returns are free (C1).", labelled) == [
        (f"{CLAIM}.", (1,), ()), ("Returns are free.", (2,), ())]
    assert read(f"{CLAIM} [A1].", labelled) == [(f"{CLAIM}.", (0,), ())]


def test_with_declared_ids_a_label_it_does_not_name_is_fabricated():
    meta = {"context_ids": ["kb-17", "kb-42"]}
    assert read(f"{CLAIM} [A1].", **meta) == [(f"{CLAIM}.", (), ("a1",))]
    assert read(f"{CLAIM} [A1].", context_ids=["A1", "A2"]) == [(f"{CLAIM}.", (0,), ())]
