"""Synthetic production traces for the monitor's tests and benchmark: OpenInference
spans of a retrieve-then-answer pipeline, good (the answer restates the retrieved fact)
or bad (the answer states facts the documents do not hold: the planted quality drop),
as OTLP/JSON export requests, or protobuf through the real SDK's encoder."""

from __future__ import annotations

import random
from typing import Any

from tests.support.traces import docs, request, span

SERVICES = ["Larkspur", "Quillmate", "Bramblecache", "Tidewell", "Copperfield", "Nimbra",
            "Ostrava", "Pellucid", "Runebright", "Saltmarsh", "Thistledown", "Umberline",
            "Vantagepoint", "Wrenfield", "Yarrowgate", "Zephyrine"]
REGIONS = ["Frankfurt", "Oregon", "Singapore", "Dublin", "Montreal", "Sydney", "Tokyo",
           "Sao Paulo", "Mumbai", "Stockholm"]
THINGS = [("backups", "keeps backups", "days"), ("audit logs", "retains audit logs", "weeks"),
          ("session tokens", "expires session tokens", "hours"),
          ("uploaded files", "stores uploaded files", "months")]


def _fact(rng: random.Random) -> tuple[str, str, str]:
    """(question, the fact sentence, a good answer) about one service."""
    name, region = rng.choice(SERVICES), rng.choice(REGIONS)
    thing, verb, unit = rng.choice(THINGS)
    n = rng.randint(2, 90)
    fact = f"The {name} service {verb} in {region} for {n} {unit}."
    question = f"How long does the {name} service keep its {thing}, and where?"
    answer = f"The {name} service {verb} in {region} for {n} {unit}."
    return question, fact, answer


def _bad_answer(rng: random.Random, question: str) -> str:
    """An answer the documents do not support: another place, another length, a claim
    out of nowhere."""
    region = rng.choice(REGIONS)
    return (f"It is kept in a private vault in {region} forever, guarded by an on-call "
            f"team of {rng.randint(3, 40)} engineers and erased only by a court order.")


def rag_trace(trace_id: str, rng: random.Random, bad: bool = False) -> list[dict[str, Any]]:
    """The spans of one pipeline run: root (question), retrieval (the fact among two
    others), LLM (the answer)."""
    question, fact, answer = _fact(rng)
    others = [_fact(rng)[1] for _ in range(2)]
    found = [fact, *others]
    rng.shuffle(found)
    if bad:
        answer = _bad_answer(rng, question)
    root = "b" + trace_id[:15]
    return [
        span(root, "rag", {"openinference.span.kind": "CHAIN", "input.value": question},
             start=0, end=100, trace=trace_id),
        span("c" + trace_id[:15], "retrieve", {
            "openinference.span.kind": "RETRIEVER", "input.value": question,
            **docs("retrieval.documents", [(f"d{i}", t) for i, t in enumerate(found)])},
            parent=root, start=1, end=10, trace=trace_id),
        span("d" + trace_id[:15], "answer", {
            "openinference.span.kind": "LLM",
            "llm.output_messages.0.message.role": "assistant",
            "llm.output_messages.0.message.content": answer},
            parent=root, start=20, end=90, trace=trace_id),
    ]


def trace_ids(seed: int, n: int) -> list[str]:
    rng = random.Random(seed)
    return [f"{rng.getrandbits(128):032x}" for _ in range(n)]


def export(traces: list[list[dict[str, Any]]]) -> dict[str, Any]:
    """One OTLP/JSON export request holding every span of `traces`."""
    return request([s for t in traces for s in t])


def sdk_pipeline(tracer: Any, rng: random.Random, bad: bool = False) -> str:
    """One pipeline run traced with the real opentelemetry-sdk (OpenInference attributes);
    its trace id (hex)."""
    question, fact, answer = _fact(rng)
    found = [fact, *(_fact(rng)[1] for _ in range(2))]
    rng.shuffle(found)
    if bad:
        answer = _bad_answer(rng, question)
    with tracer.start_as_current_span("rag", attributes={
            "openinference.span.kind": "CHAIN", "input.value": question}) as root:
        with tracer.start_as_current_span("retrieve", attributes={
                "openinference.span.kind": "RETRIEVER", "input.value": question,
                **docs("retrieval.documents", [(f"d{i}", t) for i, t in enumerate(found)])}):
            pass
        with tracer.start_as_current_span("answer", attributes={
                "openinference.span.kind": "LLM",
                "llm.output_messages.0.message.role": "assistant",
                "llm.output_messages.0.message.content": answer}):
            pass
        return f"{root.get_span_context().trace_id:032x}"


def sdk_tracer(processor: Any) -> tuple[Any, Any]:
    """(provider, tracer) of a fresh SDK TracerProvider with `processor`."""
    from opentelemetry.sdk.resources import Resource
    from opentelemetry.sdk.trace import TracerProvider

    provider = TracerProvider(resource=Resource.create({"service.name": "rag-app"}))
    provider.add_span_processor(processor)
    return provider, provider.get_tracer("tests.monitor")


def sdk_request(spans: Any) -> Any:
    """The SDK exporter's own encoding of finished spans: an ExportTraceServiceRequest."""
    from opentelemetry.exporter.otlp.proto.common.trace_encoder import encode_spans

    return encode_spans(spans)
