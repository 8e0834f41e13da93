"""Unwritable, missing, corrupt or full databases give one-line StoreErrors; WAL readers."""

from __future__ import annotations

import os
import sqlite3
import subprocess
import sys
from pathlib import Path

import pytest

from ragassay.store import Store, StoreError
from ragassay.types import MetricResult, RunConfig, SampleResult
from tests.store.store_helpers import make_result, new_run


def _one_line(err: pytest.ExceptionInfo[StoreError]) -> str:
    text = str(err.value)
    assert "\n" not in text
    return text


def test_readonly_store_reads_but_refuses_writes(db_path: Path) -> None:
    with Store(db_path) as store:
        run_id = new_run(store)
        store.save_result(run_id, make_result("a"))
    with Store(db_path, readonly=True) as ro:
        assert ro.get_run(run_id).id == run_id
        assert ro.done_keys(run_id) == {("a", "judge")}
        with pytest.raises(StoreError) as err:
            ro.create_run(
                RunConfig(dataset="d"), package_version="0", dataset_hash=None, judge_model="m"
            )
        assert _one_line(err) == (
            f"cannot write to {db_path}: attempt to write a readonly database"
        )
        with pytest.raises(StoreError, match="cannot write to .*readonly"):
            ro.save_result(run_id, make_result("b"))
        with pytest.raises(StoreError, match="cannot write to .*readonly"):
            ro.cache_put("k", {"v": 1})
    with Store(db_path) as store:
        assert store.done_keys(run_id) == {("a", "judge")}


def test_raw_mode_ro_connection_cannot_write(db_path: Path) -> None:
    Store(db_path).close()
    conn = sqlite3.connect(f"file:{db_path}?mode=ro", uri=True)
    with pytest.raises(sqlite3.OperationalError, match="readonly"):
        conn.execute("INSERT INTO cache VALUES ('k', '{}', 'now')")
    conn.close()


@pytest.mark.skipif(os.geteuid() == 0, reason="root ignores file permissions")
def test_read_only_file_gives_store_error(db_path: Path) -> None:  # pragma: no cover
    Store(db_path).close()
    db_path.chmod(0o444)
    try:
        with (
            pytest.raises(StoreError, match=r"cannot (write to|open) .*readonly"),
            Store(db_path) as store,
        ):
            new_run(store)
    finally:
        db_path.chmod(0o644)


def test_missing_database_read_only(tmp_path: Path) -> None:
    with pytest.raises(StoreError) as err:
        Store(tmp_path / "none.db", readonly=True)
    assert _one_line(err) == f"no database at {tmp_path / 'none.db'}"


def test_parent_is_a_file(tmp_path: Path) -> None:
    (tmp_path / "afile").write_text("not a directory")
    for path in (tmp_path / "afile" / "x.db", tmp_path / "afile" / "sub" / "x.db"):
        with pytest.raises(StoreError) as err:
            Store(path)
        assert _one_line(err).startswith("cannot create directory ")


def test_path_is_a_directory(tmp_path: Path) -> None:
    with pytest.raises(StoreError) as err:
        Store(tmp_path)
    assert _one_line(err) == f"cannot open {tmp_path}: unable to open database file"


def test_corrupt_file(tmp_path: Path) -> None:
    path = tmp_path / "junk.db"
    path.write_bytes(b"this is not sqlite " * 100)
    with pytest.raises(StoreError) as err:
        Store(path)
    assert _one_line(err) == f"cannot open {path}: file is not a database"
    with pytest.raises(StoreError, match="file is not a database"):
        Store(path, readonly=True)


def test_full_disk_leaves_nothing_and_store_recovers(sqlite_store: Store, db_path: Path) -> None:
    store = sqlite_store
    run_id = new_run(store)
    pages = store.conn.execute("PRAGMA page_count").fetchone()[0]
    store.conn.execute(f"PRAGMA max_page_count = {pages}")
    big = SampleResult(
        sample_id="big",
        suite="judge",
        results=(MetricResult(name="judge.x", value=1.0, details={"blob": "x" * 200_000}),),
    )
    with pytest.raises(StoreError) as err:
        store.save_result(run_id, big)
    assert _one_line(err) == f"cannot write to {db_path}: database or disk is full"
    assert store.done_keys(run_id) == set()
    store.conn.execute("PRAGMA max_page_count = 1073741823")
    store.save_result(run_id, big)
    assert store.done_keys(run_id) == {("big", "judge")}


def test_locked_database_times_out_with_store_error(db_path: Path) -> None:
    with Store(db_path) as writer, Store(db_path, busy_timeout_s=0.1) as other:
        run_id = new_run(writer)
        writer.conn.execute("BEGIN IMMEDIATE")
        with pytest.raises(StoreError) as err:
            other.save_result(run_id, make_result("a"))
        assert _one_line(err) == f"cannot write to {db_path}: database is locked"
        writer.conn.execute("ROLLBACK")
        other.save_result(run_id, make_result("a"))


def test_closed_store_raises_store_error(db_path: Path) -> None:
    store = Store(db_path)
    store.close()
    store.close()
    with pytest.raises(StoreError, match="closed"):
        store.list_runs()


def test_reader_is_not_blocked_by_a_writer(db_path: Path) -> None:
    with Store(db_path) as writer, Store(db_path, readonly=True, busy_timeout_s=0.1) as reader:
        run_id = new_run(writer)
        writer.save_result(run_id, make_result("a"))
        # A write transaction in progress does not block the reader, who sees the last commit.
        writer.conn.execute("BEGIN IMMEDIATE")
        writer.conn.execute(
            "INSERT INTO results (run_id, sample_id, suite, strategy, reasoning, usage, results,"
                " created) VALUES (?, 'b', 'judge', 'default', NULL, '{}', '[]', 'now')",
            (run_id,),
        )
        assert reader.done_keys(run_id) == {("a", "judge")}
        writer.conn.execute("COMMIT")
        assert reader.done_keys(run_id) == {("a", "judge"), ("b", "judge")}
        # A long read does not block the writer either (the reader keeps its snapshot).
        reader.conn.execute("BEGIN")
        assert reader.count_results(run_id) == 2
        writer.save_result(run_id, make_result("c"))
        assert reader.count_results(run_id) == 2
        reader.conn.execute("COMMIT")
        assert reader.count_results(run_id) == 3


def test_reader_in_another_process_sees_committed_results(db_path: Path) -> None:
    with Store(db_path) as writer:
        run_id = new_run(writer)
        writer.save_result(run_id, make_result("a"))
        writer.conn.execute("BEGIN IMMEDIATE")  # keep a write transaction open meanwhile
        code = (
            "from ragassay.store import Store;"
            f"s = Store({str(db_path)!r}, readonly=True, busy_timeout_s=0.1);"
            f"print(sorted(s.done_keys({run_id!r})))"
        )
        out = subprocess.run(
            [sys.executable, "-c", code], capture_output=True, text=True, timeout=60
        )
        writer.conn.execute("ROLLBACK")
    assert out.returncode == 0, out.stderr
    assert out.stdout.strip() == "[('a', 'judge')]"
