"""The interval of a rate of 0/1 values (`describe.mean_ci`: a yes/no verdict's rate per
run, strategy or group, the abstention rates) is Clopper-Pearson's, shown by simulation
with a fixed seed to hold its level at small n and rates near 0 or 1, where the
percentile bootstrap it replaces is zero wide on values all alike and undercovers
(trial 65: `false_abstention_rate 0.000 [0.000, 0.000]` with none of 14 abstentions
false, `hallucination rate 1.00 [1.00, 1.00]` for 16 of 16)."""

from __future__ import annotations

import numpy as np
import pytest

from ragassay.stats import ScoreTable
from ragassay.stats.abstention import rates_of
from ragassay.stats.bootstrap import bootstrap_ci
from ragassay.stats.describe import mean_ci
from ragassay.stats.ppi import clopper_pearson
from ragassay.stats.table import Row

DRAWS = 2000


def _coverage(n: int, p: float) -> tuple[float, float]:
    """Of DRAWS simulated runs of n yes/no values (each yes with probability p), the
    share whose 95% interval holds p: the product's (`mean_ci`), and the percentile
    bootstrap's (200 resamples: enough to show where it fails)."""
    rng = np.random.default_rng([65, n, round(1000 * p)])
    ours = boot = 0
    for y in (rng.random((DRAWS, n)) < p).astype(float):
        got = mean_ci(list(y), rate=True)
        ours += got.ci_low <= p <= got.ci_high
        low, high = bootstrap_ci(y, n_resamples=200) or (0.0, 0.0)
        boot += low <= p <= high
    return ours / DRAWS, boot / DRAWS


@pytest.mark.parametrize("n", [5, 14, 30])
@pytest.mark.parametrize("p", [0.02, 0.1, 0.5, 0.9, 0.98])
def test_a_rate_interval_holds_its_level(n: int, p: float) -> None:
    """At 95%, the rate's interval holds the truth in at least 94% of the runs (exact:
    95% or more, less the simulation's noise of about 0.5%) at every n and rate; the
    bootstrap's falls far short near 0 and 1, where runs all alike are common."""
    ours, boot = _coverage(n, p)
    assert ours >= 0.94
    if p in (0.02, 0.98):
        assert boot < 0.80


def test_all_alike_gives_a_real_interval() -> None:
    none, every = mean_ci([0.0] * 14, rate=True), mean_ci([1.0] * 16, rate=True)
    assert (none.mean, none.ci_low) == (0.0, 0.0)
    assert none.ci_high == pytest.approx(0.232, abs=5e-4)  # docs/trust.md: about 0.23
    assert (every.mean, every.ci_high) == (1.0, 1.0)
    assert every.ci_low == pytest.approx(0.794, abs=5e-4)
    got = mean_ci([1.0] * 3 + [0.0] * 9, rate=True)
    assert (got.ci_low, got.ci_high) == pytest.approx(clopper_pearson(3, 12))


def test_a_score_keeps_its_bootstrap_interval() -> None:
    """A score's values, even all 0 or 1, are no proportion: judge.overall (0-10) at 0 on
    16 answers is no rate with an interval of [0, 0.21] (trial 65's --by kind)."""
    values = [0.2, 0.5, 0.9, 1.0, 0.0, 0.7]
    got = mean_ci(values)
    assert (got.ci_low, got.ci_high) == bootstrap_ci(values)
    assert mean_ci([0.5] * 6, rate=True).ci == (0.5, 0.5)  # not 0/1: no proportion
    assert mean_ci([0.0] * 16).ci == (0.0, 0.0)  # a score, not declared a rate
    assert mean_ci([1.0], rate=True).ci is None  # one value: no interval


def test_the_abstention_rates_are_exact() -> None:
    """None of the 14 abstentions of 144 samples was false (trial 65): an exact interval,
    not [0, 0]."""
    rows = [Row(id=f"s{i}", values={"m": 0.5}) for i in range(130)]
    rows += [Row(id=f"d{i}", values={"m": None}, abstained={"m": "correct"})
             for i in range(14)]
    rates = rates_of(list(ScoreTable(rows=tuple(rows), specs={}).rows))
    assert rates.false_abstention_rate.ci == pytest.approx(clopper_pearson(0, 144))
    assert rates.abstention_rate.ci == pytest.approx(clopper_pearson(14, 144))


def test_a_verdict_is_a_rate_by_its_declaration(make_table) -> None:
    """Per group and in the aggregate, the interval follows the metric's declaration: a
    yes/no verdict's 16 of 16 is [0.794, 1]; a 0-10 score at 0 on all 16 keeps [0, 0]."""
    from ragassay.stats import aggregate_metrics, group_by
    from tests.stats.conftest import SPECS

    specs = {m: SPECS[m] for m in ("judge.hallucination", "judge.overall")}
    table = make_table(specs, {"judge.hallucination": [1] * 16,
                               "judge.overall": [0.0] * 16})
    agg = aggregate_metrics(table).metrics
    assert agg["judge.hallucination"].ci == pytest.approx(clopper_pearson(16, 16))
    assert agg["judge.overall"].ci == (0.0, 0.0)
    (group,) = group_by(table, {r.key: "all" for r in table.rows}, "kind",
                        n_resamples=200).groups
    assert group.metrics["judge.hallucination"].ci == pytest.approx(clopper_pearson(16, 16))
    assert group.metrics["judge.overall"].ci == (0.0, 0.0)
