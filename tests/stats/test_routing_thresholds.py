"""Fixed-sequence thresholds (`stats.routing`): the binomial bound, the test's edges, and
the guarantee's validity by simulation: over many label/test splits, the agreement with
people on the decided test samples is at least 1 - alpha in at least 1 - delta of them
(fixed seed), for one judge and for a two-tier cascade with --abstain; a naive threshold
(the empirical agreement alone) fails the same check."""

from __future__ import annotations

import numpy as np
import pytest
from scipy.stats import binom

from ragassay.routing import Case, Reading, calibrate, route
from ragassay.stats.routing import (
    budget_escalated,
    fewest_testable,
    fixed_sequence,
    risk_upper_bound,
)
from ragassay.types import RoutingPlan, Tier


def test_the_upper_bound_is_the_exact_binomial_one() -> None:
    # zero errors in n: the bound is 1 - delta ** (1 / n)
    assert risk_upper_bound(0, 50, 0.1) == pytest.approx(1 - 0.1 ** (1 / 50))
    r = risk_upper_bound(7, 100, 0.05)
    assert binom.cdf(7, 100, r) == pytest.approx(0.05, abs=1e-9)
    assert risk_upper_bound(3, 3, 0.1) == 1.0 and risk_upper_bound(0, 0, 0.1) == 1.0


def test_fewest_testable_is_where_zero_errors_first_pass() -> None:
    n = fewest_testable(0.1, 0.1)
    assert 0.9 ** n <= 0.1 < 0.9 ** (n - 1)


def test_a_judge_never_that_sure_gets_no_threshold_and_says_why() -> None:
    conf = np.linspace(0.5, 1.0, 200)
    agrees = np.arange(200) % 3 != 0  # a third wrong at every confidence
    th = fixed_sequence(conf, agrees, alpha=0.1, delta=0.1)
    assert th.value is None and th.reason is not None and "never that sure" in th.reason


def test_too_few_labels_is_said() -> None:
    th = fixed_sequence([0.99] * 5, [True] * 5, alpha=0.1, delta=0.1)
    assert th.value is None and th.reason is not None and th.reason.startswith("too few labels")


def test_a_perfect_judge_decides_everything() -> None:
    th = fixed_sequence(np.linspace(0.5, 1, 100), [True] * 100, alpha=0.1, delta=0.1)
    assert th.value == 0.0 and th.n == 100 and th.errors == 0


def test_the_budget_sends_up_the_least_confident_share() -> None:
    up = budget_escalated([0.9, None, 0.6, 0.7, 0.95], 0.4)
    assert up == [False, True, True, False, False]


# -- validity by simulation --------------------------------------------------------------

ALPHA, DELTA = 0.1, 0.1


def _judge(rng: np.random.Generator, n: int, low: float) -> tuple[np.ndarray, np.ndarray]:
    """A calibrated judge: confidence uniform on [low, 1], right with that probability."""
    conf = rng.uniform(low, 1.0, n)
    return conf, rng.random(n) < conf


def _naive(conf: np.ndarray, agrees: np.ndarray, alpha: float) -> float:
    """The smallest threshold whose empirical agreement on the labels is >= 1 - alpha."""
    order = np.argsort(-conf)
    running = np.cumsum(agrees[order]) / np.arange(1, len(conf) + 1)
    ok = np.flatnonzero(running >= 1 - alpha)
    return float(conf[order][ok[-1]]) if ok.size else 1.1


def test_one_judge_holds_the_guarantee_over_label_test_splits() -> None:
    rng = np.random.default_rng(39)
    held, naive_held, decided = 0, 0, []
    reps, n_labels, n_test = 400, 300, 2000
    for _ in range(reps):
        conf, right = _judge(rng, n_labels + n_test, 0.5)
        th = fixed_sequence(conf[:n_labels], right[:n_labels], ALPHA, DELTA)
        test_conf, test_right = conf[n_labels:], right[n_labels:]
        if th.value is not None:
            mask = test_conf >= th.value
            decided.append(mask.mean())
            held += bool(mask.sum() == 0 or test_right[mask].mean() >= 1 - ALPHA)
        else:
            held += 1  # decides nothing: vacuously within the target
        bar = _naive(conf[:n_labels], right[:n_labels], ALPHA)
        mask = test_conf >= bar
        naive_held += bool(mask.sum() == 0 or test_right[mask].mean() >= 1 - ALPHA)
    assert held / reps >= 1 - DELTA
    assert naive_held / reps < 1 - DELTA  # the simulation can fail: without the bound it does
    assert np.mean(decided) > 0.1  # and the guarantee is not bought by deciding nothing


def _cases(rng: np.random.Generator, n: int, labelled: bool) -> list[Case]:
    """Samples judged by a weak and a strong calibrated judge (flags; truth True)."""
    weak, weak_right = _judge(rng, n, 0.5)
    strong, strong_right = _judge(rng, n, 0.7)
    return [Case(f"s{i}", True if labelled else None,
                 [Reading(bool(weak_right[i]), float(weak[i])),
                  Reading(bool(strong_right[i]), float(strong[i]))]) for i in range(n)]


def test_a_cascade_with_abstain_holds_the_guarantee_on_every_decided_sample() -> None:
    rng = np.random.default_rng(7)
    plan = RoutingPlan(tiers=(Tier(judges=("openai:weak",)), Tier(judges=("openai:strong",))),
                       agreement=1 - ALPHA, delta=DELTA, abstain=True)
    reps, held, shares = 200, 0, []
    for _ in range(reps):
        labelled = _cases(rng, 400, True)
        test = _cases(rng, 1500, False)
        thresholds = calibrate(labelled, plan)
        routed = route(test, plan, thresholds)
        hits = [c.readings[r.tier].decision is True for c, r in zip(test, routed, strict=True)
                if r.tier is not None]
        shares.append(sum(1 for r in routed if r.tier == 0) / len(test))
        held += bool(not hits or np.mean(hits) >= 1 - ALPHA)
    assert held / reps >= 1 - DELTA
    assert 0.05 < np.mean(shares) < 0.95  # tier 0 decides a real share, the rest go up
