"""One file is one dataset whatever command judged it, and `trend` compares eval runs
with eval runs (found 2026-12-04 in new-user trial 54): after two `eval` runs and a
`meta-eval` run of the same, byte-identical file, `trend` listed the meta-eval run among
the eval runs and marked its dataset "changed". meta-eval recorded the sha256 of the rows
it had loaded, not of the file, and no path; and its run (which measures the judge,
perhaps on a split or the first N samples) is no point of the system's trend."""

from __future__ import annotations

import hashlib
import json
from pathlib import Path

from click.testing import CliRunner, Result

from ragassay.cli import cli
from ragassay.store import Store
from tests.cli.test_setup_mistakes import good, rows


def invoke(*args: object) -> Result:
    return CliRunner().invoke(cli, [str(a) for a in args])


def _labelled(path: Path) -> Path:
    return rows(path, [good(i, labels={"hallucinated": i % 3 == 0}) for i in range(6)])


def test_meta_eval_records_the_files_fingerprint_and_trend_leaves_it_out(
        tmp_path: Path, monkeypatch) -> None:
    monkeypatch.chdir(tmp_path)
    db = tmp_path / "r.db"
    data = _labelled(tmp_path / "probes.jsonl")
    sha = hashlib.sha256(data.read_bytes()).hexdigest()
    for _ in range(2):
        assert invoke("eval", "probes.jsonl", "--db", db, "-q", "--metrics", "judge"
                      ).exit_code == 0
    for part in ([], ["--limit", "3"]):
        done = invoke("meta-eval", "probes.jsonl", "--db", db, "-q", "--metrics", "judge",
                      *part)
        assert done.exit_code == 0, done.output
    with Store(db, readonly=True) as store:
        runs = store.list_runs()
    assert sorted(r.config.kind for r in runs) == ["eval", "eval", "meta-eval", "meta-eval"]
    # one fingerprint and one recorded path for the one file, whatever judged it
    assert {r.dataset_hash for r in runs} == {sha}
    assert {r.meta.dataset_path for r in runs} == {str(data.resolve())}
    meta_ids = [r.id for r in sorted(runs, key=lambda r: (r.created, r.id))
                if r.config.kind == "meta-eval"]

    done = invoke("trend", "probes.jsonl", "--metric", "judge.hallucination", "--json",
                  "--db", db)
    assert done.exit_code == 0, done.output
    points = json.loads(done.stdout)["judge.hallucination"]
    eval_ids = {r.id for r in runs if r.config.kind == "eval"}
    assert {p["run_id"] for p in points} == eval_ids
    assert [p["dataset_changed"] for p in points] == [False, False]
    assert done.stderr == (f"note: left out 2 meta-eval runs of this dataset "
                           f"({' '.join(meta_ids)}): a trend follows eval runs (a "
                           "meta-eval run measures the judge, perhaps on part of the data)\n")
    table = invoke("trend", "probes.jsonl", "--db", db)
    assert table.exit_code == 0 and "changed" not in table.stdout
    assert "2 complete runs" in table.stdout


def test_a_dataset_with_only_meta_eval_runs_has_no_trend_and_says_why(tmp_path: Path) -> None:
    db = tmp_path / "r.db"
    data = _labelled(tmp_path / "d.jsonl")
    assert invoke("meta-eval", data, "--db", db, "-q", "--metrics", "judge").exit_code == 0
    done = invoke("trend", data, "--db", db)
    assert done.exit_code == 2
    assert done.output.count("\n") == 1
    assert done.output.startswith(f"error: no complete eval run of dataset '{data}' in ")
    assert "left out 1 meta-eval run of this dataset" in done.output


def test_trend_leaves_out_a_run_without_the_metric(tmp_path: Path, monkeypatch) -> None:
    """New-user trial 58: `trend FILE --metric judge.hallucination` listed a `--metrics
    citations` run of the file as a point "-" of n 0 among "5 complete runs"; it is left
    out of that metric's trend, with a line saying so, as meta-eval runs are."""
    monkeypatch.chdir(tmp_path)
    db = tmp_path / "r.db"
    _labelled(tmp_path / "probes.jsonl")
    for metrics in ("judge", "citations", "judge"):
        done = invoke("eval", "probes.jsonl", "--db", db, "-q", "--metrics", metrics)
        assert done.exit_code == 0, done.output
    with Store(db, readonly=True) as store:
        runs = sorted(store.list_runs(), key=lambda r: (r.created, r.id))
    other = runs[1].id
    done = invoke("trend", "probes.jsonl", "--metric", "judge.hallucination", "--db", db)
    assert done.exit_code == 0, done.output
    assert "2 complete runs" in done.stdout and other not in done.stdout
    assert done.stderr == (f"note: left out 1 run ({other}) of the trend of "
                           "judge.hallucination: it did not compute that metric (other "
                           "--metrics)\n")
    done = invoke("trend", "probes.jsonl", "--metric", "judge.hallucination", "--json",
                  "--db", db)
    points = json.loads(done.stdout)["judge.hallucination"]
    assert [p["run_id"] for p in points] == [runs[0].id, runs[2].id]
