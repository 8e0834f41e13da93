"""New-user trial 65 (findings 1, 4, 6): the default gate failed a bot with no
hallucinations under the offline judge, whose scores are soft (a mean of its
probabilities), on targets set for an LLM judge's scale; the gate's row of people's rate
rested on all samples beside the judge's rate on those it scored, without saying so; a
metric no sample had the input for read "a [thresholds] bar requires it" with no config.

The default bar of each score is now, under the offline judge, its soft target (the
judge's own line: `MetricSpec.soft_target`), stored with the run, so that eval's flags and
the gate say the same one; an LLM judge's run keeps its targets."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner

import ragassay
from ragassay.cli import cli
from ragassay.store import Store
from tests.support.judge_replies import content_replies, shaped_rows
from tests.support.scripted_server import ScriptedServer

ENV = {"COLUMNS": "250"}  # a table row a line
SCORES = ("judge.faithfulness", "judge.overall", "trace.adherence_ratio",
          "ragas.faithfulness", "ragas.context_precision")


def _grounded(n: int) -> list[dict[str, Any]]:
    """Answers that restate their passage in words of their own: each one grounded, its
    support probability under the offline judge well above its line but under 0.9."""
    rows = []
    for i in range(n):
        rows.append({
            "id": f"g{i}", "question": f"How do I open locker {i}?",
            "contexts": [f"Locker {i} is on deck {i % 4 + 2}. It opens with the blue key "
                         "card, which the front desk hands out at check-in."],
            "answer": f"You open locker {i} with the blue key card from the front desk.",
            "labels": {"hallucinated": False}})
    return rows


def _invented(rows: list[dict[str, Any]], every: int) -> list[dict[str, Any]]:
    """The rows with every `every`-th answer invented (labelled so)."""
    out = []
    for i, row in enumerate(rows):
        if i % every == 0:
            row = {**row, "answer": f"Locker {i} was removed for repairs until spring.",
                   "labels": {"hallucinated": True}}
        out.append(row)
    return out


def _eval(tmp: Path, name: str, rows: list[dict[str, Any]]) -> tuple[Path, dict[str, Any]]:
    data, db, out = tmp / f"{name}.jsonl", tmp / f"{name}.db", tmp / f"{name}.json"
    data.write_text("".join(json.dumps(r) + "\n" for r in rows))
    got = CliRunner().invoke(cli, ["eval", str(data), "--db", str(db), "--out", str(out)],
                             env=ENV)
    assert got.exit_code == 0, got.output
    return db, json.loads(out.read_text())


def _gate(db: Path, *args: str) -> tuple[int, str]:
    got = CliRunner().invoke(cli, ["gate", "--db", str(db), *args], env=ENV)
    return got.exit_code, got.output


def _rows(out: str) -> dict[str, tuple[float, str]]:
    """The gate table's rows: metric -> (threshold, result cell, its wrapped lines
    joined)."""
    rows: dict[str, tuple[float, str]] = {}
    last = ""
    for line in out.splitlines():
        cells = [c.strip() for c in line.split("│")]
        if len(cells) <= 4:
            continue
        if cells[2]:
            last = cells[1]
            rows[last] = (float(cells[2]), cells[4])
        elif last:
            bar, said = rows[last]
            rows[last] = (bar, f"{said} {cells[4]}")
    return rows


@pytest.fixture(scope="module")
def grounded(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, dict[str, Any]]:
    return _eval(tmp_path_factory.mktemp("t65"), "grounded", _grounded(30))


def test_a_run_of_grounded_answers_passes_the_default_gate(
        grounded: tuple[Path, dict[str, Any]]) -> None:
    db, doc = grounded
    faith = doc["aggregate_metrics"]["metrics"]["ragas.faithfulness"]["mean"]
    assert 0.5 < faith < 0.9, faith  # soft: grounded, yet under an LLM judge's 0.9
    code, out = _gate(db)
    rows = _rows(out)
    last = out.rstrip().splitlines()[-1]
    # READY; a PASS of a metric whose judge agrees with people weakly is named (trial 71)
    assert code == 0 and last.startswith("READY, but judge.context_relevance, "), out
    assert all(rows[m][1].startswith("PASS") for m in SCORES), rows
    # the bars are the judge's own line, and the command says why
    assert rows["ragas.faithfulness"][0] == 0.5 and rows["judge.faithfulness"][0] == 5.5
    assert "note: the offline judge's scores are soft" in " ".join(out.split())


def test_eval_shows_the_target_the_gate_applies(grounded: tuple[Path, dict[str, Any]]
                                                ) -> None:
    db, doc = grounded
    rows = _rows(_gate(db)[1])
    specs = doc["metric_specs"]
    for metric, (bar, _) in rows.items():
        assert specs[metric]["target"]["good"] == bar, metric
    assert specs["ragas.faithfulness"]["soft"] is True
    # a verdict's rate is drawn at the judge's line already: its target stands
    assert specs["judge.hallucination"]["target"]["good"] == 0.1
    assert "soft" not in specs["judge.hallucination"]


def test_a_run_where_a_clear_share_hallucinates_fails_the_default_gate(
        tmp_path: Path) -> None:
    db, _ = _eval(tmp_path, "mixed", _invented(_grounded(30), every=3))
    code, out = _gate(db)
    rows = _rows(out)
    assert code == 1 and out.rstrip().endswith("NOT READY"), out
    assert rows["judge.hallucination"][1].startswith("FAIL"), rows
    assert rows["trace.adherence"][1].startswith("FAIL"), rows


def test_an_llm_judges_run_keeps_its_targets(tmp_path: Path,
                                             monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("OPENAI_API_KEY", "sk-test")
    data, db = shaped_rows(tmp_path / "d.jsonl", 4), tmp_path / "llm.db"
    with ScriptedServer(content_replies) as server:
        run = ragassay.evaluate(str(data), "all", "openai:m", store=db, progress=False,
                                base_url=server.base_url)
    with Store(db, readonly=True) as store:
        specs = {s.name: s for s in store.get_run(run.run_id).specs}
    assert specs["ragas.faithfulness"].target is not None
    assert specs["ragas.faithfulness"].target.good == 0.9
    assert specs["judge.faithfulness"].target is not None
    assert specs["judge.faithfulness"].target.good == 9
    assert not any(s.soft for s in specs.values())
    code, out = _gate(db, run.run_id)
    said = " ".join(out.split())
    assert "ragas.faithfulness >= 0.9" in said and "judge.faithfulness >= 9" in said, out
    assert "soft" not in said


def test_a_metric_without_its_input_says_it_is_not_gated(
        grounded: tuple[Path, dict[str, Any]]) -> None:
    rows = _rows(_gate(grounded[0])[1])
    said = rows["ragas.context_recall"][1]
    assert said == ("NOT CHECKED (not gated, nothing to score: no reference answer on any "
                    "sample; a [thresholds] bar for it would require it)"), said


def test_peoples_row_says_its_rate_on_the_judges_base(tmp_path: Path) -> None:
    rows = _invented(_grounded(30), every=3)
    rows += [{"id": f"d{i}", "question": f"Who repaints locker {i}?",
              "contexts": [f"Locker {i} opens with the blue key card."],
              "answer": "I don't have information about that.",
              "labels": {"hallucinated": False}} for i in range(6)]
    db, _ = _eval(tmp_path, "declines", rows)
    config = tmp_path / "gate.toml"
    config.write_text('[thresholds]\n"judge.hallucination" = 0.6\n[corrected]\n'
                      "hallucinated = 0.6\n")
    _, out = _gate(db, "--config", str(config))
    people = next(v for k, v in _rows(out).items() if "people's hallucinated" in k)[1]
    # people's 10 of 36 on all samples, the judge's base the 30 it scored (6 declined)
    assert "estimate 0.278, all 36 samples labelled" in people, people
    assert "on the judge's base, the 30 judge.hallucination scored: people 0.333" in people


def test_only_a_run_judged_offline_alone_is_stored_at_the_soft_targets() -> None:
    from ragassay.metrics import get_suites
    from ragassay.runner.judging import run_specs
    from ragassay.types import RoutingPlan, RunConfig, Tier

    suites = get_suites(["judge", "ragas"])

    def bar(config: RunConfig) -> float | None:
        spec = next(s for s in run_specs(suites, config) if s.name == "ragas.faithfulness")
        return spec.gate

    offline = RunConfig(dataset="d", metrics=("judge", "ragas"))
    assert bar(offline) == 0.5
    assert bar(offline.model_copy(update={"judge": "openai:m"})) == 0.9
    # routed: offline first, an LLM for what it escalates; some values are an LLM's
    routed = offline.model_copy(update={"routing": RoutingPlan(tiers=(
        Tier(judges=("offline",)), Tier(judges=("openai:m",))), escalate_share=0.2)})
    assert bar(routed) == 0.9
