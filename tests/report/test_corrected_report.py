"""A run's corrected estimates from the store: labels given by people (stored by content)
join the run's samples, and an annotation plan's inclusion probabilities are used."""

from __future__ import annotations

from pathlib import Path

import numpy as np

from ragassay.report import corrected_for, plan_queue, run_table
from ragassay.store import Store
from ragassay.types import (
    AnnotationPlan,
    HumanLabel,
    MetricResult,
    MetricSpec,
    RunConfig,
    Sample,
    SampleResult,
)

SPEC = MetricSpec(name="judge.faithfulness", low=1, high=10)


def _run(tmp_path: Path, n: int = 120) -> tuple[Store, str, list[Sample], np.ndarray]:
    rng = np.random.default_rng(1)
    store = Store(tmp_path / "r.db")
    run_id = store.create_run(RunConfig(dataset="d.jsonl", metrics=("judge",)),
                              package_version="0", dataset_hash=None, judge_model="m",
                              specs=[SPEC])
    bad = rng.random(n) < 0.3
    samples = [Sample(id=f"s{i}", question=f"q{i}?", contexts=(f"c{i}",), answer=f"a{i}",
                      labels={"hallucination": bool(bad[i])} if i < 5 else {})
               for i in range(n)]
    store.add_samples(run_id, samples)
    for i, s in enumerate(samples):
        score = float(np.clip(round(8 - 4 * bad[i] + rng.normal(0, 1)), 1, 10))
        store.save_result(run_id, SampleResult(sample_id=s.id, strategy=s.strategy,
                                               suite="judge", results=(MetricResult(
                                                   name=SPEC.name, value=score),)))
    store.finish_run(run_id, "complete")
    return store, run_id, samples, bad


def test_stored_labels_join_the_run_and_give_corrected_estimates(tmp_path: Path) -> None:
    store, run_id, samples, bad = _run(tmp_path)
    assert not corrected_for(store, run_id).estimates  # 5 labels from the data: too few
    store.set_labels(HumanLabel(content_key=s.content_key, name="hallucinated",
                                value=bool(bad[i])) for i, s in enumerate(samples[:40]))
    rt = run_table(store, run_id)
    assert rt.stored_labels == 40
    # the data's `hallucination` and a person's `hallucinated` are one label
    assert rt.table.label_names == ("hallucination",)
    out = corrected_for(store, run_id, rt=rt)
    est = out.overall("judge.faithfulness")
    assert est is not None and est.n_labelled == 40 and est.inverted
    assert abs(est.estimate - bad.mean()) < 0.15


def test_a_weighted_plan_gives_its_inclusion_probabilities(tmp_path: Path) -> None:
    store, run_id, samples, bad = _run(tmp_path)
    plan = AnnotationPlan(run_id=run_id, kind="uncertainty", seed=2,
                          metric="judge.faithfulness", labels=("hallucinated",))
    store.save_plan(plan)
    rt = run_table(store, run_id)
    order = plan_queue(rt, plan)
    assert len(order) == 120 and len({k for _, k in order}) == 120
    by_key = {s.content_key: i for i, s in enumerate(samples)}
    store.set_labels(HumanLabel(content_key=k, name="hallucinated", value=bool(bad[by_key[k]]))
                     for _, k in order[:40])
    est = corrected_for(store, run_id).overall("judge.faithfulness")
    assert est is not None and est.design == "uncertainty" and est.n_labelled >= 40
