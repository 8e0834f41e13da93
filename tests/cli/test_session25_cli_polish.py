"""Session 25's polish of the command line, from new users' findings: `eval`'s lines of
words (`next`, the abstentions, `warning`) broken only between words at 60 and 80 columns,
never inside a figure's interval or a metric's name and never before a number, and whole
in a pipe; `eval --judge-check` saying what is true of labels linked to no metric, kept
with the run (`runs show` honours it, `--warnings` says them), and said under `--dry-run`,
`--quiet` and `--detach`."""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner

from ragassay.cli import cli
from ragassay.console import FIGURE
from ragassay.store import Store
from tests.cli.test_trial83_console import _rows

WORDS = ("next ", "abstentions: ", "warning ", "judge.hallucination: right on")
"""The lines of words under the table whose breaks are checked."""


def _write(path: Path, rows: list[dict[str, Any]]) -> Path:
    path.write_text("".join(json.dumps(r) + "\n" for r in rows))
    return path


def _eval(data: Path, db: Path, *extra: str, columns: str | None = None) -> str:
    """`eval`'s printed summary, `columns` wide (None: a pipe, no COLUMNS)."""
    got = CliRunner(env={"COLUMNS": columns}).invoke(
        cli, ["eval", str(data), "--db", str(db), "--metrics", "judge", *extra])
    assert got.exit_code == 0, got.output
    return got.stdout


def _said(out: str) -> list[list[str]]:
    """Each line of words (`WORDS`) as the lines it was printed on: its first, then the
    indented lines that go on with it."""
    blocks: list[list[str]] = []
    for line in out.splitlines():
        if line.startswith(WORDS):
            blocks.append([line])
        elif blocks and line.startswith("  ") and blocks[-1]:
            blocks[-1].append(line)
        elif blocks and blocks[-1]:
            blocks.append([])
    return [b for b in blocks if b]


@pytest.fixture(scope="module")
def printed(tmp_path_factory: pytest.TempPathFactory) -> dict[str, str]:
    tmp = tmp_path_factory.mktemp("s25")
    data = _write(tmp / "pantry.jsonl", _rows())
    said = {w: _eval(data, tmp / "r.db", columns=w) for w in ("60", "80", "10000")} | {
        "pipe": _eval(data, tmp / "r.db")}
    return {w: re.sub(r"\d{8}-\d{6}-\w{4}", "RUN", x) for w, x in said.items()}


@pytest.mark.parametrize("width", [60, 80])
def test_lines_of_words_break_between_words_never_in_a_figure(
        printed: dict[str, str], width: int) -> None:
    blocks = _said(printed[str(width)])
    whole = {b[0] for b in _said(printed["10000"])}
    assert len(blocks) >= 4 and any(len(b) > 1 for b in blocks), blocks
    for block in blocks:
        assert all(len(x) <= width for x in block), block
        for line in block[1:]:  # a later line never opens with a number or its interval
            assert not re.match(r"\s*[(\[]?[-+$]?\d", line), (line, block)
        flat = " ".join(x.strip() for x in block)
        assert flat in whole, flat  # the same words, broken only where spaces were
        for figure in FIGURE.findall(flat):  # `0.278 [0.071, 0.485]` on one line
            assert any(figure in x for x in block), (figure, block)
        for name in re.findall(r"judge\.\w+", flat):  # a metric's name never split
            assert any(name in x for x in block), (name, block)


def test_a_pipe_keeps_each_line_of_words_whole(printed: dict[str, str]) -> None:
    blocks = _said(printed["pipe"])
    assert blocks and all(len(b) == 1 for b in blocks), blocks
    assert any(len(b[0]) > 100 for b in blocks)
    assert [b[0] for b in blocks] == [b[0] for b in _said(printed["10000"])]


def _relabelled(rows: list[dict[str, Any]], name: str) -> list[dict[str, Any]]:
    return [{**r, "labels": {name: r["labels"]["hallucination"]}} for r in rows]


@pytest.mark.parametrize("name", ["tone", "halucinated"])
def test_judge_check_says_labels_linked_to_no_metric_are_there(tmp_path: Path,
                                                               name: str) -> None:
    data = _write(tmp_path / "d.jsonl", _relabelled(_rows(), name))
    out = " ".join(_eval(data, tmp_path / "r.db", "--judge-check", columns="200").split())
    run = re.search(r"run (\d{8}-\d{6}-\w{4})", out)
    assert run is not None
    assert "no people's labels in this data" not in out
    assert (f"judge check: people's labels found ({name}), but none is linked to a metric "
            f"this run scores, so nothing to check the judge against: label '{name}' is "
            ) in out, out
    if name == "tone":  # how to link it, the run named
        assert f"ragassay calibrate {run[1]} --link tone=METRIC" in out
    else:
        assert "did you mean 'hallucinated'?" in out


def test_judge_check_is_kept_with_the_run(tmp_path: Path) -> None:
    data, db = _write(tmp_path / "d.jsonl", _rows()), tmp_path / "r.db"
    assert _eval(data, db, "--judge-check", "--quiet", columns="200") == ""
    with Store(db, readonly=True) as store:
        run = store.latest_run()
    assert run is not None and run.meta.judge_check is True
    runner = CliRunner(env={"COLUMNS": "200"})
    shown = runner.invoke(cli, ["runs", "show", run.id, "--db", str(db)])
    assert shown.exit_code == 0, shown.output
    lines = shown.stdout.splitlines()
    assert not [x for x in lines if x.startswith("warning ")], shown.stdout
    assert (f"judge check: 1 warning on the RAG system's own figures left out (ragassay "
            f"runs show {run.id} --warnings lists them)") in " ".join(shown.stdout.split())
    full = runner.invoke(cli, ["runs", "show", run.id, "--db", str(db), "--warnings"])
    assert full.exit_code == 0, full.output
    assert [x for x in full.stdout.splitlines() if x.startswith("warning judge.")]
    assert "judge check:" not in full.stdout
    plain = _eval(data, db, "--quiet", columns="200")  # a run without it: as before
    with Store(db, readonly=True) as store:
        other = store.latest_run()
    assert plain == "" and other is not None and other.meta.judge_check is None
    again = runner.invoke(cli, ["runs", "show", other.id, "--db", str(db)])
    assert [x for x in again.stdout.splitlines() if x.startswith("warning ")]


def test_judge_check_with_dry_run_says_what_it_would_check(tmp_path: Path) -> None:
    data = _write(tmp_path / "d.jsonl", _rows())
    out = " ".join(_eval(data, tmp_path / "r.db", "--judge-check", "--dry-run",
                         columns="200").split())
    assert ("judge check: the run would check the judge against people's labels "
            "(hallucination on 18 rows, compared with judge.hallucination") in out, out
    bare = _write(tmp_path / "b.jsonl", [{k: v for k, v in r.items() if k != "labels"}
                                         for r in _rows()])
    out = " ".join(_eval(bare, tmp_path / "r.db", "--judge-check", "--dry-run").split())
    assert "judge check: no people's labels in this data" in out
    assert not (tmp_path / "r.db").exists()  # a dry run stores nothing


def test_judge_check_survives_detach_and_the_resume_honours_it(tmp_path: Path) -> None:
    from tests.support.batch_server import BatchServer
    from tests.support.judge_replies import content_replies, shaped_rows

    data, db = shaped_rows(tmp_path / "d.jsonl", 3), tmp_path / "t.db"
    with BatchServer(content_replies) as server:
        server.hold.set()
        done = CliRunner().invoke(cli, [
            "eval", str(data), "--judge", "openai:gpt-4o-mini", "--base-url",
            server.base_url, "--metrics", "judge", "--db", str(db), "-q", "--price-in", "2",
            "--price-out", "8", "--batch", "--batch-poll", "0.01", "--detach",
            "--judge-check"])
        assert done.exit_code == 0, done.output
        with Store(db, readonly=True) as store:
            run = store.latest_run()
        assert run is not None and run.meta.judge_check is True
        server.hold.clear()
        resumed = CliRunner(env={"COLUMNS": "200"}).invoke(
            cli, ["eval", str(data), "--resume", run.id, "--db", str(db)],
            env={"OPENAI_API_KEY": "sk-batch-test"})
        assert resumed.exit_code == 0, resumed.output
    assert "judge check:" in resumed.stdout, resumed.stdout
    assert not [x for x in resumed.stdout.splitlines() if x.startswith("warning ")]
