"""An output never replaces an input (issue 43, item 1).

On 4f8feb9 `eval t.jsonl --export-otlp t.jsonl` replaced the source trace file, and
`--out s.db` (eval, report), `--export-otlp s.db` renamed a file over the open SQLite
store: "database disk image is malformed", every run lost, exit 0. Every command that
writes a file now makes one check first (`cli.common.refuse_overwrites`, by resolved path
and inode): an output that is the store, one of its SQLite files, the dataset, another
input or another output is one line, exit 2, and nothing is touched.
"""

from __future__ import annotations

import gc
import hashlib
import json
import os
import shutil
import sqlite3
from pathlib import Path

import pytest
from click.testing import CliRunner, Result

from ragassay.cli import cli
from tests.support.traces import openinference_trace, write_otlp

REPO = Path(__file__).resolve().parents[2]
HANDBOOK = REPO / "examples" / "handbook"


def _invoke(*args: object) -> Result:
    return CliRunner().invoke(cli, [str(a) for a in args])


def _refused(result: Result, output: str, what: str) -> None:
    assert result.exit_code == 2, result.output
    assert result.output.count("\n") == 1, result.output
    assert result.output.startswith("error: --"), result.output
    assert f" {output} would overwrite {what}" in result.output, result.output


def _digest(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


def _rows(path: Path) -> Path:
    path.write_text("".join(json.dumps({
        "id": f"s{i}", "question": f"What is fact {i}?", "contexts": [f"Fact {i} is {i}."],
        "answer": f"Fact {i} is {i}."}) + "\n" for i in range(3)), encoding="utf-8")
    return path


@pytest.fixture
def stored(tmp_path: Path) -> tuple[Path, Path]:
    """A dataset and a store holding one finished run of it."""
    data, db = _rows(tmp_path / "d.jsonl"), tmp_path / "s.db"
    made = _invoke("eval", data, "--metrics", "judge", "--db", db, "-q")
    assert made.exit_code == 0, made.output
    gc.collect()  # the run's store closed (its WAL checkpointed) before the bytes are kept
    return data, db


def _intact(db: Path, before: str) -> None:
    assert _digest(db) == before
    with sqlite3.connect(db) as conn:
        assert conn.execute("PRAGMA integrity_check").fetchone()[0] == "ok"
    listed = _invoke("runs", "list", "--db", db, "--format", "json")
    assert listed.exit_code == 0 and len(json.loads(listed.output)) == 1, listed.output


@pytest.mark.parametrize("command", [
    ("eval", "{data}", "--metrics", "judge", "--db", "{db}", "-q", "--out", "{db}"),
    ("eval", "{data}", "--metrics", "judge", "--db", "{db}", "-q", "--export-otlp", "{db}"),
    ("report", "--db", "{db}", "--out", "{db}"),
    ("report", "--db", "{db}", "--export-otlp", "{db}"),
    ("report", "--db", "{db}", "--format", "html", "--out", "{db}-wal"),
    ("report", "--db", "{db}", "--schema", "--out", "{db}-shm"),
    ("labels", "export", "--db", "{db}", "--out", "{db}"),
    ("meta-eval", "{data}", "--db", "{db}", "--out", "{db}"),
])
def test_no_command_writes_over_the_store(stored: tuple[Path, Path],
                                          command: tuple[str, ...]) -> None:
    data, db = stored
    before = _digest(db)
    args = [a.format(data=data, db=db) for a in command]
    target = args[args.index("--out") + 1] if "--out" in args else \
        args[args.index("--export-otlp") + 1]
    what = "the run store's wal file" if target.endswith("-wal") else \
        "the run store's shm file" if target.endswith("-shm") else "the run store"
    _refused(_invoke(*args), target, what)
    _intact(db, before)


def test_a_hard_link_or_a_symlink_to_the_store_is_the_store(stored: tuple[Path, Path]
                                                           ) -> None:
    data, db = stored
    before = _digest(db)
    hard, soft = db.with_name("copy.db"), db.with_name("link.json")
    os.link(db, hard)
    soft.symlink_to(db)
    for out in (hard, soft):
        _refused(_invoke("report", "--db", db, "--out", out), str(out), "the run store")
    _intact(db, before)


def test_the_otlp_export_never_replaces_the_trace_file_it_read(tmp_path: Path) -> None:
    traces = write_otlp(tmp_path / "t.jsonl", [openinference_trace()])
    before = _digest(traces)
    result = _invoke("eval", traces, "--db", tmp_path / "s.db", "-q", "--export-otlp", traces)
    _refused(result, str(traces), "the dataset")
    assert _digest(traces) == before
    assert not (tmp_path / "s.db").exists()  # refused before anything was judged


def test_two_outputs_of_one_command_are_one_file(stored: tuple[Path, Path]) -> None:
    data, db = stored
    out = db.with_name("r.json")
    result = _invoke("eval", data, "--metrics", "judge", "--db", db, "-q", "--out", out,
                     "--export-otlp", out)
    _refused(result, str(out), "the output of --out")


def test_a_parquet_results_folder_never_removes_the_dataset(tmp_path: Path) -> None:
    """A results folder's stale `part-*.parquet` files are removed: a dataset among them
    would be deleted."""
    import pandas as pd

    folder = tmp_path / "results"
    folder.mkdir()
    data = folder / "part-00007.parquet"
    pd.DataFrame([{"question": "What is fact 1?", "contexts": ["Fact 1 is 1."],
                   "answer": "Fact 1 is 1."}]).to_parquet(data)
    before = _digest(data)
    result = _invoke("eval", data, "--metrics", "judge", "--db", tmp_path / "s.db", "-q",
                     "--results-parquet", folder)
    _refused(result, str(folder), "the dataset")
    assert _digest(data) == before


def test_bench_and_generate_never_write_over_their_inputs(tmp_path: Path) -> None:
    bench = tmp_path / "bench"
    shutil.copytree(HANDBOOK, bench)
    config = bench / "bench.toml"
    before = _digest(config)
    _refused(_invoke("bench", config, "--db", tmp_path / "s.db", "--out", config),
             str(config), "the bench config")
    questions = bench / "questions.jsonl"
    _refused(_invoke("bench", config, "--db", tmp_path / "s.db", "--out", questions),
             str(questions), "the questions")
    assert _digest(config) == before
    corpus = tmp_path / "docs.jsonl"
    corpus.write_text(json.dumps({"id": "d1", "text": "Fact one. " * 50}) + "\n")
    _refused(_invoke("generate", corpus, "--out", corpus), str(corpus), "the corpus")


def test_the_python_report_never_writes_over_its_store(tmp_path: Path) -> None:
    import ragassay

    result = ragassay.evaluate(_rows(tmp_path / "d.jsonl"), "judge", store=tmp_path / "p.db",
                               progress=False)
    with pytest.raises(ValueError, match="would overwrite the run store"):
        result.report("html", out=tmp_path / "p.db")
    assert result.summary() is not None  # the store is still readable
