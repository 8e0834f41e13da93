"""`ragassay.console`: a table cell broken between its phrases (trial 81)."""

from __future__ import annotations

from ragassay.console import phrase_lines, phrases

DECLINES = ("no verdict compared; 8 declines abstained, 2 marked hallucination by people, "
            "5 of them where the judge read the contexts as answering it (its reading, not "
            "people's)")


def test_phrases_split_at_pauses_outside_parentheses_and_before_an_aside() -> None:
    assert phrases(DECLINES) == [
        "no verdict compared;", "8 declines abstained,", "2 marked hallucination by people,",
        "5 of them where the judge read the contexts as answering it",
        "(its reading, not people's)"]
    # a figure's percentage stays with it; joined by spaces they are the text
    said = "right on 26 of 28 (93%): 6 of 8 answers the judge read as declines"
    assert phrases(said) == ["right on 26 of 28 (93%):",
                             "6 of 8 answers the judge read as declines"]
    assert " ".join(phrases(DECLINES)) == DECLINES


def test_phrase_lines_break_only_between_phrases() -> None:
    assert phrase_lines(DECLINES, 200) == DECLINES
    lines = phrase_lines(DECLINES, 81).splitlines()
    assert lines == ["no verdict compared; 8 declines abstained, 2 marked hallucination by "
                     "people,", "5 of them where the judge read the contexts as answering it",
                     "(its reading, not people's)"]
    assert all(len(x) <= 81 for x in lines)
