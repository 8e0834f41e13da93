"""The store's provider batches (m0010_batches): a batch and the calls it holds written
before its upload, its ids and status as they come, its lines on its calls, the calls it
left lost, what the run's batches cost; a run's batch options; a config read back keeps
which backend options were given."""

from __future__ import annotations

from pathlib import Path

import pytest

from ragassay.store import BatchLine, Store
from ragassay.types import BackendOptions, RunConfig


def _run(store: Store) -> str:
    return store.create_run(RunConfig(dataset="d.jsonl", judge="openai:m"),
                            package_version="0", dataset_hash=None, judge_model="m")


def test_a_batch_s_life_in_the_store(store_location: str | Path) -> None:
    with Store(store_location) as store:
        run = _run(store)
        assert store.batch_summary(run) is None and store.batch_options(run) is None
        store.set_batch_options(run, '{"fallback": "direct"}')
        assert store.batch_options(run) == '{"fallback": "direct"}'
        batch = store.add_batch(run, "openai", ["k1", "k2", "k3"], 300)
        (b,) = store.batches(run, live=True)
        assert (b.id, b.status, b.requests, b.bytes, b.batch_id) == (batch, "preparing", 3,
                                                                     300, None)
        assert [s.status for s in store.call_states(run, "k1")] == ["held"]
        assert store.runs_waiting_for_batch() == {run}
        store.batch_uploaded(batch, "file-1")
        store.batch_update(batch, status="in_progress", batch_id="batch-1", completed=1)
        store.batch_update(batch, status="completed", output_file="file-2", completed=2,
                           failed=1)
        b = store.batches(run)[0]
        assert (b.input_file, b.batch_id, b.status, b.completed, b.failed, b.output_file) == (
            "file-1", "batch-1", "completed", 2, 1, "file-2")
        unknown = store.save_batch_lines(batch, [
            BatchLine(custom_id="k1", status="ok", reply='{"x": 1}', input_tokens=100,
                      output_tokens=10, cost_usd=0.5, direct_cost_usd=1.0),
            BatchLine(custom_id="k2", status="error", error="HTTP 500: boom"),
            BatchLine(custom_id="nobody", status="ok", reply="{}")])
        assert unknown == 1
        assert store.settle_batch(batch, "batch completed") == 1  # k3 had no line
        assert not store.batches(run, live=True) and store.runs_waiting_for_batch() == set()
        ok, = store.call_states(run, "k1")
        assert (ok.status, ok.reply, ok.batch_status) == ("ok", '{"x": 1}', "completed")
        assert store.call_states(run, "k2")[0].error == "HTTP 500: boom"
        assert store.call_states(run, "k3")[0].error == "batch completed"
        again = store.add_batch(run, "openai", ["k2", "k3"], 200)
        assert [s.batch for s in store.call_states(run, "k2")] == [batch, again]
        assert store.batch_call_ids(again) == ["k2", "k3"]
        summary = store.batch_summary(run)
        assert summary is not None
        assert (summary.batches, summary.requests, summary.answered, summary.failed,
                summary.waiting) == (2, 5, 1, 2, 2)
        assert (summary.cost_usd, summary.direct_cost_usd) == (0.5, 1.0)
        assert summary.statuses == {"completed": 1, "preparing": 1}
        store.abandon_batch(again)
        assert store.call_states(run, "k3")[0].batch == batch  # the abandoned held none
        assert store.batch_summary(run).batches == 1  # type: ignore[union-attr]
        store.delete_run(run)
        assert store.conn.execute("SELECT COUNT(*) FROM batch_calls").fetchone()[0] == 0
        assert store.conn.execute("SELECT COUNT(*) FROM batches").fetchone()[0] == 0


def test_unpriced_batch_lines_have_no_cost(store_location: str | Path) -> None:
    with Store(store_location) as store:
        run = _run(store)
        batch = store.add_batch(run, "openai", ["k"], 10)
        store.save_batch_lines(batch, [BatchLine(custom_id="k", status="ok", reply="{}")])
        summary = store.batch_summary(run)
        assert summary is not None and summary.cost_usd is None
        assert summary.direct_cost_usd is None


@pytest.mark.parametrize("given", [{}, {"max_tokens": 50}, {"timeout_s": 5.0}])
def test_a_stored_config_keeps_which_backend_options_were_given(given: dict) -> None:
    """A run read back (a resume) asks each prompt for its own max_tokens unless the run
    was given one: before, every stored option read back as given, and a resumed run
    asked for max_tokens 1024 under other cache keys than its first calls."""
    with Store(":memory:") as store:
        run = store.create_run(RunConfig(dataset="d", backend=BackendOptions(**given)),
                               package_version="0", dataset_hash=None, judge_model="m")
        backend = store.get_run(run).config.backend
    assert backend.max_tokens_overridden == ("max_tokens" in given)
    assert backend == BackendOptions(**given)
