"""Annotation plans: a queue a person may stop anywhere in, with known inclusion
probabilities."""

from __future__ import annotations

import numpy as np
import pytest

from ragassay.labels.plan import inclusion, labelled_probabilities, priority, queue, weights
from ragassay.types import AnnotationPlan

KEYS = [f"key{i:03d}" for i in range(40)]


def test_the_queue_is_fixed_by_seed_and_content() -> None:
    plan = AnnotationPlan(run_id="r", seed=1)
    w = weights(plan, ["s"] * 40)
    assert queue(plan, KEYS, w) == queue(plan, KEYS, w)
    assert queue(plan, KEYS, w) != queue(plan.model_copy(update={"seed": 2}), KEYS, w)
    assert sorted(queue(plan, KEYS, w)) == list(range(40))
    assert 0 < priority(1, "a") < 1 and priority(1, "a") != priority(2, "a")


def test_a_uniform_prefix_is_a_simple_random_sample() -> None:
    # over many seeds, each sample is among the first 10 about 10/40 of the time
    counts = np.zeros(40)
    for seed in range(2000):
        plan = AnnotationPlan(run_id="r", seed=seed)
        counts[queue(plan, KEYS, weights(plan, ["s"] * 40))[:10]] += 1
    assert np.allclose(counts / 2000, 0.25, atol=0.05)


def test_weighted_prefixes_follow_their_inclusion_probabilities() -> None:
    scores = [i / 39 for i in range(40)]
    w = weights(AnnotationPlan(run_id="r", kind="uncertainty"), ["s"] * 40, scores)
    assert w.min() == pytest.approx(0.2) and w.max() <= 0.7
    pi = inclusion(w, 10)
    assert pi.sum() == pytest.approx(10)
    counts = np.zeros(40)
    for seed in range(3000):
        counts[queue(AnnotationPlan(run_id="r", seed=seed), KEYS, w)[:10]] += 1
    assert np.allclose(counts / 3000, pi, atol=0.05)
    assert counts[20] > 2 * counts[0]  # the judge's unsure middle comes up more often


def test_inclusion_caps_at_one_and_spreads_the_rest() -> None:
    pi = inclusion(np.array([10.0, 1, 1, 1, 1]), 3)
    assert pi[0] == 1.0 and pi[1:] == pytest.approx([0.5] * 4) and pi.sum() == pytest.approx(3)
    assert list(inclusion(np.ones(3), 5)) == [1.0, 1.0, 1.0]
    assert list(inclusion(np.ones(3), 0)) == [0.0, 0.0, 0.0]


def test_stratified_gives_each_strategy_an_equal_share() -> None:
    strategies = ["a"] * 30 + ["b"] * 10
    pi = inclusion(weights(AnnotationPlan(run_id="r", kind="stratified"), strategies), 10)
    assert pi[:30].sum() == pytest.approx(5) and pi[30:].sum() == pytest.approx(5)


def test_uncertainty_needs_scores() -> None:
    with pytest.raises(ValueError, match="scores"):
        weights(AnnotationPlan(run_id="r", kind="uncertainty"), ["s"])


def test_labelled_probabilities_count_skips_as_examined() -> None:
    plan = AnnotationPlan(run_id="r", seed=4)
    w = weights(plan, ["s"] * 40)
    order = [KEYS[i] for i in queue(plan, KEYS, w)]
    pis, prefix = labelled_probabilities(plan, KEYS, w, set(order[:8]))
    assert prefix == 8 and set(pis) == set(order[:8])
    assert all(p == pytest.approx(8 / 40) for p in pis.values())
    # the 9th was skipped, the 10th labelled: 9 labels out of 10 examined
    pis, prefix = labelled_probabilities(plan, KEYS, w, set(order[:8]) | {order[9]})
    assert prefix == 10
    assert all(p == pytest.approx(10 / 40 * 9 / 10) for p in pis.values())
    assert labelled_probabilities(plan, KEYS, w, set()) == ({}, 0)
