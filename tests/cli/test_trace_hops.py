"""Trace hops through `ragassay eval` (issue #38 item 8): a relevant document a rerank
dropped is reported lost although the question abbreviates what the document spells out
("2FA" / "Two-factor authentication"), with the hop counted from 1 alike on the console,
in the report's `hops.lost` and in each sample's `trace.lost`; also when the question
says "turn on" where the document says "enabled"."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner

from ragassay.cli import cli
from tests.support.traces import TRACE, docs, span, write_otlp

QUESTION = "How do I enable 2FA on my account?"
TFA = ("tfa", "Two-factor authentication can be enabled under Settings, then Security.")
BILLING = ("billing", "Invoices are sent on the first business day of each month.")
SSO = ("sso", "Single sign-on with SAML is configured by an administrator.")


def _trace(question: str = QUESTION, tfa: tuple[str, str] = TFA) -> list[dict[str, Any]]:
    """Retrieve (finds the 2FA page), retrieve again, rerank (drops it), answer."""
    def retriever(sid: str, name: str, query: str, found: list[tuple[str, str]], start: int,
                  kind: str = "RETRIEVER", prefix: str = "retrieval.documents"
                  ) -> dict[str, Any]:
        return span(sid, name, {"openinference.span.kind": kind, "input.value": query,
                                **docs(prefix, found)},
                    parent="b000000000000001", start=start, end=start + 9)

    return [
        span("b000000000000001", "rag", {"openinference.span.kind": "CHAIN",
                                         "input.value": question}, start=0, end=100),
        retriever("b000000000000002", "retrieve", question, [tfa, BILLING], 1),
        retriever("b000000000000003", "retrieve-2", "account billing", [BILLING, SSO], 11),
        retriever("b000000000000004", "rerank", "account billing", [BILLING, SSO], 21,
                  kind="RERANKER", prefix="reranker.output_documents"),
        span("b000000000000005", "generate", {
            "openinference.span.kind": "LLM", "llm.model_name": "m",
            "llm.output_messages.0.message.role": "assistant",
            "llm.output_messages.0.message.content": "Ask an administrator."},
            parent="b000000000000001", start=31, end=90),
    ]


@pytest.mark.parametrize(("question", "tfa"), [
    (QUESTION, TFA),
    # a phrasal verb for the document's one-word verb, the acronym on both sides or one
    ("How do I turn on 2FA?", ("tfa", "2FA can be enabled under Settings > Security.")),
    ("How do I turn on 2FA?", ("tfa", "Two-factor authentication can be enabled under "
                                      "Settings > Security.")),
])
def test_an_abbreviated_question_still_finds_the_lost_document(
        tmp_path: Path, question: str, tfa: tuple[str, str]) -> None:
    data = write_otlp(tmp_path / "t.jsonl", [_trace(question, tfa)])
    out = tmp_path / "r.json"
    result = CliRunner().invoke(cli, ["eval", str(data), "--metrics", "trace", "--db",
                                      str(tmp_path / "s.db"), "--out", str(out)],
                                env={"COLUMNS": "250"})
    assert result.exit_code == 0, result.output
    said = " ".join(result.output.split())
    assert f"a later hop lost what an earlier hop found in 1 trace: e.g. trace {TRACE} hop 1 " \
           "found tfa" in said
    report = json.loads(out.read_text())
    [lost] = report["hops"]["lost"]
    [entry] = report["detailed_results"]
    [own] = entry["trace"]["lost"]
    assert lost["hop"] == own["hop"] == 1  # one numbering, from 1
    assert lost["document"] == own["document"] == "tfa" and own["relevance"] >= 0.5
    assert entry["trace"]["hops"][own["hop"] - 1]["span_id"] == own["span_id"]
