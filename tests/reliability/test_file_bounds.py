"""Dataset files are bounded (issue #33, item 8): a path that is not a regular file
(`/dev/zero`, a FIFO) is refused before it is opened; a `.gz` may inflate to at most 100
times its size (at least 64 MB); a line, a CSV cell or a JSON list element may hold at
most 64 MB. Each is one line naming the file, for `eval` and for the dashboard's
Evaluate page, which reads uploads with the same loader."""

from __future__ import annotations

import gzip
import json
import os
import re
import subprocess
import sys
import zlib
from pathlib import Path

import pytest

from ragassay.dataset import DatasetError, check_dataset
from ragassay.dataset.limits import MAX_LINE_BYTES
from ragassay.ui.evaluate import plan_upload, save_upload

pytestmark = pytest.mark.timeout(300)
ROW = {"question": "What is X?", "contexts": ["X is Y."], "answer": "X is Y."}


def _eval(path: Path, tmp_path: Path) -> subprocess.CompletedProcess[str]:
    """`ragassay eval` in a subprocess: on a build that blocks, the test fails (killed)
    instead of hanging."""
    return subprocess.run([sys.executable, "-m", "ragassay", "eval", str(path), "--db",
                           str(tmp_path / "x.db"), "-q"], capture_output=True, text=True,
                          timeout=120)


@pytest.mark.parametrize("kind", ["fifo", "device"])
def test_a_path_that_is_not_a_regular_file_is_refused(kind: str, tmp_path: Path) -> None:
    path = tmp_path / "d.jsonl"
    if kind == "fifo":
        os.mkfifo(path)
    else:
        path.symlink_to("/dev/zero")
    result = _eval(path, tmp_path)
    assert result.returncode == 2, result.stderr[-500:]
    what = "a FIFO" if kind == "fifo" else "a device"
    assert result.stderr == f"error: {path}: is {what}, not a regular file: give a dataset file\n"


def _bomb(path: Path, lines_mb: int) -> Path:
    """A .jsonl.gz of one row, then `lines_mb` MB of blank lines: about 1 MB on disk."""
    packer = zlib.compressobj(1, zlib.DEFLATED, 31)
    parts = [packer.compress((json.dumps(ROW) + "\n").encode())]
    blanks = b"\n" * (1 << 20)
    parts += [packer.compress(blanks) for _ in range(lines_mb)]
    path.write_bytes(b"".join([*parts, packer.flush()]))
    return path


def test_a_gz_that_inflates_past_its_bound_is_refused(tmp_path: Path) -> None:
    path = _bomb(tmp_path / "d.jsonl.gz", 256)
    assert path.stat().st_size < 2_000_000
    result = _eval(path, tmp_path)
    assert result.returncode == 2, result.stderr[-500:]
    assert re.match(r"error: d\.jsonl\.gz: inflates to more than \d+ MB \(100 times its size, "
                    r"at least 64 MB\): a decompression bomb\? Unpack it", result.stderr)
    assert result.stderr.count("\n") == 1


def test_the_dashboard_upload_is_held_to_the_same_bounds(tmp_path: Path) -> None:
    (tmp_path / "uploads").mkdir()
    upload = save_upload(_bomb(tmp_path / "bomb.jsonl.gz", 256).read_bytes(),
                         "../../bomb.jsonl.gz", tmp_path / "uploads")
    with pytest.raises(DatasetError, match=r"bomb\.jsonl\.gz: inflates to more than \d+ MB"):
        plan_upload(upload, None, str(tmp_path / "s.db"), skip_invalid=True)


def _long_line(path: Path, fmt: str) -> Path:
    big = "x" * (MAX_LINE_BYTES + 10)
    if fmt == "jsonl":
        text = json.dumps(ROW) + "\n" + json.dumps({**ROW, "question": big}) + "\n" \
            + json.dumps({**ROW, "question": "What is Z?"}) + "\n"
    elif fmt == "csv":
        text = f"question,answer\nq?,a\n{big},a\n"
    else:
        text = json.dumps([ROW, {**ROW, "question": big}])
    path.write_text(text)
    return path


def test_a_jsonl_line_past_the_bound_is_a_row_problem(tmp_path: Path) -> None:
    path = _long_line(tmp_path / "d.jsonl", "jsonl")
    with pytest.raises(DatasetError) as info:
        check_dataset(path)
    assert str(info.value) == "d.jsonl:2: line longer than 64 MB (not read)"
    checked = check_dataset(path, skip_invalid=True)  # skipped, the rest is read
    assert (checked.total, checked.invalid, checked.with_answer) == (3, 1, 2)


@pytest.mark.parametrize(("fmt", "message"), [
    ("csv", "d.csv:3: line longer than 64 MB (not read)"),
    ("json", "d.json:1: list element longer than 64 MB (not read)")])
def test_a_csv_line_or_json_element_past_the_bound_stops_the_file(fmt: str, message: str,
                                                                  tmp_path: Path) -> None:
    path = _long_line(tmp_path / f"d.{fmt}", fmt)
    with pytest.raises(DatasetError) as info:
        check_dataset(path, skip_invalid=True)
    assert str(info.value) == message


def test_a_gz_within_its_bound_loads(tmp_path: Path) -> None:
    rows = [{**ROW, "question": f"What is {i}?"} for i in range(2000)]
    path = tmp_path / "ok.jsonl.gz"
    path.write_bytes(gzip.compress("".join(json.dumps(r) + "\n" for r in rows).encode()))
    assert check_dataset(path).total == 2000
