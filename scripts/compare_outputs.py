"""Compare two folders of outputs (scripts/report_outputs.sh, scripts/devset_outputs.sh)
made before and after a change, and say what differs, summarised.

    python3 scripts/compare_outputs.py /tmp/before /tmp/after \
        --same /work/old=/work/new --same /tmp/stores_old=/tmp/stores_new

Each `--same BEFORE=AFTER` is a string that may differ between the two runs without
meaning anything (where the code or the stores were); times of day are masked too. A
JSON file is compared by its leaves: each difference is listed once per path with list
indices as `[*]` (`detailed_results[*].marks: added (24)`), so a change that only moved
fields shows as the fields it moved. Any other file that differs is shown as a diff.
Exit status 0 when nothing differs.
"""

from __future__ import annotations

import argparse
import difflib
import json
import re
import sys
from collections import Counter
from pathlib import Path
from typing import Any

TIMES = re.compile(r"\d{4}-\d\d-\d\d[ T]\d\d:\d\d(:\d\d)?(\.\d+)?([+-]\d\d:\d\d)?")


def _norm(text: str, same: list[tuple[str, str]]) -> str:
    for before, after in same:
        text = text.replace(after, before)
    return TIMES.sub("TIME", text)


def _leaves(value: Any, path: str = "") -> dict[str, Any]:
    if isinstance(value, dict):
        out: dict[str, Any] = {}
        for k, v in value.items():
            out.update(_leaves(v, f"{path}.{k}" if path else str(k)))
        return out or {path: {}}
    if isinstance(value, list):
        out = {}
        for i, v in enumerate(value):
            out.update(_leaves(v, f"{path}[{i}]"))
        return out or {path: []}
    return {path: value}


def _generic(path: str) -> str:
    return re.sub(r"\[\d+\]", "[*]", path)


def json_changes(before: Any, after: Any) -> Counter[str]:
    """`path: added|removed|changed` -> how many leaves, list indices generalised."""
    a, b = _leaves(before), _leaves(after)
    out: Counter[str] = Counter()
    for path in a.keys() | b.keys():
        if path not in b:
            out[f"{_generic(path)}: removed"] += 1
        elif path not in a:
            out[f"{_generic(path)}: added"] += 1
        elif a[path] != b[path]:
            out[f"{_generic(path)}: changed"] += 1
    return out


def main() -> int:
    parser = argparse.ArgumentParser()
    parser.add_argument("before", type=Path)
    parser.add_argument("after", type=Path)
    parser.add_argument("--same", action="append", default=[], metavar="BEFORE=AFTER")
    args = parser.parse_args()
    same = [tuple(s.split("=", 1)) for s in args.same]
    names = sorted({p.name for p in args.before.iterdir()} | {p.name for p in args.after.iterdir()})
    identical, differing = 0, 0
    for name in names:
        a, b = args.before / name, args.after / name
        if not a.exists() or not b.exists():
            print(f"{name}: only {'after' if b.exists() else 'before'}")
            differing += 1
            continue
        ta = _norm(a.read_text(errors="replace"), same)
        tb = _norm(b.read_text(errors="replace"), same)
        if ta == tb:
            identical += 1
            continue
        differing += 1
        try:
            ja, jb = json.loads(ta), json.loads(tb)
        except ValueError:
            print(f"--- {name}")
            sys.stdout.writelines(list(difflib.unified_diff(
                ta.splitlines(keepends=True), tb.splitlines(keepends=True), "before", "after",
                n=0))[:40])
            continue
        print(f"--- {name} (JSON, by leaf path)")
        for change, n in sorted(json_changes(ja, jb).items()):
            print(f"    {change} ({n})")
    print(f"{identical} files identical, {differing} differ")
    return 1 if differing else 0


if __name__ == "__main__":
    sys.exit(main())
