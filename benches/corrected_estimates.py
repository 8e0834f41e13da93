"""Corrected estimates on the human-labelled dev sets: how far off is the judge's own mean,
and does the corrected interval cover what people said?

For every dev set with full human labels (the sets of scripts/devsets/loo.py, converted
by scripts/devsets/convert.py into data/devsets/), every row is scored by the offline
judge with the calibration fitted and chosen WITHOUT that set (leave-one-dataset-out:
loo.py's `loo_calibration` and `values`, the product's path: key_sample -> Analyzer ->
the judge suite). The per-row scores are cached under data/bench/corrected_estimates/.

Then, for n labels (50, 100, 200) and `--draws` random draws of which rows a person
labels, the run's corrected estimates are computed as the product computes them
(`ragassay.stats.corrected.corrected` over a ScoreTable whose labelled rows carry the
label; the vocabulary's links, the cross-fitted map, PPI++), and compared with the truth:
the label's mean over ALL N rows of the set. Plans: `uniform` (a simple random sample: the
first n of a random order, so a draw's n = 50, 100, 200 are nested, as when a person keeps
labelling) and `uncertainty` (the annotation plan's sequential Poisson queue weighted
towards the judge's unsure scores, `ragassay.labels.plan`, with its inclusion
probabilities passed to the estimator as `report.plan_designs` does).

Per set, label, linked metric, plan and n: the judge's own estimate of the label's mean
and its bias; the corrected interval's coverage of the truth and mean width; the
labels-only interval's; the width ratio; the gain (labels-only variance / corrected
variance, as the product reports it for one run; the median over the draws) as effective
labels; the MSE ratio over the draws (labels-only / corrected: the gain achieved).
Everything is on the label's 0-1 scale (share of its range). The judge's own estimate is
the linked metric's mean over the set on its 0-1 scale, turned round for an inverted link:
for `hallucinated` (1 - the faithfulness sets' `faithful`), the judge.hallucination rate,
or 1 - mean judge.faithfulness; for TREC's relevance grade / 3, mean
judge.context_relevance; for EVOUNA's `correct` and SAS's similarity grade / 2, mean
judge.answer_similarity. The truth is the mean of a finite set, while the intervals are
for the mean of the population the set is drawn from: coverage of the finite mean is
conservative when n/N is large (the n/N column).

    .venv/bin/python benches/corrected_estimates.py                  # every set (LOO scores once)
    .venv/bin/python benches/corrected_estimates.py --sets q2,begin --draws 50
    options: --n 50 100 200  --plans uniform,uncertainty  --scores-only  --embedder static
"""

from __future__ import annotations

import argparse
import hashlib
import json
import math
import sys
import time
from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent))

from _common import REPO, machine, md_table  # noqa: E402

from ragassay.labels import labelled_probabilities, queue, weights  # noqa: E402
from ragassay.metrics import all_specs  # noqa: E402
from ragassay.stats.corrected import (  # noqa: E402
    CorrectedEstimate,
    CorrectedOptions,
    corrected,
)
from ragassay.stats.table import Row, ScoreTable  # noqa: E402
from ragassay.types import AnnotationPlan, MetricSpec  # noqa: E402

OUT = REPO / "data" / "bench" / "corrected_estimates"
DEVSETS = REPO / "data" / "devsets"
SCRIPTS = REPO / "scripts" / "devsets"
PLANS = ("uniform", "uncertainty")


@dataclass(frozen=True)
class Task:
    """What is estimated on a set: the label (vocabulary name) from the set's own label,
    the judge metrics scored (each linked to the label by the vocabulary), and the
    uncertainty plan's metric (a graded score: a bool metric gives a uniform plan)."""

    data_label: str
    label: str
    metrics: tuple[str, ...]
    plan_metric: str
    flip: bool = False  # label = 1 - data label (a set's `faithful` read as `hallucinated`)


FAITH = Task("faithful", "hallucinated", ("judge.hallucination", "judge.faithfulness"),
             "judge.faithfulness", flip=True)
TASKS: dict[str, Task] = {
    **{s: FAITH for s in ("summedits", "begin", "wice", "factcheck_gpt",
                          "factcheck_gpt_stance", "q2", "dialfact")},
    "trec_dl2020": Task("relevance", "relevance", ("judge.context_relevance",),
                        "judge.context_relevance"),
    "evouna_tq": Task("correct", "correct", ("judge.answer_similarity",),
                      "judge.answer_similarity"),
    "sas": Task("answer_similarity", "answer_similarity", ("judge.answer_similarity",),
                "judge.answer_similarity"),
}


@dataclass
class SetScores:
    """One set's rows: ids, the estimated label's value, and each metric's LOO score."""

    name: str
    label: str
    ids: list[str]
    labels: list[float]
    values: dict[str, list[float | None]]
    plan_metric: str  # the uncertainty plan's metric
    meta: dict[str, Any] = field(default_factory=dict)


# -- per-row scores (leave-one-dataset-out), cached ------------------------------------

def _code_key(name: str, embedder: str) -> str:
    """Changes when the set, the judge's code or the LOO machinery change."""
    src = REPO / "src" / "ragassay"
    files = [DEVSETS / f"{name}.jsonl", *sorted((src / "judge").rglob("*.py")),
             *sorted((src / "judge").rglob("*.json")), *sorted((src / "embed").glob("*")),
             *sorted((src / "metrics").rglob("*.py")), src / "text.py",
             *sorted(SCRIPTS.glob("*.py"))]
    h = hashlib.sha256(embedder.encode())
    for p in files:
        if p.is_file():
            h.update(p.read_bytes())
    return h.hexdigest()[:12]


def loo_scores(name: str, embedder: str = "static") -> SetScores:
    """Every row of `name` scored by the offline judge fitted without it (cached)."""
    task = TASKS[name]
    path = OUT / "scores" / f"{name}-{_code_key(name, embedder)}.json"
    if path.is_file():
        return SetScores(**json.loads(path.read_text(encoding="utf-8")))
    if not (DEVSETS / f"{name}.jsonl").is_file():
        raise SystemExit(f"{DEVSETS / name}.jsonl is missing: run "
                         ".venv/bin/python scripts/devsets/convert.py")
    sys.path.insert(0, str(SCRIPTS))
    from common import load_rows, to_sample  # scripts/devsets: the dev-set machinery
    from loo import held_out_with, loo_calibration, values

    from ragassay.judge.offline import Analyzer

    started = time.monotonic()
    rows = [r for r in load_rows(name) if r["labels"].get(task.data_label) is not None]
    print(f"{name}: fitting the calibration without {sorted(held_out_with(name))}",
          file=sys.stderr, flush=True)
    an = Analyzer(embedder=embedder, calibration=loo_calibration(name, embedder))
    scored = values(an, [to_sample(r) for r in rows], task.metrics, name)
    labels = [float(r["labels"][task.data_label]) for r in rows]
    out = SetScores(name, task.label, [r["id"] for r in rows],
                    [1.0 - y for y in labels] if task.flip else labels,
                    {m: [v[m] for v in scored] for m in task.metrics}, task.plan_metric,
                    {"embedder": embedder, "held_out": sorted(held_out_with(name)),
                     "seconds": round(time.monotonic() - started, 1)})
    path.parent.mkdir(parents=True, exist_ok=True)
    tmp = path.with_suffix(".part")
    tmp.write_text(json.dumps(out.__dict__), encoding="utf-8")
    tmp.replace(path)
    return out


# -- the draws -------------------------------------------------------------------------

@dataclass
class Tally:
    """What the draws of one (link, plan, n) gave, on the label's 0-1 scale."""

    truth: float
    judge: float | None = None  # the judge's own estimate of the label's mean
    hits: int = 0
    hits_only: int = 0
    widths: list[float] = field(default_factory=list)
    widths_only: list[float] = field(default_factory=list)
    errors: list[float] = field(default_factory=list)
    errors_only: list[float] = field(default_factory=list)
    gains: list[float] = field(default_factory=list)
    skipped: int = 0

    @property
    def draws(self) -> int:
        return len(self.widths)

    def add(self, est: CorrectedEstimate, truth: float) -> None:
        """One draw's estimate; `truth` on the label's own scale."""
        span = est.scale.high - est.scale.low
        self.hits += est.ci_low <= truth <= est.ci_high
        lo_only, hi_only = est.labels_only.ci_low, est.labels_only.ci_high
        self.hits_only += lo_only <= truth <= hi_only
        self.widths.append(est.width / span)
        self.widths_only.append((hi_only - lo_only) / span)
        self.errors.append((est.estimate - truth) / span)
        self.errors_only.append((est.labels_only.estimate - truth) / span)
        if est.gain is not None:
            self.gains.append(est.gain)


def _judge_unit(est: CorrectedEstimate, spec: MetricSpec) -> float | None:
    """The judge's own estimate of the label's mean, on the label's 0-1 scale: the
    metric's mean over the scored rows, on its 0-1 scale, oriented to the label."""
    if est.judge_mean is None:
        return None
    unit = spec.normalise(est.judge_mean)
    return 1.0 - unit if est.inverted else unit


def _orders(data: SetScores, plan: str, draw: int, seed: int,
            specs: Mapping[str, MetricSpec]) -> tuple[list[int], AnnotationPlan | None,
                                                      np.ndarray | None]:
    """The order in which the draw's person labels the rows: a random permutation
    (uniform), or the uncertainty plan's queue (with its weights)."""
    if plan == "uniform":
        rng = np.random.default_rng([seed, draw])
        return [int(i) for i in rng.permutation(len(data.ids))], None, None
    metric = data.plan_metric
    spec = specs[metric]
    scores = [None if v is None else spec.normalise(v) for v in data.values[metric]]
    ann = AnnotationPlan(run_id="bench", kind="uncertainty", seed=seed * 100_003 + draw,
                         metric=metric)
    w = weights(ann, ["default"] * len(data.ids), scores)
    return queue(ann, data.ids, w), ann, w


def _table(base: Sequence[Row], data: SetScores, chosen: Sequence[int],
           specs: Mapping[str, MetricSpec]) -> ScoreTable:
    rows = list(base)
    for i in chosen:
        rows[i] = replace(base[i], labels={data.label: _label_value(data.labels[i])})
    return ScoreTable(rows=tuple(rows), specs=specs)


def _label_value(y: float) -> int | float:
    return int(y) if float(y).is_integer() else y


def _tally(out: dict[tuple[str, str, int], Tally], key: tuple[str, str, int],
           est: CorrectedEstimate | None, truth: float, spec: MetricSpec) -> None:
    """Count one draw's estimate (None: the product gave none) under `key`."""
    tally = out.get(key)
    if tally is None:
        tally = out[key] = Tally(math.nan if est is None else est.scale.to_unit(truth))
    if est is None:
        tally.skipped += 1
        return
    if not math.isfinite(tally.truth):  # the first draws gave no estimate
        tally.truth = est.scale.to_unit(truth)
    tally.judge = _judge_unit(est, spec)
    tally.add(est, truth)


def simulate(data: SetScores, ns: Sequence[int], draws: int, plans: Sequence[str],
             seed: int = 0) -> dict[tuple[str, str, int], Tally]:
    """(metric, plan, n) -> the tally of `draws` draws; an n >= N is left out."""
    specs = {m: s for m, s in all_specs(["judge"]).items() if m in data.values}
    base = [Row(id=rid, values={m: data.values[m][i] for m in specs})
            for i, rid in enumerate(data.ids)]
    truth = float(np.mean(data.labels))  # the label's mean over all N rows, its own scale
    ns = [n for n in ns if n < len(data.ids)]
    out: dict[tuple[str, str, int], Tally] = {}
    for plan in plans:
        for draw in range(draws):
            order, ann, w = _orders(data, plan, draw, seed, specs)
            for n in ns:
                chosen = order[:n]
                opts = CorrectedOptions(seed=draw, per_strategy=False)
                if ann is not None and w is not None:
                    pis, _ = labelled_probabilities(ann, data.ids, w,
                                                    {data.ids[i] for i in chosen})
                    opts = replace(opts, design_kind=ann.kind, designs={
                        data.label: {("default", data.ids[i]): pis[data.ids[i]]
                                     for i in chosen}})
                result = corrected(_table(base, data, chosen, specs), None, opts)
                for metric in specs:
                    _tally(out, (metric, plan, n), result.overall(metric, data.label),
                           truth, specs[metric])
    return out


# -- the tables ------------------------------------------------------------------------

Tallies = dict[tuple[str, str, int], Tally]
HEADERS = ("set", "label (N)", "via metric", "n", "n/N", "truth", "judge's own", "judge bias",
           "corrected cover", "corrected width", "labels-only cover", "labels-only width",
           "width ratio", "eff. labels (gain)", "MSE ratio")


def _f(x: float | None, spec: str = ".3f") -> str:
    return "-" if x is None or not math.isfinite(x) else format(x, spec)


def _ratio(t: Tally) -> float:
    """Mean corrected width / mean labels-only width."""
    return float(np.mean(t.widths)) / float(np.mean(t.widths_only))


def table_rows(data: SetScores, tallies: Tallies, plan: str) -> Iterator[list[str]]:
    """One markdown row per (metric, n) of a set under `plan`."""
    big_n = len(data.ids)
    for (metric, p, n), t in tallies.items():
        if p != plan:
            continue
        first = [data.name, f"{data.label} ({big_n})", metric, str(n), _f(n / big_n, ".2f")]
        if not t.draws:
            yield [*first, "-", "-", "-", f"no estimate ({t.skipped} draws)", *["-"] * 6]
            continue
        gain = float(np.median(t.gains)) if t.gains else None  # a typical run's claim
        mse = float(np.mean(np.square(t.errors)))
        mse_only = float(np.mean(np.square(t.errors_only)))
        yield [*first, _f(t.truth), _f(t.judge),
               _f(None if t.judge is None else t.judge - t.truth, "+.3f"),
               _f(t.hits / t.draws, ".1%"), _f(float(np.mean(t.widths))),
               _f(t.hits_only / t.draws, ".1%"), _f(float(np.mean(t.widths_only))),
               _f(_ratio(t), ".2f"),
               "-" if gain is None else f"{gain * n:.0f} ({gain:.2f}x)",
               _f(mse_only / mse if mse > 0 else None, ".2f")
               + (f" ({t.skipped} skipped)" if t.skipped else "")]


def summary_rows(data: SetScores, tallies: Tallies, ns: Sequence[int]
                 ) -> Iterator[list[str]]:
    """One row per set: uniform labels, through the uncertainty plan's (graded) metric;
    per n, corrected / labels-only coverage and the width ratio."""
    per_n = {n: tallies.get((data.plan_metric, "uniform", n)) for n in ns}
    some = next((t for t in per_n.values() if t is not None and t.draws), None)
    if some is None:
        return
    bias = None if some.judge is None else some.judge - some.truth
    cells = [f"{t.hits / t.draws:.0%} / {t.hits_only / t.draws:.0%}, {_ratio(t):.2f}"
             if t is not None and t.draws else "-" for t in per_n.values()]
    yield [data.name, f"{data.label} ({len(data.ids)})", data.plan_metric, _f(some.truth),
           f"{_f(some.judge)} ({_f(bias, '+.3f')})", *cells]


def report(results: Sequence[tuple[SetScores, Tallies]], ns: Sequence[int],
           plans: Sequence[str], header: str) -> str:
    """The summary table, then the full table of each plan."""
    summary = md_table(["set", "label (N)", "via metric", "truth", "judge's own (bias)",
                        *(f"n={n}: cover corrected / labels-only, width ratio" for n in ns)],
                       [r for data, t in results for r in summary_rows(data, t, ns)])
    parts = [header, "", "Summary (uniform labels):", "", summary]
    for plan in plans:
        parts += ["", f"Plan `{plan}`:", "",
                  md_table(HEADERS, [r for data, t in results
                                     for r in table_rows(data, t, plan)])]
    return "\n".join(parts)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--sets", default=",".join(TASKS))
    ap.add_argument("--n", type=int, nargs="+", default=[50, 100, 200])
    ap.add_argument("--draws", type=int, default=200)
    ap.add_argument("--plans", default=",".join(PLANS))
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--embedder", default="static")
    ap.add_argument("--scores-only", action="store_true",
                    help="compute (or check) the cached LOO scores, no draws")
    args = ap.parse_args()
    names = args.sets.split(",")
    plans = args.plans.split(",")
    unknown = sorted(set(names) - set(TASKS)) + sorted(set(plans) - set(PLANS))
    if unknown:
        raise SystemExit(f"unknown set(s) or plan(s) {', '.join(unknown)}; sets: "
                         f"{', '.join(TASKS)}; plans: {', '.join(PLANS)}")
    results: list[tuple[SetScores, Tallies]] = []
    for name in names:
        data = loo_scores(name, args.embedder)
        print(f"{name}: {len(data.ids)} rows (LOO scores: {data.meta})", file=sys.stderr)
        if args.scores_only:
            continue
        started = time.monotonic()
        results.append((data, simulate(data, args.n, args.draws, plans, args.seed)))
        print(f"  {args.draws} draws in {time.monotonic() - started:.0f}s", file=sys.stderr,
              flush=True)
    if args.scores_only:
        return
    text = report(results, args.n, plans,
                  f"Offline judge, leave-one-dataset-out scores; {args.draws} draws per n, "
                  f"seed {args.seed}; {machine()}")
    print(text)
    OUT.mkdir(parents=True, exist_ok=True)
    (OUT / "table.md").write_text(text + "\n", encoding="utf-8")


if __name__ == "__main__":
    main()
