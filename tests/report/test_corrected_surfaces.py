"""Corrected estimates wherever a run's figures show: the JSON report (in its published
schema), `runs show` and the summary after `eval`, the HTML report and the dashboard's
overview; a run without labels has no such section anywhere."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import jsonschema
import pytest
from click.testing import CliRunner

from ragassay.cli import cli
from ragassay.report import REPORT_VERSION, build_report, schema, to_html
from ragassay.store import Store

EXAMPLE = Path(__file__).resolve().parents[2] / "examples" / "labels"


def run(*args: str) -> tuple[int, str]:
    result = CliRunner().invoke(cli, list(args))
    return result.exit_code, result.output


@pytest.fixture(scope="module")
def runs(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, str, str]:
    """One store: the example run with the example's 150 labels imported, and a run of
    a file with no labels at all (other content: the labels do not reach it)."""
    folder = tmp_path_factory.mktemp("surfaces")
    db = folder / "r.db"
    code, out = run("eval", str(EXAMPLE / "data.jsonl"), "--metrics", "judge", "--db", str(db))
    assert code == 0, out
    with Store(db) as store:
        labelled = store.latest_run().id  # type: ignore[union-attr]
    code, out = run("labels", "import", str(EXAMPLE / "labels.jsonl"), "--db", str(db))
    assert code == 0, out
    other = folder / "other.jsonl"
    other.write_text("".join(json.dumps({"id": f"o{i}", "question": f"Q{i}?",
                                         "contexts": [f"Fact {i}."], "answer": f"Fact {i}."})
                             + "\n" for i in range(5)))
    code, out = run("eval", str(other), "--metrics", "judge", "--db", str(db))
    assert code == 0, out
    with Store(db) as store:
        bare = store.latest_run().id  # type: ignore[union-attr]
    return db, labelled, bare


def _json(db: Path, run_id: str, tmp_path: Path) -> dict[str, Any]:
    out = tmp_path / f"{run_id}.json"
    code, text = run("report", run_id, "--db", str(db), "--format", "json", "--out", str(out))
    assert code == 0, text
    doc: dict[str, Any] = json.loads(out.read_text())
    return doc


def test_the_json_report_carries_the_corrected_section_in_its_schema(runs, tmp_path) -> None:
    db, labelled, _ = runs
    doc = _json(db, labelled, tmp_path)
    jsonschema.validate(doc, schema())
    cor = doc["corrected"]
    assert cor["min_labels"] == 30 and cor["confidence"] == 0.95
    (faith,) = [e for e in cor["estimates"]
                if e["metric"] == "judge.faithfulness" and e["strategy"] is None]
    assert faith["label"] == "hallucinated" and faith["n_labelled"] >= 150  # one text twice
    assert faith["ci_low"] <= faith["estimate"] <= faith["ci_high"]
    assert faith["labels_only"]["ci_low"] <= faith["labels_only"]["estimate"]
    # published like every statistic: rounded to 6 decimals
    assert faith["estimate"] == round(faith["estimate"], 6)
    assert doc["evaluation_metadata"]["report_version"] == REPORT_VERSION


def test_a_run_without_labels_has_no_corrected_section(runs, tmp_path) -> None:
    db, _, bare = runs
    assert "corrected" not in _json(db, bare, tmp_path)
    code, out = run("runs", "show", bare, "--db", str(db))
    assert code == 0 and "corrected estimates" not in out  # the section's table
    assert "no human labels yet: label 30 samples" in " ".join(out.split())  # the headline


def test_the_summary_prints_people_s_figures(runs) -> None:
    db, labelled, _ = runs
    code, out = run("runs", "show", labelled, "--db", str(db))
    assert code == 0, out
    assert "corrected estimates" in out and "hallucinated" in out
    with Store(db, readonly=True) as store:
        est = build_report(store, labelled, include_details=False).corrected
    assert est is not None
    faith = est.overall("judge.faithfulness")
    assert faith is not None and f"{faith.estimate:.3f}" in out


def test_too_few_labels_name_the_command_that_adds_some(tmp_path: Path) -> None:
    """10 of 40 samples labelled: labelling more would give an estimate (a run of fewer
    samples than one needs says it cannot: tests/cli/test_trial60_findings.py)."""
    data = tmp_path / "d.jsonl"
    data.write_text("".join(json.dumps({"id": f"s{i}", "question": f"Q{i}?",
                                        "contexts": [f"Fact {i}."], "answer": f"Fact {i}.",
                                        "labels": {"hallucinated": i % 3 == 0} if i < 10
                                        else {}}) + "\n"
                            for i in range(40)))
    db = tmp_path / "r.db"
    result = CliRunner().invoke(cli, ["eval", "-v", str(data), "--metrics", "judge", "--db",
                                      str(db)])
    assert result.exit_code == 0, result.output
    with Store(db) as store:
        run_id = store.latest_run().id  # type: ignore[union-attr]
    assert ("no corrected estimate of hallucinated: 10 labelled samples, fewer than the 30 a "
            f"corrected estimate needs (label more: ragassay annotate {run_id})") in result.output


def test_the_html_report_shows_the_estimates(runs) -> None:
    db, labelled, bare = runs
    with Store(db, readonly=True) as store:
        report = build_report(store, labelled, include_details=False)
        page = to_html(report)
        plain = to_html(build_report(store, bare, include_details=False))
    assert report.corrected is not None
    faith = report.corrected.overall("judge.faithfulness")
    assert faith is not None
    assert "<h2>People&#x27;s figures, corrected from human labels</h2>" in page
    assert f"[{faith.ci_low:.3f}, {faith.ci_high:.3f}]" in page
    assert "corrected from human labels" not in plain


def test_the_dashboard_overview_shows_the_estimates(runs) -> None:
    from streamlit.testing.v1 import AppTest

    from ragassay.ui.highlight import md_escape

    db, labelled, _ = runs
    app = Path(__file__).resolve().parents[2] / "src" / "ragassay" / "ui" / "app.py"
    at = AppTest.from_file(str(app), default_timeout=60)
    at.session_state["db"] = str(db)
    at.session_state["run_id"] = labelled
    at.run()
    at.switch_page("screens/overview.py").run()
    assert not at.exception, [e.value for e in at.exception]
    assert "People's figures, corrected from human labels" in [h.value for h in at.header]
    with Store(db, readonly=True) as store:
        cor = build_report(store, labelled, include_details=False).corrected
    assert cor is not None
    faith = cor.overall("judge.faithfulness")
    assert faith is not None
    cards = {m.label: m.value for m in at.metric}  # labels as written, Markdown escaped
    assert cards.get(md_escape("hallucinated (people)")) == f"{faith.estimate:.3f}"
