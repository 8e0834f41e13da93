"""The pytest plugin: the example test file passes (run from here, in its own session),
a failing threshold gives a readable message, and runs stay in the store."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

import ragassay
from ragassay.dataset import demo_dataset_path
from ragassay.store import Store
from ragassay.testing import assert_metrics, check_metrics

EXAMPLE = Path(__file__).resolve().parents[2] / "examples" / "pytest" / "test_rag_quality.py"


def _pytest(args: list[str], cwd: Path) -> subprocess.CompletedProcess[str]:
    # a fresh session, as a user's: the plugin comes from the installed entry point
    return subprocess.run([sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider",
                           "--rootdir", str(cwd), *args], capture_output=True, text=True,
                          cwd=cwd, timeout=600)


def test_the_example_test_file_passes_and_keeps_its_runs(tmp_path: Path) -> None:
    db = tmp_path / "qa.db"
    done = _pytest([str(EXAMPLE), "--ragassay-db", str(db)], tmp_path)
    assert done.returncode == 0, done.stdout + done.stderr
    assert "3 passed" in done.stdout
    assert f"ragassay: 3 run(s) stored in {db}" in done.stdout
    with Store(db, readonly=True) as store:
        runs = store.list_runs()
        assert len(runs) == 3 and all(r.status == "complete" for r in runs)
        names = sorted(r.dataset.rsplit("::", 1)[-1] for r in runs)
        assert names == ["test_golden_set_meets_the_release_bar",
                         "test_one_grounded_answer", "test_the_results_are_a_table"]
        assert all(r.dataset.startswith("pytest:") for r in runs)


def test_a_failing_threshold_names_the_metrics_and_the_worst_samples(tmp_path: Path) -> None:
    test = tmp_path / "test_bar.py"
    test.write_text(
        "from ragassay.dataset import demo_dataset_path\n"
        "from ragassay.testing import assert_metrics\n\n"
        "def test_bar(ragassay_eval):\n"
        "    run = ragassay_eval(demo_dataset_path(), metrics='ragas')\n"
        "    assert_metrics(run, {'ragas.faithfulness': 0.99, 'ragas.context_recall': 0.1},"
        " strict=True)\n\n"
        "def test_typo(ragassay_eval):\n"
        "    run = ragassay_eval(demo_dataset_path(), metrics='ragas')\n"
        "    assert_metrics(run, {'ragas.faithfulnes': 0.5})\n")
    done = _pytest([str(test), "--ragassay-db", str(tmp_path / "x.db")], tmp_path)
    assert done.returncode == 1
    out = done.stdout
    # the traceback points at the user's test line, not at the plugin's own frames
    # (`__tracebackhide__`; issue #44)
    assert "test_bar.py:6: AssertionError" in out and "test_bar.py:10: ValueError" in out
    assert "ragassay/testing/asserts.py" not in out and "raise AssertionError" not in out
    assert "1 of 2 metrics failed their thresholds" in out
    assert "FAIL ragas.faithfulness: CI lower bound" in out
    assert "PASS ragas.context_recall" in out
    assert "worst samples for ragas.faithfulness:" in out
    assert "q08-dense-k5 [dense-k5]" in out  # the least faithful answer of the demo


def test_strict_tests_the_lower_bound_not_the_mean(tmp_path: Path) -> None:
    run = ragassay.evaluate(demo_dataset_path(), metrics="ragas", store=tmp_path / "r.db")
    summary = run.summary().loc["ragas.faithfulness"]
    between = (summary["ci_low"] + summary["mean"]) / 2  # above the bound, below the mean
    assert_metrics(run, {"ragas.faithfulness": between})
    with pytest.raises(AssertionError, match="CI lower bound"):
        assert_metrics(run, {"ragas.faithfulness": between}, strict=True)
    check = check_metrics(run, {"ragas.faithfulness": between}, strict=True, worst=2)
    assert not check.passed and check.message.count("[bm25-k3]") + check.message.count(
        "[dense-k5]") == 2


def test_lower_is_better_and_unknown_metrics(tmp_path: Path) -> None:
    run = ragassay.evaluate(demo_dataset_path(), metrics="judge", store=tmp_path / "r.db")
    rate = run.summary().loc["judge.hallucination", "mean"]
    assert_metrics(run, {"judge.hallucination": rate + 0.01})
    # a yes/no verdict's figure is its rate (trial 55: "mean 0.5896 > 0.1")
    with pytest.raises(AssertionError, match=r"testing the mean \(a verdict's rate\)\)\n"
                                             r"(.|\n)*FAIL judge.hallucination: rate .* > "):
        assert_metrics(run, {"judge.hallucination": rate - 0.01})
    with pytest.raises(ValueError, match="did you mean judge.faithfulness"):
        assert_metrics(run, {"judge.faithfulnes": 5})
    # a 0-1 bar on a 1-10 metric would always pass: refused
    with pytest.raises(ValueError, match="judge.faithfulness = 0.8 is outside the metric's "
                       "range 1-10"):
        assert_metrics(run, {"judge.faithfulness": 0.8})


def test_one_sample_and_the_fixture_in_process(tmp_path: Path) -> None:
    from ragassay.testing import Evaluator

    with Store(tmp_path / "s.db") as store:
        evaluator = Evaluator(store, name="pytest:inline")
        run = evaluator.sample("How long is the trial?", "The trial lasts 14 days.",
                               ["The free trial lasts 14 days."], "14 days.",
                               metrics="ragas")
        assert evaluator.runs == [run]
        assert store.get_run(run.run_id).dataset == "pytest:inline"
        assert_metrics(run, {"ragas.faithfulness": 0.5})
        with pytest.raises(AssertionError, match="too few values"):
            assert_metrics(run, {"ragas.faithfulness": 0.5}, strict=True)


def test_without_thresholds_the_bars_are_the_gates_defaults(tmp_path: Path) -> None:
    """`check_metrics(run)` applies what `ragassay gate` applies without a config: the
    metrics' declared targets (under the offline judge their soft targets, the judge's
    own line: trial 65)."""
    from ragassay.stats import target_for

    run = ragassay.evaluate(demo_dataset_path(), metrics="ragas", store=tmp_path / "r.db")
    check = check_metrics(run)
    specs = run.report().metric_specs
    assert {c.metric: c.threshold for c in check.gate.checks} == {
        m: target_for(s).good for m, s in specs.items()} == {
        "ragas.faithfulness": 0.5, "ragas.answer_relevancy": 0.5,
        "ragas.context_precision": 0.5, "ragas.context_recall": 0.5}
