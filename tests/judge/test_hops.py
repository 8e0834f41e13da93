"""Per-hop scores of a trace sample: relevance, use by the answer, what later hops lost."""

from __future__ import annotations

from pathlib import Path

import pytest

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
    assert (lost.hop, lost.document, lost.span_id) == (1, "eiffel", "a000000000000002")  # from 1
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


def test_an_abbreviation_and_its_spelled_out_form_are_equally_relevant() -> None:
    """"2FA" asked, "Two-factor authentication" found (and the other way round): the
    relevance reading links them (it read 0.04 before #38)."""
    analyzer = Analyzer()

    def relevance(question: str, doc: str) -> float:
        ev = analyzer.analyze(Sample(id="x", question=question, contexts=(doc,), answer="?"))
        return max(ev.relevance)

    spelled = "Two-factor authentication can be enabled under Settings, then Security."
    short = "2FA can be enabled under Settings, then Security."
    full_q, abbr_q = ("How do I enable two-factor authentication on my account?",
                      "How do I enable 2FA on my account?")
    assert relevance(abbr_q, spelled) > 0.5
    assert relevance(full_q, short) > 0.5
    assert relevance(abbr_q, spelled) == pytest.approx(relevance(full_q, spelled), abs=0.1)
    sso = "Single sign-on with SAML is configured by an administrator under Settings."
    assert relevance("Who configures SSO with SAML?", sso) > 0.5
    # an abbreviation the document does not spell out links nothing
    assert relevance(abbr_q, "Invoices are sent on the first business day.") < 0.1
