"""Real parts: a RAG pipeline instrumented with the real opentelemetry-sdk writes its
traces (examples/traces/pipeline.py); ragassay reads them, scores them, finds the hop
that lost a relevant document and sends the scores to an OTLP/HTTP receiver on
127.0.0.1, linked to the pipeline's own trace and span ids. The shipped example file is
this pipeline's output (the same samples but for ids and times)."""

from __future__ import annotations

import importlib.util
import json
from pathlib import Path

import pytest
from click.testing import CliRunner

from ragassay.cli import cli
from ragassay.dataset import load_samples
from ragassay.dataset.traces.trace import SampleTrace
from ragassay.types import Sample
from tests.support.traces import Receiver

pytest.importorskip("opentelemetry.sdk.trace", reason="opentelemetry-sdk (the dev extra)")

EXAMPLES = Path(__file__).resolve().parents[2] / "examples" / "traces"


def _pipeline(out: Path) -> None:
    spec = importlib.util.spec_from_file_location("traces_pipeline", EXAMPLES / "pipeline.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    module.main(str(out))


def _shape(samples: list) -> list[tuple]:
    out = []
    for s in samples:
        assert isinstance(s, Sample)
        trace = SampleTrace.of(s)
        assert trace is not None
        out.append((s.question, s.answer, s.contexts,
                    [(h.name, h.kind, h.query, [d.id for d in h.documents])
                     for h in trace.hops]))
    return out


def test_sdk_traces_in_scores_out(tmp_path: Path) -> None:
    traces = tmp_path / "traces.jsonl"
    _pipeline(traces)
    spans = [json.loads(line) for line in traces.read_text().splitlines()]
    assert {s["context"]["trace_id"] for s in spans} and len(spans) == 20  # 4 x 5 spans
    samples = load_samples(traces)
    assert _shape(samples) == _shape(load_samples(EXAMPLES / "rag_traces.jsonl"))

    receiver = Receiver()
    receiver.thread.start()
    try:
        db = tmp_path / "sdk.db"
        result = CliRunner().invoke(cli, ["eval", str(traces), "--db", str(db), "--metrics",
                                          "trace", "--out", str(tmp_path / "r.json"),
                                          "--export-otlp", receiver.url])
    finally:
        receiver.server.shutdown()
        receiver.server.server_close()
    assert result.exit_code == 0, result.output
    report = json.loads((tmp_path / "r.json").read_text())
    [lost] = report["hops"]["lost"]
    assert (lost["hop"], lost["document"]) == (1, "doc-eiffel")  # the poor rewrite's loss
    by_trace = {s.id: s for s in samples if isinstance(s, Sample)}
    sent = [span for _, _, body in receiver.posts for g in body["resourceSpans"]
            for sc in g["scopeSpans"] for span in sc["spans"]]
    evaluations = [s for s in sent if s["name"] == "ragassay.evaluation"]
    assert sorted(s["traceId"] for s in evaluations) == sorted(by_trace)
    for span in evaluations:
        trace = SampleTrace.of(by_trace[span["traceId"]])
        assert trace is not None
        sdk_ids = {s["context"]["span_id"].removeprefix("0x") for s in spans
                   if s["context"]["trace_id"].removeprefix("0x") == span["traceId"]}
        assert span["parentSpanId"] == trace.answer_span_id and span["parentSpanId"] in sdk_ids
