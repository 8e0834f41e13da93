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
"""

from __future__ import annotations

import argparse
import gzip
import json
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from _common import REPO  # noqa: E402
from _routing_collect import MAX_CONTEXT_TOKENS, SETS, TIER1, Plan, collect  # noqa: E402

OUT = REPO / "data" / "bench" / "routing"
EXPORT = REPO / "benches" / "data" / "routing" / "verdicts.jsonl.gz"


def export(plan: Plan, path: Path) -> None:
    """The cache entries of every call the collection runs made or read, one JSON line
    each ({"key", "value"}), with a first line that says what made them."""
    from ragassay.store import Store

    state = json.loads((plan.out / "runs.json").read_text())
    store = Store(plan.store)
    keys: set[str] = set()
    for run_id in state.values():
        keys.update(c.cache_key for c in store.iter_calls(run_id) if c.status == "ok")
    head = {"judge": plan.judge, "max_context_tokens": plan.max_context_tokens,
            "seed": plan.seed, "chunks": sorted(state), "entries": len(keys),
            "command": "benches/routing.py collect && benches/routing.py export"}
    path.parent.mkdir(parents=True, exist_ok=True)
    with gzip.open(path, "wt", encoding="utf-8") as fh:
        fh.write(json.dumps(head) + "\n")
        for key in sorted(keys):
            value = store.cache_get(key)
            if value is not None:
                fh.write(json.dumps({"key": key, "value": value}, ensure_ascii=False) + "\n")
    print(f"{path}: {len(keys)} verdicts from {len(state)} chunks", file=sys.stderr)


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
    args = ap.parse_args()
    args.out_dir.mkdir(parents=True, exist_ok=True)
    plan = Plan(sets=tuple(args.sets.split(",")), n=args.n, seed=args.seed, judge=args.judge,
                max_context_tokens=args.max_context_tokens, out=args.out_dir)
    if args.command == "collect":
        collect(plan)
    elif args.command == "export":
        export(plan, args.export)
    else:
        raise SystemExit("the benchmark itself comes with the routing feature")


if __name__ == "__main__":
    main()
