"""The typed report carries its headline (new-user trial 56: docs/trust.md named
`report.headline`, but `ragassay.evaluate(...).report()` had no such attribute and the
JSON report and its schema had no headline section; each surface computed its own).

`Report.headline` is the one object the console, the HTML report and the dashboard read,
and the JSON report's `headline` section is its `section()`."""

from __future__ import annotations

import io
from pathlib import Path

import jsonschema
from rich.console import Console

from ragassay.report import Report, report_json, schema, to_html
from tests.support.verdicts import labelled_rows


def _report(tmp_path: Path) -> Report:
    import ragassay

    rows = labelled_rows(answers=40, abstaining=4)
    return ragassay.evaluate(rows, "judge", store=tmp_path / "r.db", progress=False).report()


def test_the_report_carries_its_headline_and_the_json_its_section(tmp_path: Path) -> None:
    from ragassay.cli.corrected_view import print_headline

    report = _report(tmp_path)
    head = report.headline
    row = next(r for r in head.rows if r.metric == "judge.hallucination")
    assert row.estimate is not None and row.label == "hallucinated"
    doc = report_json(report)
    assert list(doc)[:2] == ["evaluation_metadata", "headline"]  # people's number first
    section = doc["headline"]
    assert section["title"] == "What people would say"
    assert section["people_column"] == "people (all labelled)"
    entry = next(e for e in section["rows"] if e["metric"] == "judge.hallucination")
    assert entry["label"] == "hallucinated" and entry["all_labelled"] is True
    assert abs(entry["people"] - row.estimate.estimate) < 1e-6  # as published
    assert entry["people_text"].startswith("hallucinated ")
    assert entry["agreement_text"].startswith("right on ")
    assert "; in this run: AUROC " in entry["agreement_text"]
    # the like-for-like comparison first (4 declines abstain), then its own rate
    assert entry["judge_text"].startswith("judge ") and "; rate " in entry["judge_text"]
    assert "headline" in schema()["properties"]
    jsonschema.validate(doc, schema())
    # every surface shows the section's words
    out = io.StringIO()
    print_headline(report, Console(file=out, width=1200))  # each cell on one line
    html = to_html(report)
    for e in section["rows"]:
        assert e["people_text"] in out.getvalue() and e["people_text"] in html
        assert e["agreement_text"] in out.getvalue()


def test_a_run_without_linked_metrics_has_no_headline_section(tmp_path: Path) -> None:
    import ragassay

    rows = [{"id": f"c{i}", "question": f"Which deck is locker {i} on?",
             "contexts": [f"Locker {i} is on deck 2 [1]."],
             "answer": f"Locker {i} is on deck 2 [1]."} for i in range(3)]
    report = ragassay.evaluate(rows, "citations", store=tmp_path / "c.db",
                               progress=False).report()
    assert report.headline.rows == ()
    doc = report_json(report)
    assert "headline" not in doc
    jsonschema.validate(doc, schema())
