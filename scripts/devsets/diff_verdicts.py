"""Which rows of one dev set two versions of the offline judge score differently: the
rows whose `judge.hallucination` verdict changed or whose `judge.faithfulness` moved by
more than `--min-change`, with their human label and answer. What traces a LOO figure
that moved to the rows that moved it (docs/judges-history.md, round 4's BEGIN).

    git worktree add --detach /tmp/before <commit>
    python scripts/devsets/diff_verdicts.py begin --before /tmp/before/src

Each version judges in its own process (`PYTHONPATH` = its `src`), in one process each
(`workers=1`), into a throw-away store.
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
JUDGE = """
import json, sys
import ragassay
rows = [json.loads(line) for line in open(sys.argv[1], encoding="utf-8")]
res = ragassay.evaluate(rows, "judge", store=sys.argv[2], workers=1, progress=False)
out = {r["id"]: [r["judge.faithfulness"], r["judge.hallucination"]]
       for r in res.to_pandas().to_dict("records")}
json.dump(out, sys.stdout)
"""


def judged(src: Path, data: Path) -> dict[str, list]:
    """Every row's (faithfulness, hallucination) as the judge under `src` gives them."""
    with tempfile.TemporaryDirectory() as tmp:
        env = {**os.environ, "PYTHONPATH": str(src)}
        done = subprocess.run([sys.executable, "-c", JUDGE, str(data), str(Path(tmp) / "s.db")],
                              env=env, capture_output=True, text=True, check=True)
    return json.loads(done.stdout)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("set", help="a dev set's name (data/devsets/NAME.jsonl)")
    ap.add_argument("--before", required=True, help="the src folder of the version before")
    ap.add_argument("--after", default=str(ROOT / "src"), help="default: this tree's src")
    ap.add_argument("--min-change", type=float, default=0.5)
    args = ap.parse_args()
    data = ROOT / "data" / "devsets" / f"{args.set}.jsonl"
    if not data.exists():
        sys.exit(f"error: {data} not found (scripts/devsets/convert.py writes it)")
    rows = {json.loads(line)["id"]: json.loads(line) for line in data.open(encoding="utf-8")}
    before, after = judged(Path(args.before), data), judged(Path(args.after), data)
    moved = [k for k in before if before[k][1] != after[k][1]
             or abs((before[k][0] or 0) - (after[k][0] or 0)) > args.min_change]
    print(f"{args.set}: {len(moved)} of {len(before)} rows changed")
    for k in moved:
        r = rows[k]
        print(f"- {k} labels={r.get('labels')} before={before[k]} after={after[k]}\n"
              f"    answer: {r['answer'][:200]}")


if __name__ == "__main__":
    main()
