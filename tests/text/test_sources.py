"""Footnote definitions ending an answer (trial 75, `text/sources.py`): "[^1]:
refund_policy.md" lines are no claims; they are cut from the answer every judge reads,
and each names the passage its marker cites."""

from __future__ import annotations

import pytest

from ragassay.text import numbering, parse_citations
from ragassay.text.sources import definitions, footnotes_start, note_label

CONTEXTS = ("Shipping times: orders ship within 3 working days.",
            "refund_policy.md: Refunds are issued within 14 days of the return.")
CLAIM = "Refunds are issued within 14 days"


def parse(answer: str, contexts: tuple[str, ...] = CONTEXTS):
    nb, _ = numbering(contexts, {})
    return parse_citations(answer, nb)


@pytest.mark.parametrize(("marker", "line"), [
    ("[^1]", "[^1]: refund_policy.md"),
    ("[^1]", "[^1]: Refund policy, section 2"),
    ("[^note]", "[^note]: Refund policy, section 2"),
    ("[^r]", "[^r]: Source: [refund policy](https://example.com/refunds)"),
    ("^1", "^1 Source: Refund policy"),
    ("¹", "¹ refund_policy.md"),
    ("[1]", "[1]: Refund policy"),  # a markdown reference's definition
])
def test_a_definition_line_is_cut_and_names_the_cited_passage(marker, line):
    out = parse(f"{CLAIM}{marker}.\n\n{line}")
    assert out.text == f"{CLAIM}."
    assert [(s.text, s.cited, s.fabricated) for s in out.sentences] == [(f"{CLAIM}.", (1,), ())]
    assert out.problems == []


def test_several_definitions_and_a_continued_line():
    out = parse("Orders ship within 3 working days[^a]. Refunds take 14 days[^b].\n\n"
                "[^a]: Shipping times\n    (the current page)\n[^b]: refund_policy.md")
    assert out.text == "Orders ship within 3 working days. Refunds take 14 days."
    assert [s.cited for s in out.sentences] == [(0,), (1,)]


def test_a_definition_naming_no_passage():
    # a numbered footnote keeps its number; a word label cites nothing, and says so
    assert [s.cited for s in parse(f"{CLAIM} [^2].\n\n[^2]: Our website").sentences] == [(1,)]
    out = parse(f"{CLAIM} [^web].\n\n[^web]: Our website")
    assert out.text == f"{CLAIM}."
    assert [(s.cited, s.fabricated) for s in out.sentences] == [((), ())]
    assert out.problems == ["footnote '[^web]' names no passage ('Our website'): cites nothing"]


@pytest.mark.parametrize("answer", [
    "Students pay 9 EUR^1\n\n^1 Ticket terms apply.",  # a note that claims
    "[^1]: refund_policy.md",  # nothing before it
    "Use this:\n\n```\n[^1]: refund_policy.md\n```",  # code
])
def test_lines_that_are_not_cut(answer):
    assert footnotes_start(answer, [(answer.find("```"), len(answer))]
                           if "```" in answer else []) == len(answer)


def test_definitions_and_labels():
    assert definitions("[^1]: a.md\n[^Note]:  Refund policy\n^2 Source: b") == {
        "1": "a.md", "note": "Refund policy", "2": "Source: b"}
    assert [note_label(m) for m in ("[^1]", "[^ Note ]", "^12", "²", "[1]", "[A1]")] == [
        "1", "note", "12", "2", "1", None]


def test_a_footnotes_heading_opens_a_sources_section():
    out = parse(f"{CLAIM} [^1].\n\nFootnotes:\n1. refund_policy.md")
    assert out.text == f"{CLAIM}." and out.listed
