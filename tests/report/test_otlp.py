"""Scores out: a run of trace samples exported as OTLP JSON spans linked to the source
traces, to a file and to an OTLP/HTTP receiver on 127.0.0.1 (a stdlib server)."""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner

import ragassay
from ragassay.cli import cli
from ragassay.report import build_report, iter_details
from ragassay.report.otlp import ExportError, export_otlp
from ragassay.types import Sample
from tests.support.traces import TRACE, Receiver, openinference_trace, write_otlp

OTHER = "6b8efff798038103d269b633813fc60d"


@pytest.fixture(scope="module")
def run(tmp_path_factory: pytest.TempPathFactory) -> Any:
    tmp = tmp_path_factory.mktemp("otlp")
    data = write_otlp(tmp / "traces.jsonl", [openinference_trace(), openinference_trace(OTHER)])
    return ragassay.evaluate(data, "trace,judge", store=tmp / "r.db", progress=False)


@pytest.fixture
def receiver() -> Iterator[Receiver]:
    r = Receiver()
    r.thread.start()
    yield r
    r.server.shutdown()
    r.server.server_close()


def _spans(requests: list[Any]) -> list[dict[str, Any]]:
    return [s for r in requests for g in r["resourceSpans"] for sc in g["scopeSpans"]
            for s in sc["spans"]]


def _attrs(item: dict[str, Any]) -> dict[str, Any]:
    return {a["key"]: next(iter(a["value"].values())) for a in item["attributes"]}


def _check_linked(spans: list[dict[str, Any]], run: Any) -> None:
    report = build_report(run.store, run.run_id)
    evaluations = {s["traceId"]: s for s in spans if s["name"] == "ragassay.evaluation"}
    assert set(evaluations) == {TRACE, OTHER}
    for entry in report.entries:
        span = evaluations[entry.id]
        assert span["parentSpanId"] == "a000000000000005"  # the answer span
        assert span["links"] == [{"traceId": entry.id, "spanId": "a000000000000001"}]
        assert _attrs(span)["ragassay.run.id"] == run.run_id
        results = {_attrs(e)["gen_ai.evaluation.name"]: _attrs(e) for e in span["events"]
                   if e["name"] == "gen_ai.evaluation.result"}
        for metric, value in entry.metrics.items():
            got = results[metric]
            if value is None:
                assert got["gen_ai.evaluation.score.label"] == "unscored"
                assert got["gen_ai.evaluation.explanation"] == entry.unscored[metric]
            else:
                assert got["gen_ai.evaluation.score.value"] == pytest.approx(float(value))
        lost = results["ragassay.hops.lost"]
        assert lost["gen_ai.evaluation.score.label"] == "lost"
        assert "found eiffel" in lost["gen_ai.evaluation.explanation"]
    hops = [s for s in spans if s["name"] == "ragassay.hop_evaluation"]
    assert sorted({s["parentSpanId"] for s in hops}) == [
        "a000000000000002", "a000000000000003", "a000000000000004"]
    assert len(hops) == 6
    first = next(s for s in hops if s["parentSpanId"] == "a000000000000002")
    relevance = {_attrs(e)["gen_ai.evaluation.name"]: _attrs(e) for e in first["events"]}
    trace = report.entries[0].trace
    assert trace is not None
    assert relevance["ragassay.hop.relevance"]["gen_ai.evaluation.score.value"] == \
        pytest.approx(trace.hops[0].relevance)


def test_export_to_a_file_links_every_score_to_its_trace(run: Any, tmp_path: Path) -> None:
    out = tmp_path / "scores.json"
    done = export_otlp(iter_details(run.store, run.run_id), run.run_id, str(out))
    assert (done.samples, done.untraced, done.spans) == (2, 0, 8)
    requests = [json.loads(line) for line in out.read_text().splitlines()]
    _check_linked(_spans(requests), run)


def test_export_to_an_otlp_http_receiver(run: Any, receiver: Receiver,
                                         monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("OTEL_EXPORTER_OTLP_HEADERS", "x-team=rag%20ops")
    export_otlp(iter_details(run.store, run.run_id), run.run_id, receiver.url)
    [(path, content_type, body)] = receiver.posts
    assert (path, content_type) == ("/v1/traces", "application/json")
    assert receiver.headers[0]["x-team"] == "rag ops"  # OTEL_EXPORTER_OTLP_HEADERS, decoded
    _check_linked(_spans([body]), run)


def test_a_refusing_receiver_is_one_line(run: Any) -> None:
    r = Receiver(status=404)
    r.thread.start()
    try:
        with pytest.raises(ExportError, match=r"^http://127.0.0.1:\d+/v1/traces refused the "
                                              r"export: HTTP 404 Not Found$"):
            export_otlp(iter_details(run.store, run.run_id), run.run_id, r.url)
    finally:
        r.server.shutdown()
        r.server.server_close()
    closed = closed_port()
    with pytest.raises(ExportError, match=f"^cannot send the export to http://127.0.0.1:{closed}"
                                          "/x: connection refused$"):
        export_otlp(iter_details(run.store, run.run_id), run.run_id,
                    f"http://127.0.0.1:{closed}/x")


def closed_port() -> int:
    """A loopback port nothing listens on (bound, then released)."""
    import socket

    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def test_a_run_without_traces_has_nothing_to_link(tmp_path: Path) -> None:
    plain = [Sample(id="x", question="Why?", contexts=("Because.",), answer="Because.")]
    result = ragassay.evaluate(plain, "judge", store=tmp_path / "p.db", progress=False)
    with pytest.raises(ExportError, match="was read from a trace"):
        export_otlp(iter_details(result.store, result.run_id), result.run_id,
                    str(tmp_path / "o.json"))


def test_the_cli_exports_after_eval_and_from_report(tmp_path: Path,
                                                    receiver: Receiver) -> None:
    data = write_otlp(tmp_path / "traces.jsonl", [openinference_trace()])
    db = tmp_path / "c.db"
    out = CliRunner().invoke(cli, ["eval", str(data), "--metrics", "trace", "--db", str(db),
                                   "--export-otlp", receiver.url])
    assert out.exit_code == 0, out.output
    assert "scores of 1 traced samples (4 spans) sent to http://127.0.0.1:" in out.output
    assert "a later hop lost what an earlier hop found in 1 trace" in out.output
    assert [s["traceId"] for s in _spans([receiver.posts[0][2]])] == [TRACE] * 4
    again = tmp_path / "again.json"
    out = CliRunner().invoke(cli, ["report", "--db", str(db), "--export-otlp", str(again)])
    assert out.exit_code == 0, out.output
    assert len(_spans([json.loads(again.read_text())])) == 4
    refused = CliRunner().invoke(cli, ["report", "--db", str(db), "--export-otlp",
                                       "http://127.0.0.1:9/v1/traces"])
    assert refused.exit_code == 1
    assert "send it again with ragassay report" in refused.output
