"""Error rates of `ragassay compare`'s verdicts and coverage of its interval, on simulated
paired runs (the figures of benches/RESULTS.md, "Comparison verdicts"; asserted by
tests/stats/test_stats_equivalence.py). Everything goes through the product's path:
`stats.compare_paired` and `stats.verdict` with the metric's margin.

Two worlds of n questions, each answered by strategies A and B:
- "ratings": judge-like 1-10 integer ratings; A's rating per question is
  round(7 + N(0, 1.5)) clipped, and B's is A's plus an integer step d in {-1, 0, +1}
  whose mean is the true difference;
- "normal": continuous scores, B - A ~ N(true difference, 0.6).

Rows: at the margin's edge (true difference = +margin or -margin), "equivalent" is a
false claim: its rate must stay at or below alpha (TOST's guarantee); at 0 the rate is
the test's power. Coverage: the share of runs whose 95% paired-bootstrap interval of the
mean difference holds the true one. Fixed seeds: the same runs every time.

    .venv/bin/python benches/compare_validity.py             # 2,000 runs per row (~1 min)
    .venv/bin/python benches/compare_validity.py --runs 300
"""

from __future__ import annotations

import argparse
from dataclasses import dataclass

import numpy as np

from ragassay.stats import compare_paired, verdict
from ragassay.types import MetricSpec

RUNS = 2000
MARGIN = 0.25
ALPHA = 0.05
SPEC = MetricSpec(name="sim.rating", low=1, high=10, equivalence=MARGIN)


def _pair(rng: np.random.Generator, world: str, n: int, diff: float
          ) -> tuple[np.ndarray, np.ndarray]:
    if world == "ratings":
        a = np.clip(np.round(7 + rng.normal(scale=1.5, size=n)), 1, 10)
        # steps of -1, 0, +1 with mean `diff`: P(+1) = q + diff, P(-1) = q
        q = 0.15
        u = rng.random(n)
        step = np.where(u < q + max(diff, 0), 1.0, 0.0) - np.where(
            u > 1 - q - max(-diff, 0), 1.0, 0.0)
        return a, a + step
    a = rng.normal(loc=7, scale=1.5, size=n)
    return a, a + rng.normal(loc=diff, scale=0.6, size=n)


@dataclass
class Outcome:
    world: str
    n: int
    true_diff: float
    equivalent_rate: float  # runs whose verdict is "equivalent"
    coverage: float  # runs whose 95% interval holds the true difference


def simulate(world: str, n: int, true_diff: float, seed: int, runs: int = RUNS,
             n_resamples: int = 1000) -> Outcome:
    rng = np.random.default_rng(seed)
    equivalent = covered = 0
    for r in range(runs):
        a, b = _pair(rng, world, n, true_diff)
        res = compare_paired(dict(enumerate(a)), dict(enumerate(b)), seed=r,
                             n_resamples=n_resamples, margin=MARGIN)
        equivalent += verdict(res, SPEC, ALPHA) == "equivalent"
        assert res.ci_low is not None and res.ci_high is not None
        covered += res.ci_low <= true_diff <= res.ci_high
    return Outcome(world, n, true_diff, equivalent / runs, covered / runs)


CASES = [(world, n, diff) for world in ("ratings", "normal") for n in (30, 200)
         for diff in (MARGIN, -MARGIN, 0.0)]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--runs", type=int, default=RUNS)
    args = parser.parse_args()
    print(f"margin {MARGIN}, alpha {ALPHA}, {args.runs} runs per row")
    print("world     n    true diff  'equivalent' rate  95% CI coverage")
    for i, (world, n, diff) in enumerate(CASES):
        out = simulate(world, n, diff, seed=1000 + i, runs=args.runs)
        print(f"{world:<8} {n:>4} {diff:>+10.2f} {out.equivalent_rate:>18.3f} "
              f"{out.coverage:>16.3f}")


if __name__ == "__main__":
    main()
