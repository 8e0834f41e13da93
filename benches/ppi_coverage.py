"""Coverage and width of the corrected interval on simulated runs (the figures of
docs/trust.md's validity table; tests/stats/test_ppi_coverage.py asserts them).

The simulated world: each answer has a latent quality q ~ N(0, 1). People's label is
binary, P(good) = sigmoid(1.5 q - 0.8), or a 0-3 grade, round(1.5 + q + N(0, 0.7))
clipped. The judge's 1-10 score is round(7 + 2.5 q + N(0, 1.5)) clipped (informative,
biased upward by about 1.5 points), or round(6 + N(0, 2)) clipped (pure noise). Runs of
N = 500 samples, n = 100 labelled through the product's path: the annotation plan's
weights and inclusion probabilities (`ragassay.labels.plan`), the cross-fitted map and
the estimator (`ragassay.stats.ppi`). Fixed seeds: the same runs every time.

    .venv/bin/python benches/ppi_coverage.py            # 2,000 runs per case (minutes)
    .venv/bin/python benches/ppi_coverage.py --runs 200
"""

from __future__ import annotations

import argparse
from dataclasses import dataclass

import numpy as np

from ragassay.labels.plan import inclusion, weights
from ragassay.stats.ppi import cross_fit, ppi_mean, weighted_mean
from ragassay.types import AnnotationPlan

RUNS = 2000
N, LABELLED = 500, 100


def _labels(rng: np.random.Generator, q: np.ndarray, kind: str) -> np.ndarray:
    if kind == "binary":
        return (rng.random(len(q)) < 1 / (1 + np.exp(-(1.5 * q - 0.8)))).astype(float)
    return np.clip(np.round(1.5 + q + rng.normal(scale=0.7, size=len(q))), 0, 3) / 3


def _judge(rng: np.random.Generator, q: np.ndarray, judge: str) -> np.ndarray:
    if judge == "informative":
        raw = 7 + 2.5 * q + rng.normal(scale=1.5, size=len(q))
    else:
        raw = 6 + rng.normal(scale=2, size=len(q))
    return (np.clip(np.round(raw), 1, 10) - 1) / 9


def _truth(kind: str) -> float:
    rng = np.random.default_rng(12345)
    return float(_labels(rng, rng.normal(size=2_000_000), kind).mean())


@dataclass
class Outcome:
    coverage: float
    labels_only_coverage: float
    width_ratio: float  # mean corrected width / mean labels-only width
    judge_bias: float  # mean judge score - truth, both 0-1


def simulate(kind: str, judge: str, design: str, seed: int, runs: int = RUNS) -> Outcome:
    rng = np.random.default_rng(seed)
    truth = _truth(kind)
    plan = AnnotationPlan(run_id="sim", kind="uncertainty")
    hits = hits_only = 0
    widths, widths_only, bias = [], [], []
    for r in range(runs):
        q = rng.normal(size=N)
        y, f = _labels(rng, q, kind), _judge(rng, q, judge)
        bias.append(float(f.mean()) - truth)
        if design == "uniform":
            mask = np.zeros(N, dtype=bool)
            mask[rng.permutation(N)[:LABELLED]] = True
            h_lab, h_rest = cross_fit(f[mask], y[mask], f[~mask], seed=r)
            est = ppi_mean(y[mask], h_lab, h_rest)
        else:  # the uncertainty plan: a sequential Poisson queue, the first 100 labelled
            w = weights(plan, ["s"] * N, list(f))
            order = np.argsort(rng.random(N) / w)
            mask = np.zeros(N, dtype=bool)
            mask[order[:LABELLED]] = True
            pi = inclusion(w, LABELLED)
            h_lab, h_rest = cross_fit(f[mask], y[mask], f[~mask], seed=r)
            h_all = np.empty(N)
            h_all[mask], h_all[~mask] = h_lab, h_rest
            est = weighted_mean(y[mask], h_lab, pi[mask], h_all)
        c, lab = est.corrected, est.labels_only
        hits += c.ci_low <= truth <= c.ci_high
        hits_only += lab.ci_low <= truth <= lab.ci_high
        widths.append(c.width)
        widths_only.append(lab.width)
    return Outcome(hits / runs, hits_only / runs, float(np.mean(widths) / np.mean(widths_only)),
                   float(np.mean(bias)))


CASES = [(kind, design) for kind in ("binary", "graded") for design in ("uniform", "weighted")]
SEEDS = {"informative": 7, "noise": 11}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=RUNS)
    args = parser.parse_args()
    print(f"{args.runs} simulated runs per case, N={N}, n={LABELLED}")
    print("| judge | labels | sampling | coverage | labels-only coverage | width ratio |"
          " judge bias |")
    print("|---|---|---|---|---|---|---|")
    for judge, seed in SEEDS.items():
        for kind, design in CASES:
            out = simulate(kind, judge, design, seed, args.runs)
            print(f"| {judge} | {kind} | {design} | {out.coverage:.1%} | "
                  f"{out.labels_only_coverage:.1%} | {out.width_ratio:.2f} | "
                  f"{out.judge_bias:+.3f} |", flush=True)


if __name__ == "__main__":
    main()
