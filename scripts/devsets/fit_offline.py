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
import json
from dataclasses import dataclass
from typing import Any

import numpy as np
from common import (
    FAITH_SETS,
    REF_SETS,
    load_rows,
    raw_features,
    support_logits,
)
from sklearn.linear_model import LogisticRegression

from ragassay.judge.offline.calibration import CALIBRATION_PATH, Calibration, LogisticModel
from ragassay.judge.offline.features import (
    FAITHFULNESS_FEATURES,
    REFERENCE_FEATURES,
    SUPPORT_FEATURES,
    faithfulness_features,
)
from ragassay.stats import auroc

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


def source_weights(sources: list[str]) -> np.ndarray:
    """Equal total weight per source set (each set counts as much as any other)."""
    uniq, counts = np.unique(sources, return_counts=True)
    per = {s: len(sources) / (len(uniq) * c) for s, c in zip(uniq, counts, strict=True)}
    return np.asarray([per[s] for s in sources], dtype=np.float64)


def _faith_auroc(recs: list[dict], support: LogisticModel, faith: LogisticModel) -> float | None:
    """AUROC of the faithfulness model on recs (one set)."""
    xs = [
        faithfulness_features(support_logits(r, support), r["overlap"], r["novel_terms"])
        for r in recs
    ]
    ys = [bool(r["labels"]["faithful"]) for r in recs]
    return auroc(list(faith.predict(np.asarray(xs))), ys)


def choose_variants(by_set: dict[str, list[dict]]) -> tuple[str, str, float]:
    """Pick the support and faithfulness feature variants by leave-one-set-out over the
    given (training) sets: fit on all but one, AUROC on that one, mean over sets. The
    simpler variant wins ties (grid order). Returns (support, faithfulness, score)."""
    scores: dict[tuple[str, str], float] = {}
    for sv, s_use in SUPPORT_VARIANTS.items():
        for fv, f_use in FAITH_VARIANTS.items():
            per = []
            for held in by_set:
                train = [r for name, recs in by_set.items() if name != held for r in recs]
                sup = fit_support(train, s_use)
                value = _faith_auroc(by_set[held], sup, fit_faithfulness(train, sup, f_use))
                if value is not None:
                    per.append(value)
            scores[(sv, fv)] = round(float(np.mean(per)), 4)
    best = max(scores, key=lambda k: scores[k])
    return best[0], best[1], scores[best]


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
    return fit_lr(
        x,
        y,
        source_weights([r["meta"]["source"] for r in recs]),
        REFERENCE_FEATURES,
        signs=REFERENCE_SIGNS,
    )


def _faith_records(name: str, embedder: str) -> list[dict]:
    return [r for r in raw_features(name, embedder, load_rows(name)) if "support" in r]


def _ref_records(name: str, embedder: str) -> list[dict]:
    recs = [r for r in raw_features(name, embedder, load_rows(name)) if "reference" in r]
    if name == "sas":  # graded similarity: 2 = correct, 0 = not; the middle grade left out
        recs = [
            {**r, "labels": {"correct": int(r["labels"]["answer_similarity"] == 2)}}
            for r in recs
            if r["labels"]["answer_similarity"] != 1
        ]
    return recs


@dataclass
class Fitted:
    calibration: Calibration
    meta: dict[str, Any]

    def as_json(self) -> dict[str, Any]:
        cal = self.calibration
        return {
            "meta": self.meta,
            "support": cal.support.to_dict(),
            "faithfulness": cal.faithfulness.to_dict(),
            "reference_match": cal.reference_match.to_dict(),
        }


def fit_calibration(
    exclude: set[str] | frozenset[str] = frozenset(), embedder: str = "static"
) -> Fitted:
    """Fit every model, and choose every variant, on the dev sets not in `exclude`
    (all their rows): faithfulness sets for support / faithfulness (variants chosen by
    leave-one-set-out among them), EVOUNA for the reference match (SAS's clear-cut pairs
    stand in when EVOUNA itself is excluded: a LOO measurement only, never shipped)."""
    by_set = {n: _faith_records(n, embedder) for n in FAITH_SETS if n not in exclude}
    sv, fv, cv = choose_variants(by_set)
    recs = [r for v in by_set.values() for r in v]
    support = fit_support(recs, SUPPORT_VARIANTS[sv])
    faith = fit_faithfulness(recs, support, FAITH_VARIANTS[fv])
    ref_sets = [n for n in REF_SETS if n not in exclude] or ["sas"]
    ref = fit_reference([r for n in ref_sets for r in _ref_records(n, embedder)])
    meta = {
        "version": 3,
        "embedder": embedder,
        "fit_rows": {n: len(v) for n, v in by_set.items()} | {n: -1 for n in ref_sets},
        "split": "all rows of the sets named in fit_rows (leave-one-dataset-out protocol: "
        "scripts/devsets/loo.py)",
        "C": C,
        "source_weight": "equal total weight per set",
        "variants": {"support": sv, "faithfulness": fv},
        "selection": "leave-one-set-out over the fit sets, mean AUROC",
        "selection_score": cv,
    }
    for n in ref_sets:
        meta["fit_rows"][n] = len(_ref_records(n, embedder))
    return Fitted(Calibration(support, faith, ref, meta), meta)


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--embedder", default="static")
    ap.add_argument("--out", default=str(CALIBRATION_PATH))
    ap.add_argument("--exclude", default="", help="comma-separated sets to leave out")
    args = ap.parse_args()
    fitted = fit_calibration({x for x in args.exclude.split(",") if x}, args.embedder)
    out = fitted.as_json()
    with open(args.out, "w", encoding="utf-8") as fh:
        json.dump(out, fh, indent=1)
        fh.write("\n")
    print("chosen:", fitted.meta["variants"], "selection score", fitted.meta["selection_score"])
    for k in ("support", "faithfulness", "reference_match"):
        print(k, dict(zip(out[k]["features"], out[k]["coef"], strict=True)))
    print(f"wrote {args.out}")


if __name__ == "__main__":
    main()
