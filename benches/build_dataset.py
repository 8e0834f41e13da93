"""Build the judge-cost benchmark dataset from the BEGIN development data.

Each sample is one BEGIN (Wizard-of-Wikipedia) row: the user's `message` is the
question, the system's `response` the answer, and its `knowledge` passage the
reference. The retrieved contexts are that passage plus distractor passages drawn
from other rows (seeded), with the gold passage at a seeded rank, so context
precision has something to rank. BEGIN passages are one or two sentences, so they
are used whole rather than split. Rows labelled "Generic" and exact duplicates are
skipped. Same seed, same file.

    .venv/bin/python benches/build_dataset.py --n 50 --out benches/data/judge_cost.jsonl
"""

from __future__ import annotations

import argparse
import csv
import json
import random
import sys
from pathlib import Path
from typing import Any

DEFAULT_SOURCE = Path("/work/shared/data/begin/dev_wow.tsv")
DEFAULT_OUT = Path(__file__).resolve().parent / "data" / "judge_cost.jsonl"
ATTRIBUTION = "BEGIN (google/BEGIN-dataset), CC-BY-4.0"


def read_begin(path: Path) -> list[dict[str, str]]:
    """The usable BEGIN rows: non-generic, with knowledge, message and response."""
    with path.open(encoding="utf-8", newline="") as fh:
        rows = list(csv.DictReader(fh, delimiter="\t", quoting=csv.QUOTE_NONE))
    seen: set[tuple[str, str]] = set()
    out = []
    for row in rows:
        know, msg, resp = (row.get(k, "").strip() for k in ("knowledge", "message", "response"))
        if not (know and msg and resp) or row.get("begin_label", "").strip() == "Generic":
            continue
        if (msg, resp) in seen:
            continue
        seen.add((msg, resp))
        out.append({**row, "knowledge": know, "message": msg, "response": resp})
    return out


def build_samples(rows: list[dict[str, str]], n: int, n_contexts: int = 5,
                  seed: int = 0) -> list[dict[str, Any]]:
    """`n` samples with `n_contexts` contexts each: the gold passage among distractors."""
    if n_contexts < 1:
        raise ValueError("n_contexts must be at least 1")
    passages = sorted({r["knowledge"] for r in rows})
    if len(passages) < n_contexts:
        raise ValueError(f"need at least {n_contexts} distinct passages, got {len(passages)}")
    rng = random.Random(seed)
    order = list(range(len(rows)))
    rng.shuffle(order)
    samples = []
    for i in order[:n]:
        row = rows[i]
        gold = row["knowledge"]
        others = [p for p in passages if p != gold]
        contexts = rng.sample(others, n_contexts - 1)
        contexts.insert(rng.randrange(n_contexts), gold)
        samples.append({
            "id": f"begin-{i:03d}",
            "question": row["message"],
            "contexts": contexts,
            "answer": row["response"],
            "reference": gold,
            "labels": {"begin_label": row.get("begin_label", "")},
            "metadata": {"source": ATTRIBUTION, "gold_rank": contexts.index(gold)},
        })
    if len(samples) < n:
        raise ValueError(f"asked for {n} samples, the source has {len(samples)} usable rows")
    return samples


def write_jsonl(samples: list[dict[str, Any]], out: Path) -> None:
    out.parent.mkdir(parents=True, exist_ok=True)
    with out.open("w", encoding="utf-8") as fh:
        for s in samples:
            fh.write(json.dumps(s, ensure_ascii=False) + "\n")


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--source", type=Path, default=DEFAULT_SOURCE, help="BEGIN dev_wow.tsv")
    ap.add_argument("--out", type=Path, default=DEFAULT_OUT)
    ap.add_argument("--n", type=int, default=50)
    ap.add_argument("--contexts", type=int, default=5)
    ap.add_argument("--seed", type=int, default=0)
    args = ap.parse_args(argv)
    samples = build_samples(read_begin(args.source), args.n, args.contexts, args.seed)
    write_jsonl(samples, args.out)
    print(f"wrote {len(samples)} samples x {args.contexts} contexts to {args.out}",
          file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())
