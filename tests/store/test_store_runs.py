"""Run lifecycle: create, look up (by prefix too), list, finish, delete."""

from __future__ import annotations

import json
import re
import threading
from pathlib import Path

import pytest

from ragassay.store import DEFAULT_DB_PATH, CallRecord, RunRecord, Store, StoreError
from ragassay.types import RunConfig, RunMeta, Sample
from tests.store.store_helpers import make_result, new_run


def test_default_path() -> None:
    assert Path(".ragassay/ragassay.db") == DEFAULT_DB_PATH


def test_create_and_get_run(store: Store, config: RunConfig) -> None:
    run_id = store.create_run(
        config,
        package_version="0.1.0",
        dataset_hash="h1",
        judge_model="gpt-x",
        meta=RunMeta(dataset_path="/data/data.jsonl"),
    )
    assert re.fullmatch(r"\d{8}-\d{6}-[0-9a-f]{4}", run_id)
    run = store.get_run(run_id)
    assert isinstance(run, RunRecord)
    assert run.id == run_id
    assert run.status == "running"
    assert run.finished is None
    assert run.config == config
    assert (run.dataset, run.judge, run.judge_model) == ("data.jsonl", "openai", "gpt-x")
    assert (run.package_version, run.dataset_hash) == ("0.1.0", "h1")
    assert run.meta == RunMeta(dataset_path="/data/data.jsonl")
    assert run.created.tzinfo is not None


def test_parent_directories_are_created(tmp_path: Path) -> None:
    path = tmp_path / "a" / "b" / "c.db"
    with Store(path) as store:
        new_run(store)
    assert path.is_file()


def test_finish_run_merges_meta_and_stamps_finished(store: Store) -> None:
    run_id = new_run(store, engine="local")
    store.finish_run(run_id, "interrupted", RunMeta(samples=3))
    run = store.get_run(run_id)
    assert run.status == "interrupted"
    assert run.finished is not None and run.finished >= run.created
    assert (run.meta.engine, run.meta.samples, run.meta.seconds) == ("local", 3, None)
    store.finish_run(run_id, "running")  # resumed
    assert store.get_run(run_id).finished is None
    store.finish_run(run_id, "complete", RunMeta(samples=5))
    run = store.get_run(run_id)
    assert (run.status, run.meta.samples, run.meta.engine) == ("complete", 5, "local")


def test_run_meta_is_read_field_by_field_and_keeps_what_it_does_not_know(
        store: Store) -> None:
    """A stored meta with a field of an older shape and a key of another version: the
    field reads None (not the run unreadable); both are written back as they were."""
    run_id = new_run(store)
    store.conn.execute("UPDATE runs SET meta = ? WHERE id = ?",
                       ('{"reliability": {"judge": 3}, "host": "ci", "samples": 2}', run_id))
    run = store.get_run(run_id)
    assert (run.meta.reliability, run.meta.samples) == (None, 2)
    assert run.meta.other == {"reliability": {"judge": 3}, "host": "ci"}
    store.update_meta(run_id, RunMeta(dataset_path="/d.jsonl"))
    raw = store.conn.execute("SELECT meta FROM runs WHERE id = ?", (run_id,)).fetchone()[0]
    assert json.loads(raw) == {"reliability": {"judge": 3}, "host": "ci", "samples": 2,
                               "dataset_path": "/d.jsonl"}


def test_finish_run_rejects_unknown_status_and_run(store: Store) -> None:
    run_id = new_run(store)
    with pytest.raises(ValueError, match="status must be one of"):
        store.finish_run(run_id, "done")
    with pytest.raises(StoreError, match="no run 'nope'"):
        store.finish_run("nope", "complete")


def test_unknown_run_message(store_location: str | Path, store: Store) -> None:
    with pytest.raises(StoreError) as err:
        store.get_run("x")
    assert str(err.value) == f"no run 'x' in {store_location}".replace("ragassay@", "")


def test_prefix_lookup(store: Store) -> None:
    ids = []
    for i in range(3):
        run_id = new_run(store)
        ids.append(run_id)
        store.conn.execute(  # make the ids deterministic for the prefix test
            "UPDATE runs SET id = ? WHERE id = ?", (f"20261130-12550{i}-ab1{i}", run_id)
        )
    assert store.get_run("20261130-125501").id == "20261130-125501-ab11"
    assert store.get_run("20261130-125502-ab12").id == "20261130-125502-ab12"
    with pytest.raises(StoreError, match="ambiguous.*20261130-125500-ab10, 20261130-125501"):
        store.get_run("20261130-1255")
    with pytest.raises(StoreError, match="no run '20261130-1256'"):
        store.get_run("20261130-1256")
    with pytest.raises(StoreError, match="no run ''"):
        store.get_run("")
    # a prefix is a prefix, not a LIKE pattern
    with pytest.raises(StoreError, match="no run"):
        store.get_run("2026113_-")


def test_list_runs_newest_first_and_by_dataset(store: Store) -> None:
    a = new_run(store, RunConfig(dataset="a.jsonl"))
    b = new_run(store, RunConfig(dataset="b.jsonl"))
    c = new_run(store, RunConfig(dataset="a.jsonl"))
    for i, run_id in enumerate((a, b, c)):  # distinct creation times, whatever the clock did
        store.conn.execute(
            "UPDATE runs SET created = ? WHERE id = ?", (f"2026-01-0{i + 1}T00:00:00+00:00", run_id)
        )
    assert [r.id for r in store.list_runs()] == [c, b, a]
    assert [r.id for r in store.list_runs("a.jsonl")] == [c, a]
    assert store.list_runs("zzz") == []
    latest = store.latest_run()
    assert latest is not None and latest.id == c
    latest_b = store.latest_run("b.jsonl")
    assert latest_b is not None and latest_b.id == b


def test_latest_run_of_empty_store(store: Store) -> None:
    assert store.latest_run() is None


def test_run_ids_are_unique_and_sortable(store: Store) -> None:
    ids = [new_run(store) for _ in range(30)]
    assert len(set(ids)) == 30
    stamps = [i.rsplit("-", 1)[0] for i in ids]
    assert stamps == sorted(stamps)


def test_delete_run_cascades_but_keeps_cache(store: Store) -> None:
    keep, gone = new_run(store), new_run(store)
    for run_id in (keep, gone):
        store.add_samples(run_id, [Sample(id="s1", question="q")])
        store.save_result(run_id, make_result("s1"), [CallRecord(sample_id="s1", suite="judge")])
    store.cache_put("k", {"text": "cached"})
    store.delete_run(gone)
    with pytest.raises(StoreError, match="no run"):
        store.get_run(gone)
    for table in ("samples", "results", "metric_values", "calls"):
        rows = store.conn.execute(f"SELECT run_id FROM {table}").fetchall()
        assert {r[0] for r in rows} == {keep}, table
    assert store.cache_get("k") == {"text": "cached"}
    with pytest.raises(StoreError, match="no run"):
        store.delete_run(gone)


def test_in_memory_store_and_use_from_another_thread() -> None:
    with Store(":memory:") as store:
        run_id = new_run(store)
        seen: list[str] = []
        worker = threading.Thread(target=lambda: seen.append(store.get_run(run_id).id))
        worker.start()
        worker.join(timeout=10)
        assert seen == [run_id]
    with pytest.raises(StoreError, match="read-only store needs a database file"):
        Store(":memory:", readonly=True)
