"""The routing benchmark's core: label/test splits through the product's routing code
(coverage of the guarantee, the share escalated, tier-1 calls against tier 1 alone), and
the export of collected verdicts loaded back into a store's judge-call cache."""

from __future__ import annotations

import gzip
import json
import random
from pathlib import Path

import pytest

from benches._routing_sim import alone, simulate
from benches.routing import load_export
from ragassay.routing import Case, Reading
from ragassay.store import Store
from ragassay.types import RoutingPlan, Tier


def _cases(n: int, seed: int = 3) -> list[Case]:
    rng = random.Random(seed)
    out = []
    for i in range(n):
        truth = rng.random() < 0.4
        readings = []
        for low in (0.5, 0.75):  # a weak and a strong calibrated judge
            conf = rng.uniform(low, 1.0)
            readings.append(Reading(truth if rng.random() < conf else not truth, conf))
        out.append(Case(f"s{i}", truth, readings))
    return out


def test_splits_hold_the_guarantee_and_count_what_went_up() -> None:
    cases = _cases(600)
    plan = RoutingPlan(tiers=(Tier(judges=("a",)), Tier(judges=("b",))), agreement=0.85,
                       delta=0.1, abstain=True)
    sim = simulate(cases, plan, label_share=0.5, splits=60, seed=0)
    row = sim.row()
    assert row["splits"] == 60 and row["coverage"] is not None and row["coverage"] >= 0.9
    assert 0 < row["escalated"] < 1 and 0 <= row["person"] <= row["escalated"]
    # tier 1 judges the labelled half and what went up from the test half
    assert row["tier-1 calls vs alone"] == pytest.approx(
        sum(0.5 + e / 2 for e in sim.escalated) / 60)
    assert alone(cases, 1) > alone(cases, 0)


def test_the_export_loads_into_the_cache(tmp_path: Path) -> None:
    path = tmp_path / "v.jsonl.gz"
    with gzip.open(path, "wt", encoding="utf-8") as fh:
        fh.write(json.dumps({"judge": "x"}) + "\n")
        for i in range(3):
            fh.write(json.dumps({"set": "begin", "id": f"b{i}", "key": f"k{i}",
                                 "value": {"text": "{}", "data": {}}}) + "\n")
    with Store(tmp_path / "s.db") as store:
        assert load_export(store, path) == {"begin": ["b0", "b1", "b2"]}
        assert store.cache_get("k1") == {"text": "{}", "data": {}}
        assert load_export(store, tmp_path / "none.gz") == {}
