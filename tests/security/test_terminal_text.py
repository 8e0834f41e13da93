"""User text printed in the terminal stays text: rich markup in it is neither applied nor fatal.

Strategy names, label names, dataset paths and threshold keys come from users' files;
`[/bold]` in one of them used to crash the summary after a finished run (MarkupError).
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from click.testing import CliRunner

from ragassay.cli import cli
from tests.support.cli import llm_eval_args
from tests.support.faults import FaultServer

MARKUP = ["[/bold]", "[red]red[/red]", "[link=https://evil.example]x[/link]", "[/]"]


@pytest.fixture(scope="module")
def server():
    with FaultServer() as srv:
        yield srv


def _data(folder: Path) -> Path:
    path = folder / "[red]data.jsonl"
    with path.open("w", encoding="utf-8") as fh:
        for i in range(6):
            for strategy in (MARKUP[i % 2], MARKUP[2 + i % 2]):
                fh.write(json.dumps({
                    "id": f"q{i}-{strategy}", "question": f"Question {i} [/bold]?",
                    "contexts": [f"Context {i}."], "answer": f"Answer {i}.",
                    "reference": f"Answer {i}.", "strategy": strategy,
                    "labels": {"[/x]": i % 2 == 0, "correct": i % 3 == 0},
                    "metadata": {"question_id": f"q{i}"},
                }) + "\n")
    return path


def _ok(result, *texts: str) -> None:
    assert result.exception is None or isinstance(result.exception, SystemExit), (
        f"{type(result.exception).__name__}: {result.exception}")
    assert "Traceback" not in result.output
    for text in texts:
        assert text in result.output, (text, result.output)


def test_markup_in_user_text_is_printed_verbatim(server: FaultServer, tmp_path: Path,
                                                 monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)  # a short relative dataset path, so tables do not cut it
    data, db = _data(Path(".")), tmp_path / "r.db"
    runner = CliRunner(env={"COLUMNS": "250"})
    result = runner.invoke(cli, llm_eval_args(data, server.base_url, db))
    assert result.exit_code == 0, result.output
    _ok(result, "[/bold]", "[red]red[/red]", "[red]data.jsonl")
    listing = runner.invoke(cli, ["runs", "list", "--db", str(db)])
    assert listing.exit_code == 0
    _ok(listing, "[red]data.jsonl")
    run_id = json.loads(runner.invoke(cli, ["report", "--db", str(db)]).output)[
        "evaluation_metadata"]["run_id"]
    shown = runner.invoke(cli, ["runs", "show", run_id, "--db", str(db)])
    assert shown.exit_code == 0
    _ok(shown, "[/bold]")
    compared = runner.invoke(cli, ["compare", run_id, "--strategy", MARKUP[0], "--strategy",
                                   MARKUP[2], "--db", str(db)])
    assert compared.exit_code == 0, compared.output
    _ok(compared, "[link=https://evil.example]x[/link]")
    labels = tmp_path / "labels.jsonl"
    labels.write_text("\n".join(json.dumps({"id": f"q{i}-{MARKUP[0]}", "[/y]": i % 2 == 0})
                                for i in range(0, 6, 2)) + "\n", encoding="utf-8")
    calibrated = runner.invoke(cli, ["calibrate", run_id, "--labels", str(labels), "--db",
                                     str(db)])
    _ok(calibrated)
    gate_toml = tmp_path / "gate.toml"
    gate_toml.write_text('[thresholds]\n"judge.[/z]" = 5\n"judge.overall" = 1\n',
                         encoding="utf-8")
    gated = runner.invoke(cli, ["gate", run_id, "--config", str(gate_toml), "--db", str(db)])
    _ok(gated, "judge.[/z]")


def test_unreadable_labels_file_is_one_line(server: FaultServer, tmp_path: Path) -> None:
    data, db = _data(tmp_path), tmp_path / "r.db"
    runner = CliRunner()
    made = runner.invoke(cli, llm_eval_args(data, server.base_url, db, "-q"))
    assert made.exit_code == 0
    run_id = json.loads(runner.invoke(cli, ["report", "--db", str(db)]).output)[
        "evaluation_metadata"]["run_id"]
    for name, content in (("l.jsonl", b'{"id": "x", "ok": "\xff"}\n'),
                          ("l.csv", b"id,ok\nx,\xff\n")):
        path = tmp_path / name
        path.write_bytes(content)
        result = runner.invoke(cli, ["calibrate", run_id, "--labels", str(path), "--db",
                                     str(db)])
        assert result.exit_code == 2, result.output
        assert result.output.startswith(f"error: {path}") and result.output.count("\n") == 1


def test_bench_leaderboard_prints_strategy_names_verbatim() -> None:
    from io import StringIO

    from rich.console import Console

    from ragassay.bench import leaderboard_table
    from ragassay.report import LeaderboardRow

    row = LeaderboardRow.model_validate({
           "rank": 1, "strategy": "[/bold] fixed-128", "metric": "judge.overall", "mean": 7.0,
           "ci_low": 6.0, "ci_high": 8.0, "vs_best": "best", "retrieval.recall": None,
           "retrieval.mrr": None, "retrieval.ndcg": None, "no_answer_rate": 0.0,
           "index_time_s": 0.1, "retrieval_p95_s": None, "answer_p95_s": None,
           "cost_estimate_usd": 0.0, "cost_measured_usd": None})
    out = StringIO()
    Console(file=out, width=300).print(leaderboard_table([row]))
    assert "[/bold] fixed-128" in out.getvalue()


ESC = "\u001b[2J\u001b]0;owned\u001b\\"  # clear the screen, retitle the window
CONTROLS = ("\x1b", "\x07", "\x9b", "\x9d", "\r", "\u202e")


def _esc_data(folder: Path) -> Path:
    path = folder / "esc\u001b[31m.jsonl"  # a file name can carry an escape too
    with path.open("w", encoding="utf-8") as fh:
        for i in range(4):
            for k, strategy in enumerate((f"s{ESC}", "plain\u202eevil\r\x9b2J")):
                fh.write(json.dumps({
                    "id": f"q{i}-{k}{ESC}", "question": f"Question {i}?\x07",
                    "contexts": [f"Context {i}."], "answer": f"Answer {i}.",
                    "reference": f"Answer {i}.", "strategy": strategy,
                    "labels": {f"lab{ESC}": i % 2 == 0},
                }) + "\n")
    return path


def _clean(result, *visible: str) -> None:
    _ok(result)
    for char in CONTROLS:
        assert char not in result.output, (char, result.output)
    for text in visible:
        assert text in result.output, (text, result.output)


def test_control_sequences_in_user_text_never_reach_the_terminal(
        server: FaultServer, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """ESC/OSC/CSI, BEL, CR and bidi overrides in strategy names, ids, labels and the file
    name are shown escaped (`\\x1b[2J`) by every command, piped or not."""
    monkeypatch.chdir(tmp_path)
    data, db = _esc_data(Path(".")), tmp_path / "r.db"
    runner = CliRunner(env={"COLUMNS": "250"})
    shown = "s\\x1b[2J\\x1b]0;owned\\x1b\\"
    result = runner.invoke(cli, llm_eval_args(data, server.base_url, db))
    assert result.exit_code == 0, result.output
    _clean(result, shown, "plain\\u202eevil\\x0d\\x9b2J", "esc\\x1b[31m.jsonl")
    _clean(runner.invoke(cli, ["runs", "list", "--db", str(db)]), "esc\\x1b[31m.jsonl")
    run_id = json.loads(runner.invoke(cli, ["report", "--db", str(db)]).stdout)[
        "evaluation_metadata"]["run_id"]
    _clean(runner.invoke(cli, ["runs", "show", run_id, "--db", str(db)]), shown)
    _clean(runner.invoke(cli, ["compare", run_id, "--strategy", f"s{ESC}", "--strategy",
                               "plain\u202eevil\r\x9b2J", "--db", str(db)]), "verdict")
    _clean(runner.invoke(cli, ["trend", str(data), "--db", str(db)]), "esc\\x1b[31m.jsonl")
    labels = tmp_path / "labels.jsonl"
    labels.write_text(json.dumps({"id": f"q0-0{ESC}", f"other{ESC}": True}) + "\n",
                      encoding="utf-8")
    _clean(runner.invoke(cli, ["calibrate", run_id, "--labels", str(labels), "--db", str(db)]),
           "other\\x1b[2J")
    # an error line quoting user text is cleaned too
    _clean(runner.invoke(cli, ["compare", run_id, "--strategy", f"x{ESC}", "--strategy",
                               f"s{ESC}", "--db", str(db)]), "error: ")


def test_exports_printed_to_a_terminal_are_cleaned() -> None:
    """`ragassay report` to a terminal goes through the same sanitiser (redirected to a
    file it is written as is: JSON escapes controls itself, CSV and HTML keep the data)."""
    import io

    from ragassay.terminal import CleanWriter, clean

    buf = io.StringIO()
    CleanWriter(buf).write(f"id,{ESC}\n")
    assert buf.getvalue() == "id,\\x1b[2J\\x1b]0;owned\\x1b\\\n"
    assert clean("tab\tand\nnewline kept") == "tab\tand\nnewline kept"
    assert clean("\x00\x7f\x85\u200f") == "\\x00\\x7f\\x85\\u200f"
