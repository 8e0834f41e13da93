"""How far can the offline judge's features go on one set? A per-set ceiling.

For each faithfulness set, fits a logistic regression on that set's FIT half only
(the faithfulness features of the shipped support model; no sign constraints, no
other set to compromise with) and reports its AUROC on the EVAL half with the
bootstrap CI and the paired CI of the difference with the lexical baseline. The
shipped judge must serve every set with one model, so it cannot do better than
this; if the ceiling's CI does not clear the baseline, neither can the judge
without new evidence (an entailment model).

    .venv/bin/python scripts/devsets/ceiling.py [--sets summedits,begin]
"""

from __future__ import annotations

import argparse

import numpy as np
from common import load_rows, raw_features, support_logits
from measure import report
from sklearn.linear_model import LogisticRegression

from ragassay.judge.offline import load_calibration
from ragassay.judge.offline.features import faithfulness_features


def matrix(name: str, split: str, support) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    recs = [r for r in raw_features(name, "static", load_rows(name, split)) if "support" in r]
    x = np.asarray(
        [faithfulness_features(support_logits(r, support), r["novel_terms"]) for r in recs]
    )
    y = np.asarray([r["labels"]["faithful"] for r in recs])
    base = np.asarray([r["baseline"] for r in recs])
    return x, y, base


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--sets", default="summedits,begin")
    args = ap.parse_args()
    support = load_calibration().support
    for name in args.sets.split(","):
        xf, yf, _ = matrix(name, "fit", support)
        xe, ye, be = matrix(name, "eval", support)
        mean, scale = xf.mean(axis=0), xf.std(axis=0) + 1e-9
        scores = {}
        for c in (0.1, 1.0):
            lr = LogisticRegression(C=c, max_iter=2000).fit((xf - mean) / scale, yf)
            scores[f"{name}-only model, C={c}"] = lr.decision_function((xe - mean) / scale)
        report(f"{name}: ceiling of the features (fit on {name} fit half only)", ye, scores, be)


if __name__ == "__main__":
    main()
