"""A judge's measured agreement with people travels with the run: report metadata, the
CLI summary, the gate's warnings."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from click.testing import CliRunner

import ragassay.judge.offline_judge as offline_judge
from ragassay.cli import cli
from ragassay.dataset import demo_dataset_path
from ragassay.judge import Agreement, Reliability, gate_warnings
from ragassay.types import RunReliability

TABLE = {"judge": "offline", "measured": "2026-12-01", "command": "loo.py",
         "metrics": {"ragas.faithfulness": {"statistic": "AUROC", "low": 0.62, "high": 0.81,
                                            "sets": ["a", "b", "c"], "lexical_low": 0.5,
                                            "lexical_high": 0.9},
                     "ragas.context_recall": {"statistic": "AUROC", "low": 0.74, "high": 0.8,
                                              "sets": ["a"]}}}


def test_a_line_per_metric() -> None:
    table = Reliability.model_validate(TABLE)
    first, second = table.lines(["ragas.faithfulness", "ragas.answer_relevancy"])
    assert first == ("offline judge, ragas.faithfulness: AUROC 0.62-0.81 on 3 unseen "
                     "human-labelled sets (lexical baseline 0.50-0.90)")
    assert second == "offline judge, ragas.answer_relevancy: no measured agreement with people"
    assert Agreement(low=0.7, high=0.7, sets=("x",)).describe("j", "m") == (
        "j judge, m: AUROC 0.70 on 1 unseen human-labelled set")
    one = Agreement(low=0.2305, high=0.2305, sets=("x",), lexical_low=0.0851,
                    lexical_high=0.0851, statistic="Spearman")
    assert one.describe("j", "m") == (  # one set: one figure each, not "0.09-0.09"
        "j judge, m: Spearman 0.23 on 1 unseen human-labelled set (lexical baseline 0.09)")


def test_gate_warnings() -> None:
    warnings = gate_warnings(RunReliability.model_validate(TABLE), [
        "ragas.faithfulness", "ragas.context_recall", "ragas.answer_relevancy"])
    assert warnings == [
        "warning: gating on ragas.faithfulness, whose offline judge agrees with people only "
        "at AUROC 0.62 on its worst unseen set (below 0.7)",
        "warning: gating on ragas.answer_relevancy, but the offline judge has no measured "
        "agreement with people on it",
    ]
    assert len(gate_warnings(None, ["x.y"])) == 1


def test_a_weak_agreement_on_one_set_names_it_not_its_worst() -> None:
    """Trial 66: `gate` warned "agrees with people only at Spearman 0.25 on its worst
    unseen set" where only one unseen set exists (judge.context_relevance: trec_dl2020),
    as if others were better; "worst" only where there are several, one set is named."""
    one = {"statistic": "Spearman", "low": 0.25, "high": 0.25, "sets": ["trec_dl2020"]}
    run = RunReliability.model_validate(TABLE | {"metrics": {"judge.context_relevance": one}})
    assert gate_warnings(run, ["judge.context_relevance"]) == [
        "warning: gating on judge.context_relevance, whose offline judge agrees with people "
        "only at Spearman 0.25 on its one unseen set, trec_dl2020 (below 0.7)"]
    several = Agreement(statistic="Spearman", low=0.25, high=0.6, sets=("a", "b"))
    assert several.weak("offline") == ("offline judge agrees with people only at Spearman "
                                       "0.25 on its worst unseen set (below 0.7)")
    assert Agreement(low=0.5, high=0.5).weak("j") == (
        "j judge agrees with people only at AUROC 0.50 on unseen data (below 0.7)")


@pytest.fixture
def measured_run(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> dict[str, str]:
    table = tmp_path / "reliability.json"
    table.write_text(json.dumps(TABLE))
    monkeypatch.setattr(offline_judge, "RELIABILITY_PATH", table)
    db = tmp_path / "r.db"
    result = CliRunner().invoke(cli, ["eval", "-v", str(demo_dataset_path()), "--metrics", "ragas",
                                      "--db", str(db), "--out", str(tmp_path / "r.json")])
    assert result.exit_code == 0, result.output
    return {"db": str(db), "report": str(tmp_path / "r.json"), "output": result.output}


def test_the_run_carries_its_judges_reliability(measured_run: dict[str, str]) -> None:
    meta = json.loads(Path(measured_run["report"]).read_text())["evaluation_metadata"]
    rel = meta["judge_reliability"]
    assert rel["metrics"]["ragas.faithfulness"]["low"] == 0.62
    assert rel["lines"]["ragas.faithfulness"].startswith("offline judge, ragas.faithfulness: "
                                                         "AUROC 0.62-0.81")
    summary = measured_run["output"]
    assert "offline judge, ragas.faithfulness: AUROC 0.62-0.81 on 3 unseen" in summary
    assert ("no held-apart agreement with people measured (on human-labelled sets it was "
            "not tuned on) for ragas.answer_relevancy") in " ".join(summary.split())


def test_the_gate_warns_about_weak_or_unmeasured_judges(measured_run: dict[str, str]) -> None:
    result = CliRunner().invoke(cli, ["gate", "--verbose", "--db", measured_run["db"]])
    assert "warning: gating on ragas.faithfulness, whose offline judge agrees with people " \
           "only at AUROC 0.62" in result.stderr
    assert "warning: gating on ragas.answer_relevancy, but the offline judge has no " \
           "measured agreement" in result.stderr
    assert "gating on ragas.context_recall" not in result.stderr  # 0.74: above the floor


def test_a_table_from_leave_one_dataset_out_figures(tmp_path: Path) -> None:
    from ragassay.judge.reliability import load_reliability

    figures = {"date": "2026-12-01", "command": "loo.py", "figures": [
        {"metric": "judge.faithfulness", "set": "a", "statistic": "AUROC", "value": 0.58,
         "baseline": 0.46},
        {"metric": "judge.faithfulness", "set": "b", "statistic": "AUROC", "value": 0.93,
         "baseline": 0.94},
        {"metric": "judge.context_relevance", "set": "t", "statistic": "Spearman",
         "value": 0.24, "baseline": None}]}
    path = tmp_path / "rel.json"
    path.write_text(json.dumps(figures))
    table = load_reliability(path, "offline")
    faith = table.of("judge.faithfulness")
    assert faith is not None and (faith.low, faith.high, faith.sets) == (0.58, 0.93, ("a", "b"))
    assert (faith.lexical_low, faith.lexical_high) == (0.46, 0.94)
    rel = table.of("judge.context_relevance")
    assert rel is not None and rel.statistic == "Spearman" and rel.lexical_low is None
    assert load_reliability(tmp_path / "none.json", "offline").metrics == {}


@pytest.mark.filterwarnings("ignore::DeprecationWarning")
def test_the_dashboard_shows_the_agreement(measured_run: dict[str, str]) -> None:
    from streamlit.testing.v1 import AppTest

    app = Path(__file__).resolve().parents[2] / "src" / "ragassay" / "ui" / "app.py"
    at = AppTest.from_file(str(app), default_timeout=60)
    at.session_state["db"] = measured_run["db"]
    at.run()
    at.switch_page("screens/overview.py").run()
    assert not at.exception, [e.value for e in at.exception]
    captions = [c.value.replace("\\", "") for c in at.caption]  # markdown-escaped text
    assert any("ragas.faithfulness: AUROC 0.62-0.81 on 3 unseen" in c for c in captions)


def test_a_range_never_mixes_statistics(tmp_path: Path) -> None:
    from ragassay.judge.reliability import load_reliability

    figures = {"date": "2026-12-01", "command": "loo.py", "figures": [
        {"metric": "judge.answer_similarity", "set": "evouna", "statistic": "AUROC",
         "value": 0.98, "baseline": 0.86},
        {"metric": "judge.answer_similarity", "set": "sas", "statistic": "Spearman",
         "value": 0.71, "baseline": 0.65}]}
    path = tmp_path / "rel.json"
    path.write_text(json.dumps(figures))
    sim = load_reliability(path, "offline").of("judge.answer_similarity")
    assert sim is not None and (sim.statistic, sim.low, sim.high, sim.sets) == (
        "AUROC", 0.98, 0.98, ("evouna",))


def test_a_metric_measured_on_the_runs_own_labels_is_not_said_unmeasured() -> None:
    """Trial 48: with 83 labels in the run the gate still said 'no measured agreement'."""
    warnings = gate_warnings(RunReliability.model_validate(TABLE), [
        "ragas.answer_relevancy", "judge.hallucination"],
        {"judge.hallucination": "AUROC 0.97 on 22 labels"})
    assert warnings == [
        "warning: gating on ragas.answer_relevancy, but the offline judge has no measured "
        "agreement with people on it",
        "note: gating on judge.hallucination, whose offline judge's agreement with people is "
        "measured in this run only (AUROC 0.97 on 22 labels), on no set it was not tuned on",
    ]


def test_a_weak_held_apart_figure_says_the_runs_own_one_holds_for_this_data() -> None:
    """Trial 69: the gate warned of AUROC 0.49 held apart a few lines from AUROC 0.87 on
    the run's own labels, nothing tying the two: the warning line now says the run's own
    figure is the one that holds for this data."""
    from ragassay.judge import gate_warning_summary

    weak = {"statistic": "AUROC", "low": 0.49, "high": 0.64, "sets": ["a", "b"]}
    run = RunReliability.model_validate(TABLE | {"metrics": {"judge.hallucination": weak}})
    in_run = {"judge.hallucination": "AUROC 0.87 on 144 labels"}
    [line] = gate_warning_summary(run, ["judge.hallucination"], in_run)
    assert line == (
        "warning: the offline judge agrees with people below 0.7 on an unseen set for 1 "
        "gated metric (this run's own figure, where its labels measure one, holds for this "
        "data):\n  judge.hallucination: AUROC 0.49, the "
        "lowest of 2 unseen sets (0.49-0.64); this run: AUROC 0.87 on 144 labels")
    [verbose] = gate_warnings(run, ["judge.hallucination"], in_run)
    assert verbose.endswith("; this run's own labels measure AUROC 0.87 on 144 labels, the "
                            "figure that holds for this data (the unseen sets are other "
                            "data)")
    [plain] = gate_warning_summary(run, ["judge.hallucination"])
    assert "this run" not in plain
