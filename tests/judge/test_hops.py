"""Per-hop scores of a trace sample: relevance, use by the answer, what later hops lost."""

from __future__ import annotations

from pathlib import Path

from ragassay.dataset import iter_samples
from ragassay.dataset.traces.trace import SampleTrace
from ragassay.judge.offline import Analyzer
from ragassay.judge.offline.hops import score_hops
from ragassay.types import InvalidRow, Sample
from tests.support.traces import openinference_trace, write_otlp


def _scored(tmp_path: Path, spans: list[dict]) -> SampleTrace:
    items = list(iter_samples(write_otlp(tmp_path / "t.jsonl", [spans])))
    [sample] = score_hops(items, Analyzer())
    assert isinstance(sample, Sample)
    trace = SampleTrace.of(sample)
    assert trace is not None and trace.judged
    return trace


def test_a_relevant_document_the_rerank_dropped_is_lost(tmp_path: Path) -> None:
    trace = _scored(tmp_path, openinference_trace())
    first = trace.hops[0]
    eiffel, seine = first.documents
    assert eiffel.relevance is not None and seine.relevance is not None
    assert eiffel.relevance > 0.5 > seine.relevance  # the question is about the tower
    assert first.relevance is not None and first.utilization is not None
    # the answer uses the Eiffel document of hop 1
    assert eiffel.used is not None and eiffel.used > 0.5
    [lost] = trace.lost
    assert (lost.hop, lost.document, lost.span_id) == (0, "eiffel", "a000000000000002")
    assert lost.relevance == eiffel.relevance


def test_nothing_is_lost_when_the_final_contexts_keep_it(tmp_path: Path) -> None:
    spans = [s for s in openinference_trace() if s["name"] != "rerank"]
    trace = _scored(tmp_path, spans)
    assert trace.context_hops == (0, 1)
    assert trace.lost == ()


def test_other_samples_pass_unchanged() -> None:
    plain = Sample(id="x", question="q", contexts=("c",), answer="a")
    bad = InvalidRow(id="y", source="f:1", reason="r")
    assert score_hops([plain, bad], Analyzer()) == [plain, bad]
