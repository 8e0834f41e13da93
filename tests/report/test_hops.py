"""The report's hops: each traced sample's `trace`, the run's `hops` section, the HTML."""

from __future__ import annotations

from pathlib import Path

import pytest

import ragassay
from ragassay.report import build_report, report_json, to_html
from ragassay.store import Store
from tests.support.traces import TRACE, openinference_trace, write_otlp

OTHER = "6b8efff798038103d269b633813fc60d"


def test_the_hops_section_tallies_every_traced_sample(tmp_path: Path) -> None:
    spans = [s for s in openinference_trace(OTHER) if s["name"] != "rerank"]  # loses nothing
    data = write_otlp(tmp_path / "t.jsonl", [openinference_trace(), spans])
    run = ragassay.evaluate(data, "trace", store=tmp_path / "r.db", progress=False)
    report = build_report(run.store, run.run_id)
    first, second = report.entries
    assert [len(e.hops) for e in (first, second)] == [3, 2]
    hops = report.hops
    assert hops is not None
    assert (hops.traces, hops.judged, hops.samples_with_lost) == (2, 2, 1)
    assert [(p.position, p.hops, p.kinds) for p in hops.by_position] == [
        (1, 2, {"retriever": 2}), (2, 2, {"retriever": 2}), (3, 1, {"reranker": 1})]
    assert hops.by_position[0].mean_relevance == pytest.approx(
        (first.hops[0].relevance + second.hops[0].relevance) / 2)
    [lost] = hops.lost
    assert (lost.sample_id, lost.trace_id, lost.hop, lost.document) == (
        TRACE, TRACE, 1, "eiffel")
    doc = report_json(report)
    assert doc["hops"]["lost"][0]["span_id"] == "a000000000000002"
    assert doc["detailed_results"][0]["trace"]["hops"][0]["documents"][0]["id"] == "eiffel"
    html = to_html(report)
    assert "<h2>Retrieval hops of 2 traces</h2>" in html
    assert "A later hop lost what an earlier hop found (1 traces)" in html


def test_a_run_of_rows_has_no_hops_section(tmp_path: Path) -> None:
    rows = [{"question": "Why?", "contexts": ["Because."], "answer": "Because."}]
    run = ragassay.evaluate(rows, "trace", store=tmp_path / "p.db", progress=False)
    report = build_report(run.store, run.run_id)
    assert report.hops is None and report.entries[0].trace is None
    doc = report_json(report)
    assert "hops" not in doc and "trace" not in doc["detailed_results"][0]


def test_a_hops_relevance_is_named_apart_from_context_relevance(tmp_path: Path) -> None:
    """Trial 69: a hop's "relevance" printed beside the trace.context_relevance metric
    could not be told from it; every screen names it for what it is and says how the two
    differ (the console, the HTML; the dashboard: tests/ui/test_ui_pages.py)."""
    from click.testing import CliRunner

    from ragassay.cli import cli

    data = write_otlp(tmp_path / "t.jsonl", [openinference_trace()])
    shown = CliRunner().invoke(cli, ["eval", str(data), "--metrics", "trace", "--db",
                                     str(tmp_path / "r.db")], env={"COLUMNS": "300"})
    assert shown.exit_code == 0, shown.output
    text = " ".join(shown.output.split())
    header = next(line for line in shown.output.splitlines() if "┃ hop" in line)
    assert "relevance of the hop's documents" in header
    assert "share of the hop's documents used" in header
    assert "relevance of the hop's documents: how relevant the documents one retrieval or " \
           "rerank returned are to the question, as a whole (the offline analyzer's, " \
           "whatever judged the run); not trace.context_relevance, which scores the final " \
           "contexts the answer was given" in text
    assert "found eiffel (document relevance 0." in text
    with Store(tmp_path / "r.db") as store:
        html = to_html(build_report(store, store.list_runs()[0].id))
    assert '<th class="num">mean relevance of the hop&#x27;s documents</th>' in html
    assert "not trace.context_relevance, which scores the final contexts" in html
    assert '<th class="num">document relevance</th>' in html


def test_the_traces_pages_warning_is_what_the_example_prints(tmp_path: Path) -> None:
    """docs/traces.md quotes the console's lost-hop warning on its example
    (examples/traces/rag_traces.jsonl, the trace id written `...`): its wording and its
    figure (document relevance 0.88) are what `eval` prints now."""
    import re

    from click.testing import CliRunner

    from ragassay.cli import cli

    root = Path(__file__).resolve().parents[2]
    start = "warning a later hop lost what an earlier hop found"
    doc = (root / "docs" / "traces.md").read_text(encoding="utf-8")
    quoted = next(line for line in doc.splitlines() if line.startswith(start))
    shown = CliRunner().invoke(cli, ["eval", str(root / "examples" / "traces" /
                                                 "rag_traces.jsonl"), "--metrics", "trace",
                                     "--db", str(tmp_path / "r.db")], env={"COLUMNS": "300"})
    assert shown.exit_code == 0, shown.output
    printed = next(line for line in shown.output.splitlines() if line.startswith(start))
    printed = re.sub(r"e\.g\. trace \S+ hop", "e.g. trace ... hop", printed)
    assert printed == quoted, f"docs/traces.md's warning is stale; it should read: {printed}"
