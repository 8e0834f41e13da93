"""Judge routing on the dev sets: the offline judge as tier 0, the packaged Qwen 1.5B as
tier 1 (or any judge spec), thresholds by fixed-sequence testing on people's labels.

    nice -n 19 .venv/bin/python benches/routing.py collect   # tier-1 verdicts (hours; resumes)
    .venv/bin/python benches/routing.py export                # -> benches/data/routing/
    .venv/bin/python benches/routing.py                       # the figures (reads the cache)

`collect` judges each set's rows with the tier-1 judge into the bench's store
(data/bench/routing/store.db), a chunk of rows at a time across the sets, resumable
(benches/_routing_collect.py says which rows and why). `export` writes the judge-call
cache entries those runs used to benches/data/routing/verdicts.jsonl.gz (committed); the
benchmark loads them into its store's cache first, so that on a clean clone it runs
without the model and sends nothing.

The offline judge (tier 0) scores each set with a calibration fitted without that set
(and without a set sharing its texts): scripts/devsets/loo.py's leave-one-dataset-out
protocol, fitted once per set into data/bench/routing/calibration-loo/. The shipped
calibration was fitted on every row of these sets: `--offline-calibration shipped`
gives its in-sample figures, for comparison only.
"""

from __future__ import annotations

import argparse
import contextlib
import gzip
import json
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))

from _common import REPO  # noqa: E402
from _devsets import write_jsonl  # noqa: E402
from _routing_collect import (  # noqa: E402
    MAX_CONTEXT_TOKENS,
    SETS,
    TIER1,
    Plan,
    collect,
    ordered_rows,
)

OUT = REPO / "data" / "bench" / "routing"
EXPORT = REPO / "benches" / "data" / "routing" / "verdicts.jsonl.gz"


def collected(plan: Plan) -> dict[tuple[str, str], str]:
    """(set, row id) -> the cache key of its tier-1 verdict, for every row a collection
    run (finished or not) has judged with a usable reply."""
    from ragassay.store import Store

    samples = (plan.out / "samples").resolve()
    store = Store(plan.store)
    out: dict[tuple[str, str], str] = {}
    for run in store.list_runs():
        path = Path(run.dataset)
        if path.parent.resolve() != samples:
            continue
        name = path.stem.split("__")[0]
        for call in store.iter_calls(run.id):
            if call.status == "ok" and call.cache_key:
                out[(name, call.sample_id)] = call.cache_key
    return out


def export(plan: Plan, path: Path) -> None:
    """One JSON line per collected row ({"set", "id", "key", "value": the cache entry}),
    after a first line that says what made them."""
    from ragassay.store import Store

    store = Store(plan.store)
    rows = collected(plan)
    per_set: dict[str, int] = {}
    for name, _ in rows:
        per_set[name] = per_set.get(name, 0) + 1
    head = {"judge": plan.judge, "max_context_tokens": plan.max_context_tokens,
            "seed": plan.seed, "rows": per_set,
            "command": "benches/routing.py collect, then benches/routing.py export"}
    path.parent.mkdir(parents=True, exist_ok=True)
    with gzip.open(path, "wt", encoding="utf-8") as fh:
        fh.write(json.dumps(head) + "\n")
        for (name, rid), key in sorted(rows.items()):
            value = store.cache_get(key)
            if value is not None:
                fh.write(json.dumps({"set": name, "id": rid, "key": key, "value": value},
                                    ensure_ascii=False) + "\n")
    print(f"{path}: {len(rows)} verdicts ({per_set})", file=sys.stderr)


FAITHFULNESS = ("summedits", "begin", "wice", "factcheck_gpt", "factcheck_gpt_stance", "q2",
                "dialfact")


def load_export(store: Any, path: Path) -> dict[str, list[str]]:
    """The exported verdicts into the store's judge-call cache; the row ids per set."""
    rows: dict[str, list[str]] = {}
    if not path.exists():
        return rows
    with gzip.open(path, "rt", encoding="utf-8") as fh:
        next(fh)
        for line in fh:
            entry = json.loads(line)
            rows.setdefault(entry["set"], []).append(entry["id"])
            if store.cache_get(entry["key"]) is None:
                store.cache_put(entry["key"], entry["value"])
    return rows


def loo_calibration(name: str, out: Path) -> Path:
    """The offline judge's calibration fitted, with every choice, without `name` (and the
    sets that share its texts), as scripts/devsets/loo.py fits it; written once."""
    sys.path.insert(0, str(REPO / "scripts" / "devsets"))
    from common import FAITH_SETS, REF_SETS
    from loo import held_out_with

    exclude = frozenset(held_out_with(name) & (set(FAITH_SETS) | set(REF_SETS)))
    path = out / "calibration-loo" / f"without-{'+'.join(sorted(exclude)) or 'none'}.json"
    if path.exists():
        return path
    from fit_offline import fit_calibration

    print(f"{name}: fitting the offline calibration without {sorted(exclude)}",
          file=sys.stderr, flush=True)
    fitted = fit_calibration(exclude=exclude, embedder="static")
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(json.dumps(fitted.as_json(), indent=1) + "\n", encoding="utf-8")
    return path


@contextlib.contextmanager
def offline_calibration(path: Path | None) -> Iterator[None]:
    """The offline judge built inside reads its calibration from `path` (None: the
    shipped one). A benchmark's measurement device only: the product always reads the
    shipped calibration."""
    from ragassay.judge.offline import calibration

    shipped = calibration.CALIBRATION_PATH
    calibration.load_calibration.cache_clear()
    calibration.CALIBRATION_PATH = path or shipped
    try:
        yield
    finally:
        calibration.CALIBRATION_PATH = shipped
        calibration.load_calibration.cache_clear()


def judged_run(store: Any, name: str, rows: list[dict[str, Any]], tiers: tuple[str, ...],
               plan: Plan) -> tuple[str, int]:
    """A routed run of `rows` in which every tier judges every row (a budget that sends
    everything up): the per-tier verdicts the splits are routed over. Returns the run id
    and the calls the last tier sent (0: every verdict came from the cache)."""
    from ragassay.dataset import iter_samples
    from ragassay.runner import evaluate
    from ragassay.types import RoutingPlan, RunConfig, Tier

    path = plan.out / "rows" / f"{name}__{len(tiers)}.jsonl"
    write_jsonl(rows, path)
    for old in store.list_runs(str(path)):
        store.delete_run(old.id)
    routing = RoutingPlan(tiers=tuple(Tier(judges=(t,)) for t in tiers),
                          escalate_share=1.0 if len(tiers) > 1 else None)
    config = RunConfig.build(str(path), timeout_s=3600.0, judge=tiers[0], metrics=("judge",),
                             concurrency=1, max_context_tokens=plan.max_context_tokens,
                             routing=routing)
    stats = evaluate(iter_samples(path), config, store=store)
    return stats.run_id, stats.usage.calls


def cases_of(store: Any, run_id: str, tiers: tuple[str, ...], route_on: str | None = None
             ) -> list[Any]:
    """The run's labelled samples as routing sees them: people's verdict and each tier's
    reading of the metric routed on (`route_on`; None: the one the labels link to)."""
    from ragassay.routing import load_state
    from ragassay.types import RoutingPlan, Tier

    plan = RoutingPlan(tiers=tuple(Tier(judges=(t,)) for t in tiers), agreement=0.9,
                       verdict=route_on)
    return [c for c in load_state(store, run_id, plan).cases if c.truth is not None]


def figures(cases: list[Any], tiers: tuple[str, ...], args: Any) -> list[dict[str, Any]]:
    """Per target agreement (and with / without --abstain for a cascade): the splits'
    figures, named as the RESULTS tables show them."""
    from _routing_sim import alone, simulate

    from ragassay.types import RoutingPlan, Tier

    out = []
    cascade = len(tiers) > 1
    for target in args.agreement:
        for abstain in ((False, True) if cascade else (True,)):
            plan = RoutingPlan(tiers=tuple(Tier(judges=(t,)) for t in tiers),
                               agreement=target, delta=args.delta, abstain=abstain)
            r = simulate(cases, plan, args.label_share, args.splits, args.seed).row()
            row: dict[str, Any] = {"target": target}
            if cascade:
                row |= {"--abstain": abstain, "escalated": r["escalated"],
                        "for a person": r["person"]}
            row |= {"decided with guarantee": r["guaranteed share"],
                    "its agreement (test rows)": r["agreement guaranteed"],
                    "coverage (test rows)": r["coverage"],
                    "coverage (set as population)": r["coverage (set as population)"],
                    "vacuous splits": r["vacuous"]}
            if cascade:
                row |= {"agreement, all decided": r["agreement all decided"],
                        "tier-1 calls / tier 1 alone": r["tier-1 calls vs alone"],
                        "offline alone": alone(cases, 0), "tier 1 alone": alone(cases, 1)}
            else:
                row |= {"offline alone": alone(cases, 0)}
            out.append(row)
    return out


def fmt(v: Any) -> str:
    if v is None:
        return "-"
    if isinstance(v, bool):
        return "yes" if v else "no"
    if isinstance(v, float):
        return f"{v:.3f}"
    return str(v)


def table(title: str, rows: list[tuple[str, int, dict[str, Any]]]) -> str:
    if not rows:
        return f"{title}: no rows\n"
    keys = list(rows[0][2])
    head = ["set", "rows", *keys]
    lines = [f"### {title}", "", "| " + " | ".join(head) + " |",
             "|" + "---|" * len(head)]
    lines += ["| " + " | ".join([name, str(n), *[fmt(r[k]) for k in keys]]) + " |"
              for name, n, r in rows]
    return "\n".join(lines) + "\n"


def bench(plan: Plan, args: Any) -> None:
    """The figures: the cascade (offline -> tier 1) on the collected rows, each set and
    the faithfulness sets pooled; the offline judge alone, with --abstain, on up to
    --offline-n rows of every set."""
    from _common import machine

    from ragassay.store import Store

    store = Store(plan.store)
    exported = load_export(store, args.export)
    local = collected(plan) if plan.store.exists() else {}
    ids: dict[str, set[str]] = {}
    for name, rid in [*[(n, r) for n, rs in exported.items() for r in rs], *local]:
        ids.setdefault(name, set()).add(rid)
    out = [f"Run: {machine()}", f"tier 1: {plan.judge}, max_context_tokens "
           f"{plan.max_context_tokens}; {args.splits} label/test splits per set, "
           f"{args.label_share:.0%} of the rows labelled; delta {args.delta}; the offline "
           f"judge's calibration: {args.offline_calibration}", ""]

    def calibration_for(name: str) -> Path | None:
        return loo_calibration(name, plan.out) if args.offline_calibration == "loo" else None

    cascade: list[tuple[str, int, dict[str, Any]]] = []
    pooled: dict[str, list[Any]] = {}
    tiers = ("offline", plan.judge)
    for name in plan.sets:
        chosen = [r for r in ordered_rows(name, plan.seed) if r["id"] in ids.get(name, ())]
        if not chosen:
            continue
        with offline_calibration(calibration_for(name)):
            run_id, sent = judged_run(store, name, chosen, tiers, plan)
        print(f"{name}: {len(chosen)} rows, tier-1 calls sent {sent} (the rest from the "
              "cache)", file=sys.stderr, flush=True)
        # the faithfulness sets on each verdict of --route-on; other sets on their label's
        for route_on in (args.route_on if name in FAITHFULNESS else [None]):
            cases = cases_of(store, run_id, tiers, route_on)
            if name in FAITHFULNESS:
                pooled.setdefault(route_on or "", []).extend(cases)
            if len(cases) >= args.min_rows:
                cascade += [(f"{name} ({route_on or 'its label'})", len(cases), r)
                            for r in figures(cases, tiers, args)]
    for route_on, cases in pooled.items():
        cascade += [(f"faithfulness sets pooled (hallucinated, on {route_on})", len(cases), r)
                    for r in figures(cases, tiers, args)]
    out.append(table(f"Cascade offline -> {plan.judge}", cascade))
    single: list[tuple[str, int, dict[str, Any]]] = []
    for name in plan.sets if args.offline_n else ():
        rows = ordered_rows(name, plan.seed)[:args.offline_n]
        with offline_calibration(calibration_for(name)):
            run_id, _ = judged_run(store, name, rows, ("offline",), plan)
        cases = cases_of(store, run_id, ("offline",))
        single += [(name, len(cases), r) for r in figures(cases, ("offline",), args)]
    out.append(table("The offline judge alone, --abstain (the rest left for a person)",
                     single))
    text = "\n".join(out)
    print(text)
    (plan.out / "figures.md").write_text(text + "\n", encoding="utf-8")


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("command", nargs="?", default="bench", choices=("bench", "collect", "export"))
    ap.add_argument("--sets", default=",".join(SETS))
    ap.add_argument("--n", type=int, default=200, help="rows per set (eval split)")
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--judge", default=TIER1, help="the tier-1 judge spec")
    ap.add_argument("--max-context-tokens", type=int, default=MAX_CONTEXT_TOKENS)
    ap.add_argument("--out-dir", type=Path, default=OUT)
    ap.add_argument("--export", type=Path, default=EXPORT)
    ap.add_argument("--splits", type=int, default=200)
    ap.add_argument("--label-share", type=float, default=0.5)
    ap.add_argument("--agreement", type=lambda s: [float(x) for x in s.split(",")],
                    default=[0.8, 0.9])
    ap.add_argument("--delta", type=float, default=0.1)
    ap.add_argument("--route-on", type=lambda s: s.split(","),
                    default=["judge.hallucination", "judge.faithfulness"],
                    help="the verdicts the faithfulness sets are routed on")
    ap.add_argument("--min-rows", type=int, default=60,
                    help="rows a set needs for a cascade row of its own (all are pooled)")
    ap.add_argument("--offline-n", type=int, default=600,
                    help="rows per set for the offline judge alone")
    ap.add_argument("--offline-calibration", choices=("loo", "shipped"), default="loo",
                    help="loo: each set scored by an offline calibration fitted without it; "
                    "shipped: the package's (fitted on every set: in-sample)")
    args = ap.parse_args()
    args.out_dir.mkdir(parents=True, exist_ok=True)
    plan = Plan(sets=tuple(args.sets.split(",")), n=args.n, seed=args.seed, judge=args.judge,
                max_context_tokens=args.max_context_tokens, out=args.out_dir)
    if args.command == "collect":
        collect(plan)
    elif args.command == "export":
        export(plan, args.export)
    else:
        bench(plan, args)


if __name__ == "__main__":
    main()
