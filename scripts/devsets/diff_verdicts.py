"""Which rows of one dev set two versions of the offline judge score differently: the
rows whose `judge.hallucination` verdict changed or whose `judge.faithfulness` moved by
more than `--min-change`, with their human label and answer. What traces a LOO figure
that moved to the rows that moved it (docs/judges-history.md, round 4's BEGIN).

    git worktree add --detach /tmp/before <commit>
    python scripts/devsets/diff_verdicts.py begin --before /tmp/before/src

or this tree's judge against itself with one check `alignment.align` calls switched off
(what one structural rule does on web passages before a LOO shows it, session 16):

    python scripts/devsets/diff_verdicts.py wice --without parallel_swap

Each version judges in its own process (`PYTHONPATH` = its `src`), in one process each
(`workers=1`), into a throw-away store. A count of the moved rows by label opens the list.
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import tempfile
from collections import Counter
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
JUDGE = """
import json, os, sys
import ragassay
from ragassay.judge.offline import alignment
if rule := os.environ.get("DIFF_VERDICTS_WITHOUT"):
    setattr(alignment, rule, lambda *a, **k: None)
rows = [json.loads(line) for line in open(sys.argv[1], encoding="utf-8")]
res = ragassay.evaluate(rows, "judge", store=sys.argv[2], workers=1, progress=False)
out = {r["id"]: [r["judge.faithfulness"], r["judge.hallucination"]]
       for r in res.to_pandas().to_dict("records")}
json.dump(out, sys.stdout)
"""


def judged(src: Path, data: Path, without: str | None = None) -> dict[str, list]:
    """Every row's (faithfulness, hallucination) as the judge under `src` gives them
    (`without`: that alignment check switched off)."""
    with tempfile.TemporaryDirectory() as tmp:
        env = {**os.environ, "PYTHONPATH": str(src), "DIFF_VERDICTS_WITHOUT": without or ""}
        done = subprocess.run([sys.executable, "-c", JUDGE, str(data), str(Path(tmp) / "s.db")],
                              env=env, capture_output=True, text=True, check=False)
    if done.returncode:
        sys.exit(done.stderr.strip().splitlines()[-1] if done.stderr.strip() else
                 f"diff_verdicts: the judge under {src} exited {done.returncode}")
    return json.loads(done.stdout)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("set", help="a dev set's name (data/devsets/NAME.jsonl)")
    which = ap.add_mutually_exclusive_group(required=True)
    which.add_argument("--before", help="the src folder of the version before")
    which.add_argument("--without", metavar="CHECK",
                       help="before: this tree with one alignment check switched off")
    ap.add_argument("--after", default=str(ROOT / "src"), help="default: this tree's src")
    ap.add_argument("--min-change", type=float, default=0.5)
    args = ap.parse_args()
    if args.without:  # (checked here, before any set is read: one line, not a traceback)
        sys.path.insert(0, args.after)
        from ragassay.judge.offline import alignment
        if not callable(getattr(alignment, args.without, None)):
            sys.exit(f"diff_verdicts: alignment has no check {args.without!r}")
    data = ROOT / "data" / "devsets" / f"{args.set}.jsonl"
    if not data.exists():
        sys.exit(f"error: {data} not found (scripts/devsets/convert.py writes it)")
    rows = {json.loads(line)["id"]: json.loads(line) for line in data.open(encoding="utf-8")}
    before = judged(Path(args.before or args.after), data, args.without)
    after = judged(Path(args.after), data)
    moved = [k for k in before if before[k][1] != after[k][1]
             or abs((before[k][0] or 0) - (after[k][0] or 0)) > args.min_change]
    by_label = Counter(str(rows[k].get("labels")) for k in moved)
    print(f"{args.set}: {len(moved)} of {len(before)} rows changed"
          + "".join(f"; {n} labelled {label}" for label, n in sorted(by_label.items())))
    for k in moved:
        r = rows[k]
        print(f"- {k} labels={r.get('labels')} before={before[k]} after={after[k]}\n"
              f"    answer: {r['answer'][:200]}")


if __name__ == "__main__":
    main()
