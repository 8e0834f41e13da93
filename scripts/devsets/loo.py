"""Leave-one-dataset-out (LOO) figures of the offline judge on every dev set.

For each dev set D, the models that score D are fitted, and every choice made, without
D (and without a set that shares D's texts: Factcheck-GPT's answers and its
claim-passage pairs count as one). The figures go through the product's path
(key_sample -> Analyzer -> Evidence -> each suite's `evaluate_offline`, see figures.py):
- faithfulness sets: AUROC of judge.faithfulness, ragas.faithfulness and
  trace.adherence_ratio vs the lexical baseline (share of answer words in the contexts);
  balanced accuracy of the yes/no verdicts judge.hallucination and trace.adherence vs the
  lexical baseline cut where it is most balanced-accurate on the other faithfulness sets;
- trec_dl2020: Spearman of context relevance with the graded label (question vs one
  passage, no answer; baseline: share of question words in the passage);
- evouna_tq: AUROC of judge.answer_similarity (correct or not); sas: its Spearman with
  the 0/1/2 similarity grade (baseline: share of answer words in the reference).

    .venv/bin/python scripts/devsets/loo.py                   # LOO: one fit per held-out set
    .venv/bin/python scripts/devsets/loo.py --judge shipped   # the shipped calibration.json
    options: --sets wice,q2  --n-resamples 1000  --out data/devsets/loo.json
    the accurate mode (`offline:accurate`): --relevance-embedder local:128
        --restatement-embedder local:128

`--judge shipped` is not LOO for the sets the shipped calibration was fitted on (it
says which, from calibration.json's meta.fit_rows): their figures are in-sample.
"""

from __future__ import annotations

import argparse
import functools
import json
import sys
import time
from collections.abc import Callable
from datetime import date
from pathlib import Path
from typing import Any

import numpy as np
from common import ROOT, load_rows, to_sample
from figures import (
    CORRECTNESS,
    FAITHFULNESS,
    RELEVANCE,
    STATISTIC,
    VERDICTS,
    Figure,
    auroc_figure,
    balanced_figure,
    product_values,
    spearman_figure,
    table,
)

from ragassay.judge.offline import Analyzer, Calibration, load_calibration
from ragassay.stats.agreement import _balanced_rows
from ragassay.stats.baseline import lexical_share, lexical_support
from ragassay.types import Sample

FAITH = ("summedits", "begin", "wice", "factcheck_gpt", "factcheck_gpt_stance", "q2", "dialfact")
RELEVANCE_SETS = ("trec_dl2020",)
REFERENCE = ("evouna_tq", "sas")
ALL = FAITH + RELEVANCE_SETS + REFERENCE
# Sets that share texts: holding one out holds out the others too.
RELATED = {"factcheck_gpt": {"factcheck_gpt_stance"}, "factcheck_gpt_stance": {"factcheck_gpt"}}
TASK = {
    **{s: "faithful" for s in FAITH},
    "trec_dl2020": "relevance",
    "evouna_tq": "correct",
    "sas": "answer_similarity",
}


def held_out_with(name: str) -> set[str]:
    """The sets left out of training when `name` is scored."""
    return {name} | RELATED.get(name, set())


def values(
    an: Analyzer, samples: list[Sample], metrics: tuple[str, ...], label: str
) -> list[dict[str, float | None]]:
    """The metrics' product values for every sample, in batches, with a progress line."""
    out: list[dict[str, float | None]] = []
    t0 = time.time()
    for i in range(0, len(samples), 128):
        out += product_values(an, samples[i : i + 128], metrics)
        print(f"\r  {label}: {len(out)}/{len(samples)}", end="", file=sys.stderr, flush=True)
    dt = time.time() - t0
    print(f"\r  {label}: {len(out)} samples, {len(out) / dt:.0f}/s", file=sys.stderr)
    return out


def _figures(
    name: str,
    an: Analyzer,
    samples: list[Sample],
    metrics: tuple[str, ...],
    baseline: Callable[[Sample], float | None],
    n_res: int,
) -> list[tuple[Figure, str]]:
    """Each metric's figure on the set, with its kind (auroc, spearman, balanced); on a
    faithfulness set the verdicts' balanced accuracy too."""
    label = TASK[name]
    verdicts = tuple(VERDICTS) if name in FAITH else ()
    rows = values(an, samples, metrics + verdicts, name)
    figs: list[tuple[Figure, str]] = []
    for metric in metrics + verdicts:
        triples = [
            (row[metric], s.labels.get(label), baseline(s))
            for row, s in zip(rows, samples, strict=True)
        ]
        kept = [
            (v, y, b) for v, y, b in triples if v is not None and y is not None and b is not None
        ]
        v, y, b = (list(x) for x in zip(*kept, strict=True)) if kept else ([], [], [])
        if metric in verdicts:
            cut = lexical_cut(name)
            said = [bool(x) == VERDICTS[metric] for x in v]
            truth = [bool(t) for t in y]
            figs.append((balanced_figure(metric, said, truth, [x >= cut for x in b], n_res),
                         "balanced"))
        elif label == "faithful" or label == "correct":
            figs.append((auroc_figure(metric, v, [bool(t) for t in y], b, n_res), "auroc"))
        else:
            figs.append((spearman_figure(metric, v, y, b, n_res), "spearman"))
    return figs


@functools.lru_cache(maxsize=16)
def _lexical(name: str) -> tuple[tuple[float, bool], ...]:
    """A faithfulness set's (lexical baseline, faithful) pairs."""
    out = []
    for s in (to_sample(r) for r in load_rows(name)):
        b, y = lexical_support(s), s.labels.get("faithful")
        if b is not None and y is not None:
            out.append((b, bool(y)))
    return tuple(out)


@functools.lru_cache(maxsize=16)
def lexical_cut(name: str) -> float:
    """The lexical baseline's yes/no verdict for `name`: the cut (faithful at or above
    it) with the best mean balanced accuracy over the other faithfulness sets, chosen
    without `name` as the judge's models are fitted without it."""
    others = [np.asarray(_lexical(s)) for s in FAITH if s not in held_out_with(name)]
    cuts = np.unique(np.round(np.concatenate([p[:, 0] for p in others]), 3))
    mean = np.zeros(len(cuts))
    for p in others:  # each set's balanced accuracy at every cut, at once
        said, truth = p[None, :, 0] >= cuts[:, None], p[None, :, 1].astype(bool)
        mean += _balanced_rows([said, np.broadcast_to(truth, said.shape)]) / len(others)
    return float(cuts[int(np.argmax(mean))])


def question_share(s: Sample) -> float:
    """Relevance baseline: share of the question's words found in the contexts."""
    return lexical_share(s.question, " ".join(s.contexts))


def score_set(name: str, an: Analyzer, n_res: int) -> list[tuple[Figure, str]]:
    samples = [to_sample(r) for r in load_rows(name)]
    if name in FAITH:
        return _figures(name, an, samples, FAITHFULNESS, lexical_support, n_res)
    if name in RELEVANCE_SETS:
        return _figures(name, an, samples, RELEVANCE, question_share, n_res)
    return _figures(name, an, samples, CORRECTNESS, lexical_support, n_res)


def loo_calibration(name: str, embedder: str) -> Calibration:
    """The calibration fitted, with every choice, on the dev sets other than `name`."""
    from common import FAITH_SETS, REF_SETS

    trained_on = set(FAITH_SETS) | set(REF_SETS)
    return _fit(frozenset(held_out_with(name) & trained_on), embedder)


@functools.lru_cache(maxsize=16)
def _fit(exclude: frozenset[str], embedder: str) -> Calibration:
    from fit_offline import fit_calibration

    return fit_calibration(exclude=exclude, embedder=embedder).calibration


def rerunnable(argv: list[str]) -> str:
    """This run as a command to rerun from the repository's root: every path argument
    relative to the root, never to the folder it was started in or to this machine."""
    out = []
    for arg in argv:
        if "/" in arg or arg.endswith(".json"):
            path = Path(arg).resolve()
            arg = str(path.relative_to(ROOT)) if path.is_relative_to(ROOT) else arg
        out.append(arg)
    return " ".join(["python", "scripts/devsets/loo.py", *out])


def write_reliability(args: argparse.Namespace, rows: list[tuple[str, Figure, str]]) -> None:
    """The per-metric table the package ships (read by ragassay.judge.reliability)."""
    if args.judge != "loo":
        raise SystemExit(
            "--reliability needs --judge loo: only LOO figures are unseen-data figures"
        )
    payload = {
        "protocol": "leave-one-dataset-out: each dev set scored by models fitted and chosen "
        "without it (scripts/devsets/loo.py)",
        "date": date.today().isoformat(),
        "command": rerunnable(sys.argv[1:]),
        "embedder": args.embedder,
        "relevance_embedder": args.relevance_embedder or args.embedder,
        "restatement_embedder": args.restatement_embedder,
        "figures": [
            {
                "metric": f.metric,
                "set": s,
                "statistic": STATISTIC[k],
                "value": None if f.value is None else round(f.value, 4),
                "ci": None if f.ci is None else [round(x, 4) for x in f.ci],
                "n": f.n,
                "baseline": None if f.baseline is None else round(f.baseline, 4),
            }
            for s, f, k in rows
        ],
    }
    with open(args.reliability, "w", encoding="utf-8") as fh:
        json.dump(payload, fh, indent=1)
        fh.write("\n")
    print(f"wrote {args.reliability}")


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--judge", choices=("loo", "shipped"), default="loo")
    ap.add_argument("--sets", default=",".join(ALL))
    ap.add_argument("--embedder", default="static")
    ap.add_argument("--n-resamples", type=int, default=1000)
    ap.add_argument(
        "--relevance-embedder", default=None, help="relevance embedder (default: --embedder)"
    )
    ap.add_argument(
        "--restatement-embedder", default=None,
        help="the accurate mode's restatement floor (judge/offline/restated.py): local:128",
    )
    ap.add_argument("--out", default=None, help="write the figures as JSON")
    ap.add_argument(
        "--reliability",
        default=None,
        help="write the per-metric table the package ships "
        "(src/ragassay/judge/offline/reliability.json)",
    )
    args = ap.parse_args()
    names = args.sets.split(",")
    unknown = sorted(set(names) - set(ALL))
    if unknown:
        raise SystemExit(f"unknown set(s) {', '.join(unknown)}; known: {', '.join(ALL)}")
    rows: list[tuple[str, Figure, str]] = []
    notes: list[str] = []
    shipped = load_calibration()
    in_sample = set(shipped.meta.get("fit_rows", {}))
    for name in names:
        if args.judge == "shipped":
            cal = shipped
            if name in in_sample:
                notes.append(f"{name}: IN-SAMPLE (the shipped calibration was fitted on it)")
        else:
            cal = loo_calibration(name, args.embedder)
        an = Analyzer(
            embedder=args.embedder, calibration=cal, relevance_embedder=args.relevance_embedder,
            restatement_embedder=args.restatement_embedder,
        )
        rows += [(name, f, kind) for f, kind in score_set(name, an, args.n_resamples)]
    print(
        f"\nLOO figures, judge={args.judge}, {date.today().isoformat()}, "
        f"{args.n_resamples} bootstrap resamples\n"
    )
    print(table(rows))
    for n in notes:
        print(f"- {n}")
    if args.reliability:
        write_reliability(args, rows)
    if args.out:
        payload: dict[str, Any] = {
            "judge": args.judge,
            "date": date.today().isoformat(),
            "n_resamples": args.n_resamples,
            "figures": [{"set": s, "kind": k, **f.as_dict()} for s, f, k in rows],
            "notes": notes,
        }
        with open(args.out, "w", encoding="utf-8") as fh:
            json.dump(
                payload,
                fh,
                indent=1,
                default=lambda x: list(x) if isinstance(x, tuple) else float(x),
            )
        print(f"wrote {args.out}")


if __name__ == "__main__":
    main()
