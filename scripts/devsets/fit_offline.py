"""Fit the offline judge's calibration on the dev sets' FIT split; write calibration.json.

Three standardised logistic regressions (scikit-learn at fit time only):
- support: answer sentence vs contexts. Sample labels are per answer, so a
  multiple-instance scheme is used: sentences of faithful answers are positive;
  an unfaithful single-sentence answer is negative; in an unfaithful
  multi-sentence answer, only the sentence the first-pass model finds least
  supported is taken as negative (its other sentences are left out).
- faithfulness: the whole answer from its sentences' support + global overlap.
- reference_match: answer vs the best-matching acceptable reference (EVOUNA).
Each source set gets equal total weight, classes balanced, so 0.5 is the
balanced decision point. Deterministic.

    .venv/bin/python scripts/devsets/fit_offline.py [--embedder static]
"""

from __future__ import annotations

import argparse
import hashlib
import json

import numpy as np
from common import (
    FAITH_SETS,
    REF_SETS,
    load_rows,
    raw_features,
    support_logits,
)
from sklearn.linear_model import LogisticRegression

from ragassay.judge.offline.calibration import CALIBRATION_PATH, LogisticModel, load_calibration
from ragassay.judge.offline.features import (
    FAITHFULNESS_FEATURES,
    REFERENCE_FEATURES,
    SUPPORT_FEATURES,
    faithfulness_features,
)

C = 1.0


# Expected direction of each feature (+1 raises the probability, -1 lowers it, 0 free).
# A feature whose fitted coefficient comes out with the other sign is a quirk of a
# data set, not evidence: it is dropped (coefficient 0) and the model refitted.
SIGNS = {
    "cos_max": 1, "recall_global": 1, "recall_local": 1, "recall_all": 1, "bigram_recall": 1,
    "novel_numbers": -1, "novel_names": -1, "novel_content": -1, "negation_mismatch": -1,
    "antonym_clash": -1,
    "length": 0, "support_min_logit": 1, "support_mean": 1, "novel_key_terms": -1,
    "n_sentences": 0, "contains": 1, "contains_first": 1, "token_recall": 1,
    "token_precision": 1, "char_recall": 1, "cos": 1, "answer_length": 0,
    "novel_in_question": -1, "noncommittal": -1, "token_share": 1,
}  # fmt: skip
# Reference-match features must not reward padding: a longer answer is no evidence of
# a correct one (appended injections or chatter would raise the score otherwise).
REFERENCE_SIGNS = {**SIGNS, "answer_length": -1}

# Feature-set variants, chosen by cross-validation inside the fit split; the features a
# variant leaves out get coefficient 0 (the calibration always lists the full set).
SUPPORT_VARIANTS = {
    "base": SUPPORT_FEATURES[:11],
    "regime": SUPPORT_FEATURES,
}
FAITH_VARIANTS = {
    "base": FAITHFULNESS_FEATURES[:7],
    "share": FAITHFULNESS_FEATURES[:8],
    "regime": FAITHFULNESS_FEATURES,
}


def fit_lr(
    x: np.ndarray,
    y: np.ndarray,
    w: np.ndarray,
    names: tuple[str, ...],
    use: tuple[str, ...] | None = None,
    signs: dict[str, int] = SIGNS,
) -> LogisticModel:
    keep = [j for j, n in enumerate(names) if use is None or n in use]
    while True:
        model = _fit_lr(x, y, w, names, keep)
        bad = [j for j in keep if signs.get(names[j], 0) * model.coef[j] < 0]
        if not bad:
            return model
        worst = max(bad, key=lambda j: abs(model.coef[j]))
        keep.remove(worst)


def _fit_lr(
    x: np.ndarray, y: np.ndarray, w: np.ndarray, names: tuple[str, ...], keep: list[int]
) -> LogisticModel:
    mean = x.mean(axis=0)
    scale = x.std(axis=0)
    scale[scale < 1e-9] = 1.0
    # balance classes within the given weights
    w = w.copy()
    for c in (0, 1):
        m = y == c
        w[m] *= 0.5 * w.sum() / max(w[m].sum(), 1e-9)
    lr = LogisticRegression(C=C, max_iter=1000)
    lr.fit(((x - mean) / scale)[:, keep], y, sample_weight=w)
    coef = np.zeros(len(names))
    coef[keep] = lr.coef_[0]
    return LogisticModel(names, mean, scale, coef, float(lr.intercept_[0]))


# Relative weight of each source set (equal total weight by default); chosen by
# choose_config with 2-fold cross-validation inside the fit split.
SOURCE_MULT: dict[str, float] = {}
WEIGHT_GRID = (1.0, 0.5, 0.2, 2.0, 4.0)


def source_weights(sources: list[str]) -> np.ndarray:
    uniq, counts = np.unique(sources, return_counts=True)
    per = {
        s: SOURCE_MULT.get(str(s), 1.0) * len(sources) / (len(uniq) * c)
        for s, c in zip(uniq, counts, strict=True)
    }
    return np.asarray([per[s] for s in sources], dtype=np.float64)


def _faith_auroc(recs: list[dict], support: LogisticModel, faith: LogisticModel) -> dict:
    """Per source set: (faithfulness AUROC, lexical-baseline AUROC) on recs."""
    from sklearn.metrics import roc_auc_score

    by: dict[str, tuple[list[list[float]], list[int], list[float]]] = {}
    for r in recs:
        lg = support_logits(r, support)
        xs, ys, bs = by.setdefault(r["meta"]["source"], ([], [], []))
        xs.append(faithfulness_features(lg, r["overlap"], r["novel_terms"]))
        ys.append(r["labels"]["faithful"])
        bs.append(r["baseline"])
    return {
        src: (roc_auc_score(ys, faith.predict(np.asarray(xs))), roc_auc_score(ys, bs))
        for src, (xs, ys, bs) in by.items()
    }


def objective(per_set: dict, kind: str) -> float:
    """CV objective over source sets: the mean AUROC, or (the issue's criterion) the
    smallest margin of the judge over the lexical baseline."""
    if kind == "mean":
        return float(np.mean([j for j, _ in per_set.values()]))
    return float(min(j - b for j, b in per_set.values()))


def choose_config(
    recs: list[dict], equal_weights: bool = False, kind: str = "mean"
) -> dict:
    """Pick, by 2-fold CV on the fit split, the feature variants of the support and
    faithfulness models and how much the smaller source weighs in each.

    The sets pull the models apart (BEGIN rewards plain word overlap, SummEdits
    rewards names, numbers, negations and antonyms); the choice maximises, across
    folds, the smallest per-set margin of the faithfulness AUROC over the lexical
    baseline (`--objective mean`: the mean per-set AUROC), never looking at the eval
    split.
    """
    folds = [
        [r for r in recs if hashlib.sha256(r["id"].encode()).digest()[1] % 2 == k] for k in (0, 1)
    ]
    counts: dict[str, int] = {}
    for r in recs:
        counts[r["meta"]["source"]] = counts.get(r["meta"]["source"], 0) + 1
    small = min(counts, key=lambda s: counts[s])
    grid = (1.0,) if equal_weights else WEIGHT_GRID
    scores: dict[tuple, float] = {}
    for sv in SUPPORT_VARIANTS:
        for ws in grid:
            sups = []
            for a in (0, 1):
                SOURCE_MULT.update({small: ws})
                sups.append(fit_support(folds[a], SUPPORT_VARIANTS[sv]))
            for fv in FAITH_VARIANTS:
                for wf in grid:
                    cv = []
                    for a, b in ((0, 1), (1, 0)):
                        SOURCE_MULT.update({small: wf})
                        faith = fit_faithfulness(folds[a], sups[a], FAITH_VARIANTS[fv])
                        cv.append(objective(_faith_auroc(folds[b], sups[a], faith), kind))
                    scores[(sv, fv, ws, wf)] = round(float(np.mean(cv)), 3)
    SOURCE_MULT.clear()
    ranked = sorted(scores.items(), key=lambda kv: -kv[1])
    for k, v in ranked[:8]:
        print(f"  CV {v:.3f}  support={k[0]} faithfulness={k[1]} weight of {small}: {k[2]}, {k[3]}")
    # ties: prefer the simpler variants and equal weights (stable order of the grid)
    best = max(scores, key=lambda k: scores[k])
    sv, fv, ws, wf = best
    print(f"chosen: support={sv} faithfulness={fv} weight of {small} {ws}, {wf}: CV {scores[best]}")
    return {
        "support": {small: ws},
        "faithfulness": {small: wf},
        "variants": {"support": sv, "faithfulness": fv},
        "cv": scores[best],
    }


def fit_support(recs: list[dict], use: tuple[str, ...] | None = None) -> LogisticModel:
    def assemble(model: LogisticModel | None) -> tuple[np.ndarray, np.ndarray, list[str]]:
        xs, ys, src = [], [], []
        for r in recs:
            feats, y = r["support"], r["labels"]["faithful"]
            if y == 1 or len(feats) == 1:
                chosen = feats
            elif model is None:
                continue
            else:
                chosen = [feats[int(np.argmin(model.logits(np.asarray(feats))))]]
            xs += chosen
            ys += [y] * len(chosen)
            src += [r["meta"]["source"]] * len(chosen)
        return np.asarray(xs), np.asarray(ys), src

    model = None
    for _ in range(3):
        x, y, src = assemble(model)
        model = fit_lr(x, y, source_weights(src), SUPPORT_FEATURES, use)
    assert model is not None
    return model


def fit_faithfulness(
    recs: list[dict], support: LogisticModel, use: tuple[str, ...] | None = None
) -> LogisticModel:
    xs, ys, src = [], [], []
    for r in recs:
        logits = support_logits(r, support)
        xs.append(faithfulness_features(logits, r["overlap"], r["novel_terms"]))
        ys.append(r["labels"]["faithful"])
        src.append(r["meta"]["source"])
    return fit_lr(np.asarray(xs), np.asarray(ys), source_weights(src), FAITHFULNESS_FEATURES, use)


def best_reference_row(rows: list[list[float]]) -> list[float]:
    """The reference most like the answer by a fixed lexical score (no labels used)."""
    i = REFERENCE_FEATURES.index
    return max(rows, key=lambda f: f[i("contains")] + f[i("token_recall")] + f[i("char_recall")])


def fit_reference(recs: list[dict]) -> LogisticModel:
    x = np.asarray([best_reference_row(r["reference"]) for r in recs])
    y = np.asarray([r["labels"]["correct"] for r in recs])
    return fit_lr(x, y, np.ones(len(y)), REFERENCE_FEATURES, signs=REFERENCE_SIGNS)


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--embedder", default="static")
    ap.add_argument("--out", default=str(CALIBRATION_PATH))
    ap.add_argument(
        "--equal-weights",
        action="store_true",
        help="equal source weights (the CV still chooses the feature variants)",
    )
    ap.add_argument(
        "--objective",
        choices=("margin", "mean"),
        default="mean",
        help="CV objective: smallest per-set margin over the lexical baseline, or mean AUROC",
    )
    ap.add_argument("--no-reference", action="store_true", help="keep the shipped reference model")
    args = ap.parse_args()
    faith: list[dict] = []
    counts = {}
    for name in FAITH_SETS:
        feats = raw_features(name, args.embedder, load_rows(name, "fit"))
        recs = [r for r in feats if "support" in r]
        counts[name] = len(recs)
        faith += recs
    ref: list[dict] = []
    for name in () if args.no_reference else REF_SETS:
        feats = raw_features(name, args.embedder, load_rows(name, "fit"))
        recs = [r for r in feats if "reference" in r]
        counts[name] = len(recs)
        ref += recs
    mult = choose_config(faith, args.equal_weights, args.objective)
    SOURCE_MULT.update(mult["support"])
    support = fit_support(faith, SUPPORT_VARIANTS[mult["variants"]["support"]])
    SOURCE_MULT.clear()
    SOURCE_MULT.update(mult["faithfulness"])
    faithfulness = fit_faithfulness(
        faith, support, FAITH_VARIANTS[mult["variants"]["faithfulness"]]
    )
    SOURCE_MULT.clear()
    reference = load_calibration().reference_match if args.no_reference else fit_reference(ref)
    out = {
        "meta": {
            "version": 2,
            "embedder": args.embedder,
            "fit_rows": counts,
            "split": "fit (50/50 by hash of document / question; see scripts/devsets/convert.py)",
            "C": C,
            "source_weight": {k: mult[k] for k in ("support", "faithfulness")},
            "variants": mult["variants"],
            "cv_objective": args.objective,
            "cv_score": mult["cv"],
        },
        "support": support.to_dict(),
        "faithfulness": faithfulness.to_dict(),
        "reference_match": reference.to_dict(),
    }
    with open(args.out, "w", encoding="utf-8") as fh:
        json.dump(out, fh, indent=1)
        fh.write("\n")
    for k in ("support", "faithfulness", "reference_match"):
        print(k, dict(zip(out[k]["features"], out[k]["coef"], strict=True)))
    print(f"wrote {args.out}")


if __name__ == "__main__":
    main()
