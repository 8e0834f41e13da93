"""A monitor's store calls (spans in, traces completed and scored, positions, events,
pruning) read back the same on both backends."""

from __future__ import annotations

from ragassay.store import Store
from ragassay.types import MetricResult, RunConfig, Sample, SampleResult


def test_a_monitors_life_in_the_store(store: Store) -> None:
    run_id = store.create_run(RunConfig(dataset="live"), package_version="t",
                              dataset_hash=None, judge_model="m")
    store.create_monitor(run_id, "prod", "{}")
    assert store.find_monitor("prod") is not None
    got = store.accept_spans(run_id, [("t1", "s1", "{}"), ("t1", "s1", "{}"),
                                      ("t2", "s2", "{}"), ("t3", "s3", "{}")], state='{"o": 1}')
    assert (got.spans, got.duplicates, got.late) == (3, 1, 0) and sorted(got.new_traces) == \
        ["t1", "t2", "t3"]
    store.complete_traces(run_id, [("t1", "queued", None), ("t2", "queued", None),
                                   ("t3", "invalid", "no question")])
    assert [p.trace_id for p in store.pending_traces(run_id)] == ["t1", "t2"]
    store.add_samples(run_id, [Sample(id="t1", question="q"), Sample(id="t2", question="q")])
    for tid, value in (("t1", 0.5), ("t2", 0.9)):
        store.save_result(run_id, SampleResult(sample_id=tid, suite="judge", results=(
            MetricResult(name="judge.x", value=value),)))
    assert store.mark_scored(run_id, ["t1", "t2"]) == 0 and store.next_position(run_id) == 2
    assert store.position_values(run_id, "judge.x", 0, 1) == [(0, 0.5), (1, 0.9)]
    assert store.worst_traces(run_id, "judge.x", 0, 1) == [("t1", 0, 0.5), ("t2", 1, 0.9)]
    assert store.trace_counts(run_id)["scored"] == 2
    assert store.invalid_reasons(run_id) == [("no question", 1)]
    assert store.add_monitor_event(run_id, "k1", "window", "judge.x", {"a": 1})
    assert not store.add_monitor_event(run_id, "k1", "window", "judge.x", {"a": 1})
    assert [e[0] for e in store.monitor_events(run_id)] == ["k1"]
    assert store.prune_monitor(run_id, "9999") == 3
    assert store.count_results(run_id) == 0 and store.monitor_events(run_id) == []
