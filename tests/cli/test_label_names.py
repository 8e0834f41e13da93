"""Trial 50: a label name with a typo in the data file (`halucinated`) was ignored without
a word (exit 0, "no labels", nothing skipped in the report). `eval` now warns in one line
per such name, the run goes on, and the JSON report lists it as skipped with the reason
and the name it is close to; a label of the user's own that no metric is compared with is
said once as a note and listed the same way; labels the vocabulary knows stay silent."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from tests.cli.test_setup_mistakes import good, invoke, rows

TYPO = ("warning: label 'halucinated' (on 4 rows) is no label ragassay knows: did you "
        "mean 'hallucinated'? (rename the key in the data; as it is, it is a label of your "
        "own that no metric is compared with)")


def _labelled(tmp_path: Path, labels: dict[str, object]) -> Path:
    return rows(tmp_path / "d.jsonl", [good(i, labels=labels) for i in range(4)])


def _report(tmp_path: Path, data: Path) -> tuple[str, dict]:
    out = tmp_path / "r.json"
    result = invoke("eval", data, "--db", tmp_path / "r.db", "-q", "--metrics", "judge",
                    "--out", out)
    assert result.exit_code == 0, result.output
    return result.stderr, json.loads(out.read_text(encoding="utf-8"))


def test_a_typo_in_a_label_name_is_warned_and_listed_as_skipped(tmp_path: Path) -> None:
    stderr, report = _report(tmp_path, _labelled(tmp_path, {"halucinated": False}))
    assert stderr.count("halucinated") == 1, stderr
    assert TYPO in stderr.splitlines()
    reason = TYPO.split(" is ", 1)[1]
    cal = [s for s in report["calibration"]["skipped"] if s["label"] == "halucinated"]
    assert cal == [{"label": "halucinated", "metric": None, "reason": reason,
                    "near_miss": "hallucinated"}]
    cor = [s for s in report["corrected"]["skipped"] if s["label"] == "halucinated"]
    assert len(cor) == 1
    assert cor[0]["metric"] is None and cor[0]["reason"] == reason
    assert cor[0]["near_miss"] == "hallucinated"


def test_a_label_of_ones_own_linked_to_no_metric_is_noted_once(tmp_path: Path) -> None:
    stderr, report = _report(tmp_path, _labelled(tmp_path, {"team_score": 3}))
    lines = [line for line in stderr.splitlines() if "team_score" in line]
    assert lines == ["note: label 'team_score' (on 4 rows) is not linked to any metric (a "
                     "label of your own is compared with a metric of its name; link it "
                     "with ragassay calibrate RUN --link team_score=METRIC)"]
    skipped = [s for s in report["corrected"]["skipped"] if s["label"] == "team_score"]
    assert [s["metric"] for s in skipped] == [None]
    assert "near_miss" not in skipped[0]


@pytest.mark.parametrize("labels", [{"hallucinated": False}, {"hallucination": True},
                                    {"faithfulness": 1}])
def test_labels_the_vocabulary_knows_are_not_mentioned(tmp_path: Path,
                                                       labels: dict[str, object]) -> None:
    stderr, report = _report(tmp_path, _labelled(tmp_path, labels))
    name = next(iter(labels))
    assert name not in stderr, stderr
    assert all(s["metric"] is not None for s in report["calibration"]["skipped"])


def test_meta_eval_says_it_too(tmp_path: Path) -> None:
    data = rows(tmp_path / "d.jsonl", [good(i, labels={"halucinated": i % 2 == 0,
                                                       "hallucinated": i % 2 == 1})
                                       for i in range(4)])
    result = invoke("meta-eval", data, "--db", tmp_path / "r.db", "-q", "--metrics", "judge",
                    "--n-resamples", "100")
    assert result.exit_code == 0, result.output
    assert TYPO in result.stderr.splitlines()


def test_a_vocabulary_label_whose_metrics_are_not_in_the_run_is_noted(tmp_path: Path) -> None:
    out = tmp_path / "r.json"
    result = invoke("eval", _labelled(tmp_path, {"correct": True}), "--db", tmp_path / "r.db",
                    "-q", "--metrics", "ragas", "--out", out)
    assert result.exit_code == 0, result.output
    lines = [line for line in result.stderr.splitlines() if "'correct'" in line]
    assert lines == ["note: label 'correct' (on 4 rows) is compared with no metric of this "
                     "run (the metrics that declare it are in other suites)"]
    skipped = json.loads(out.read_text())["corrected"]["skipped"]
    assert [s["metric"] for s in skipped if s["label"] == "correct"] == [None]
