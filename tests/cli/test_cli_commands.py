"""The CLI in-process, on the bundled demo with the offline judge."""

from __future__ import annotations

import csv
import io
import json
from pathlib import Path

import pytest
from click.testing import CliRunner, Result

from ragassay.cli import cli


@pytest.fixture(scope="module")
def demo_run(tmp_path_factory: pytest.TempPathFactory, demo_data: Path) -> dict:
    tmp = tmp_path_factory.mktemp("cli")
    db, out = tmp / "r.db", tmp / "demo.json"
    result = CliRunner().invoke(cli, ["eval", "-v", str(demo_data), "--db", str(db), "--out",
                                      str(out), "--metrics", "judge"])
    assert result.exit_code == 0, result.output
    report = json.loads(out.read_text())
    return {"db": db, "report": report, "tmp": tmp, "output": result.output}


def run(*args: str) -> tuple[int, str]:
    result = CliRunner().invoke(cli, list(args))
    return result.exit_code, result.output


def test_eval_writes_every_report_section(demo_run: dict) -> None:
    report = demo_run["report"]
    for key in ("evaluation_metadata", "aggregate_metrics", "strategies", "rmse_metrics",
                "per_metric_statistics", "usage", "detailed_results", "interpretation",
                "correlations", "diagnostics"):
        assert key in report, key
    meta = report["evaluation_metadata"]
    assert meta["judge"] == "offline" and meta["total_samples"] == 24
    assert meta["prompt_versions"]["judge.scores"]
    assert set(report["strategies"]) == {"bm25-k3", "dense-k5"}
    for s in report["strategies"].values():
        assert {"avg_context_relevance", "avg_answer_similarity", "avg_faithfulness",
                "hallucination_rate", "total_questions", "failed_questions",
                "overall_of_averages"} <= set(s)
    entry = report["detailed_results"][0]
    assert {"id", "strategy", "metrics", "unscored", "reasoning"} <= set(entry)
    assert "judge suite per strategy" in demo_run["output"]


def test_one_overall_per_strategy_named_for_what_it_is(demo_run: dict) -> None:
    """Issue #29 item 2: the strategy table's overall is the mean of the strategy's
    samples' judge.overall (the aggregate's and the leaderboard's figure), said under the
    table; the formula of the averages is only in the JSON, under its own name."""
    out, report = demo_run["output"], demo_run["report"]
    assert "overall: the mean of the samples' own judge.overall scores" in out
    assert "overall_of_averages" not in out
    for name, s in report["strategies"].items():
        mean = s["metrics"]["judge.overall"]["mean"]
        row = next(line for line in out.splitlines() if line.startswith(f"│ {name} "))
        cells = [c.strip() for c in row.strip("│").split("│")]
        assert cells[5].startswith(f"{mean:.2f} ["), (name, cells)
        # the other figure differs here, which is why it is named apart
        assert round(s["overall_of_averages"], 2) != round(mean, 2)


def test_unscored_is_null_with_reason_never_nan(demo_run: dict) -> None:
    empty = [e for e in demo_run["report"]["detailed_results"] if not e["answer"].strip()]
    assert empty, "the demo has an empty answer"
    assert empty[0]["metrics"]["judge.faithfulness"] is None
    assert empty[0]["unscored"]["judge.faithfulness"] == "empty answer"


def test_bad_input_is_one_line_exit_2(tmp_path: Path) -> None:
    bad = tmp_path / "data.jsonl"
    bad.write_text('{"question": "q", "contexts": ["a"]}\n{"question": "q2", "contexts": 7}\n')
    code, out = run("eval", "-v", str(bad), "--db", str(tmp_path / "r.db"))
    assert code == 2
    assert out.strip().startswith("error: data.jsonl:2: 'contexts' must be a list of strings")
    assert len(out.strip().splitlines()) == 1


def test_skip_invalid_records_bad_rows_in_the_report(tmp_path: Path) -> None:
    bad = tmp_path / "data.jsonl"
    bad.write_text('{"question": "q", "contexts": ["a b"], "answer": "a"}\n'
                   '{"question": 3}\n')
    out = tmp_path / "r.json"
    code, text = run("eval", "-v", str(bad), "--db", str(tmp_path / "r.db"), "--skip-invalid",
                     "--metrics", "judge", "--out", str(out), "--quiet")
    assert code == 0, text
    report = json.loads(out.read_text())
    assert report["evaluation_metadata"]["invalid_samples"] == 1
    assert report["invalid_rows"][0]["source"] == "data.jsonl:2"
    assert [e["status"] for e in report["detailed_results"]] == ["ok", "failed"]


def test_missing_file_and_unknown_suite(tmp_path: Path) -> None:
    code, out = run("eval", "-v", str(tmp_path / "nope.jsonl"), "--db", str(tmp_path / "r.db"))
    assert code == 2 and out.startswith("error: ") and len(out.strip().splitlines()) == 1
    data = tmp_path / "d.jsonl"
    data.write_text('{"question": "q"}\n')
    code, out = run("eval", str(data), "--metrics", "judge,bogus", "--db", str(tmp_path / "r.db"))
    assert code == 2 and "unknown metric suite 'bogus'" in out


def test_report_formats(demo_run: dict, tmp_path: Path) -> None:
    db = str(demo_run["db"])
    code, text = run("report", "--db", db, "--format", "csv")
    assert code == 0
    rows = list(csv.DictReader(io.StringIO(text)))
    assert len(rows) == 24 * 5
    assert list(rows[0]) == ["run_id", "sample_id", "strategy", "metric", "value",
                             "unscored_reason", "abstained", "metadata.question_id",
                             "metadata.topic",
                             "metadata.note", "label.hallucination", "label.correct"]  # then labels
    assert (rows[0]["metadata.question_id"], rows[0]["metadata.topic"]) == (
        "q01", "rate-limits")
    # streamed to a file: the same CSV as rendering the whole report at once
    from ragassay.report import build_report, to_csv
    from ragassay.store import Store

    csv_path = tmp_path / "r.csv"
    code, _ = run("report", "--db", db, "--format", "csv", "--out", str(csv_path))
    assert code == 0
    with Store(demo_run["db"], readonly=True) as store:
        whole = to_csv(build_report(store, demo_run["report"]["evaluation_metadata"]["run_id"]))
    assert csv_path.read_text(encoding="utf-8") == whole == text
    json_path = tmp_path / "r.json"
    code, _ = run("report", "--db", db, "--out", str(json_path))
    assert code == 0
    streamed = json.loads(json_path.read_text(encoding="utf-8"))
    assert streamed["detailed_results"] == demo_run["report"]["detailed_results"]
    html_path = tmp_path / "r.html"
    code, _ = run("report", "--db", db, "--format", "html", "--out", str(html_path))
    assert code == 0
    html = html_path.read_text()
    assert "<svg" in html and "Metric correlations" in html and "<script" not in html


def test_exports_say_an_abstained_value_abstained(demo_run: dict, demo_data: Path,
                                                  tmp_path: Path) -> None:
    """Trial finding: the CSV and Parquet exports showed an abstained value ("I don't
    know") as an empty cell with no reason; its `abstained` column now says "correct"
    (trial 69: not `unscored_reason`, an abstention is not unscored), and an unscored
    value keeps its reason."""
    import pyarrow.parquet as pq

    code, text = run("report", "--db", str(demo_run["db"]), "--format", "csv")
    assert code == 0, text
    rows = {(r["sample_id"], r["metric"]): r for r in csv.DictReader(io.StringIO(text))}
    abstained = rows[("q11-bm25-k3", "judge.overall")]
    assert abstained["value"] == "" and abstained["unscored_reason"] == ""
    assert abstained["abstained"] == "correct"
    assert rows[("q11-bm25-k3", "judge.context_relevance")]["unscored_reason"] == ""
    assert any(r["value"] == "" and r["unscored_reason"] == "empty answer"
               for r in rows.values())
    assert all(r["unscored_reason"] or r["abstained"] for r in rows.values()
               if r["value"] == "")
    folder = tmp_path / "pq"
    code, out = run("eval", "-v", str(demo_data), "--db", str(tmp_path / "p.db"), "--metrics",
                    "judge", "--results-parquet", str(folder), "-q")
    assert code == 0, out
    table = pq.read_table(folder).to_pylist()
    got = {(r["sample_id"], r["metric"]): (r["unscored_reason"], r["abstained"])
           for r in table}
    assert got[("q11-bm25-k3", "judge.overall")] == (None, "correct")
    assert got == {k: (r["unscored_reason"] or None, r["abstained"] or None)
                   for k, r in rows.items()}


def test_runs_list_and_show(demo_run: dict) -> None:
    code, out = run("runs", "list", "--db", str(demo_run["db"]))
    run_id = demo_run["report"]["evaluation_metadata"]["run_id"]
    assert code == 0 and run_id in out
    code, out = run("runs", "show", run_id[:15], "--db", str(demo_run["db"]))
    assert code == 0 and "aggregate metrics" in out


def test_compare_strategies_within_a_run(demo_run: dict) -> None:
    run_id = demo_run["report"]["evaluation_metadata"]["run_id"]
    code, out = run("compare", run_id, "--strategy", "bm25-k3", "--strategy", "dense-k5",
                    "--json", "--db", str(demo_run["db"]))
    assert code == 0, out
    result = json.loads(out)
    assert result["paired_samples"] == 12
    assert result["metrics"]["judge.faithfulness"]["verdict"] in (
        "better", "worse", "equivalent", "unclear")
    code, out = run("compare", run_id, "--strategy", "nope", "--strategy", "dense-k5",
                    "--db", str(demo_run["db"]))
    assert code == 2 and "no strategy 'nope'" in out


def test_gate_exit_codes(demo_run: dict, tmp_path: Path) -> None:
    db = str(demo_run["db"])
    mean = demo_run["report"]["aggregate_metrics"]["metrics"]["judge.context_relevance"]
    ok = tmp_path / "ok.toml"
    ok.write_text(f'[thresholds]\n"judge.context_relevance" = {mean["mean"] - 0.5}\n')
    code, out = run("gate", "--db", db, "--config", str(ok))
    assert code == 0 and "READY" in out and "PASS" in out
    # the lower confidence bound is below the mean: a threshold between them fails --strict
    mid = (mean["mean"] + mean["ci_low"]) / 2
    ok.write_text(f'[thresholds]\n"judge.context_relevance" = {mid}\n')
    assert run("gate", "--db", db, "--config", str(ok))[0] == 0
    code, out = run("gate", "--db", db, "--config", str(ok), "--strict")
    assert code == 1 and "NOT READY" in out
    bad = tmp_path / "bad.toml"
    bad.write_text('[thresholds]\n"judge.faithfulness" = "high"\n')
    code, out = run("gate", "--db", db, "--config", str(bad))
    assert code == 2 and 'thresholds."judge.faithfulness" must be a number' in out


def test_gate_strict_titles_the_bound_of_either_direction(demo_run: dict,
                                                          tmp_path: Path) -> None:
    """New-user trial 63: `gate --strict` titled its table "(lower 95% bound)" while the
    hallucination rate, lower is better, was rightly checked on its upper bound ("CI
    upper bound 0.7308 > 0.1"). The title names the bound on the failing side of both."""
    config = tmp_path / "strict.toml"
    config.write_text('[thresholds]\n"judge.context_relevance" = 1.5\n'
                      '"judge.hallucination" = 0.99\n')
    code, out = run("gate", "--db", str(demo_run["db"]), "--config", str(config), "--strict")
    said = " ".join(out.split())
    assert code in (0, 1) and "lower 95% bound" not in said
    assert ("(the 95% CI's conservative bound: the lower one, the upper where lower is "
            "better)") in said
    assert "CI upper bound" in said and "CI lower bound" in said  # the rows: one of each


def _calibrate(demo_run: dict, tmp_path: Path, *extra: str) -> Result:
    """`calibrate --json` of the demo run against a label no metric is named after."""
    report = demo_run["report"]
    labels = tmp_path / "labels.jsonl"
    labels.write_text("\n".join(json.dumps({"id": e["id"], "human_faithful": not e["labels"][
        "hallucination"]}) for e in report["detailed_results"]))
    run_id = report["evaluation_metadata"]["run_id"]
    return CliRunner().invoke(cli, ["calibrate", run_id, "--labels", str(labels), "--json",
                                    "--db", str(demo_run["db"]), *extra])


def test_calibrate_joins_labels_by_id(demo_run: dict, tmp_path: Path) -> None:
    done = _calibrate(demo_run, tmp_path)
    assert done.exit_code == 0, done.output
    result = json.loads(done.stdout)
    assert result["joined"] == 24
    # "human_faithful" matches no metric by name: listed, with how to link it, not dropped
    assert result["unlinked_labels"] == ["human_faithful"]
    assert not any(p["label"] == "human_faithful" for p in result["pairs"])
    warning = done.stderr.strip().splitlines()
    assert len(warning) == 1 and "human_faithful" in warning[0]
    assert "--link human_faithful=" in warning[0]


def test_calibrate_links_a_label_given_with_link(demo_run: dict, tmp_path: Path) -> None:
    done = _calibrate(demo_run, tmp_path, "--link", "human_faithful=judge.faithfulness",
                      "--link", "human_faithful=1-judge.hallucination")
    assert done.exit_code == 0, done.output
    result = json.loads(done.stdout)
    assert result["unlinked_labels"] == [] and done.stderr == ""
    pairs = {(p["label"], p["metric"]): p for p in result["pairs"]}
    assert not pairs[("human_faithful", "judge.faithfulness")]["inverted"]
    assert pairs[("human_faithful", "judge.hallucination")]["inverted"]
    # a misspelt metric is refused by the common metric-name rule
    bad = _calibrate(demo_run, tmp_path, "--link", "human_faithful=judge.faithfulnes")
    assert bad.exit_code == 2
    assert bad.output.startswith("error: --link human_faithful=judge.faithfulnes: unknown "
                                 "metric 'judge.faithfulnes' (did you mean judge.faithfulness?)")
    assert bad.output.count("\n") == 1


def test_meta_eval_reports_agreement_and_baseline(demo_data: Path, tmp_path: Path) -> None:
    out = tmp_path / "m.json"
    code, text = run("meta-eval", str(demo_data), "--metrics", "judge", "--db",
                     str(tmp_path / "m.db"), "--out", str(out), "--n-resamples", "200", "-q")
    assert code == 0, text
    result = json.loads(out.read_text())
    pairs = {(p["label"], p["metric"]): p for p in result["calibration"]["pairs"]}
    assert ("hallucination", "judge.hallucination") in pairs
    hall = pairs[("hallucination", "judge.hallucination")]
    assert 0.0 <= hall["auroc"] <= 1.0 and hall["n"] > 0
    base = {e["metric"]: e for e in result["beats_baseline"]}["judge.hallucination"]
    assert base["n"] == hall["n"]  # the baseline on the judge's own samples
    assert "lexical baseline" in text


def test_meta_eval_says_when_the_baseline_ranks_below_chance(tmp_path: Path) -> None:
    """A new-user trial: "beats baseline: yes" against a lexical baseline below chance.
    Here every hallucinated answer copies its context's words with one figure changed and
    every faithful one paraphrases it, so word overlap ranks the label backwards."""
    from tests.support.cli import reworded_rows

    data, out = reworded_rows(tmp_path / "probes.jsonl"), tmp_path / "m.json"
    code, text = run("meta-eval", str(data), "--metrics", "judge", "--db",
                     str(tmp_path / "m.db"), "--out", str(out), "--n-resamples", "200", "-q")
    assert code == 0, text
    entries = json.loads(out.read_text())["beats_baseline"]
    base = entries[0]["auroc"]
    assert base < 0.5  # kept in its fixed direction, not flipped
    assert (f"note: hallucinated: word overlap alone tells people's labels apart "
            f"{1 - base:.2f} of the time here (it points the wrong way: answers people marked "
            "hallucinated reuse more of their passages' words than the rest)"
            ) in " ".join(text.split())
    # the beats-baseline cell and the JSON say the same, against the reversed baseline
    # (trial 66: `yes, but lower bound ...` was read as yes): the first word is the verdict
    got = json.loads(out.read_text())
    pairs = {p["metric"]: p for p in got["calibration"]["pairs"]}
    flat = " ".join(text.split())
    for entry in got["beats_baseline"]:
        point, low = pairs[entry["metric"]]["auroc"], pairs[entry["metric"]]["auroc_ci"][0]
        rev = f"reversed baseline {1 - base:.3f}"
        want = (f"yes: lower bound {low:.3f} > {rev}" if low > 1 - base
                else f"unclear: lower bound {low:.3f} <= {rev} < AUROC {point:.3f}"
                if point > 1 - base else f"no: AUROC {point:.3f} <= {rev}")
        assert entry["beats"] == want and entry["verdict"] == want.split(":")[0]
        assert want.split(":")[0] + ":" in flat  # the console's cell starts with it
    assert {e["metric"] for e in got["beats_baseline"]} >= {"judge.hallucination"}


def test_trend_over_runs_of_the_same_dataset(demo_run: dict, demo_data: Path) -> None:
    db = str(demo_run["db"])
    code, out = run("eval", "-v", str(demo_data), "--db", db, "--metrics", "judge", "--quiet")
    assert code == 0, out
    dataset = demo_run["report"]["evaluation_metadata"]["dataset"]
    code, out = run("trend", dataset, "--metric", "judge.overall", "--json", "--db", db)
    assert code == 0, out
    points = json.loads(out)["judge.overall"]
    assert len(points) == 2
    assert points[1]["delta"] == pytest.approx(0.0)  # same data, same offline judge
    code, out = run("trend", "nope.jsonl", "--db", db)
    assert code == 2 and "no complete run" in out


def test_the_summary_prints_every_metric_below_its_warning_level(tmp_path: Path) -> None:
    """Every suite on answers that invent beside passages about something else: the
    console lists each warning the report has (it printed only those among the first 8
    flags, 5 of 7 on the demo; under the offline judge's own lines the demo has 3, so
    rows that miss on every side)."""
    data, out = tmp_path / "bad.jsonl", tmp_path / "all.json"
    data.write_text("".join(json.dumps({
        "id": f"b{i}", "question": f"When does the pool on level {i} open?",
        "contexts": [f"Parking bay {i} is reserved for delivery vans.",
                     f"The gift shop sells postcards of harbour {i}."],
        "answer": f"The pool on level {i} opens at dawn and serves free champagne.",
        "reference": f"The pool on level {i} opens at 7am."}) + "\n" for i in range(12)))
    result = CliRunner().invoke(cli, ["eval", "-v", str(data), "--db", str(tmp_path / "r.db"),
                                      "--out", str(out)])
    assert result.exit_code == 0, result.output
    flags = [f for f in json.loads(out.read_text())["interpretation"]
             if f["level"] == "warning" and f["scope"] == "overall"]
    assert len(flags) > 5
    shown = [line for line in result.output.splitlines() if line.startswith("warning ")]
    assert len(shown) == min(len(flags), 10) + (len(flags) > 10)
    for f in flags[:10]:
        assert any(f["metric"] in line for line in shown), f["metric"]
