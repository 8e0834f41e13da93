"""The table a user reads of one LOO run (the JSON `loo.py --out` writes), as docs/judges.md
opens with it: per set and metric, n, the figure with its 95% CI, the lexical baseline,
the paired CI of the difference and issue #18's target (`figures.target`). Notes the run
recorded (sets a shipped calibration was fitted on: in-sample) follow the table.

    python scripts/devsets/loo_table.py benches/data/loo-98.json
"""

from __future__ import annotations

import argparse
import json
from pathlib import Path
from typing import Any

from compare_loo import NAMES
from figures import STATISTIC, Figure, fmt, fmt_ci, target


def _pair(x: list[float] | None) -> tuple[float, float] | None:
    return None if x is None else (float(x[0]), float(x[1]))


def _figure(f: dict[str, Any]) -> Figure:
    return Figure(f["metric"], f["n"], f.get("value"), _pair(f.get("ci")), f.get("baseline"),
                  _pair(f.get("diff_ci")))


def table(data: dict[str, Any]) -> str:
    """The markdown table of a LOO JSON's figures, in their order, then its notes."""
    lines = ["| set | metric | n | value [95% CI] | lexical baseline | value - baseline [95% CI] "
             "| target |", "|---|---|---|---|---|---|---|"]
    for row in data["figures"]:
        f, kind = _figure(row), row["kind"]
        stat = STATISTIC[kind]
        value = fmt(f.value) if f.ci is None else f"{fmt(f.value)} {fmt_ci(f.ci)}"
        lines.append(f"| {NAMES.get(row['set'], row['set'])} | `{f.metric}` ({stat}) | {f.n} "
                     f"| {value} | {fmt(f.baseline)} "
                     f"| {fmt_ci(f.diff_ci, signed=True)} | {target(f, kind)} |")
    notes = [f"- {n}" for n in data.get("notes", [])]
    return "\n".join(lines + ([""] + notes if notes else []))


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("loo", help="a LOO JSON (loo.py --out)")
    args = ap.parse_args()
    print(table(json.loads(Path(args.loo).read_text(encoding="utf-8"))))


if __name__ == "__main__":
    main()
