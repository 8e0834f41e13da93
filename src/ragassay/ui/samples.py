"""The sample explorer's logic: a filterable table of samples and label resolution."""

from __future__ import annotations

from collections.abc import Mapping, Sequence, Set
from dataclasses import dataclass
from typing import Any

import pandas as pd

from ragassay.dataset.traces import DOCUMENT_RELEVANCE, HOP_RELEVANCE, HOP_UTILIZATION
from ragassay.dataset.traces.trace import SampleTrace, TraceHop, TraceSpan
from ragassay.stats import ScoreTable
from ragassay.types import MetricSpec
from ragassay.ui.fmt import metric_label, sample_key

KEY, STRATEGY, ID, QUESTION = "key", "strategy", "id", "question"
UNSCORED, REASONS = "unscored", "_reasons"
"""The frame's columns besides the metrics' (REASONS is for filtering, not shown)."""
SCORED_ALL = "(scored on every metric)"
UNSCORED_ANY = "(unscored on some metric)"
ANY = "(any)"


def sample_frame(table: ScoreTable, metrics: Sequence[str],
                 specs: Mapping[str, MetricSpec] | None = None) -> pd.DataFrame:
    """One row per sample (invalid rows too): key, strategy, id, status, question, one
    column per metric (booleans as 0/1, unscored empty) and the unscored reasons. Built
    from the run's text-free score table, not from its per-sample details."""
    rows = []
    for r in table.rows:
        row: dict[str, Any] = {
            KEY: sample_key(r.strategy, r.id), STRATEGY: r.strategy, ID: r.id,
            "status": "ok", QUESTION: " ".join(r.question.split())[:120],
        }
        for m in metrics:
            row[metric_label(m, specs)] = r.value(m)
        row[UNSCORED] = "; ".join(f"{metric_label(m, specs)}: {why}"
                                  for m, why in r.reasons.items())
        row[REASONS] = tuple(sorted(set(r.reasons.values())))
        rows.append(row)
    for bad in table.invalid:
        row = {KEY: sample_key(bad.strategy, bad.id), STRATEGY: bad.strategy, ID: bad.id,
               "status": "failed", QUESTION: f"{bad.source}: {bad.reason}"[:120],
               **{metric_label(m, specs): None for m in metrics},
               UNSCORED: "; ".join(f"{metric_label(m, specs)}: invalid input"
                                   for m in metrics),
               REASONS: ("invalid input",) if metrics else ()}
        rows.append(row)
    columns = [KEY, STRATEGY, ID, "status", *[metric_label(m, specs) for m in metrics],
               UNSCORED, QUESTION, REASONS]
    return pd.DataFrame(rows, columns=columns)


def reasons(frame: pd.DataFrame) -> list[str]:
    """The filter choices for unscored reasons."""
    found = sorted({r for rs in frame[REASONS] for r in rs})
    return [ANY, SCORED_ALL, UNSCORED_ANY, *found]


@dataclass(frozen=True)
class Filters:
    strategies: tuple[str, ...] = ()  # empty: all
    reason: str = ANY
    text: str = ""
    sort_metric: str | None = None
    ascending: bool = True
    value_range: tuple[float, float] | None = None  # on the sort metric


def apply_filters(frame: pd.DataFrame, f: Filters, matching: Set[str] | None = None,
                  specs: Mapping[str, MetricSpec] | None = None) -> pd.DataFrame:
    """Filter by strategy, unscored reason, text (`matching`: the ids whose stored texts
    contain it, searched in the store; the id and question are matched here too) and
    value range, then sort by a metric (unscored last)."""
    out = frame
    if f.strategies:
        out = out[out[STRATEGY].isin(f.strategies)]
    if f.reason == SCORED_ALL:
        out = out[out[REASONS].map(len) == 0]
    elif f.reason == UNSCORED_ANY:
        out = out[out[REASONS].map(len) > 0]
    elif f.reason != ANY:
        out = out[out[REASONS].map(lambda rs: f.reason in rs)]
    if f.text.strip():
        needle = f.text.strip().casefold()
        found = matching or set()
        hit = out[ID].isin(found) | (out[ID] + " " + out[QUESTION]).str.casefold(
        ).str.contains(needle, regex=False)
        out = out[hit]
    if f.sort_metric is not None:
        col = metric_label(f.sort_metric, specs)
        if f.value_range is not None:
            lo, hi = f.value_range
            out = out[out[col].isna() | out[col].between(lo, hi)]
        out = out.sort_values(col, ascending=f.ascending, na_position="last", kind="stable")
    return out


def resolve(label: str, frame: pd.DataFrame) -> str | None:
    """The key ("strategy/id") of the sample named `label`: a key, or a unique id."""
    if (frame[KEY] == label).any():
        return label
    hits = frame.index[frame[ID] == label]
    if len(hits) == 1:
        return str(frame.loc[hits[0], KEY])
    return None


TREE_INDENT = 12
"""Deeper spans are indented no further, their depth written instead (a 3,000-deep chain
would otherwise be a page of spaces)."""


def span_tree(trace: SampleTrace) -> list[dict[str, Any]]:
    """The trace's spans as table rows in tree order (children under their parent, in
    start order; the name indented by depth), each retrieval or rerank span with its
    hop's scores, and whether it fed the answer. Walked without recursion, each span
    once: a span that is its own parent, spans whose parents form a cycle (shown at the
    top, said so) and a span id given twice (its children under the first) all draw."""
    hops = {h.span_id: (i, h) for i, h in enumerate(trace.hops)}
    ids = {s.span_id for s in trace.spans}
    children: dict[str | None, list[int]] = {}
    for i, span in enumerate(trace.spans):
        parent = span.parent_id if span.parent_id in ids and span.parent_id != span.span_id \
            else None
        children.setdefault(parent, []).append(i)
    rows: list[dict[str, Any]] = []
    drawn: set[int] = set()
    opened: set[str] = set()  # span ids whose children are drawn (under the first span)

    def walk(start: int, note: str) -> None:
        stack: list[tuple[int, int, str]] = [(start, 0, note)]
        while stack:
            i, depth, why = stack.pop()
            if i in drawn:
                continue
            drawn.add(i)
            rows.append(_span_row(trace, trace.spans[i], depth, why, hops))
            sid = trace.spans[i].span_id
            if sid in opened:
                continue
            opened.add(sid)
            stack.extend((c, depth + 1, "") for c in reversed(children.get(sid, []))
                         if c not in drawn)

    for i in children.get(None, []):
        span = trace.spans[i]
        walk(i, "its own parent" if span.parent_id == span.span_id else "")
    for i in range(len(trace.spans)):  # unreachable from a root: a cycle of parents
        if i not in drawn:
            walk(i, "in a cycle of parents")
    return rows


def _span_row(trace: SampleTrace, span: TraceSpan, depth: int, note: str,
              hops: dict[str, tuple[int, TraceHop]]) -> dict[str, Any]:
    index, hop = hops.get(span.span_id, (None, None))
    took = ((span.end_ns - span.start_ns) / 1e6
            if span.start_ns is not None and span.end_ns is not None else None)
    shown = min(depth, TREE_INDENT)
    name = ("\u2003" * shown + ("\u2514 " if depth else "")
            + (f"[{depth}] " if depth > TREE_INDENT else "") + span.name
            + (f" ({note})" if note else ""))
    return {"span": name, "kind": span.kind or "-",
            "hop": "" if index is None else str(index + 1),
            "documents": "" if hop is None else str(len(hop.documents)),
            HOP_RELEVANCE: None if hop is None else hop.relevance,
            HOP_UTILIZATION: None if hop is None else hop.utilization,
            "fed the answer": "yes" if index in trace.context_hops else "",
            "ms": took, "span id": span.span_id}


def hop_documents(hop: TraceHop) -> list[dict[str, Any]]:
    """One hop's documents as table rows: id, relevance, use by the answer, the
    retriever's own score, the text."""
    return [{"id": d.id or "", DOCUMENT_RELEVANCE: d.relevance, "used": d.used, "score": d.score,
             "text": d.content} for d in hop.documents]
