"""The OTLP/HTTP receiver as an SDK or a collector meets it: the real opentelemetry-sdk
exporter's protobuf (gzip) and the SDK encoder's JSON are read, traces become samples of
the monitor run under their own trace ids; back-pressure answers 429 with Retry-After
and lets the exporter in again; a drain answers 503; bad requests get their status and
one line; a deterministic share of traces is scored, the rest counted."""

from __future__ import annotations

import asyncio
import json
import random
import time
from pathlib import Path

import pytest
from google.protobuf import json_format
from opentelemetry.exporter.otlp.proto.http import Compression
from opentelemetry.exporter.otlp.proto.http.trace_exporter import OTLPSpanExporter
from opentelemetry.sdk.trace.export import SimpleSpanProcessor
from opentelemetry.sdk.trace.export.in_memory_span_exporter import InMemorySpanExporter

from ragassay.monitor import Monitor, MonitorOptions, MonitorSettings, sampled
from ragassay.monitor.http import Request
from ragassay.store import Store
from tests.support.monitor_process import MonitorProcess
from tests.support.monitor_traces import (
    export,
    rag_trace,
    sdk_pipeline,
    sdk_request,
    sdk_tracer,
    trace_ids,
)

pytestmark = pytest.mark.slow


def stored_samples(db: Path, run_id: str) -> set[str]:
    with Store(db) as store:
        return {s.id for s in store.iter_samples(run_id)}


def test_the_real_sdk_exporter_in_protobuf_and_its_json(tmp_path: Path) -> None:
    db = tmp_path / "m.db"
    mon = MonitorProcess(db, "--settle", "0.05")
    exporter = OTLPSpanExporter(endpoint=f"{mon.base}/v1/traces", compression=Compression.Gzip)
    provider, tracer = sdk_tracer(SimpleSpanProcessor(exporter))
    rng = random.Random(2)
    proto_ids = [sdk_pipeline(tracer, rng) for _ in range(6)]
    provider.shutdown()
    memory = InMemorySpanExporter()
    provider, tracer = sdk_tracer(SimpleSpanProcessor(memory))
    json_ids = [sdk_pipeline(tracer, rng) for _ in range(4)]
    text = json_format.MessageToJson(sdk_request(memory.get_finished_spans()))
    assert mon.post(text.encode()).status_code == 200
    mon.wait_scored(10)
    health = mon.health()
    assert mon.stop() == 0
    assert health["traces"] == {"open": 0, "queued": 0, "scored": 10, "unsampled": 0,
                                "invalid": 0, "accepted": 10}
    assert stored_samples(db, mon.run_id) == set(proto_ids + json_ids)
    with Store(db) as store:
        one = store.get_sample(mon.run_id, proto_ids[0])
        assert one is not None and one.question.startswith("How long does the")  # type: ignore[union-attr]
        assert store.count_results(mon.run_id) == 20  # judge and trace suites


def test_back_pressure_answers_429_with_retry_after_then_lets_in(tmp_path: Path) -> None:
    db, rng = tmp_path / "m.db", random.Random(3)
    # traces stay open (their settle never ends) until the 4 s timeout takes them
    mon = MonitorProcess(db, "--settle", "1000", "--trace-timeout", "4", "--max-queue", "10")
    ids = trace_ids(3, 11)
    for t in ids[:10]:
        assert mon.post(json.dumps(export([rag_trace(t, rng)])).encode()).status_code == 200
    refused = mon.post(json.dumps(export([rag_trace(ids[10], rng)])).encode(),
                       "application/x-protobuf")
    assert refused.status_code == 429
    assert refused.headers["retry-after"] == "2"
    from google.rpc import status_pb2

    assert status_pb2.Status.FromString(refused.content).code == 8  # RESOURCE_EXHAUSTED
    assert mon.health()["traces"]["accepted"] == 10  # the refused one was not taken
    mon.send(json.dumps(export([rag_trace(ids[10], rng)])).encode())  # retried: let in
    mon.wait_scored(11, timeout=60)
    assert mon.stop() == 0
    stats = mon.wait_event("stopped")["traces"]
    assert stats["accepted"] == stats["scored"] == 11


def test_bad_requests_get_their_status_and_one_line(tmp_path: Path) -> None:
    mon = MonitorProcess(tmp_path / "m.db", "--max-body-mb", "0.01")
    c, base = mon.client, mon.base
    health = c.get(f"{base}/health")
    assert health.status_code == 200 and health.json()["status"] == "ok"
    assert health.json()["run"] == mon.run_id
    assert c.get(f"{base}/nowhere").status_code == 404
    wrong = c.get(f"{base}/v1/traces")
    assert wrong.status_code == 405 and wrong.headers["allow"] == "POST"
    bad = mon.post(b"{not json")
    assert bad.status_code == 400 and "invalid JSON" in bad.json()["message"]
    assert mon.post(b"{}", "text/plain").status_code == 415
    assert mon.post(b"x" * 20_000).status_code == 413
    # the connection is still usable after a refusal, and nothing was counted
    assert c.get(f"{base}/health").json()["traces"]["accepted"] == 0
    assert mon.stop() == 0


def test_a_deterministic_share_is_scored_and_the_rest_counted(tmp_path: Path) -> None:
    db, rng = tmp_path / "m.db", random.Random(4)
    mon = MonitorProcess(db, "--settle", "0.05", "--sample", "0.3")
    ids = trace_ids(4, 100)
    bad = [rag_trace(t, rng) for t in trace_ids(44, 3)]
    for trace in bad:  # no answer: an invalid trace, counted with its reason
        for s in trace:
            s["attributes"] = [a for a in s["attributes"]
                               if a["key"] != "llm.output_messages.0.message.content"]
    mon.send(json.dumps(export([rag_trace(t, rng) for t in ids] + bad)).encode())
    chosen = {t for t in ids if sampled(t, 0.3)}
    mon.wait_scored(len(chosen))
    time.sleep(0.5)
    got = mon.health()["traces"]
    assert mon.stop() == 0
    assert got == {"open": 0, "queued": 0, "scored": len(chosen),
                   "unsampled": 100 - len(chosen), "invalid": 3, "accepted": 103}
    assert stored_samples(db, mon.run_id) == chosen
    with Store(db) as store:
        ((reason, n),) = store.invalid_reasons(mon.run_id)
    # one reason for the three (span ids left out), as `runs show` lists it
    assert n == 3 and reason.startswith("no answer: ") and "output.value" in reason


def test_sampling_is_by_trace_id_alone() -> None:
    ids = trace_ids(9, 20_000)
    share = sum(sampled(t, 0.2) for t in ids) / len(ids)
    assert abs(share - 0.2) < 0.015
    assert all(sampled(t, 0.2) == sampled(t.upper(), 0.2) for t in ids[:100])
    assert [sampled(t, 0.1) for t in ids[:50]] == [sampled(t, 0.1) for t in ids[:50]]
    assert all(sampled(t, 0.5) for t in ids if sampled(t, 0.2))  # a smaller share is inside
    assert all(sampled(t, 1.0) for t in ids[:10])


def test_a_draining_monitor_answers_503_with_retry_after(tmp_path: Path) -> None:
    async def scenario() -> None:
        with Store(tmp_path / "m.db") as store:
            monitor = Monitor(store, MonitorSettings(), MonitorOptions(retry_after_s=7,
                                                                       max_spans=5))
            monitor.open()
            request = Request("POST", "/v1/traces", {"content-type": "application/json"},
                              json.dumps(export([rag_trace("a" * 32, random.Random(1))]))
                              .encode())
            assert monitor.endpoint.early(request) is None
            two = Request("POST", "/v1/traces", {"content-type": "application/json"},
                          json.dumps(export([rag_trace(t, random.Random(1))
                                             for t in ("b" * 32, "c" * 32)])).encode())
            never = await monitor.endpoint.handle(two)  # 6 spans: more than it may hold
            assert never.status == 413 and b"at most 5" in never.body
            assert (await monitor.endpoint.handle(request)).status == 200
            monitor.draining = True
            reply = monitor.endpoint.early(request)
            assert reply is not None and reply.status == 503
            assert ("Retry-After", "7") in reply.headers
            late = await monitor.endpoint.handle(request)  # a body read before the drain
            assert late.status == 503
            health = monitor.endpoint.early(Request("GET", "/health", {}))
            assert health is not None and health.status == 503
            assert json.loads(health.body)["status"] == "draining"
            await monitor.feed.close("interrupted")

    asyncio.run(scenario())
