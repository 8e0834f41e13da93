"""Annotators as people through the CLI: two people's labels of one sample are both kept
(import, export, annotate), one person relabelling replaces only their own; the label
rule (`--label-rule majority|annotator:NAME`) changes the corrected figures and every
output names it; agreement between people (alpha, kappa per pair) in calibrate, the
summary and the report (JSON, HTML), or one line saying why it is absent."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner

from ragassay.cli import cli
from ragassay.report.model import REPORT_VERSION
from ragassay.store import Store
from tests.support.annotated_run import make_run

EXAMPLE = Path(__file__).resolve().parents[2] / "examples" / "labels"
SECOND = 60  # samples the second annotator labels (the first 60 of the lead's 150)


def run(*args: str) -> tuple[int, str]:
    result = CliRunner().invoke(cli, list(args), env={"COLUMNS": "200"})
    return result.exit_code, result.output


def second_file(folder: Path, flip_every: int = 3, who: str = "second") -> Path:
    """The lead's first 60 labels as a second person gives them: every third flipped."""
    rows = [json.loads(line) for line in (EXAMPLE / "labels.jsonl").read_text().splitlines()]
    out = []
    for i, row in enumerate(rows[:SECOND]):
        value = row["hallucinated"] if i % flip_every else not row["hallucinated"]
        out.append({"id": row["id"], "hallucinated": value, "annotator": who})
    path = folder / f"{who}.jsonl"
    path.write_text("".join(json.dumps(r) + "\n" for r in out))
    return path


@pytest.fixture(scope="module")
def example_db(tmp_path_factory: pytest.TempPathFactory) -> Path:
    db = tmp_path_factory.mktemp("people") / "r.db"
    code, out = run("eval", str(EXAMPLE / "data.jsonl"), "--metrics", "judge", "--db", str(db))
    assert code == 0, out
    return db


@pytest.fixture
def db(example_db: Path, tmp_path: Path) -> Path:
    copy = tmp_path / "r.db"
    with Store(example_db) as src, Store(copy) as dst:
        src.conn.backup(dst.conn)
    return copy


def two_people(db: Path, folder: Path) -> None:
    code, out = run("labels", "import", str(EXAMPLE / "labels.jsonl"), "--db", str(db))
    assert code == 0, out
    code, out = run("labels", "import", str(second_file(folder)), "--db", str(db))
    assert code == 0, out
    assert ("kept beside 60 labels other annotators gave the same samples (support-lead 60;"
            " 20 with another value)") in out


def test_two_peoples_labels_are_both_kept_and_exported_one_row_each(db: Path,
                                                                     tmp_path: Path) -> None:
    two_people(db, tmp_path)
    code, text = run("labels", "export", "--db", str(db))
    assert code == 0, text
    rows = [json.loads(line) for line in text.splitlines()]
    by_id: dict[str, dict[str, Any]] = {}
    for r in rows:
        if r.get("source") != "data":
            by_id.setdefault(r["id"], {})[r["annotator"]] = r["value"]
    both = [i for i, people in by_id.items() if set(people) == {"support-lead", "second"}]
    assert len(both) == SECOND
    assert sum(by_id[i]["support-lead"] != by_id[i]["second"] for i in both) == 20
    # the second person relabels: only their own labels are replaced
    code, out = run("labels", "import", str(second_file(tmp_path, flip_every=1000)),
                    "--db", str(db))
    assert code == 0, out
    with Store(db, readonly=True) as store:
        labels = list(store.iter_labels("hallucinated"))
    assert sum(x.annotator == "second" for x in labels) == SECOND
    assert sum(x.annotator == "support-lead" for x in labels) == 150


def _report(db: Path, *rule: str) -> dict[str, Any]:
    code, out = run("report", "--db", str(db), *rule)
    assert code == 0, out
    return json.loads(out)


def test_the_rule_changes_the_corrected_estimate_and_the_report_names_it(
        db: Path, tmp_path: Path) -> None:
    two_people(db, tmp_path)
    majority = _report(db)
    lead = _report(db, "--label-rule", "annotator:support-lead")
    second = _report(db, "--label-rule", "annotator:second")
    assert majority["evaluation_metadata"]["report_version"] == REPORT_VERSION
    assert majority["corrected"]["label_rule"] == "majority"
    assert majority["annotators"]["rule"] == "majority"
    # majority: 60 samples with two labels, 20 of them a tie (left out); 91 with one
    # (the lead's 150 labelled interactions are 151 samples: one is there twice)
    assert majority["corrected"]["label_sources"]["hallucinated"] == {
        "by_count": {"1": 91, "2": 40}, "ties": 20, "data": 0}
    assert second["corrected"]["label_rule"] == "annotator:second"
    assert second["corrected"]["label_sources"]["hallucinated"] == {
        "by_count": {"1": 60}, "ties": 0, "data": 0}

    def labelled(report: dict[str, Any]) -> tuple[int, float]:
        est = next(e for e in report["corrected"]["estimates"] if e["strategy"] is None)
        return est["n_labelled"], est["estimate"]

    assert labelled(majority)[0] == 131 and labelled(lead)[0] == 151
    assert labelled(second)[0] == 60
    assert len({labelled(r)[1] for r in (majority, lead, second)}) == 3
    # agreement between the two people: alpha and their kappa, with intervals
    people = majority["annotators"]["labels"]["hallucinated"]
    assert people["annotators"] == ["second", "support-lead"] and people["samples"] == 150
    agreement = people["agreement"]
    assert agreement["level"] == "nominal" and agreement["samples"] == SECOND
    (pair,) = agreement["pairs"]
    assert (pair["first"], pair["second"], pair["samples"]) == ("second", "support-lead", 60)
    assert pair["ci_low"] < pair["kappa"] < pair["ci_high"] < 1
    assert agreement["ci_low"] < agreement["alpha"] < agreement["ci_high"]


def test_html_console_and_calibrate_show_the_agreement_and_the_rule(db: Path,
                                                                     tmp_path: Path) -> None:
    two_people(db, tmp_path)
    code, out = run("report", "--db", str(db), "--format", "html", "--label-rule",
                    "annotator:second")
    assert code == 0, out
    assert "Agreement between people" in out and "Cohen&#x27;s kappa second vs support-lead" in out
    assert "people&#x27;s labels read by rule annotator:second" in out
    code, out = run("runs", "show", "--db", str(db))
    assert code == 0, out
    assert "agreement between people (labels read by rule majority)" in out
    assert "Krippendorff's alpha (nominal)" in out
    assert ("people's labels read by rule majority; hallucinated: 131 samples: 91 from 1 "
            "label, 40 from 2 labels; 20 ties left out") in out
    with Store(db, readonly=True) as store:
        run_id = store.latest_run().id  # type: ignore[union-attr]
    code, out = run("calibrate", run_id, "--db", str(db))  # the run's own labels
    assert code == 0, out
    assert "Cohen's kappa second vs support-lead" in out and "rule majority" in out
    code, out = run("calibrate", run_id, "--db", str(db), "--json", "--label-rule",
                    "annotator:support-lead")
    body = json.loads(out)
    assert body["label_rule"] == "annotator:support-lead"
    assert body["annotators"]["labels"]["hallucinated"]["agreement"]["pairs"][0]["samples"] == 60
    code, out = run("gate", run_id, "--db", str(db), "--corrected", "--label-rule",
                    "annotator:second")
    assert "people's labels read by rule annotator:second; hallucinated: 60 samples" in out


def test_one_annotator_says_why_agreement_is_absent(db: Path) -> None:
    code, out = run("labels", "import", str(EXAMPLE / "labels.jsonl"), "--db", str(db))
    assert code == 0, out
    report = _report(db)
    people = report["annotators"]["labels"]["hallucinated"]
    assert "agreement" not in people
    assert people["absent"] == "one annotator: agreement between people not measurable"
    code, out = run("runs", "show", "--db", str(db))
    assert "one annotator: agreement between people not measurable" in out


def test_a_bad_rule_is_one_line(db: Path) -> None:
    code, out = run("report", "--db", str(db), "--label-rule", "mean")
    assert code == 2
    assert "label rule 'mean' is not 'majority' or 'annotator:NAME'" in out
    assert "Traceback" not in out


def test_a_second_annotator_is_asked_what_the_first_labelled(tmp_path: Path) -> None:
    db = tmp_path / "a.db"
    with Store(db) as store:
        r = make_run(store, 40)
    args = ["annotate", r.run_id, "--label", "hallucinated", "--db", str(db)]
    result = CliRunner().invoke(cli, [*args, "--annotator", "ana"], input="n\ny\nq\n")
    assert result.exit_code == 0, result.output
    result = CliRunner().invoke(cli, [*args, "--annotator", "bo"], input="y\nq\n")
    assert result.exit_code == 0, result.output
    # bo starts where ana started: the first sample still needs bo's label
    firsts = [line for line in result.output.splitlines() if line.startswith("-- sample ")]
    assert firsts[0].startswith("-- sample 1 of 40")
    assert "1 of 40 samples labelled by bo" in result.output
    with Store(db, readonly=True) as store:
        got = sorted((x.annotator, x.value) for x in store.iter_labels())
    first = r.key(r.index(store_first(db, "ana")))
    assert got == [("ana", False), ("ana", True), ("bo", True)]
    with Store(db, readonly=True) as store:
        both = {x.annotator: x.value for x in store.people_labels([first])}
    assert both == {"ana": False, "bo": True}


def store_first(db: Path, who: str) -> str:
    """The content key of the first label `who` gave."""
    with Store(db, readonly=True) as store:
        return next(x.content_key for x in store.iter_labels() if x.annotator == who)
