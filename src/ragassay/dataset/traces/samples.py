"""A trace's spans -> one dataset row (what `sample_from_mapping` validates).

The root span's input is the question; the answer span's output (the last LLM span to
end) the answer; every retrieval and rerank span a hop; the contexts are the documents
of the hops that fed the answer (those that ended before it started: the last rerank's
output when there is one, else every retrieval's documents). The row keeps the trace
and span ids, the span tree and every attribute no rule took, as `metadata["trace"]`
(a `trace.SampleTrace`). A trace without a question or an answer is a row problem that
names the span and the attributes looked for.
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterator, Mapping
from typing import Any

from ragassay.dataset.readers import Record, RowProblem
from ragassay.dataset.traces.mapping import KINDS, TraceMap
from ragassay.dataset.traces.spans import Span, SpanFile
from ragassay.dataset.traces.trace import SampleTrace, TraceDocument, TraceHop, TraceSpan

TEXT_KEYS = ("question", "query", "input", "text", "content", "answer", "output", "result")
HOP_KINDS = ("retriever", "reranker")


class TraceProblem(ValueError):
    """Why a trace makes no sample (one line, naming the span and the attributes)."""


def trace_records(read: SpanFile, name: str, rules: TraceMap) -> Iterator[Record]:
    """One record per trace, in the order the traces first appear in the file; first a
    RowProblem for each value the file could not give (read with skip_invalid), and in
    place of a trace that lost a span to one."""
    for where, reason in read.problems:
        yield where, RowProblem(reason, where)
    traces: dict[str, list[Span]] = {}
    for span in read.spans:
        traces.setdefault(span.trace_id, []).append(span)
    for trace_id, members in traces.items():
        where = f"{name}: trace {trace_id}"
        lost = read.incomplete.get(trace_id)
        try:
            if lost is not None:
                raise TraceProblem(f"incomplete: {lost}")
            yield where, trace_row(trace_id, members, rules)
        except TraceProblem as exc:
            yield where, RowProblem(str(exc), trace_id, {"id": trace_id})


def _order(span: Span) -> tuple[int, int]:
    return (span.start_ns if span.start_ns is not None else 1 << 62,
            span.end_ns if span.end_ns is not None else 1 << 62)


def kind_of(span: Span, rules: TraceMap) -> str:
    for key in rules.kind:
        value = span.attributes.get(key)
        if isinstance(value, str):
            return KINDS.get(value, KINDS.get(value.upper(), value.lower()))
    return ""


def trace_row(trace_id: str, members: list[Span], rules: TraceMap) -> dict[str, Any]:
    """The row of one trace (TraceProblem when it has no root, question or answer)."""
    spans = sorted(members, key=_order)
    ids = {s.span_id for s in spans}
    roots = [s for s in spans if s.parent_id is None or s.parent_id not in ids]
    if not roots:
        raise TraceProblem("no root span (every span has a parent in the trace)")
    root, kinds = roots[0], {s.span_id: kind_of(s, rules) for s in spans}
    used: dict[str, set[str]] = {s.span_id: set() for s in spans}
    question = _read(root, rules.question, "user", used)
    if not question:
        raise TraceProblem(f"no question: root span {_shown(root)} has none of "
                           f"{', '.join(rules.question)}")
    llms = sorted((s for s in spans if kinds[s.span_id] == "llm"
                   and _read(s, rules.answer, "assistant", {})), key=lambda s: _order(s)[1])
    answer_span = llms[-1] if llms else root
    answer = _read(answer_span, rules.answer, "assistant", used)
    if not answer:
        where = f"LLM span {_shown(answer_span)}" if llms else \
            f"no LLM span has one, nor root span {_shown(root)}"
        raise TraceProblem(f"no answer: {where} has none of {', '.join(rules.answer)}")
    hop_spans = [s for s in spans if kinds[s.span_id] in HOP_KINDS]
    hops = tuple(_hop(s, kinds[s.span_id], rules, used) for s in hop_spans)
    feeding = _feeding(hop_spans, hops, answer_span if llms else None)
    contexts = list(dict.fromkeys(d.content for i in feeding for d in hops[i].documents))
    trace = SampleTrace(
        trace_id=trace_id, span_id=root.span_id,
        answer_span_id=answer_span.span_id if llms else None,
        spans=tuple(TraceSpan(span_id=s.span_id, parent_id=s.parent_id, name=s.name,
                              kind=kinds[s.span_id], start_ns=s.start_ns, end_ns=s.end_ns,
                              attributes={k: v for k, v in s.attributes.items()
                                          if k not in used[s.span_id]}) for s in spans),
        hops=hops, context_hops=tuple(feeding))
    row: dict[str, Any] = {"id": trace_id, "question": question, "answer": answer,
                           "contexts": contexts,
                           "metadata": {"trace": trace.model_dump(mode="json")}}
    for role in ("strategy", "reference"):
        value = _read(root, getattr(rules, role), "user", {})
        if value:
            row[role] = value
    return row


def _feeding(hop_spans: list[Span], hops: tuple[TraceHop, ...],
             answer_span: Span | None) -> list[int]:
    """The hops whose documents fed the answer: those ended before it started; the last
    rerank among them alone, else every retrieval."""
    start = answer_span.start_ns if answer_span is not None else None
    before = [i for i, s in enumerate(hop_spans)
              if start is None or s.end_ns is None or s.end_ns <= start]
    reranks = [i for i in before if hops[i].kind == "reranker"]
    return reranks[-1:] if reranks else before


def _shown(span: Span) -> str:
    return f"{span.name!r} ({span.span_id})"


def _hop(span: Span, kind: str, rules: TraceMap, used: dict[str, set[str]]) -> TraceHop:
    query = _read(span, rules.query, "user", used) or ""
    documents: tuple[TraceDocument, ...] = ()
    for key in rules.documents:
        documents = _documents(span.attributes, key, used[span.span_id])
        if documents:
            break
    return TraceHop(span_id=span.span_id, name=span.name,
                    kind="reranker" if kind == "reranker" else "retriever",
                    query=query, documents=documents)


def _indexed(attrs: Mapping[str, Any], prefix: str) -> dict[int, dict[str, Any]]:
    """`prefix.N.rest` attributes as {N: {rest: value}}."""
    pattern = re.compile(re.escape(prefix) + r"\.(\d+)\.(.+)")
    out: dict[int, dict[str, Any]] = {}
    for key, value in attrs.items():
        m = pattern.fullmatch(key)
        if m:
            out.setdefault(int(m.group(1)), {})[m.group(2)] = value
    return out


def _documents(attrs: Mapping[str, Any], key: str, used: set[str]
               ) -> tuple[TraceDocument, ...]:
    items: list[Any] = []
    indexed = _indexed(attrs, key)
    if indexed:
        used.update(k for k in attrs if k.startswith(key + "."))
        items = [{k.removeprefix("document."): v for k, v in indexed[i].items()}
                 for i in sorted(indexed)]
    elif key in attrs:
        value = _json(attrs[key])
        items = value if isinstance(value, list) else []
        used.add(key)
    docs = []
    for item in items:
        if isinstance(item, str) and item.strip():
            docs.append(TraceDocument(content=item))
        elif isinstance(item, Mapping) and isinstance(item.get("content"), str):
            score = item.get("score")
            docs.append(TraceDocument(
                id=None if item.get("id") is None else str(item["id"]), content=item["content"],
                score=float(score) if isinstance(score, int | float) else None))
    return tuple(docs)


def _json(value: Any) -> Any:
    if isinstance(value, str) and value.lstrip()[:1] in ("{", "["):
        try:
            return json.loads(value)
        except (json.JSONDecodeError, RecursionError):
            return value
    return value


def _read(span: Span, keys: tuple[str, ...], role: str, used: dict[str, set[str]]
          ) -> str | None:
    """The first of `keys` on the span that holds text (recorded in `used`)."""
    for key in keys:
        if key in span.attributes:
            value = _json(span.attributes[key])
        else:
            indexed = _indexed(span.attributes, key)
            if not indexed:
                continue
            value = [{k.removeprefix("message."): v for k, v in indexed[i].items()}
                     for i in sorted(indexed)]
        text = _text(value, role)
        if text and text.strip():
            if span.span_id in used:
                used[span.span_id].update(k for k in span.attributes
                                          if k == key or k.startswith(key + "."))
            return text
    return None


def _text(value: Any, role: str) -> str | None:
    """Text out of a plain string, a JSON object (`{"query": ...}`) or a list of chat
    messages (the last of `role`, else the last; content a string or a list of parts)."""
    if isinstance(value, str):
        return value
    if isinstance(value, Mapping):
        if "parts" in value or "role" in value:
            return _text(value.get("content", value.get("parts")), role)
        for key in TEXT_KEYS:
            if isinstance(value.get(key), str | list | Mapping):
                return _text(value[key], role)
        return None
    if isinstance(value, list) and value:
        if all(isinstance(v, Mapping) and ("type" in v) and "role" not in v for v in value):
            parts = [str(v.get("content", v.get("text", ""))) for v in value
                     if v.get("type") == "text"]
            return "\n".join(p for p in parts if p) or None
        mine = [v for v in value if isinstance(v, Mapping) and v.get("role") == role]
        return _text((mine or value)[-1], role)
    return None
