"""Measure the offline judge on a split of the dev sets (in-set figures).

Prints AUROC with a bootstrap 95% CI per score, the lexical baseline, the
paired bootstrap CI of the difference, and balanced accuracy at the shipped
thresholds. The shipped calibration is fitted on all rows of the faithfulness sets
and EVOUNA, so these figures are in-sample for them: the honest figures are
leave-one-dataset-out, `loo.py`.

    .venv/bin/python scripts/devsets/measure.py [--embedder static] [--sets summedits,begin]
"""

from __future__ import annotations

import argparse
import time

import numpy as np
from common import DiskCachedEmbedder, load_rows, to_sample
from sklearn.metrics import balanced_accuracy_score, roc_auc_score

from ragassay.judge.offline import (
    HALLUCINATION_THRESHOLD,
    REFERENCE_MATCH_THRESHOLD,
    SUPPORT_THRESHOLD,
    Analyzer,
    load_calibration,
)
from ragassay.judge.offline.lexical import normalise_answer
from ragassay.stats.baseline import lexical_share  # the one definition of the baseline

B = 1000


def boot(y: np.ndarray, s: np.ndarray, base: np.ndarray, seed: int = 0):
    rng = np.random.default_rng(seed)
    auc, diff = [], []
    n = len(y)
    for _ in range(B):
        i = rng.integers(0, n, n)
        if y[i].min() == y[i].max():
            continue
        a = roc_auc_score(y[i], s[i])
        auc.append(a)
        diff.append(a - roc_auc_score(y[i], base[i]))
    return np.percentile(auc, [2.5, 97.5]), np.percentile(diff, [2.5, 97.5])


def report(name: str, y: np.ndarray, scores: dict[str, np.ndarray], base: np.ndarray) -> None:
    print(f"\n== {name}: n={len(y)} positives={int(y.sum())}")
    b_auc = roc_auc_score(y, base)
    print(f"  {'lexical baseline':28s} AUROC {b_auc:.3f}")
    for k, s in scores.items():
        ci, dci = boot(y, s, base)
        print(
            f"  {k:28s} AUROC {roc_auc_score(y, s):.3f} [{ci[0]:.3f}, {ci[1]:.3f}]"
            f"  vs baseline +[{dci[0]:.3f}, {dci[1]:.3f}]"
        )


def faith_set(an: Analyzer, name: str, rows: list[dict]) -> None:
    t0 = time.time()
    evs = an.analyze_many([to_sample(r) for r in rows])
    dt = time.time() - t0
    keep = [i for i, e in enumerate(evs) if e.faithfulness is not None]
    y = np.asarray([rows[i]["labels"]["faithful"] for i in keep])
    faith = np.asarray([evs[i].faithfulness for i in keep])
    # ragas.faithfulness offline: mean support of the claims
    mean_sup = np.asarray(
        [np.mean([evs[i].support[j] for j in evs[i].claim_indices()]) for i in keep]
    )
    adher = np.asarray([np.mean(np.asarray(evs[i].support) >= SUPPORT_THRESHOLD) for i in keep])
    base = np.asarray(
        [lexical_share(rows[i]["answer"], " ".join(rows[i]["contexts"])) for i in keep]
    )
    report(
        f"{name} (faithful vs not), {len(rows) / dt:.0f} samples/s",
        y,
        {"faithfulness": faith, "mean support (ragas)": mean_sup, "adherence ratio (trace)": adher},
        base,
    )
    bacc = balanced_accuracy_score(y, faith >= HALLUCINATION_THRESHOLD)
    print(f"  balanced accuracy of faithfulness >= {HALLUCINATION_THRESHOLD}: {bacc:.3f}")


def ref_set(an: Analyzer, name: str, rows: list[dict]) -> None:
    t0 = time.time()
    evs = an.analyze_many([to_sample(r) for r in rows])
    dt = time.time() - t0
    keep = [i for i, e in enumerate(evs) if e.reference_match is not None]
    y = np.asarray([rows[i]["labels"]["correct"] for i in keep])
    match = np.asarray([evs[i].reference_match for i in keep])
    base = np.asarray(
        [max(lexical_share(rows[i]["answer"], g) for g in rows[i]["reference"]) for i in keep]
    )
    contain = np.asarray(
        [
            float(
                any(
                    f" {normalise_answer(g)} " in f" {normalise_answer(rows[i]['answer'])} "
                    for g in rows[i]["reference"]
                )
            )
            for i in keep
        ]
    )
    report(
        f"{name} (correct vs not), {len(rows) / dt:.0f} samples/s",
        y,
        {"reference_match": match, "gold-in-answer": contain},
        base,
    )
    acc = np.mean((match >= REFERENCE_MATCH_THRESHOLD) == y)
    c_acc = np.mean(contain == y)
    print(f"  accuracy reference_match >= 0.5: {acc:.3f}; gold-in-answer: {c_acc:.3f}")


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--embedder", default="static")
    ap.add_argument("--sets", default="summedits,begin,evouna_tq")
    ap.add_argument("--split", default="eval")
    ap.add_argument("--calibration", default=None, help="calibration.json (default: shipped)")
    args = ap.parse_args()
    emb = DiskCachedEmbedder(args.embedder) if args.embedder == "local" else args.embedder
    an = Analyzer(embedder=emb, calibration=load_calibration(args.calibration))
    for name in args.sets.split(","):
        rows = load_rows(name, args.split)
        (ref_set if name.startswith("evouna") else faith_set)(an, name, rows)


if __name__ == "__main__":
    main()
