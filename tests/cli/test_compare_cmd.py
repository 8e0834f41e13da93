"""`ragassay compare` says how large a difference is, not only whether it is there: the
difference with its interval, Cohen's d, the Wilcoxon and equivalence tests and a
verdict of four (issue #44 item 1); `--equivalence` overrides the metrics' margins."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from click.testing import CliRunner

from ragassay.cli import cli


@pytest.fixture(scope="module")
def demo_db(tmp_path_factory: pytest.TempPathFactory, demo_data: Path) -> tuple[Path, str]:
    db = tmp_path_factory.mktemp("compare") / "r.db"
    result = CliRunner().invoke(cli, ["eval", str(demo_data), "--db", str(db), "--metrics",
                                      "judge", "--quiet"])
    assert result.exit_code == 0, result.output
    out = CliRunner().invoke(cli, ["runs", "list", "--db", str(db), "--format", "json"])
    return db, json.loads(out.output)[0]["id"]


def compare(db: Path, run_id: str, *extra: str) -> tuple[int, str]:
    result = CliRunner().invoke(cli, ["compare", run_id, "--strategy", "bm25-k3", "--strategy",
                                      "dense-k5", "--db", str(db), *extra])
    return result.exit_code, result.output


def two_runs(db: Path, a: Path, b: Path) -> tuple[str, str]:
    """Run ids of `eval --metrics judge` over a, then b, into one store."""
    for data in (a, b):
        result = CliRunner().invoke(cli, ["eval", str(data), "--db", str(db), "--metrics",
                                          "judge", "--quiet"])
        assert result.exit_code == 0, result.output
    out = CliRunner().invoke(cli, ["runs", "list", "--db", str(db), "--format", "json"])
    newer, older = (r["id"] for r in json.loads(out.output))
    return older, newer


def test_each_metric_shows_its_effect_size_margin_and_a_verdict_of_four(
        demo_db: tuple[Path, str]) -> None:
    code, out = compare(*demo_db, "--json")
    assert code == 0, out
    result = json.loads(out)
    for name, m in result["metrics"].items():
        assert m["verdict"] in ("better", "worse", "equivalent", "unclear"), name
        assert {"diff", "ci_low", "ci_high", "effect_size", "wilcoxon_p", "p_adjusted",
                "margin", "tost_p", "tost_p_adjusted", "constant"} <= set(m)
    # the margins are the ones declared on the metrics (`MetricSpec.equivalence`)
    assert result["metrics"]["judge.overall"]["margin"] == 0.25
    assert result["metrics"]["judge.hallucination"]["margin"] == 0.03
    assert "Cohen's d" in result["effect_size"]
    code, out = compare(*demo_db)
    assert code == 0, out
    for head in ("B - A", "95% CI", "(unadjusted)", " d ", "effect", "Holm-adjusted", "margin",
                 "equiv.", "verdict"):
        assert head in out, head
    assert "two one-sided tests" in out and "Cohen's d" in out


def test_equivalence_overrides_one_metric_or_every_metric_on_its_scale(
        demo_db: tuple[Path, str]) -> None:
    code, out = compare(*demo_db, "--json", "--equivalence", "judge.overall=1.5")
    assert code == 0, out
    metrics = json.loads(out)["metrics"]
    assert metrics["judge.overall"]["margin"] == 1.5
    assert metrics["judge.faithfulness"]["margin"] == 0.25  # declared
    # a bare margin: the ten-point ratings, not the 0-1 rate, which keeps its own (said)
    result = CliRunner().invoke(cli, [
        "compare", demo_db[1], "--strategy", "bm25-k3", "--strategy", "dense-k5", "--db",
        str(demo_db[0]), "--json", "--equivalence", "0.5"])
    assert result.exit_code == 0, result.output
    metrics = json.loads(result.stdout)["metrics"]
    assert {m: r["margin"] for m, r in metrics.items() if r["margin"] == 0.5} == {
        m: 0.5 for m in ("judge.context_relevance", "judge.answer_similarity",
                         "judge.faithfulness", "judge.overall")}
    assert metrics["judge.hallucination"]["margin"] == 0.03
    assert "judge.hallucination keep their declared margins" in result.stderr


@pytest.mark.parametrize("given, says", [
    ("judge.nope=0.2", "no metric 'judge.nope' in the comparison"),
    ("judge.overall=-1", "the margin must be a positive number"),
    ("judge.overall=abc", "'abc' is not a number"),
    ("5", "larger than a tenth of the range of every metric compared"),
])
def test_a_bad_equivalence_is_one_line(demo_db: tuple[Path, str], given: str,
                                       says: str) -> None:
    code, out = compare(*demo_db, "--equivalence", given)
    assert code == 2 and says in out and "Traceback" not in out
    assert len(out.strip().splitlines()) == 1


def test_a_metric_neither_run_scored_is_not_scored_not_unclear(tmp_path: Path) -> None:
    """Trial 53: `compare RUN_A RUN_B` gave judge.answer_similarity, which neither run
    scored (no reference answers), the verdict "unclear", as if the data were too noisy
    to tell. It is "not scored" now, in the console (with a line naming why) and JSON."""
    data = tmp_path / "d.jsonl"
    data.write_text("".join(json.dumps({
        "id": f"q{i}", "question": f"What colour is item {i}?",
        "contexts": [f"Item {i} is blue."], "answer": f"Item {i} is blue."}) + "\n"
        for i in range(6)), encoding="utf-8")
    db = tmp_path / "r.db"
    a, b = two_runs(db, data, data)
    result = CliRunner().invoke(cli, ["compare", a, b, "--db", str(db), "--json"])
    assert result.exit_code == 0, result.output
    metrics = json.loads(result.stdout)["metrics"]
    assert metrics["judge.answer_similarity"]["n"] == 0
    assert metrics["judge.answer_similarity"]["verdict"] == "not scored"
    assert metrics["judge.faithfulness"]["verdict"] != "not scored"
    result = CliRunner().invoke(cli, ["compare", a, b, "--db", str(db)])
    assert result.exit_code == 0, result.output
    row = next(x for x in result.stdout.splitlines() if x.startswith("judge.answer_similarity"))
    assert row.rstrip().endswith("not scored") and "unclear" not in row, row
    assert ("not scored: judge.answer_similarity (no reference answer): no paired sample has "
            "a value in both A and B, so there is nothing to compare") in result.stdout


def test_each_row_says_the_pairs_its_means_rest_on(tmp_path: Path) -> None:
    """Trial 66: `compare A B` showed 0.706 for run A where `eval` and `runs show` gave
    0.702: the row's means are over the 123 samples scored on both sides (run A alone
    scored 124), and the footer said `paired samples: 144`. A `pairs` column says each
    metric's count where some metric rests on fewer, and the footer what A and B are."""
    rows = [{"id": f"q{i}", "question": f"What colour is item {i}?",
             "contexts": [f"Item {i} is blue and weighs {i + 2} kilograms."],
             "answer": f"Item {i} is blue."} for i in range(6)]
    db, paths = tmp_path / "r.db", []
    for name, first in (("a", rows[0]["answer"]), ("b", "I don't know.")):
        paths.append(tmp_path / f"{name}.jsonl")
        paths[-1].write_text("".join(json.dumps(r | ({"answer": first} if i == 0 else {}))
                                     + "\n" for i, r in enumerate(rows)), encoding="utf-8")
    a, b = two_runs(db, *paths)
    result = CliRunner().invoke(cli, ["compare", a, b, "--db", str(db), "--json"])
    assert result.exit_code == 0, result.output
    got = json.loads(result.stdout)
    pairs = {m: r["n"] for m, r in got["metrics"].items()}
    assert got["paired_samples"] == 6 and pairs["judge.faithfulness"] == 5  # B abstained
    result = CliRunner().invoke(cli, ["compare", a, b, "--db", str(db)])
    assert result.exit_code == 0, result.output
    lines = result.stdout.splitlines()
    head = next(x for x in lines if x.startswith("metric"))
    assert head.split()[:4] == ["metric", "pairs", "A", "B"], head
    for metric, n in pairs.items():
        row = next(x for x in lines if x.startswith(metric + " "))
        assert row.split()[1] == str(n), row
    fewer = sum(0 < n < 6 for n in pairs.values())  # a 0-pair metric has no means
    assert "paired samples: 6 (paired by " in result.stdout
    assert ("A and B: each metric's means over its pairs, the paired samples it scores on "
            f"both sides (the pairs column; fewer than 6 for {fewer} metrics), not each "
            "run's own mean over every sample it scores (eval, runs show)"
            ) in " ".join(result.stdout.split())


def test_the_header_and_json_name_each_runs_judge_and_say_when_they_differ(
        tmp_path: Path, demo_data: Path) -> None:
    """Trial 69: an offline run against an offline:accurate run read as everything
    equivalent, nothing saying the judges differed; the header now names each run's
    judge, one line says a difference may be the judge's, and --json carries both."""
    db = tmp_path / "r.db"
    for judge in ("offline", "offline:accurate"):
        result = CliRunner().invoke(cli, ["eval", str(demo_data), "--db", str(db),
                                          "--metrics", "judge", "--judge", judge, "--quiet"])
        assert result.exit_code == 0, result.output
    out = CliRunner().invoke(cli, ["runs", "list", "--db", str(db), "--format", "json"])
    b, a = (r["id"] for r in json.loads(out.output))
    result = CliRunner().invoke(cli, ["compare", a, b, "--db", str(db)])
    assert result.exit_code == 0, result.output
    text = " ".join(result.stdout.split())
    assert (f"run {b} (B, new, judge offline:accurate) vs run {a} (A, baseline, judge "
            "offline)") in text
    assert ("judges differ: A offline, B offline:accurate: a difference (or an equivalence) "
            "may be the judge's, not the system's") in text
    result = CliRunner().invoke(cli, ["compare", a, b, "--db", str(db), "--json"])
    assert json.loads(result.stdout)["judges"] == {"A": "offline", "B": "offline:accurate"}
    same = CliRunner().invoke(cli, ["compare", a, a, "--db", str(db)])
    assert "judges differ" not in same.stdout


def test_the_title_says_which_argument_is_the_new_one_and_which_the_baseline(
        demo_db: tuple[Path, str]) -> None:
    """Trial 70: `compare A B` titled itself "B vs A" with nothing saying why; B - A and
    the verdict are of B against A, so the title (and --help) say B is the new one and
    A the baseline."""
    code, out = compare(*demo_db)
    assert code == 0, out
    assert "dense-k5 (B, new) vs bm25-k3 (A, baseline)" in " ".join(out.split())
    help_text = " ".join(CliRunner().invoke(cli, ["compare", "--help"]).output.split())
    assert ("RUN_A (or the first --strategy) is the baseline, A; RUN_B (or the second) the "
            "new one, B") in help_text
    assert "'B (new) vs A (baseline)'" in help_text


def test_metrics_scored_alike_on_both_sides_are_not_called_constant(
        tmp_path: Path, demo_data: Path) -> None:
    """Trial 71: "constant: judge.faithfulness, ..." read as "the metric does not vary";
    the note says what is the same: each paired sample's score in A and in B."""
    older, newer = two_runs(tmp_path / "r.db", demo_data, demo_data)
    result = CliRunner().invoke(cli, ["compare", older, newer, "--db",
                                      str(tmp_path / "r.db")])
    assert result.exit_code == 0, result.output
    text = " ".join(result.output.split())
    assert "constant:" not in text
    assert "the same in A and B on every paired sample: judge." in text
