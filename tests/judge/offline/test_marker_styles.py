"""Citation styles bots write, end to end through the offline judge: a faithful answer
citing with HTML superscripts, colon ids, "ref." words, daggers, "[1.]", or ending with
a sources section is not flagged (each marker was read as a missing figure "1" or a
claim, the section's titles as missing terms "Loans", "Document")."""

from __future__ import annotations

import pytest

from ragassay.judge.offline import Analyzer
from tests.support.offline import evidence, flagged

CONTEXTS = ["The library opens at 9 am on weekdays.",
            "Members can borrow up to 12 books at a time."]
QUESTION = "When does the library open and how many books?"
ANSWER = "The library opens at 9 am on weekdays{0}. Members can borrow up to 12 books at a time{1}."


@pytest.mark.parametrize(("first", "second"), [
    ("<sup>1</sup>", "<sup>2</sup>"),
    ("<sup>[1]</sup>", "<sup>[2]</sup>"),
    ("<sup>1,2</sup>", "<sup>2</sup>"),
    (" [web:1]", " [web:2]"),
    (" [source:1]", " [source:2]"),
    (" [doc:1]", " [doc:2]"),
    (" (ref. 1)", " (ref. 2)"),
    (" (Ref. 1)", " (Ref. 2)"),
    (" [ref. 1]", " [ref. 2]"),
    (" †1", " †2"),
    ("[1.]", "[2.]"),
])
def test_a_faithful_answer_citing_in_these_styles_is_not_flagged(an: Analyzer, first, second):
    ev = evidence(an, CONTEXTS, ANSWER.format(first, second), QUESTION)
    assert not flagged(ev) and ev.hallucinated_terms == [], ev


@pytest.mark.parametrize("block", [
    "Sources:\n[1] Opening hours\n[2] Loans",
    "References: Document 1, Document 2",
    "**Sources**\n- [1] hours.pdf\n- [2] loans.pdf",
    "Citations:\n1. Opening hours page\n2. Loans policy",
])
def test_a_faithful_answer_ending_with_its_sources_is_not_flagged(an: Analyzer, block):
    answer = "The library opens at 9 am on weekdays [1].\n\n" + block
    ev = evidence(an, CONTEXTS, answer, QUESTION)
    assert not flagged(ev) and ev.hallucinated_terms == [], ev


def test_a_sentence_about_sources_is_still_judged(an: Analyzer):
    """Not a sources section: its claim is read (and here unsupported)."""
    answer = "The library opens at 9 am on weekdays.\nSources: the museum opens at 7 pm."
    assert flagged(evidence(an, CONTEXTS, answer, QUESTION))


@pytest.mark.parametrize(("first", "second"), [
    (" (A1)", " (A2)"),
    (" [a1]", " [a2]"),
    (" [S1]", " [S2]"),
    (" [A1][B2]", " [B2]"),
    (" [A1, B2]", " [A1; B2]"),
    ("[^1]", "[^2]"),
    ("^1", "^2"),
])
def test_trial75_letter_labels_and_footnotes_reach_no_number_or_entity_check(
        an: Analyzer, first, second):
    """Trial 75: a verbatim answer read as "contradicts the context" (a number, an
    entity) for its marker's "1" and "A1", or for a footnote line naming a title."""
    notes = "\n\n[^1]: Opening hours\n[^2]: loans_policy.md" if "^" in first else ""
    if first == "^1":
        notes = "\n\n^1 Source: Opening hours\n^2 Source: loans_policy.md"
    ev = evidence(an, CONTEXTS, ANSWER.format(first, second) + notes, QUESTION)
    assert not flagged(ev) and ev.hallucinated_terms == [], ev
