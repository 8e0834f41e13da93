"""A routed run in the store (m0013_routing): tier verdicts per (tier, sample, suite),
the per-tier usage summed by SQLite, the routing written with the routed results in one
go (and replaced whole), all deleted with the run."""

from __future__ import annotations

from pathlib import Path

import pytest

from ragassay.store import Store, prepare_result
from ragassay.store.lease import RunBusy, this_process
from ragassay.types import (
    MetricResult,
    RoutingPlan,
    RoutingSummary,
    RunConfig,
    Sample,
    SampleResult,
    SampleRouting,
    Tier,
    Usage,
)

PLAN = RoutingPlan(tiers=(Tier(judges=("offline",)), Tier(judges=("openai:m",))),
                   escalate_share=0.5)


def _result(sid: str, value: bool, calls: int = 0, cost: float | None = None) -> SampleResult:
    return SampleResult(sample_id=sid, suite="judge",
                        results=(MetricResult(name="judge.hallucination", value=value),),
                        usage=Usage(calls=calls, input_tokens=10 * calls, cost_usd=cost))


def _summary(n: int) -> RoutingSummary:
    return RoutingSummary(mode="budget", verdict="judge.hallucination", samples=n, tiers=(),
                          guarantee="none")


@pytest.fixture
def store(tmp_path: Path) -> Store:
    s = Store(tmp_path / "r.db")
    return s


def _run(store: Store) -> str:
    run_id = store.create_run(RunConfig(dataset="d", routing=PLAN), package_version="t",
                              dataset_hash=None, judge_model="offline")
    store.add_samples(run_id, [Sample(id=f"s{i}", question="q", answer="a") for i in range(3)])
    return run_id


def test_tier_verdicts_usage_and_routing(store: Store) -> None:
    run_id = _run(store)
    store.save_tier_results(run_id, 0, [prepare_result(_result(f"s{i}", False))
                                        for i in range(3)])
    store.save_tier_results(run_id, 1, [prepare_result(_result("s2", True, 1, 0.01))])
    assert store.tier_keys(run_id, 0) == {("s0", "judge"), ("s1", "judge"), ("s2", "judge")}
    assert store.tier_keys(run_id, 1) == {("s2", "judge")}
    usage = store.tier_usage(run_id)
    assert usage[0] == (3, Usage())
    assert usage[1][0] == 1 and usage[1][1].calls == 1 and usage[1][1].cost_usd == 0.01
    routed = {"s0": SampleRouting(tier=0, judge="offline", confidences=(0.9, None)),
              "s2": SampleRouting(tier=1, judge="openai:m", confidences=(0.4, 0.8))}
    new_plan = PLAN.model_copy(update={"escalate_share": 0.7})
    store.save_routing(run_id, _summary(3), routed,
                       [prepare_result(_result("s0", False)),
                        prepare_result(_result("s2", True, 1, 0.01))], new_plan)
    assert store.get_routing(run_id) == _summary(3)
    assert store.routed_samples(run_id) == routed
    assert store.get_run(run_id).config.routing == new_plan
    assert [r.sample_id for r in store.iter_results(run_id)] == ["s0", "s2"]
    # a re-routing replaces the per-sample routing whole
    store.save_routing(run_id, _summary(3), {"s1": SampleRouting(tier=None, judge=None)}, [])
    assert set(store.routed_samples(run_id)) == {"s1"}
    store.delete_run(run_id)
    assert store.tier_keys(run_id, 0) == set() and store.get_routing(run_id) is None
    assert store.routed_samples(run_id) == {}


def test_a_routing_is_not_written_while_another_process_evaluates_the_run(store: Store
                                                                          ) -> None:
    run_id = _run(store)
    me = this_process()
    store.conn.execute("UPDATE leases SET pid = 1, proc_start = NULL WHERE run_id = ?",
                       (run_id,))  # init: alive
    assert me.pid != 1
    with pytest.raises(RunBusy, match="is being evaluated"):
        store.save_routing(run_id, _summary(3), {}, [])
