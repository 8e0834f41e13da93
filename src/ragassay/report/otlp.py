"""Scores out: a run's judged samples as OpenTelemetry spans linked to their source
traces, written as OTLP JSON to a file or sent to an OTLP/HTTP receiver.

Per sample read from a trace, one `ragassay.evaluation` span in the source trace (its
parent: the answer span, else the root; a link to the root), carrying one
`gen_ai.evaluation.result` event per metric with the GenAI semantic conventions'
attributes (`gen_ai.evaluation.name`, `.score.value`, `.score.label`, `.explanation`)
and one per document a later hop lost; per scored hop, one `ragassay.hop_evaluation`
span under the hop's own span with its relevance and utilization. Every span carries
the run id (`ragassay.run.id`) and the sample id. Span ids are derived from the run,
the sample and the hop, so exporting a run twice sends the same spans.
"""

from __future__ import annotations

import asyncio
import hashlib
import http
import json
import math
import os
import re
import time
import urllib.parse
from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from ragassay.dataset.traces.trace import SampleTrace, TraceHop
from ragassay.files import atomic_write
from ragassay.report.model import SampleEntry
from ragassay.version import __version__

EVENT = "gen_ai.evaluation.result"
SPANS_PER_REQUEST = 512
TIMEOUT_S = 30.0
"""The overall deadline of one export request (not per read), unless the environment
sets OTel's own (`OTEL_EXPORTER_OTLP_TRACES_TIMEOUT`, `OTEL_EXPORTER_OTLP_TIMEOUT`, ms)."""
MAX_REPLY_BYTES = 4096
"""Of a receiver's successful reply, read no more than this (its body says nothing we use)."""


class ExportError(Exception):
    """The export could not be written or sent (one line)."""


@dataclass(frozen=True)
class Exported:
    """What an export did: spans sent, samples linked, samples without a trace."""

    spans: int
    samples: int
    untraced: int


def _attr(key: str, value: Any) -> dict[str, Any]:
    if isinstance(value, bool):
        wrapped: dict[str, Any] = {"boolValue": value}
    elif isinstance(value, int):
        wrapped = {"intValue": str(value)}
    elif isinstance(value, float):
        wrapped = {"doubleValue": value}
    else:
        wrapped = {"stringValue": str(value)}
    return {"key": key, "value": wrapped}


def _span_id(*parts: str) -> str:
    return hashlib.sha256("\x00".join(parts).encode()).hexdigest()[:16]


def _event(name: str, value: float | bool | None, now: int, run_id: str,
           explanation: str | None = None, label: str | None = None) -> dict[str, Any]:
    attrs = [_attr("gen_ai.evaluation.name", name), _attr("ragassay.run.id", run_id)]
    if value is not None:
        attrs.append(_attr("gen_ai.evaluation.score.value", float(value)))
    label = label or ("unscored" if value is None else
                      str(value).lower() if isinstance(value, bool) else None)
    if label:
        attrs.append(_attr("gen_ai.evaluation.score.label", label))
    if explanation:
        attrs.append(_attr("gen_ai.evaluation.explanation", explanation))
    return {"timeUnixNano": str(now), "name": EVENT, "attributes": attrs}


def _span(trace: SampleTrace, span_id: str, parent: str, name: str, now: int,
          attrs: list[dict[str, Any]], events: list[dict[str, Any]]) -> dict[str, Any]:
    return {"traceId": trace.trace_id, "spanId": span_id, "parentSpanId": parent,
            "name": name, "kind": 1, "startTimeUnixNano": str(now),
            "endTimeUnixNano": str(now), "attributes": attrs, "events": events,
            "links": [{"traceId": trace.trace_id, "spanId": trace.span_id}],
            "status": {}}


def sample_spans(entry: SampleEntry, run_id: str, now: int) -> list[dict[str, Any]]:
    """The evaluation spans of one sample ([] unless it was read from a trace)."""
    trace = entry.trace
    if trace is None:
        return []
    ids = [_attr("ragassay.run.id", run_id), _attr("ragassay.sample.id", entry.id)]
    events = [_event(name, value, now, run_id, entry.unscored.get(name))
              for name, value in entry.metrics.items()]
    events += [_event("ragassay.hops.lost", lost.relevance, now, run_id,
                      f"hop {lost.hop} ({lost.span_id}) found {lost.document}, missing "
                      "from the final contexts", label="lost") for lost in trace.lost]
    out = [_span(trace, _span_id(run_id, entry.id), trace.answer_span_id or trace.span_id,
                 "ragassay.evaluation", now, ids, events)]
    out += [_hop_span(trace, hop, i, entry.id, run_id, now, ids)
            for i, hop in enumerate(trace.hops) if trace.judged]
    return out


def _hop_span(trace: SampleTrace, hop: TraceHop, i: int, sample_id: str, run_id: str,
              now: int, ids: list[dict[str, Any]]) -> dict[str, Any]:
    events = [_event("ragassay.hop.relevance", hop.relevance, now, run_id),
              _event("ragassay.hop.utilization", hop.utilization, now, run_id)]
    return _span(trace, _span_id(run_id, sample_id, str(i)), hop.span_id,
                 "ragassay.hop_evaluation", now,
                 [*ids, _attr("ragassay.hop.index", i + 1), _attr("ragassay.hop.kind", hop.kind)],
                 events)


def requests(entries: Iterable[Any], run_id: str, now: int | None = None
             ) -> Iterator[tuple[dict[str, Any], int, int]]:
    """OTLP JSON export requests of at most SPANS_PER_REQUEST spans, each with how many
    samples it links and how many entries had no trace."""
    now = time.time_ns() if now is None else now
    spans: list[dict[str, Any]] = []
    linked = untraced = 0
    for entry in entries:
        mine = sample_spans(entry, run_id, now) if isinstance(entry, SampleEntry) else []
        linked += bool(mine)
        untraced += not mine
        spans += mine
        if len(spans) >= SPANS_PER_REQUEST:
            yield _request(spans), linked, untraced
            spans, linked, untraced = [], 0, 0
    if spans or linked or untraced:
        yield _request(spans), linked, untraced


def _request(spans: list[dict[str, Any]]) -> dict[str, Any]:
    return {"resourceSpans": [{
        "resource": {"attributes": [_attr("service.name", "ragassay")]},
        "scopeSpans": [{"scope": {"name": "ragassay", "version": __version__},
                        "spans": spans}]}]}


def export_otlp(entries: Iterable[Any], run_id: str, target: str) -> Exported:
    """Write (a path) or send (an http(s) URL) the run's evaluation spans; ExportError
    in one line when the target refuses them, when it is neither a file nor an http(s)
    URL, or when no sample came from a trace."""
    url = target_url(target)
    spans = samples = untraced = 0
    batches = []
    for request, linked, missing in requests(entries, run_id):
        spans += len(request["resourceSpans"][0]["scopeSpans"][0]["spans"])
        samples, untraced = samples + linked, untraced + missing
        if linked:
            batches.append(request)
    if not samples:
        raise ExportError(f"no sample of run {run_id} was read from a trace: there is no "
                          "trace to link its scores to")
    if url is not None:
        for request in batches:
            post(url, request)
    else:
        lines = "".join(json.dumps(r, separators=(",", ":")) + "\n" for r in batches)
        try:
            with atomic_write(Path(target)) as fh:
                fh.write(lines)
        except OSError as exc:
            raise ExportError(f"cannot write {target}: {exc.strerror or exc}") from None
    return Exported(spans=spans, samples=samples, untraced=untraced)


_SCHEME = re.compile(r"^([A-Za-z][A-Za-z0-9+.-]*)://")
_HOST_PORT = re.compile(r"^[A-Za-z0-9.-]+:[0-9]+(/|$)")


def target_url(target: str) -> str | None:
    """The OTLP/HTTP URL a target names (its scheme in lower case: `HTTP://` is http), or
    None for a file path; ExportError for any other scheme (`grpc://`: only OTLP/HTTP is
    spoken) and for a `host:port/path` without one, which would otherwise become a local
    file named like the URL."""
    found = _SCHEME.match(target)
    if found:
        scheme = found.group(1).lower()
        if scheme not in ("http", "https"):
            raise ExportError(f"{scheme}:// is not supported: only OTLP/HTTP is (an http:// "
                              "or https:// URL, e.g. http://127.0.0.1:4318/v1/traces), or a "
                              "file path")
        return scheme + target[len(found.group(1)):]
    if _HOST_PORT.match(target):
        raise ExportError("looks like HOST:PORT without a scheme: write http://" + target
                          + " to send it, or give a file path (e.g. scores.jsonl)")
    return None


def is_url(target: str) -> bool:
    """Whether the target is an OTLP/HTTP URL (else a file path)."""
    try:
        return target_url(target) is not None
    except ExportError:
        return False


def otlp_headers() -> dict[str, str]:
    """Headers from OTEL_EXPORTER_OTLP_HEADERS (`k=v,k2=v2`), as the OTel exporters read
    them; values are sent, never printed."""
    out = {}
    for pair in os.environ.get("OTEL_EXPORTER_OTLP_HEADERS", "").split(","):
        key, sep, value = pair.partition("=")
        if sep and key.strip():
            out[key.strip()] = urllib.parse.unquote(value.strip())
    return out


def post(url: str, request: dict[str, Any]) -> None:
    """One OTLP/HTTP JSON export (`Content-Type: application/json`), within one overall
    deadline (`TIMEOUT_S`: connecting, sending and the reply together, however slowly a
    receiver trickles it); redirects are not followed, so the scores go nowhere but
    `url`. The receiver is untrusted: its reply is read through the judge client's
    guards (`llm.http_guard`): at most `MAX_REPLY_BYTES` of a success (decompressed; the
    rest is never read), at most its cap of an error, the connection closed at once."""
    from ragassay.aio import run_sync
    from ragassay.urls import connection_failure, redact_url

    body = json.dumps(request, separators=(",", ":")).encode()
    headers = {**otlp_headers(), "Content-Type": "application/json"}
    deadline = deadline_s()
    try:
        status, reason = run_sync(_send(url, body, headers, deadline))
    except TimeoutError:
        raise ExportError(f"{redact_url(url)} did not take the export within "
                          f"{deadline:g} s (the whole request, reply included)") from None
    except Exception as exc:
        import httpx

        from ragassay.llm.http_guard import CrossOriginRedirect, ErrorReply

        if isinstance(exc, ErrorReply):
            status, reason = exc.status, _phrase(exc.status)
        elif isinstance(exc, CrossOriginRedirect):
            raise ExportError(f"{redact_url(url)} redirected the export to another origin "
                              f"({exc.target}): not followed") from None
        elif isinstance(exc, httpx.HTTPError):
            raise ExportError(f"cannot send the export to {redact_url(url)}: "
                              f"{connection_failure(exc)}") from None
        else:
            raise
    if not 200 <= status < 300:
        raise ExportError(f"{redact_url(url)} refused the export: HTTP {status}"
                          + (f" {reason}" if reason else ""))


def deadline_s() -> float:
    """The overall deadline of an export request: OTel's exporter timeout from the
    environment (milliseconds; the traces-specific one first), else TIMEOUT_S."""
    for name in ("OTEL_EXPORTER_OTLP_TRACES_TIMEOUT", "OTEL_EXPORTER_OTLP_TIMEOUT"):
        try:
            ms = float(os.environ.get(name, ""))
        except ValueError:
            continue
        if math.isfinite(ms) and ms > 0:
            return ms / 1000
    return TIMEOUT_S


def _phrase(status: int) -> str:
    try:
        return http.HTTPStatus(status).phrase
    except ValueError:
        return ""


async def _send(url: str, body: bytes, headers: dict[str, str],
                deadline: float) -> tuple[int, str]:
    """POST `body`; (status, reason) once at most MAX_REPLY_BYTES of the reply are read."""
    import httpx

    from ragassay.llm.http_guard import guard_response, read_capped

    async with asyncio.timeout(deadline), httpx.AsyncClient(
            timeout=deadline, follow_redirects=False,
            event_hooks={"response": [guard_response]}) as client, \
            client.stream("POST", url, content=body, headers=headers) as reply:
        if not reply.is_redirect:
            await read_capped(reply.aiter_bytes(), MAX_REPLY_BYTES, truncate=True)
        return reply.status_code, reply.reason_phrase
