"""A small two-hop RAG pipeline instrumented with the real opentelemetry-sdk, writing its
traces as the SDK's span JSON (`ConsoleSpanExporter`, one span per line) with
OpenInference attributes. `examples/traces/rag_traces.jsonl` is its output:

    pip install opentelemetry-sdk
    python examples/traces/pipeline.py examples/traces/rag_traces.jsonl
    ragassay eval examples/traces/rag_traces.jsonl --export-otlp scores.json

Each question is answered by: a retrieval for the question (hop 1), a retrieval for a
rewritten query (hop 2), a rerank of both hops' documents keeping the top two (hop 3),
then an answer taken from the best document. The corpus and the pipeline are
deterministic (word overlap), so the file is the same on every run but for its ids
and times.
"""

from __future__ import annotations

import json
import re
import sys

from opentelemetry import trace
from opentelemetry.sdk.trace import TracerProvider
from opentelemetry.sdk.trace.export import ConsoleSpanExporter, SimpleSpanProcessor

CORPUS = {
    "doc-eiffel": "The Eiffel Tower was completed in 1889 for the World's Fair in Paris.",
    "doc-eiffel-height": "The Eiffel Tower is 330 metres tall including its antennas.",
    "doc-louvre": "The Louvre in Paris is the most visited art museum in the world.",
    "doc-seine": "The Seine river flows through Paris before reaching the English Channel.",
    "doc-rhine": "The Rhine rises in the Swiss Alps and flows into the North Sea.",
    "doc-alps": "Mont Blanc is the highest mountain of the Alps at 4,806 metres.",
    "doc-coffee": "Coffee beans are the roasted seeds of the Coffea plant.",
    "doc-espresso": "An espresso is brewed by forcing hot water through finely ground coffee.",
}
QUESTIONS = [
    ("When was the Eiffel Tower completed?", "Paris museum river"),  # a poor rewrite,
    ("How tall is the Eiffel Tower?", "Eiffel Tower height metres"),
    ("Where does the Rhine flow into?", "Rhine river mouth sea"),
    ("How is an espresso brewed?", "espresso coffee brewing water"),
]
STOP = {"the", "is", "a", "an", "of", "in", "to", "and", "how", "when", "where", "was",
        "does", "into", "its", "by", "for", "at"}


def words(text: str) -> set[str]:
    return {w for w in re.findall(r"[a-z0-9']+", text.lower()) if w not in STOP}


def retrieve(query: str, k: int) -> list[tuple[str, float]]:
    scored = [(doc_id, len(words(query) & words(text)) / (len(words(query)) or 1))
              for doc_id, text in CORPUS.items()]
    return sorted(scored, key=lambda p: (-p[1], p[0]))[:k]


def documents(prefix: str, hits: list[tuple[str, float]]) -> dict[str, object]:
    attrs: dict[str, object] = {}
    for i, (doc_id, score) in enumerate(hits):
        attrs[f"{prefix}.{i}.document.id"] = doc_id
        attrs[f"{prefix}.{i}.document.content"] = CORPUS[doc_id]
        attrs[f"{prefix}.{i}.document.score"] = round(score, 4)
    return attrs


def answer_one(tracer: trace.Tracer, question: str, rewrite: str) -> None:
    with tracer.start_as_current_span("rag", attributes={
            "openinference.span.kind": "CHAIN", "input.value": question}) as root:
        with tracer.start_as_current_span("retrieve", attributes={
                "openinference.span.kind": "RETRIEVER", "input.value": question}) as span:
            first = retrieve(question, 3)
            span.set_attributes(documents("retrieval.documents", first))
        with tracer.start_as_current_span("retrieve-rewritten", attributes={
                "openinference.span.kind": "RETRIEVER", "input.value": rewrite}) as span:
            second = retrieve(rewrite, 3)
            span.set_attributes(documents("retrieval.documents", second))
        with tracer.start_as_current_span("rerank", attributes={
                "openinference.span.kind": "RERANKER", "reranker.query": rewrite}) as span:
            pool = dict(first + second)
            # rerank by the rewritten query only: a document that matched the question
            # but not the rewrite can be dropped here (the "lost" diagnostic's case)
            kept = sorted(((d, len(words(rewrite) & words(CORPUS[d]))) for d in pool),
                          key=lambda p: (-p[1], p[0]))[:2]
            span.set_attributes(documents("reranker.input_documents", list(pool.items())))
            span.set_attributes(documents("reranker.output_documents",
                                          [(d, float(s)) for d, s in kept]))
        context = "\n".join(CORPUS[d] for d, _ in kept)
        with tracer.start_as_current_span("generate", attributes={
                "openinference.span.kind": "LLM", "llm.model_name": "extractive-demo",
                "llm.input_messages.0.message.role": "system",
                "llm.input_messages.0.message.content": f"Answer from:\n{context}",
                "llm.input_messages.1.message.role": "user",
                "llm.input_messages.1.message.content": question}) as span:
            answer = CORPUS[kept[0][0]]
            span.set_attribute("llm.output_messages.0.message.role", "assistant")
            span.set_attribute("llm.output_messages.0.message.content", answer)
            span.set_attribute("output.value", answer)
        root.set_attribute("output.value", answer)


def main(out_path: str) -> None:
    with open(out_path, "w", encoding="utf-8") as out:
        exporter = ConsoleSpanExporter(
            out=out, formatter=lambda span: json.dumps(json.loads(span.to_json())) + "\n")
        provider = TracerProvider()
        provider.add_span_processor(SimpleSpanProcessor(exporter))
        tracer = provider.get_tracer("ragassay.examples.traces")
        for question, rewrite in QUESTIONS:
            answer_one(tracer, question, rewrite)
        provider.shutdown()


if __name__ == "__main__":
    main(sys.argv[1] if len(sys.argv) > 1 else "rag_traces.jsonl")
