"""Spans arriving in any order, gathered by trace until each trace is complete, then
turned into a sample (the rules of `dataset.traces`, as `ragassay eval` reads a file).

A trace is complete `settle_s` after its root span (one without a parent) arrived, so
that child spans exported in a later batch still join it; or `timeout_s` after its first
span, root or not (a trace whose root is lost, or lives in another service). Memory is
bounded by the caller (`held`, `spans`): past its limits the receiver refuses more.
"""

from __future__ import annotations

import json
import re
import time
from dataclasses import dataclass, field

from ragassay.dataset import DatasetError, sample_from_mapping
from ragassay.dataset.traces import DEFAULT_TRACE_MAP, Span, TraceMap, TraceProblem, trace_row
from ragassay.types import Sample


def span_json(span: Span) -> str:
    """A span as the store keeps it until its trace is scored."""
    return json.dumps([span.trace_id, span.span_id, span.parent_id, span.name,
                       span.start_ns, span.end_ns, span.attributes], ensure_ascii=False)


def span_from_json(text: str) -> Span:
    t, s, p, name, start, end, attrs = json.loads(text)
    return Span(t, s, p, name, start, end, attrs)


@dataclass
class _Open:
    first_seen: float
    spans: dict[str, Span] = field(default_factory=dict)
    root_at: float | None = None


class Assembler:
    """The open traces (spans by trace id) and when each is due."""

    def __init__(self, settle_s: float = 1.0, timeout_s: float = 60.0,
                 rules: TraceMap = DEFAULT_TRACE_MAP) -> None:
        self.settle_s = settle_s
        self.timeout_s = timeout_s
        self.rules = rules
        self._open: dict[str, _Open] = {}
        self.spans = 0  # spans held

    @property
    def held(self) -> int:
        """Open traces held."""
        return len(self._open)

    def add(self, spans: list[Span], now: float | None = None) -> None:
        """Hold spans (already stored) of open traces."""
        now = time.monotonic() if now is None else now
        for span in spans:
            entry = self._open.get(span.trace_id)
            if entry is None:
                entry = self._open[span.trace_id] = _Open(first_seen=now)
            if span.span_id not in entry.spans:
                entry.spans[span.span_id] = span
                self.spans += 1
            if span.parent_id is None and entry.root_at is None:
                entry.root_at = now

    def due(self, now: float | None = None, everything: bool = False) -> list[str]:
        """The traces complete by now (all of them with `everything`), oldest first."""
        now = time.monotonic() if now is None else now
        return [t for t, e in self._open.items() if everything
                or (e.root_at is not None and now - e.root_at >= self.settle_s)
                or now - e.first_seen >= self.timeout_s]

    def take(self, trace_id: str) -> list[Span]:
        """Stop holding a trace; its spans."""
        entry = self._open.pop(trace_id)
        self.spans -= len(entry.spans)
        return list(entry.spans.values())

    def is_open(self, trace_id: str) -> bool:
        return trace_id in self._open


_SPAN_ID = re.compile(r" \([0-9a-f]{16}\)")


def build_sample(trace_id: str, spans: list[Span], rules: TraceMap) -> Sample | str:
    """The trace's sample, or the one line why it makes none (no question, no answer, a
    field the sample rules refuse), without span ids, so that the same problem of many
    traces reads as one reason."""
    try:
        row = trace_row(trace_id, spans, rules)
        return sample_from_mapping(row, where=f"trace {trace_id}")
    except TraceProblem as exc:
        return _SPAN_ID.sub("", str(exc))
    except DatasetError as exc:
        return _SPAN_ID.sub("", exc.reason)
