"""How well the offline judge's confidence ranks its own errors on the dev sets: what a
routed run's per-tier line says (`routing.ranking_line`, docs/routing.md), measured; and,
side by side, two candidate confidences (a verdict-correctness model, the per-claim
minimum).

Each faithfulness dev set is scored through the product's path (`key_sample`, the
Analyzer, the judge suite's `evaluate_offline`); each row's judge.hallucination verdict
and confidence are read as routing reads them (`routing.read`: the calibrated p_true of
the verdict given); the verdict is right when it is people's label. Printed per set: the
verdicts, how many are wrong, the AUROC of the confidence for the verdict's correctness
(95% bootstrap interval; 0.5: the wrong verdicts are as sure as the right ones), and the
share of the errors that escalating the least sure 30% of the verdicts would send up
(30% at random: 0.30).

Side by side (`--confidence both`, the default), two candidates, each with the paired
difference of its AUROC from the current one's (95% bootstrap interval, same resamples):
- a "verdict-correctness" model: P(the verdict is right | what it rests on), a logistic
  regression over generic features of the evidence (CANDIDATE: the margin of p, the
  weakest and mean claim support on the verdict's side, the number of claims, the share
  unsupported, whether it flags, the structural rule that decided it, missing key terms),
  fitted leave-one-dataset-out as scripts/devsets/loo.py fits its models: for each
  held-out set, on the other sets' rows (each read with its own LOO calibration;
  Factcheck-GPT's two sets count as one), equal total weight per set, classes balanced,
  L2 strength and feature variant (VARIANTS) chosen by leave-one-set-out among the
  training sets; never on the held-out set;
- the per-claim minimum, unfitted: how far the weakest claim's support lies from 0.5.

    .venv/bin/python benches/routing_confidence.py              # LOO fits (scripts/devsets/loo.py)
    .venv/bin/python benches/routing_confidence.py --judge shipped   # in-sample, for comparison
    options: --sets begin,wice  --limit 400 (rows per set, a seeded draw; 0: all)
             --confidence current|both  --rows-out F.json (the readings) --rows-in F.json
    (the correctness model is fitted on the other sets of --sets only: all seven by default)
"""

from __future__ import annotations

import argparse
import json
import math
import random
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent))
sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "scripts" / "devsets"))

from _common import REPO  # noqa: E402,F401  (src on the path)

SETS = ("summedits", "begin", "wice", "factcheck_gpt", "factcheck_gpt_stance", "q2", "dialfact")
RELATED = {"factcheck_gpt": {"factcheck_gpt_stance"}, "factcheck_gpt_stance": {"factcheck_gpt"}}
SHARE = 0.3  # the least sure share escalated in the last column
Row = dict[str, Any]  # {"set", "confidence", "right", "features"}

# Generic features of what a verdict rests on; "side" ones are signed so that larger is
# further on the verdict's side of 0.5 (the weakest claim well below 0.5 for a flag,
# well above for a pass).
CANDIDATE = ("margin", "min_side", "mean_side", "claims", "unsupported_share", "flagged",
             "polarity", "figure", "other_conflict", "unstated", "missing_terms")
VARIANTS = {"margins": ("margin", "min_side", "mean_side", "claims"), "all": CANDIDATE}
C_GRID = (1.0, 0.01)
FAMILY = {"negation": "polarity", "antonym": "polarity", "number": "figure"}


def evidence_features(ev: Any, faithfulness: float, flagged: bool) -> dict[str, float]:
    """CANDIDATE's values for one verdict, from the Analyzer's evidence."""
    claims = ev.claim_indices()
    support = [ev.support[i] for i in claims] or [faithfulness]
    side = -1.0 if flagged else 1.0
    kinds = {FAMILY.get(k, "other_conflict") for i in claims
             if (k := ev.contradicts[i] if i < len(ev.contradicts) else None)}
    return {
        "margin": abs(faithfulness - 0.5),
        "min_side": side * (min(support) - 0.5),
        "mean_side": side * (sum(support) / len(support) - 0.5),
        "claims": math.log1p(len(claims)),
        "unsupported_share": sum(p < 0.5 for p in support) / len(support),
        "flagged": float(flagged),
        "polarity": float("polarity" in kinds),
        "figure": float("figure" in kinds),
        "other_conflict": float("other_conflict" in kinds),
        "unstated": float(any(ev.unstated[i] for i in claims if i < len(ev.unstated))),
        "missing_terms": math.log1p(len(ev.hallucinated_terms)),
    }


def readings(name: str, judge: str, limit: int, seed: int) -> list[Row]:
    """Per row of `name` with a verdict and a confidence: the confidence as routing reads
    it, whether the verdict is right, and the candidate's features."""
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
    out: list[Row] = []
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
            out.append({"set": name, "confidence": reading.confidence,
                        "right": reading.decision == (not faithful),
                        "features": evidence_features(ev, ev.faithfulness, reading.decision)})
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


def _matrix(rows: list[Row], use: tuple[str, ...] = CANDIDATE) -> np.ndarray:
    return np.asarray([[r["features"][f] for f in use] for r in rows], dtype=np.float64)


def fit_correctness(rows: list[Row], use: tuple[str, ...], c: float) -> Any:
    """The verdict-correctness model on `rows`: equal total weight per set, classes
    balanced, standardised, L2 (fit_offline.fit_lr, no sign constraints)."""
    from fit_offline import fit_lr, source_weights

    y = np.asarray([float(r["right"]) for r in rows])
    return fit_lr(_matrix(rows), y, source_weights([r["set"] for r in rows]), CANDIDATE,
                  use, signs={}, c=c)


def choose(by_set: dict[str, list[Row]]) -> tuple[tuple[str, float], float]:
    """The feature variant and C with the best mean AUROC, leave-one-set-out among the
    training sets (related sets held out together)."""
    from ragassay.stats.agreement import auroc

    best: tuple[tuple[str, float], float] | None = None
    for v, use in VARIANTS.items():
        for c in C_GRID:
            areas = []
            for held in by_set:
                out = {held} | RELATED.get(held, set())
                train = [r for n, rs in by_set.items() if n not in out for r in rs]
                model = fit_correctness(train, use, c)
                a = auroc(list(model.predict(_matrix(by_set[held]))),
                          [r["right"] for r in by_set[held]])
                if a is not None:
                    areas.append(a)
            score = float(np.mean(areas))
            if best is None or score > best[1] + 1e-9:
                best = ((v, c), score)
    assert best is not None
    return best


def candidate_scores(by_set: dict[str, list[Row]], name: str) -> tuple[list[float], str]:
    """The candidate's confidence for `name`'s rows, fitted without it (and its related
    sets), and the choice made."""
    out = {name} | RELATED.get(name, set())
    train = {n: rs for n, rs in by_set.items() if n not in out}
    groups = {frozenset({n} | RELATED.get(n, set())) for n in train}
    (variant, c), _ = choose(train) if len(groups) > 1 else (("all", 1.0), 0.0)
    model = fit_correctness([r for rs in train.values() for r in rs], VARIANTS[variant], c)
    return list(model.predict(_matrix(by_set[name]))), f"{variant}, C={c:g}"


def paired_ci(a: list[float], b: list[float], right: list[bool]) -> tuple[float, float] | None:
    """95% bootstrap interval of AUROC(b) - AUROC(a) over the same resamples."""
    from ragassay.stats.agreement import _auroc_weighted
    from ragassay.stats.bootstrap import bootstrap_weighted

    def build(arr: list[Any]) -> Callable[[Any], Any]:
        fa, fb = _auroc_weighted(arr[0], arr[2]), _auroc_weighted(arr[1], arr[2])
        return lambda w: fb(w) - fa(w)

    return bootstrap_weighted([np.asarray(a), np.asarray(b), np.asarray(right, dtype=bool)],
                              build)


def _area(scores: list[float], right: list[bool]) -> str:
    from ragassay.stats.agreement import auroc, auroc_ci

    area = auroc(scores, right)
    ci = auroc_ci(scores, right) if area is not None else None
    return (("-" if area is None else f"{area:.2f}")
            + ("" if ci is None else f" [{ci[0]:.2f}, {ci[1]:.2f}]"))


def _share(x: float | None) -> str:
    return "-" if x is None else f"{x:.2f}"


def per_claim_minimum(rows: list[Row]) -> list[float]:
    """The second candidate, unfitted: how far the weakest claim's support lies from 0.5
    (the claim that decides a flag), in place of the whole answer's p."""
    return [abs(r["features"]["min_side"]) for r in rows]


def table(by_set: dict[str, list[Row]], both: bool) -> None:
    """One line per set and confidence: the current one, and with `both` the two
    candidates, each with its AUROC's paired difference from the current one."""
    from ragassay.stats.agreement import auroc

    print(f"| set | verdicts | wrong | confidence | AUROC [95% CI] | minus current's [95% CI] "
          f"| errors in the least sure {SHARE:.0%} |\n|---|---|---|---|---|---|---|")
    for name, rows in by_set.items():
        confs, right = [r["confidence"] for r in rows], [r["right"] for r in rows]
        lines = [("current: max(p, 1-p)", confs)]
        if both:
            cand, how = candidate_scores(by_set, name)
            lines += [(f"correctness model ({how})", cand),
                      ("per-claim minimum", per_claim_minimum(rows))]
        base = auroc(confs, right)
        for label, scores in lines:
            area = auroc(scores, right)
            if scores is confs or area is None or base is None:
                diff = "-"
            else:
                ci = paired_ci(confs, scores, right)
                diff = f"{area - base:+.2f}" + ("" if ci is None
                                                else f" [{ci[0]:+.2f}, {ci[1]:+.2f}]")
            print(f"| {name} | {len(rows)} | {right.count(False)} | {label} | "
                  f"{_area(scores, right)} | {diff} | "
                  f"{_share(caught(list(zip(scores, right, strict=True)), SHARE))} |",
                  flush=True)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--judge", choices=("loo", "shipped"), default="loo")
    ap.add_argument("--sets", default=",".join(SETS))
    ap.add_argument("--limit", type=int, default=400)
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--confidence", choices=("current", "both"), default="both",
                    help="current: routing's confidence alone; both: and the candidate")
    ap.add_argument("--rows-out", default=None, help="write the readings as JSON")
    ap.add_argument("--rows-in", default=None, help="read the readings written by --rows-out")
    args = ap.parse_args()

    names = args.sets.split(",")
    if args.rows_in:
        with open(args.rows_in, encoding="utf-8") as fh:
            saved = json.load(fh)
        args.judge, args.limit, args.seed = saved["judge"], saved["limit"], saved["seed"]
        by_set = {n: [r for r in saved["rows"] if r["set"] == n] for n in names}
    else:
        by_set = {n: readings(n, args.judge, args.limit, args.seed) for n in names}
    if args.rows_out:
        with open(args.rows_out, "w", encoding="utf-8") as fh:
            json.dump({"judge": args.judge, "limit": args.limit, "seed": args.seed,
                       "rows": [r for rs in by_set.values() for r in rs]}, fh)
    print(f"offline judge ({args.judge}), judge.hallucination's confidence for its own "
          f"correctness; rows per set: {args.limit or 'all'}, seed {args.seed}\n")
    table(by_set, args.confidence == "both")


if __name__ == "__main__":
    main()
