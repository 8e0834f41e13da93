"""The CLI on hostile input: one line naming the place, exit 2, never a traceback or a hang.

The click app runs in-process (CliRunner) against a fault-free scripted judge server for
the property tests; a few subprocess runs check what a user's terminal really shows.
"""

from __future__ import annotations

import gzip
import json
import re
import subprocess
import sys
import tempfile
from collections.abc import Iterator
from pathlib import Path

import pytest
from click.testing import CliRunner, Result
from hypothesis import HealthCheck, given, settings

from ragassay.cli import cli
from ragassay.dataset import DatasetError, check_dataset, load_samples
from ragassay.terminal import clean
from ragassay.types import InvalidRow
from tests.reliability.bad_input import csv_bytes, jsonl_bytes
from tests.support.cli import llm_eval_args
from tests.support.faults import FaultServer

pytestmark = pytest.mark.timeout(180)
PROPS = settings(max_examples=25, deadline=None,
                 suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large,
                                        HealthCheck.function_scoped_fixture])


@pytest.fixture(scope="module")
def server() -> Iterator[FaultServer]:
    with FaultServer() as srv:
        yield srv


WARNING = re.compile(r"^\d+ samples? lacks? an input some metrics need \(")
SKIPPED = re.compile(r"^skipped \d+ invalid rows? of \d+ \(--skip-invalid")
UNSCORED = re.compile(r"^\d+ (\S+ values? unscored|values unscored, [^:]+): ")  # stderr, also -q


def _eval(server: FaultServer, data: Path, *extra: str) -> Result:
    db = data.parent / "runs.db"
    return CliRunner().invoke(cli, llm_eval_args(data, server.base_url, db, "-q", *extra))


def _as_printed(line: str) -> str:
    """A line as the CLI prints it: through the terminal sanitiser (ESC stays text), and
    a lone surrogate (a column named "\\ud800") written as its backslash escape."""
    return clean(line).encode("utf-8", "backslashreplace").decode("utf-8").strip()


def _no_crash(result: Result) -> None:
    assert result.exception is None or isinstance(result.exception, SystemExit), (
        f"{type(result.exception).__name__}: {result.exception}\n{result.output}")
    assert "Traceback" not in result.output


def _check(server: FaultServer, data: bytes, suffix: str) -> None:
    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp) / f"data{suffix}"
        path.write_bytes(data)
        result = _eval(server, path)
        _no_crash(result)
        assert result.exit_code in (0, 2), result.output
        if result.exit_code == 2:
            lines = result.output.strip().splitlines()
            assert len(lines) == 1 and lines[0].startswith(f"error: {path.name}"), result.output
        else:  # -q: nothing but the missing-input warning and the unscored count
            assert all(WARNING.match(line) or UNSCORED.match(line)
                       for line in result.output.splitlines()), result.output
        # --skip-invalid: every bad row is listed in the report
        out = Path(tmp) / "report.json"
        lenient = _eval(server, path, "--skip-invalid", "--out", str(out))
        _no_crash(lenient)
        try:
            items = load_samples(path, skip_invalid=True)
            problem = check_dataset(path, skip_invalid=True).problem()
        except DatasetError as exc:
            assert lenient.exit_code == 2
            assert lenient.output.strip() == _as_printed(f"error: {exc}")
            return
        if problem:  # no row supplies an answer, or none contexts or a reference
            # the CLI prints through the terminal sanitiser (a column named ESC stays text)
            assert lenient.exit_code == 2
            assert lenient.output.strip() == _as_printed(f"error: {problem}")
            return
        assert lenient.exit_code == 0, lenient.output
        skipped = sum(isinstance(i, InvalidRow) for i in items)
        lines = lenient.output.splitlines()
        assert all(WARNING.match(line) or SKIPPED.match(line) or UNSCORED.match(line)
                   for line in lines), lines
        assert sum(bool(SKIPPED.match(line)) for line in lines) == (1 if skipped else 0)
        if skipped:
            assert f"skipped {skipped} invalid row" in lenient.output
        report = json.loads(out.read_text(encoding="utf-8"))
        invalid = [i for i in items if isinstance(i, InvalidRow)]
        assert report["invalid_rows"] == [{"id": i.id, "source": i.source, "reason": i.reason}
                                          for i in invalid]
        assert report["evaluation_metadata"]["total_samples"] == len(items)
        assert report["evaluation_metadata"]["complete"] is True


@PROPS
@given(data=jsonl_bytes())
def test_cli_on_random_jsonl(server: FaultServer, data: bytes) -> None:
    _check(server, data, ".jsonl")


@settings(PROPS, max_examples=12)
@given(data=csv_bytes())
def test_cli_on_random_csv(server: FaultServer, data: bytes) -> None:
    _check(server, data, ".csv")


BAD_FILES: dict[str, tuple[str, bytes, str]] = {
    # name: (file name, content, expected error text)
    "bad_utf8": ("d.jsonl", b'{"question": "ok"}\n{"question": "\xff\xfe"}\n',
                 "d.jsonl:2: invalid UTF-8"),
    "bad_json": ("d.jsonl", b'{"question": "ok"}\n{"question": \n', "d.jsonl:2: invalid JSON"),
    "nul": ("d.jsonl", b'{"question": "a\\u0000b"}\n', "d.jsonl:1: 'question' contains a NUL"),
    "wrong_type": ("d.jsonl", b'{"question": "q", "contexts": 1}\n',
                   "d.jsonl:1: 'contexts' must be a list of strings"),
    "missing": ("d.jsonl", b'{"answer": "a"}\n', "d.jsonl:1: 'question' is required"),
    "empty": ("d.jsonl", b"\n\n", "d.jsonl: no samples"),
    "csv_header": ("d.csv", b"question,question\nq,q\n", "d.csv:1: duplicate column"),
    "csv_quote": ("d.csv", b'question,answer\n"q,a\n', "d.csv:2: malformed CSV"),
    "json_cut": ("d.json", b'[{"question": "q"}, {"quest', "d.json:1: invalid JSON"),
    "parquet": ("d.parquet", b"PAR1 not really", "d.parquet: not a readable Parquet file"),
    "gzip": ("d.jsonl.gz", b"\x1f\x8b\x08\x00garbage", "d.jsonl.gz: cannot read file"),
    "extension": ("d.txt", b"question\n", "d.txt: unknown dataset format"),
}


@pytest.mark.parametrize("case", sorted(BAD_FILES))
def test_bad_files_in_process(server: FaultServer, tmp_path: Path, case: str) -> None:
    name, content, expected = BAD_FILES[case]
    path = tmp_path / name
    path.write_bytes(content)
    result = _eval(server, path)
    _no_crash(result)
    assert result.exit_code == 2
    assert result.output.startswith(f"error: {expected}"), result.output
    assert len(result.output.strip().splitlines()) == 1


def test_bad_rows_cost_no_judge_calls(tmp_path: Path) -> None:
    """The whole file is checked before any judge call is paid for."""
    with FaultServer() as srv:
        path = tmp_path / "d.jsonl"
        good = json.dumps({"question": "q", "contexts": ["c"], "answer": "a"})
        path.write_text("\n".join([good] * 5 + ['{"question": 7}']) + "\n", encoding="utf-8")
        result = _eval(srv, path)
        assert result.exit_code == 2 and "d.jsonl:6: 'question' must be a string" in result.output
        assert srv.count == 0


@pytest.mark.slow
@pytest.mark.parametrize("case", ["bad_utf8", "json_cut", "parquet", "extension"])
def test_bad_files_in_a_real_terminal(tmp_path: Path, case: str) -> None:
    name, content, expected = BAD_FILES[case]
    path = tmp_path / name
    path.write_bytes(content)
    proc = subprocess.run([sys.executable, "-m", "ragassay", "eval", str(path), "--db",
                           str(tmp_path / "r.db")], capture_output=True, text=True, timeout=60)
    assert proc.returncode == 2
    assert proc.stdout == ""
    assert proc.stderr.startswith(f"error: {expected}") and proc.stderr.count("\n") == 1


def test_missing_file_and_directory(server: FaultServer, tmp_path: Path) -> None:
    for target, text in ((tmp_path / "nope.jsonl", "file not found"),
                         (tmp_path, "is a directory")):
        result = _eval(server, target)
        assert result.exit_code == 2 and text in result.output and str(target) in result.output


@pytest.mark.slow
@pytest.mark.timeout(120)
def test_10mb_field_and_100k_contexts_complete(server: FaultServer, tmp_path: Path) -> None:
    """Huge contexts are cut to --max-context-tokens (flagged), never sent whole."""
    path, out = tmp_path / "big.jsonl.gz", tmp_path / "r.json"
    with gzip.open(path, "wt", encoding="utf-8") as fh:
        fh.write(json.dumps({"id": "big", "question": "q?", "answer": "a.",
                             "contexts": ["word " * 2_000_000]}) + "\n")
        fh.write(json.dumps({"id": "many", "question": "q?", "answer": "a.",
                             "contexts": [f"context {i}." for i in range(100_000)]}) + "\n")
    before = server.count
    result = _eval(server, path, "--out", str(out))
    assert result.exit_code == 0, result.output
    sent = server.requests[before:]
    assert len(sent) == 2
    assert all(len(json.dumps(r)) < 200_000 for r in sent)  # the budget held
    report = json.loads(out.read_text(encoding="utf-8"))
    for row in report["detailed_results"]:
        assert "contexts" in row["truncated"]
        assert row["metrics"]["judge.faithfulness"] is not None
