"""Trace files read as samples: OTLP JSON, opentelemetry-sdk's span JSON, OpenInference
and GenAI semconv attributes, the mapping override, one-line errors naming the span."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from ragassay.dataset import DatasetError, check_dataset, iter_samples, load_samples
from ragassay.dataset.traces import DEFAULT_TRACE_MAP, parse_trace_map
from ragassay.dataset.traces.trace import SampleTrace
from ragassay.types import InvalidRow, Sample
from tests.support.traces import (
    EIFFEL,
    LOUVRE,
    SEINE,
    TRACE,
    openinference_trace,
    request,
    span,
    write_otlp,
)

EXAMPLE = Path(__file__).resolve().parents[2] / "examples" / "traces" / "rag_traces.jsonl"


def _samples(path: Path, **kwargs) -> list[Sample]:
    out = list(iter_samples(path, **kwargs))
    assert all(isinstance(s, Sample) for s in out)
    return out  # type: ignore[return-value]


def test_an_otlp_trace_split_over_requests_is_one_sample(tmp_path: Path) -> None:
    path = write_otlp(tmp_path / "traces.jsonl", [openinference_trace()])
    [sample] = _samples(path)
    assert sample.id == TRACE
    assert sample.question == "When was the Eiffel Tower completed?"
    assert sample.answer == "The Eiffel Tower was completed in 1889 for the World's Fair."
    # the rerank fed the answer: its output, not every retrieval's documents
    assert sample.contexts == (LOUVRE[1], SEINE[1])
    trace = SampleTrace.of(sample)
    assert trace is not None
    assert (trace.trace_id, trace.span_id, trace.answer_span_id) == (
        TRACE, "a000000000000001", "a000000000000005")
    assert [(h.name, h.kind) for h in trace.hops] == [
        ("retrieve", "retriever"), ("retrieve-2", "retriever"), ("rerank", "reranker")]
    assert trace.hops[0].query == "When was the Eiffel Tower completed?"
    assert trace.hops[2].query == "Paris museum"
    assert [d.id for d in trace.hops[0].documents] == ["eiffel", "seine"]
    assert trace.hops[0].documents[1].score == 0.5
    assert trace.context_hops == (2,)
    # every attribute no rule took is kept with its span; documents are not repeated
    generate = next(s for s in trace.spans if s.name == "generate")
    assert generate.attributes["llm.model_name"] == "m"
    assert generate.parent_id == "a000000000000001" and generate.kind == "llm"
    retrieve = next(s for s in trace.spans if s.name == "retrieve")
    assert not any(k.startswith("retrieval.documents") for k in retrieve.attributes)


def test_a_batch_file_of_several_traces_keeps_their_order(tmp_path: Path) -> None:
    other = "6b8efff798038103d269b633813fc60d"
    path = tmp_path / "batch.json"
    both = openinference_trace(other) + openinference_trace()
    path.write_text(json.dumps(request(both), indent=2))
    assert [s.id for s in _samples(path)] == [other, TRACE]


def test_without_a_rerank_every_retrieval_feeds_the_answer(tmp_path: Path) -> None:
    spans = [s for s in openinference_trace() if s["name"] != "rerank"]
    [sample] = _samples(write_otlp(tmp_path / "t.jsonl", [spans]))
    assert sample.contexts == (EIFFEL[1], SEINE[1], LOUVRE[1])  # deduplicated, in order


def test_gen_ai_semantic_conventions(tmp_path: Path) -> None:
    messages = [{"role": "system", "parts": [{"type": "text", "content": "Be brief."}]},
                {"role": "user", "parts": [{"type": "text", "content": "Who built it?"}]}]
    output = [{"role": "assistant", "parts": [{"type": "text", "content": "Gustave Eiffel's "
                                                "company."}], "finish_reason": "stop"}]
    found = [{"id": "d1", "content": "Gustave Eiffel's company built the tower.",
              "score": 0.9}]
    spans = [
        span("b000000000000001", "invoke_agent", {"gen_ai.operation.name": "invoke_agent",
                                                   "gen_ai.input.messages": json.dumps(messages)},
             start=0, end=50),
        span("b000000000000002", "retrieval", {
            "gen_ai.operation.name": "retrieval", "gen_ai.retrieval.query.text": "builder",
            "gen_ai.retrieval.documents": json.dumps(found)},
            parent="b000000000000001", start=1, end=5),
        span("b000000000000003", "chat gpt-4o", {
            "gen_ai.operation.name": "chat", "gen_ai.request.model": "gpt-4o",
            "gen_ai.output.messages": json.dumps(output)},
            parent="b000000000000001", start=6, end=40),
    ]
    [sample] = _samples(write_otlp(tmp_path / "g.jsonl", [spans], split=False))
    assert sample.question == "Who built it?"
    assert sample.answer == "Gustave Eiffel's company."
    assert sample.contexts == ("Gustave Eiffel's company built the tower.",)
    trace = SampleTrace.of(sample)
    assert trace is not None and trace.hops[0].query == "builder"
    assert trace.hops[0].documents[0].score == 0.9
    chat = next(s for s in trace.spans if s.name == "chat gpt-4o")
    assert chat.attributes["gen_ai.request.model"] == "gpt-4o"


def test_a_json_input_value_gives_its_question(tmp_path: Path) -> None:
    spans = openinference_trace()
    spans[0]["attributes"][1]["value"] = {"stringValue": json.dumps({"query": "Why?"})}
    [sample] = _samples(write_otlp(tmp_path / "t.jsonl", [spans]))
    assert sample.question == "Why?"


def test_sdk_span_json_pretty_printed_and_concatenated(tmp_path: Path) -> None:
    """What ConsoleSpanExporter writes by default: one indented object per span."""
    def sdk(span_id: str, name: str, parent: str | None, attrs: dict, start: str) -> str:
        return json.dumps({"name": name, "context": {"trace_id": "0x" + TRACE,
                                                     "span_id": "0x" + span_id,
                                                     "trace_state": "[]"},
                           "kind": "SpanKind.INTERNAL",
                           "parent_id": None if parent is None else "0x" + parent,
                           "start_time": start, "end_time": start, "status": {},
                           "attributes": attrs, "events": [], "links": [],
                           "resource": {"attributes": {}, "schema_url": ""}}, indent=4)
    text = "\n".join([
        sdk("c000000000000002", "llm", "c000000000000001",
            {"openinference.span.kind": "LLM", "output.value": "Paris."},
            "2026-01-01T00:00:01.000000Z"),
        sdk("c000000000000001", "root", None, {"input.value": "Where?"},
            "2026-01-01T00:00:00.000000Z")]) + "\n"
    path = tmp_path / "console.json"
    path.write_text(text)
    [sample] = _samples(path)
    assert (sample.id, sample.question, sample.answer) == (TRACE, "Where?", "Paris.")


def test_no_question_is_one_line_naming_the_span_and_attributes(tmp_path: Path) -> None:
    path = write_otlp(tmp_path / "t.jsonl", [openinference_trace(question=None)])
    with pytest.raises(DatasetError) as err:
        list(iter_samples(path))
    message = str(err.value)
    assert "\n" not in message
    assert message.startswith(f"t.jsonl: trace {TRACE}: no question: root span 'rag' "
                              "(a000000000000001) has none of input.value")


def test_no_answer_names_the_llm_span(tmp_path: Path) -> None:
    spans = openinference_trace(answer=None)
    spans[-1]["attributes"].append({"key": "output.value", "value": {"stringValue": " "}})
    path = write_otlp(tmp_path / "t.jsonl", [spans])
    with pytest.raises(DatasetError, match=r"no answer: no LLM span has one, nor root span "
                                           r"'rag' \(a000000000000001\) has none of "
                                           r"output.value"):
        list(iter_samples(path))


def test_skip_invalid_keeps_the_good_traces(tmp_path: Path) -> None:
    bad = "7b8efff798038103d269b633813fc60e"
    path = write_otlp(tmp_path / "t.jsonl", [openinference_trace(bad, question=None),
                                            openinference_trace()])
    items = list(iter_samples(path, skip_invalid=True))
    assert isinstance(items[0], InvalidRow) and items[0].id == bad
    assert "no question" in items[0].reason
    assert isinstance(items[1], Sample)
    check = check_dataset(path, skip_invalid=True)
    assert (check.total, check.invalid, check.with_answer) == (2, 1, 1)


def test_bad_ids_and_bad_json_are_one_line(tmp_path: Path) -> None:
    spans = openinference_trace()
    spans[1]["spanId"] = "not-an-id!"
    path = write_otlp(tmp_path / "t.jsonl", [spans])
    with pytest.raises(DatasetError, match=r"t.jsonl:1: span 'retrieve': 'spanId' is not a "
                                           "trace or span id"):
        list(iter_samples(path))
    path.write_text('{"resourceSpans": [\n')
    with pytest.raises(DatasetError, match=r"t.jsonl:1: invalid JSON"):
        list(iter_samples(path))


def test_trace_map_reads_other_attributes_first(tmp_path: Path) -> None:
    spans = openinference_trace()
    spans[0]["attributes"].append({"key": "app.user_query", "value": {"stringValue": "Mine?"}})
    path = write_otlp(tmp_path / "t.jsonl", [spans])
    [sample] = _samples(path, trace_map={"question": ["app.user_query"]})
    assert sample.question == "Mine?"
    assert DEFAULT_TRACE_MAP.with_overrides({"question": ["x"]}).question[:2] == (
        "x", "input.value")
    with pytest.raises(DatasetError, match="unknown trace role 'questoin'"):
        list(iter_samples(path, trace_map={"questoin": ["x"]}))


def test_parse_trace_map() -> None:
    assert parse_trace_map(["question=a,b", "answer=c"]) == {"question": ["a", "b"],
                                                             "answer": ["c"]}
    with pytest.raises(ValueError, match="expected ROLE=ATTR"):
        parse_trace_map(["question"])
    with pytest.raises(ValueError, match="names no attribute"):
        parse_trace_map(["question= ,"])


def test_rows_stay_rows(tmp_path: Path) -> None:
    """A dataset whose metadata mentions a trace id is not a trace file."""
    path = tmp_path / "rows.jsonl"
    path.write_text(json.dumps({"question": "q", "answer": "a", "contexts": ["c"],
                                "metadata": {"trace_id": "x", "span_id": "y"}}) + "\n")
    [sample] = _samples(path)
    assert sample.metadata == {"trace_id": "x", "span_id": "y"}
    with pytest.raises(DatasetError, match="--trace-map given, but the file holds rows"):
        list(iter_samples(path, trace_map={"question": ["x"]}))


def test_the_shipped_example_reads(tmp_path: Path) -> None:
    samples = load_samples(EXAMPLE)
    assert len(samples) == 4
    for sample in samples:
        assert isinstance(sample, Sample)
        trace = SampleTrace.of(sample)
        assert trace is not None and [h.kind for h in trace.hops] == [
            "retriever", "retriever", "reranker"]
        assert len(sample.contexts) == 2


def _phoenix_rows() -> list[dict]:
    """Rows of Phoenix's spans dataframe (`get_spans_dataframe()`)."""
    base = {"context.trace_id": TRACE, "status_code": "OK"}
    return [
        {**base, "context.span_id": "d000000000000001", "parent_id": None, "name": "query",
         "span_kind": "CHAIN", "start_time": 1_700_000_000_000, "end_time": 1_700_000_000_900,
         "attributes.input.value": "When was it completed?",
         "attributes.output.value": "In 1889.", "attributes.retrieval.documents": None},
        {**base, "context.span_id": "d000000000000002", "parent_id": "d000000000000001",
         "name": "retrieve", "span_kind": "RETRIEVER", "start_time": 1_700_000_000_100,
         "end_time": 1_700_000_000_200, "attributes.input.value": "completed",
         "attributes.output.value": None,
         "attributes.retrieval.documents": [
             {"document.id": "eiffel", "document.content": EIFFEL[1], "document.score": 0.9}]},
        {**base, "context.span_id": "d000000000000003", "parent_id": "d000000000000001",
         "name": "llm", "span_kind": "LLM", "start_time": 1_700_000_000_300,
         "end_time": 1_700_000_000_800, "attributes.input.value": None,
         "attributes.output.value": "It was completed in 1889.",
         "attributes.retrieval.documents": None},
    ]


def _check_phoenix(sample: Sample) -> None:
    assert (sample.id, sample.question, sample.answer) == (
        TRACE, "When was it completed?", "It was completed in 1889.")
    assert sample.contexts == (EIFFEL[1],)
    trace = SampleTrace.of(sample)
    assert trace is not None and trace.answer_span_id == "d000000000000003"
    assert [(h.kind, h.query, h.documents[0].score) for h in trace.hops] == [
        ("retriever", "completed", 0.9)]


def test_phoenix_spans_dataframe_as_json_records_and_parquet(tmp_path: Path) -> None:
    import pandas as pd

    records = tmp_path / "phoenix.json"
    records.write_text(json.dumps(_phoenix_rows()))
    [sample] = _samples(records)
    _check_phoenix(sample)
    frame = pd.DataFrame(_phoenix_rows())
    frame["start_time"] = pd.to_datetime(frame["start_time"], unit="ms", utc=True)
    frame["end_time"] = pd.to_datetime(frame["end_time"], unit="ms", utc=True)
    frame.to_parquet(tmp_path / "phoenix.parquet")
    [sample] = _samples(tmp_path / "phoenix.parquet")
    _check_phoenix(sample)


def test_phoenix_rest_spans_with_nested_attributes(tmp_path: Path) -> None:
    """Phoenix's REST API (`GET /v1/projects/{id}/spans`): {"data": [span, ...]}, the
    kind in `span_kind`; attributes nested."""
    def rest(span_id: str, name: str, kind: str, parent: str | None, attrs: dict,
             start: str) -> dict:
        return {"id": "U3Bhbjox", "name": name, "span_kind": kind, "parent_id": parent,
                "context": {"trace_id": TRACE, "span_id": span_id},
                "start_time": start, "end_time": start, "status_code": "OK",
                "attributes": attrs, "events": []}
    doc = {"data": [
        rest("e000000000000001", "agent", "AGENT", None,
             {"input": {"value": "Where is it?"}}, "2026-01-01T00:00:00+00:00"),
        rest("e000000000000002", "search", "RETRIEVER", "e000000000000001",
             {"input": {"value": "location"}, "retrieval": {"documents": [
                 {"document": {"content": SEINE[1], "id": "seine"}}]}},
             "2026-01-01T00:00:01+00:00"),
        rest("e000000000000003", "chat", "LLM", "e000000000000001",
             {"output": {"value": "In Paris."}}, "2026-01-01T00:00:02+00:00"),
    ], "next_cursor": None}
    path = tmp_path / "spans.json"
    path.write_text(json.dumps(doc))
    [sample] = _samples(path)
    assert (sample.question, sample.answer, sample.contexts) == (
        "Where is it?", "In Paris.", (SEINE[1],))
