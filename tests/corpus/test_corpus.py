"""Corpus loading of each format (from the bundled example) and questions validation."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from ragassay.bench.questions import QuestionsError, load_questions
from ragassay.corpus.documents import CorpusError, load_corpus
from tests.bench.conftest import EXAMPLE


@pytest.fixture(scope="module")
def docs():  # type: ignore[no-untyped-def]
    return {d.id: d for d in load_corpus(EXAMPLE / "corpus")}


def test_every_format_loads_with_relative_ids(docs) -> None:  # type: ignore[no-untyped-def]
    assert {d.format for d in docs.values()} == {"md", "txt", "html", "pdf"}
    assert len(docs) >= 15
    md = docs["policies/leave-policy.md"]
    assert md.title == "Leave Policy" and "27 days of paid annual leave" in md.text
    txt = docs["workplace/it-helpdesk.txt"]
    assert txt.title == "IT Helpdesk"


def test_html_keeps_headings_and_paragraphs(docs) -> None:  # type: ignore[no-untyped-def]
    html = docs["people/referrals.html"]
    assert html.title == "Employee Referral Programme"
    assert "## Bonus\n\nThe referral bonus is €2,000 per hire." in html.text
    assert "- Add a short note" in html.text
    assert "font-family" not in html.text  # <style> dropped


def test_pdf_text_is_extracted(docs) -> None:  # type: ignore[no-untyped-def]
    pdf = docs["policies/working-time.pdf"]
    assert pdf.title == "Working Hours and Time Recording"
    flat = " ".join(pdf.text.split())
    assert "Core hours are 10:00 to 16:00 local time" in flat
    assert "Disciplinary and Grievance Procedure" in flat  # the last page


def test_make_pdf_is_deterministic(tmp_path: Path) -> None:
    import importlib.util

    spec = importlib.util.spec_from_file_location("make_pdf", EXAMPLE / "make_pdf.py")
    assert spec and spec.loader
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    built = mod.build_pdf(mod.GOVERNANCE, "Working Time, Holidays and Procedures")
    assert built == (EXAMPLE / "corpus" / "policies" / "working-time.pdf").read_bytes()


def test_jsonl_corpus(tmp_path: Path) -> None:
    p = tmp_path / "docs.jsonl"
    p.write_text('{"id": "a", "title": "A", "text": "alpha"}\n\n{"id": "b", "text": "beta"}\n')
    assert [(d.id, d.title, d.text) for d in load_corpus(p)] == [("a", "A", "alpha"),
                                                                 ("b", "", "beta")]
    p.write_text('{"id": "a", "text": 3}\n')
    with pytest.raises(CorpusError, match=r"docs.jsonl:1: .*'text'"):
        load_corpus(p)
    with pytest.raises(CorpusError, match="not found"):
        load_corpus(tmp_path / "missing")


def test_example_questions_are_valid(docs) -> None:  # type: ignore[no-untyped-def]
    qs = load_questions(EXAMPLE / "questions.jsonl", list(docs.values()))
    assert len(qs) >= 25
    no_answer = [q for q in qs if q.reference == "The handbook does not say."]
    assert len(no_answer) >= 3 and all(not q.has_gold for q in no_answer)
    multi = [q for q in qs if len({g.doc for g in q.gold_passages}) >= 2]
    assert len(multi) >= 3


def test_questions_errors_name_line_and_key(tmp_path: Path, docs) -> None:  # type: ignore[no-untyped-def]
    p = tmp_path / "q.jsonl"
    p.write_text(json.dumps({"id": 1, "question": "?", "gold_doc": ["x"]}) + "\n")
    with pytest.raises(QuestionsError, match=r"q.jsonl:1: unknown field 'gold_doc' \(fields: id, "
                                             r"question, .*map = \{ gold_docs = \"gold_doc\" \}"):
        load_questions(p)
    p.write_text(json.dumps({"id": 1, "question": "?", "gold_docs": ["nope.md"]}) + "\n")
    with pytest.raises(QuestionsError, match="'nope.md' not in corpus"):
        load_questions(p, list(docs.values()))
    p.write_text(json.dumps({"id": 1, "question": "?", "gold_passages": [
        {"doc": "welcome.md", "quote": "not in the text"}]}) + "\n")
    with pytest.raises(QuestionsError, match="gold quote not found"):
        load_questions(p, list(docs.values()))
