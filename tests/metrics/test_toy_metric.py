"""A metric is one declaration: a toy suite registered here, in this file only, shows in
the report, the gate, the CSV and the dashboard without any other package knowing it."""

from __future__ import annotations

import csv
import io
from pathlib import Path
from typing import Any, ClassVar

import pytest
from click.testing import CliRunner

import ragassay.metrics as metrics
from ragassay.cli import cli
from ragassay.dataset import demo_dataset_path, iter_samples
from ragassay.judge import Asker
from ragassay.judge.offline import Evidence
from ragassay.metrics import Outcome, Suite, SuiteOptions
from ragassay.metrics.base import outcome
from ragassay.report import SampleEntry, build_report
from ragassay.runner import evaluate
from ragassay.store import Store
from ragassay.text import KeyedSample
from ragassay.types import MetricResult, MetricSpec, Rule, RunConfig, Target, below

pytestmark = pytest.mark.filterwarnings("ignore::DeprecationWarning")

BRIEF = MetricSpec(
    name="toy.brevity", label="Brevity", low=0, high=1, gate=True, headline=1,
    target=Target(good=0.9, warning=0.3), description="1 - answer characters / 400",
    rules=(Rule(name="answers_run_long", conditions=(below("toy.brevity", 0.5),),
                message="Answers run long.", fix="Ask for shorter answers."),),
)


def brevity(answer: str) -> float:
    """The toy formula."""
    return max(0.0, 1.0 - len(answer) / 400)


class ToySuite(Suite):
    name: ClassVar[str] = "toy"
    specs: ClassVar[tuple[MetricSpec, ...]] = (BRIEF,)

    def _score(self, item: KeyedSample) -> Outcome:
        value = brevity(item.answer_text)
        return outcome(self.name, item.sample, [MetricResult(name=BRIEF.name, value=value)])

    async def evaluate(self, item: KeyedSample, judge: Asker, options: SuiteOptions) -> Outcome:
        return self._score(item)

    def evaluate_offline(self, item: KeyedSample, evidence: Evidence, options: SuiteOptions
                         ) -> Outcome:
        return self._score(item)


@pytest.fixture
def toy_run(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> dict[str, Any]:
    monkeypatch.setitem(metrics._registered, "toy", ToySuite)
    db = tmp_path / "toy.db"
    config = RunConfig(dataset=str(demo_dataset_path()), metrics=("judge", "toy"))
    with Store(db) as store:
        run_id = evaluate(iter_samples(demo_dataset_path()), config, store=store).run_id
        report = build_report(store, run_id)
    # from here on, nothing knows the suite: what follows reads the specs stored with the run
    monkeypatch.delitem(metrics._registered, "toy")
    return {"db": db, "run": run_id, "report": report}


def test_the_toy_metric_is_in_the_report(toy_run: dict[str, Any]) -> None:
    report = toy_run["report"]
    answers = [d.answer for d in report.entries if isinstance(d, SampleEntry)]
    mean = sum(brevity(a) for a in answers) / len(answers)
    assert report.aggregate_metrics.metrics["toy.brevity"].mean == pytest.approx(mean)
    assert report.metric_specs["toy.brevity"].gate == 0.9  # gate=True: its target's good
    flags = {f.metric: f for f in report.interpretation}
    assert "target >= 0.9" in flags["toy.brevity"].message  # its own target
    assert "answers_run_long" in {d.rule for d in report.diagnostics}


def test_the_gate_uses_the_toy_threshold(toy_run: dict[str, Any]) -> None:
    result = CliRunner().invoke(cli, ["gate", toy_run["run"], "--db", str(toy_run["db"])])
    assert "toy.brevity >= 0.9; set your own" in result.stderr  # its target
    assert "│ toy.brevity" in result.stdout


def test_the_csv_has_the_toy_metric(toy_run: dict[str, Any]) -> None:
    result = CliRunner().invoke(cli, ["report", toy_run["run"], "--db", str(toy_run["db"]),
                                      "--format", "csv"])
    assert result.exit_code == 0, result.output
    rows = [r for r in csv.DictReader(io.StringIO(result.output)) if r["metric"] == "toy.brevity"]
    assert len(rows) == 24 and all(0 <= float(r["value"]) <= 1 for r in rows)


def test_the_dashboard_shows_the_toy_metric_first(toy_run: dict[str, Any]) -> None:
    from streamlit.testing.v1 import AppTest

    app = Path(__file__).resolve().parents[2] / "src" / "ragassay" / "ui" / "app.py"
    at = AppTest.from_file(str(app), default_timeout=60)
    at.session_state["db"] = str(toy_run["db"])
    at.session_state["run_id"] = toy_run["run"]
    at.run()
    at.switch_page("screens/overview.py").run()
    assert not at.exception, [e.value for e in at.exception]
    aggregates = [m for m in at.metric if m.proto.help.startswith("95% CI")]
    assert aggregates[0].label == "Brevity"  # its declared label, first by its headline place
