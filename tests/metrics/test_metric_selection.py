"""`--metrics ragas.faithfulness`: one metric of a suite alone, with only the judge calls it
needs (issue #29: one RAGAS metric paid for three calls), in the run's specs and report."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from click.testing import CliRunner

from ragassay.cli import cli
from ragassay.metrics import UnknownSuiteError, get_suites, parse_metrics, suites_of
from tests.metrics.test_ragas_llm import GOOD, kind, script


def test_a_qualified_name_narrows_its_suite() -> None:
    assert parse_metrics("ragas.faithfulness") == ("ragas.faithfulness",)
    assert parse_metrics("ragas.faithfulness,ragas") == ("ragas",)  # the suite covers it
    assert suites_of(["judge", "ragas.context_recall"]) == ("judge", "ragas.context_recall")
    judge, ragas = get_suites(["judge", "ragas.context_recall", "ragas.faithfulness"])
    assert judge.chosen is None and len(judge.chosen_specs) == len(judge.specs)
    assert [s.name for s in ragas.chosen_specs] == ["ragas.faithfulness", "ragas.context_recall"]
    assert ragas.wants("ragas.faithfulness") and not ragas.wants("ragas.answer_relevancy")


def test_an_unknown_metric_is_one_line_naming_the_suites_metrics() -> None:
    with pytest.raises(UnknownSuiteError) as err:
        parse_metrics("ragas.faithfullness")
    assert str(err.value) == ("unknown metric 'ragas.faithfullness'; ragas has "
                              "ragas.faithfulness, ragas.answer_relevancy, "
                              "ragas.context_precision, ragas.context_recall")


def _eval(server, tmp_path: Path, demo_data: Path, metrics: str) -> dict:
    out = tmp_path / f"{metrics}.json"
    done = CliRunner().invoke(cli, [
        "eval", str(demo_data), "--judge", "openai:m", "--base-url", server.base_url,
        "--metrics", metrics, "--db", str(tmp_path / f"{metrics}.db"), "-q", "--out", str(out),
        "--no-cache"])
    assert done.exit_code == 0, done.output
    return json.loads(out.read_text())


def test_only_the_chosen_metrics_calls_are_made_and_reported(
        scripted_server, tmp_path: Path, demo_data: Path) -> None:
    """The whole suite makes its three calls per sample (one sample has no contexts:
    fewer); one metric alone makes exactly the calls of its kind, and the report holds
    that metric alone."""
    server = scripted_server(script(GOOD))
    full = _eval(server, tmp_path, demo_data, "ragas")
    per_kind = {k: sum(kind(r) == k for r in server.requests)
                for k in ("claims", "questions", "contexts")}
    assert per_kind["claims"] > 0 and full["usage"]["calls"] == sum(per_kind.values())
    assert len(full["aggregate_metrics"]["metrics"]) == 4
    for metrics, calls in [("ragas.faithfulness", "claims"), ("ragas.context_recall",
                                                              "contexts")]:
        before = server.count
        report = _eval(server, tmp_path, demo_data, metrics)
        asked = server.requests[before:]
        assert {kind(r) for r in asked} == {calls}
        assert len(asked) == per_kind[calls] == report["usage"]["calls"]
        assert list(report["aggregate_metrics"]["metrics"]) == [metrics]
