"""Fit the offline judge's calibration on the dev sets' FIT split; write calibration.json.

Three standardised logistic regressions, sign-constrained (scipy at fit time only):
- support: answer sentence vs contexts. Sample labels are per answer, so a
  multiple-instance scheme is used: sentences of faithful answers are positive;
  an unfaithful single-sentence answer is negative; in an unfaithful
  multi-sentence answer, only the sentence the first-pass model finds least
  supported is taken as negative (its other sentences are left out).
- faithfulness: the whole answer from its weakest claim's support and its missing key
  terms (monotone: appended text never raises it).
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
from scipy.optimize import minimize
from scipy.special import expit

from ragassay.judge.offline.calibration import CALIBRATION_PATH, Calibration, LogisticModel
from ragassay.judge.offline.features import (
    FAITHFULNESS_FEATURES,
    REFERENCE_FEATURES,
    SUPPORT_FEATURES,
    faithfulness_features,
)
from ragassay.stats import auroc

C_GRID = (1.0, 0.01, 0.001)  # L2 strength (sklearn convention), chosen per fit


# Expected direction of each feature (+1 raises the probability, -1 lowers it, 0 free).
# A feature whose fitted coefficient comes out with the other sign is a quirk of a
# data set, not evidence: it is dropped (coefficient 0) and the model refitted.
SIGNS = {
    "soft_recall_local": 1, "recall_doc": 1, "recall_local": 1, "recall_all_local": 1,
    "bigram_doc": 1, "token_share_local": 1, "novel_numbers": -1, "novel_names": -1,
    "novel_content": -1, "negation_mismatch": -1, "antonym_clash": -1, "length": 0,
    "question": -1,
    "support_min_logit": 1, "novel_key_terms": -1, "n_sentences": -1,
    "contains": 1, "contains_first": 1, "token_recall": 1, "token_precision": 1,
    "char_recall": 1, "cos": 1, "answer_length": 0, "novel_in_question": -1, "noncommittal": -1,
}  # fmt: skip
# Reference-match features must not reward padding: a longer answer is no evidence of
# a correct one (appended injections or chatter would raise the score otherwise).
REFERENCE_SIGNS = {**SIGNS, "answer_length": -1}

# Feature-set variants, chosen by cross-validation inside the fit split; the features a
# variant leaves out get coefficient 0 (the calibration always lists the full set).
SUPPORT_VARIANTS = {
    "all": SUPPORT_FEATURES,
    "no-length": tuple(f for f in SUPPORT_FEATURES if f != "length"),
}
FAITH_VARIANTS = {
    "support": FAITHFULNESS_FEATURES[:2],  # the weakest claim's support, missing key terms
    "all": FAITHFULNESS_FEATURES,  # + the number of claims
}


def fit_lr(
    x: np.ndarray,
    y: np.ndarray,
    w: np.ndarray,
    names: tuple[str, ...],
    use: tuple[str, ...] | None = None,
    signs: dict[str, int] = SIGNS,
    c: float = 1.0,
) -> LogisticModel:
    """A standardised, L2-regularised logistic regression whose coefficients are held to
    each feature's expected sign (SIGNS; 0 = free): a feature whose effect would come out
    reversed (a quirk of one set, not evidence) gets 0, the others are fitted jointly.
    Features outside `use` get 0. Classes are balanced within the given weights."""
    keep = [j for j, n in enumerate(names) if use is None or n in use]
    mean = x.mean(axis=0)
    scale = x.std(axis=0)
    scale[scale < 1e-9] = 1.0
    z = ((x - mean) / scale)[:, keep]
    w = w.copy()
    for c in (0, 1):
        m = y == c
        w[m] *= 0.5 * w.sum() / max(w[m].sum(), 1e-9)
    t = 2.0 * y - 1.0

    def loss(theta: np.ndarray) -> tuple[float, np.ndarray]:
        coef, b = theta[:-1], theta[-1]
        margin = t * (z @ coef + b)
        value = c * float(w @ np.logaddexp(0.0, -margin)) + 0.5 * float(coef @ coef)
        g = -c * w * t * expit(-margin)
        return value, np.concatenate([z.T @ g + coef, [g.sum()]])

    bounds = [
        {1: (0.0, None), -1: (None, 0.0)}.get(signs.get(names[j], 0), (None, None)) for j in keep
    ] + [(None, None)]
    res = minimize(loss, np.zeros(len(keep) + 1), jac=True, method="L-BFGS-B", bounds=bounds)
    coef = np.zeros(len(names))
    coef[keep] = res.x[:-1]
    return LogisticModel(names, mean, scale, coef, float(res.x[-1]))


def source_weights(sources: list[str]) -> np.ndarray:
    """Equal total weight per source set (each set counts as much as any other)."""
    uniq, counts = np.unique(sources, return_counts=True)
    per = {s: len(sources) / (len(uniq) * c) for s, c in zip(uniq, counts, strict=True)}
    return np.asarray([per[s] for s in sources], dtype=np.float64)


def margin(recs: list[dict], support: LogisticModel, faith: LogisticModel) -> float:
    """The issue's criterion on one set: the lower AUROC of the faithfulness model and of
    the mean sentence support, minus what is needed (the lexical baseline + 0.02 where
    the baseline is below 0.90, the baseline itself above)."""
    ys = [bool(r["labels"]["faithful"]) for r in recs]
    logits = [support_logits(r, support) for r in recs]
    xs = [faithfulness_features(lg, r["novel_terms"]) for lg, r in zip(logits, recs, strict=True)]
    a_faith = auroc(list(faith.predict(np.asarray(xs))), ys)
    a_mean = auroc([float(np.mean(expit(np.asarray(lg)))) for lg in logits], ys)
    base = auroc([r["baseline"] for r in recs], ys)
    if a_faith is None or a_mean is None or base is None:
        return 0.0
    need = base + 0.02 if base < 0.90 else base
    return min(a_faith, a_mean) - need


@dataclass(frozen=True)
class Config:
    """The choices made per fit: L2 strength and the two models' feature variants."""

    c: float
    support: str
    faithfulness: str


def choose_config(by_set: dict[str, list[dict]]) -> tuple[Config, float]:
    """Choose C and the feature variants by leave-one-set-out over the given (training)
    sets: fit on all but one, the issue's criterion (margin()) on that one. The score is
    the mean over sets of min(margin, 0.02): a shortfall counts in full, a lead beyond
    the target hardly at all, so no set is sacrificed for another. Ties: grid order
    (C = 1 first, all features first)."""
    per: dict[Config, list[float]] = {}
    for c in C_GRID:
        for sv, s_use in SUPPORT_VARIANTS.items():
            for held in by_set:
                train = [r for name, recs in by_set.items() if name != held for r in recs]
                sup = fit_support(train, s_use, c)
                for fv, f_use in FAITH_VARIANTS.items():
                    faith = fit_faithfulness(train, sup, f_use, c)
                    value = min(margin(by_set[held], sup, faith), 0.02)
                    per.setdefault(Config(c, sv, fv), []).append(value)
    scores = {k: round(float(np.mean(v)), 4) for k, v in per.items()}
    best = max(scores, key=lambda k: scores[k])
    return best, scores[best]


def fit_support(
    recs: list[dict], use: tuple[str, ...] | None = None, c: float = 1.0
) -> LogisticModel:
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
        model = fit_lr(x, y, source_weights(src), SUPPORT_FEATURES, use, c=c)
    assert model is not None
    return model


def fit_faithfulness(
    recs: list[dict], support: LogisticModel, use: tuple[str, ...] | None = None, c: float = 1.0
) -> LogisticModel:
    xs, ys, src = [], [], []
    for r in recs:
        logits = support_logits(r, support)
        xs.append(faithfulness_features(logits, r["novel_terms"]))
        ys.append(r["labels"]["faithful"])
        src.append(r["meta"]["source"])
    return fit_lr(
        np.asarray(xs), np.asarray(ys), source_weights(src), FAITHFULNESS_FEATURES, use, c=c
    )


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


# Faithfulness sets the models are fitted on. Factcheck-GPT's answer-level label is the
# truth of ChatGPT's answer as people judged it with their own evidence, not support by
# the retrieved passages (see shared/data/README.md): it is measured, never fitted on.
FIT_SETS = tuple(s for s in FAITH_SETS if s != "factcheck_gpt")


def fit_calibration(
    exclude: set[str] | frozenset[str] = frozenset(), embedder: str = "static"
) -> Fitted:
    """Fit every model, and make every choice, on the dev sets not in `exclude` (all
    their rows): the faithfulness sets of FIT_SETS for support / faithfulness (C and
    variants by leave-one-set-out among them, choose_config), EVOUNA for the reference
    match (SAS's clear-cut pairs stand in when EVOUNA itself is excluded: a LOO
    measurement only, never shipped)."""
    by_set = {n: _faith_records(n, embedder) for n in FIT_SETS if n not in exclude}
    config, score = choose_config(by_set)
    recs = [r for v in by_set.values() for r in v]
    support = fit_support(recs, SUPPORT_VARIANTS[config.support], config.c)
    faith = fit_faithfulness(recs, support, FAITH_VARIANTS[config.faithfulness], config.c)
    ref_sets = [n for n in REF_SETS if n not in exclude] or ["sas"]
    ref_recs = {n: _ref_records(n, embedder) for n in ref_sets}
    ref = fit_reference([r for v in ref_recs.values() for r in v])
    meta = {
        "version": 3,
        "embedder": embedder,
        "fit_rows": {n: len(v) for n, v in by_set.items()}
        | {n: len(v) for n, v in ref_recs.items()},
        "split": "all rows of the sets named in fit_rows (leave-one-dataset-out protocol: "
        "scripts/devsets/loo.py)",
        "C": config.c,
        "source_weight": "equal total weight per set",
        "variants": {"support": config.support, "faithfulness": config.faithfulness},
        "selection": "leave-one-set-out over the fit sets: mean of min(margin over the "
        "lexical baseline target, 0.02)",
        "selection_score": score,
    }
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
