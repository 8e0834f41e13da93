"""How well the offline judge's confidence ranks its own errors on the dev sets: what a
routed run's per-tier line says (`routing.ranking_line`, docs/routing.md), measured.

Each faithfulness dev set is scored through the product's path (`key_sample`, the
Analyzer, the judge suite's `evaluate_offline`); each row's judge.hallucination verdict
and confidence are read as routing reads them (`routing.read`: the calibrated p_true of
the verdict given); the verdict is right when it is people's label. Printed per set: the
verdicts, how many are wrong, the AUROC of the confidence for the verdict's correctness
(95% bootstrap interval; 0.5: the wrong verdicts are as sure as the right ones), and the
share of the errors that escalating the least sure 30% of the verdicts would send up
(30% at random: 0.30).

    .venv/bin/python benches/routing_confidence.py              # LOO fits (scripts/devsets/loo.py)
    .venv/bin/python benches/routing_confidence.py --judge shipped   # in-sample, for comparison
    options: --sets begin,wice  --limit 400 (rows per set, a seeded draw; 0: all)
"""

from __future__ import annotations

import argparse
import random
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "scripts" / "devsets"))

from _common import REPO  # noqa: E402,F401  (src on the path)

SETS = ("summedits", "begin", "wice", "factcheck_gpt", "factcheck_gpt_stance", "q2", "dialfact")
SHARE = 0.3  # the least sure share escalated in the last column


def readings(name: str, judge: str, limit: int, seed: int) -> list[tuple[float, bool]]:
    """(confidence, right) per row of `name` with a verdict and a confidence."""
    from common import load_rows, to_sample
    from loo import loo_calibration

    from ragassay.judge.offline import Analyzer, load_calibration
    from ragassay.metrics import get_suites
    from ragassay.metrics.base import SuiteOptions
    from ragassay.routing import read
    from ragassay.text import key_sample

    rows = load_rows(name)
    if limit and len(rows) > limit:
        rows = random.Random(f"{seed}:{name}").sample(rows, limit)
    cal = load_calibration() if judge == "shipped" else loo_calibration(name, "static")
    an = Analyzer(embedder="static", calibration=cal)
    suite = next(s for s in get_suites(("judge",)) if s.name == "judge")
    spec = next(s for s in suite.specs if s.name == "judge.hallucination")
    out = []
    for i in range(0, len(rows), 128):
        samples = [to_sample(r) for r in rows[i:i + 128]]
        items = [key_sample(s) for s in samples]
        for s, item, ev in zip(samples, items, an.analyze_many(items), strict=True):
            faithful = s.labels.get("faithful")
            result = next((r for r in suite.evaluate_offline(item, ev, SuiteOptions())
                           .result.results if r.name == spec.name), None)
            reading = read(result, spec, "offline")
            if faithful is None or reading.decision is None or reading.confidence is None:
                continue
            out.append((reading.confidence, reading.decision == (not faithful)))
        print(f"\r  {name}: {len(out)}/{len(rows)}", end="", file=sys.stderr, flush=True)
    print(file=sys.stderr)
    return out


def caught(pairs: list[tuple[float, bool]], share: float) -> float | None:
    """The share of the wrong verdicts among the least sure `share` of all verdicts."""
    wrong = sum(not right for _, right in pairs)
    if not wrong:
        return None
    least = sorted(pairs, key=lambda p: p[0])[:round(share * len(pairs))]
    return sum(not right for _, right in least) / wrong


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--judge", choices=("loo", "shipped"), default="loo")
    ap.add_argument("--sets", default=",".join(SETS))
    ap.add_argument("--limit", type=int, default=400)
    ap.add_argument("--seed", type=int, default=0)
    args = ap.parse_args()
    from ragassay.stats.agreement import auroc, auroc_ci

    print(f"offline judge ({args.judge}), judge.hallucination's confidence for its own "
          f"correctness; rows per set: {args.limit or 'all'}, seed {args.seed}\n")
    print(f"| set | verdicts | wrong | AUROC [95% CI] | errors in the least sure "
          f"{SHARE:.0%} |\n|---|---|---|---|---|")
    for name in args.sets.split(","):
        pairs = readings(name, args.judge, args.limit, args.seed)
        confs, right = [p[0] for p in pairs], [p[1] for p in pairs]
        area = auroc(confs, right)
        ci = auroc_ci(confs, right) if area is not None else None
        share = caught(pairs, SHARE)
        print(f"| {name} | {len(pairs)} | {right.count(False)} | "
              + ("-" if area is None else f"{area:.2f}")
              + ("" if ci is None else f" [{ci[0]:.2f}, {ci[1]:.2f}]") + " | "
              + ("-" if share is None else f"{share:.2f}") + " |", flush=True)


if __name__ == "__main__":
    main()
