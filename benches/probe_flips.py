"""Which probes two runs of `benches/probes.py --out` judge differently: the probes that
went from wrong to right and from right to wrong (right: both metrics right, as the
script's table counts them), how many moved score with the same verdict, and right /
total per batch before and after. What a judge round's "no probe went from right to
wrong" rests on (benches/RESULTS.md).

    .venv/bin/python benches/probes.py --batches a,b,...,t --out before.json   # old judge
    .venv/bin/python benches/probes.py --batches a,b,...,t --out after.json    # new judge
    .venv/bin/python benches/probe_flips.py before.json after.json
"""

from __future__ import annotations

import argparse
import json
from collections import defaultdict
from pathlib import Path
from typing import Any


def _right(row: dict[str, Any]) -> bool:
    return bool(row["right_hallucination"] and row["right_faithfulness"])


def flips(before: list[dict[str, Any]], after: list[dict[str, Any]]) -> dict[str, Any]:
    """The probes of both runs (by id) whose verdict changed, each way, the count whose
    faithfulness moved with the same verdict, and right / total per batch in each run."""
    old = {r["id"]: r for r in before}
    new = {r["id"]: r for r in after}
    both = [i for i in new if i in old]
    per: dict[str, list[int]] = defaultdict(lambda: [0, 0, 0])
    for i in both:
        batch = per[new[i]["batch"]]
        batch[0] += _right(old[i])
        batch[1] += _right(new[i])
        batch[2] += 1
    return {
        "up": [i for i in both if not _right(old[i]) and _right(new[i])],
        "down": [i for i in both if _right(old[i]) and not _right(new[i])],
        "moved": sum(1 for i in both if _right(old[i]) == _right(new[i])
                     and old[i]["faithfulness"] != new[i]["faithfulness"]),
        "batches": {b: tuple(v) for b, v in sorted(per.items())},
        "only_before": sorted(set(old) - set(new)),
        "only_after": sorted(set(new) - set(old)),
    }


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("before", type=Path)
    ap.add_argument("after", type=Path)
    args = ap.parse_args(argv)
    loaded = []
    for path in (args.before, args.after):
        try:
            loaded.append(json.loads(path.read_text(encoding="utf-8")))
        except (OSError, ValueError) as e:
            raise SystemExit(f"probe_flips: cannot read {path}: {e}") from None
    out = flips(*loaded)
    print(f"wrong -> right {len(out['up'])}: {' '.join(out['up'])}")
    print(f"right -> wrong {len(out['down'])}: {' '.join(out['down'])}")
    print(f"score moved, same verdict: {out['moved']}")
    print("per batch, right before -> after / total: " + ", ".join(
        f"{b} {x} -> {y}/{n}" for b, (x, y, n) in out["batches"].items()))
    for key, label in (("only_before", "only in the first"), ("only_after", "only in the second")):
        if out[key]:
            print(f"{label}: {len(out[key])} probes")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
