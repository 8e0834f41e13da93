"""Parquet decompression bombs (issue 43, item 2).

On 4f8feb9 a 3 KB Parquet file (a dictionary-encoded zstd column: one 50 MB string that
80 rows share) took 4.7 GB and 89 s and left a 4.2 GB store; a 4 KB Phoenix span file
took 2.5 GB before its refusal. Only `.gz` had an inflation bound. Now a Parquet file is
held to the same bound (100 times its size, at least 64 MB): by its footer before a
row is read (row counts, uncompressed sizes), then by what its rows really decode to,
computed from the dictionaries before any value is decoded (`dataset/parquet.py`).

`eval` runs as a subprocess, so that its peak memory is its own (VmHWM, read from /proc
while it runs) and a hang is a killed process, not a stuck test.
"""

from __future__ import annotations

import os
import subprocess
import sys
import time
from pathlib import Path

import pytest

pytestmark = pytest.mark.timeout(600)
LIMIT_S = 400  # a hang bound, far above the seconds a refusal takes: not a timing check
STRING_MB = 16
ROWS = 48  # STRING_MB x ROWS = 768 MB decoded, from a file of a few kB


def _write(path: Path, columns: dict[str, list[object]]) -> Path:
    import pyarrow as pa
    import pyarrow.parquet as pq

    pq.write_table(pa.table(columns), path, compression="zstd", compression_level=19,
                   use_dictionary=True, dictionary_pagesize_limit=256 << 20)
    return path


def _high_water_mb(pid: int) -> int:
    try:
        status = Path(f"/proc/{pid}/status").read_text()
    except OSError:
        return 0
    line = next((ln for ln in status.splitlines() if ln.startswith("VmHWM:")), "")
    return int(line.split()[1]) // 1024 if line else 0


def _eval(path: Path, db: Path, *extra: str) -> tuple[int, int, str]:
    """`ragassay eval` in a subprocess: (exit code, peak RSS in MB, stderr)."""
    proc = subprocess.Popen([sys.executable, "-m", "ragassay", "eval", str(path), "--db",
                             str(db), "-q", *extra], env=dict(os.environ),
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    deadline, peak = time.monotonic() + LIMIT_S, 0
    try:
        while time.monotonic() < deadline:
            if proc.poll() is not None:
                return proc.returncode, peak, proc.stderr.read() if proc.stderr else ""
            peak = max(peak, _high_water_mb(proc.pid))
            time.sleep(0.05)
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait()
    raise AssertionError(f"eval still ran after {LIMIT_S} s (killed)")


def _refused(result: tuple[int, int, str], name: str, what: str) -> int:
    code, peak_mb, err = result
    assert code == 2, err[-2000:]
    assert err.count("\n") == 1, err[-2000:]
    assert err.startswith(f"error: {name}: {what} more than 64 MB (100 times its size, "
                          "at least 64 MB): a decompression bomb?"), err
    return peak_mb


def test_a_shared_dictionary_value_is_counted_per_row(tmp_path: Path) -> None:
    """The footer is honest (16 MB of pages): only the rows' decoded size shows it."""
    big = "a" * (STRING_MB << 20)
    data = _write(tmp_path / "bomb.parquet", {"question": ["q"] * ROWS,
                                              "contexts": [["c"]] * ROWS,
                                              "answer": [big] * ROWS})
    assert data.stat().st_size < 16_000
    peak_mb = _refused(_eval(data, tmp_path / "s.db"), data.name, "decodes to")
    assert peak_mb < STRING_MB * ROWS // 2, peak_mb  # never decoded row by row
    assert not (tmp_path / "s.db").exists()


def test_a_footer_past_the_bound_is_refused_before_reading(tmp_path: Path) -> None:
    big = "a" * (40 << 20)
    data = _write(tmp_path / "pages.parquet", {"question": ["q"] * 8, "contexts": [[big]] * 8,
                                               "answer": [big] * 8})
    _refused(_eval(data, tmp_path / "s.db"), data.name, "its footer says its 8 rows decode to")


def test_a_billion_cheap_rows_are_refused_by_their_count(tmp_path: Path) -> None:
    n = 1_500_000
    data = _write(tmp_path / "rows.parquet", {"question": ["What?"] * n,
                                              "contexts": [["It."]] * n, "answer": ["It."] * n})
    _refused(_eval(data, tmp_path / "s.db", "--dry-run"), data.name,
             f"its footer says its {n:,} rows decode to")


def test_a_phoenix_span_bomb_is_refused(tmp_path: Path) -> None:
    big = "a" * (STRING_MB << 20)
    n = ROWS
    data = _write(tmp_path / "spans.parquet", {
        "context.trace_id": [f"{i:032x}" for i in range(n)],
        "context.span_id": [f"{i:016x}" for i in range(n)],
        "parent_id": [None] * n, "name": ["llm"] * n, "span_kind": ["LLM"] * n,
        "attributes.input.value": ["q"] * n, "attributes.output.value": [big] * n})
    peak_mb = _refused(_eval(data, tmp_path / "s.db"), data.name, "decodes to")
    assert peak_mb < STRING_MB * ROWS // 2, peak_mb


def test_an_ordinary_parquet_file_still_loads(tmp_path: Path) -> None:
    rows = 3000
    data = _write(tmp_path / "ok.parquet", {
        "question": [f"What is fact {i}?" for i in range(rows)],
        "contexts": [[f"Fact {i} is {i}.", "Filler context."] for i in range(rows)],
        "answer": [f"Fact {i} is {i}." for i in range(rows)],
        "metadata": [{"split": "dev", "n": i} for i in range(rows)]})
    code, _, err = _eval(data, tmp_path / "s.db", "--dry-run")
    assert code == 0, err
