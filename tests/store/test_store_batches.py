"""Judgments prepared elsewhere (a Ray worker) and saved a batch per transaction."""

from __future__ import annotations

import math

import pytest

import ragassay.store.store as store_module
from ragassay.store import CallRecord, Store, cache_row, prepare_result
from ragassay.types import MetricResult, SampleResult
from tests.store.store_helpers import make_result, new_run


def test_a_prepared_batch_reads_back_like_single_saves(store: Store) -> None:
    run_id, other = new_run(store), new_run(store)
    results = [make_result(f"s{i}", value=None if i == 2 else i / 10) for i in range(5)]
    calls = [[CallRecord(sample_id=r.sample_id, suite="judge", prompt="p", input_tokens=3)]
             for r in results]
    store.save_results(run_id, [prepare_result(r, c) for r, c in zip(results, calls,
                                                                      strict=True)],
                       [cache_row("k1", {"data": {"x": 1}})])
    for r, c in zip(results, calls, strict=True):
        store.save_result(other, r, c)
    assert list(store.iter_results(run_id)) == list(store.iter_results(other))
    assert store.metric_values(run_id, "judge.faithfulness") == \
        store.metric_values(other, "judge.faithfulness")
    assert [c.sample_id for c in store.iter_calls(run_id)] == [f"s{i}" for i in range(5)]
    assert store.cache_get("k1") == {"data": {"x": 1}}
    # saving a batch again replaces its results (idempotent per (sample, suite))
    store.save_results(run_id, [prepare_result(make_result("s0", value=0.9))])
    assert store.count_results(run_id) == 5
    assert store.metric_values(run_id, "judge.faithfulness")[0][2] == 0.9


def test_a_failing_batch_leaves_nothing_of_itself(store: Store,
                                                  monkeypatch: pytest.MonkeyPatch) -> None:
    run_id = new_run(store)

    def broken(conn: object, rid: object, rows: list[object], now: object) -> None:
        # the batch's last statement: every result and metric row is written by now
        assert conn.execute("SELECT COUNT(*) FROM results").fetchone()[0] == 4  # type: ignore[attr-defined]
        raise RuntimeError("disk gremlin")

    monkeypatch.setattr(store_module, "_insert_calls", broken)
    batch = [prepare_result(make_result(f"s{i}")) for i in range(4)]
    with pytest.raises(RuntimeError, match="gremlin"):
        store.save_results(run_id, batch, [cache_row("k", {"v": 1})])
    monkeypatch.undo()
    assert store.done_keys(run_id) == set() and store.cache_get("k") is None
    assert not store.conn.in_transaction


def test_prepare_refuses_what_save_result_refuses() -> None:
    nan = SampleResult(sample_id="a", suite="judge",
                       results=(MetricResult(name="judge.x", value=math.nan),))
    with pytest.raises(ValueError, match="unscored metric"):
        prepare_result(nan)
    twice = SampleResult(sample_id="a", suite="judge",
                         results=(MetricResult(name="judge.x", value=1.0),) * 2)
    with pytest.raises(ValueError, match="duplicate metric names"):
        prepare_result(twice)
