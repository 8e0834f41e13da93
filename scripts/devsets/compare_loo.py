"""Two LOO runs side by side (the JSON files `loo.py --out` writes): per set and metric,
the figure before and after with their 95% CIs, the change, and whether the after figure
falls outside the before CI (the "not worse on any set beyond its CI" check of a change
to the offline judge).

    python scripts/devsets/compare_loo.py BEFORE.json AFTER.json [--before-name X --after-name Y]
"""

from __future__ import annotations

import argparse
import json
from pathlib import Path
from typing import Any

NAMES = {
    "summedits": "SummEdits", "begin": "BEGIN", "wice": "WiCE",
    "factcheck_gpt": "Factcheck-GPT answers", "factcheck_gpt_stance": "Factcheck-GPT claim-passage",
    "q2": "Q²", "dialfact": "DialFact", "trec_dl2020": "TREC DL 2020", "evouna_tq": "EVOUNA TQ",
    "sas": "SAS",
}


def _figures(path: str) -> dict[tuple[str, str], dict[str, Any]]:
    data = json.loads(Path(path).read_text(encoding="utf-8"))
    return {(f["set"], f["metric"]): f for f in data["figures"]}


def _cell(f: dict[str, Any] | None) -> str:
    if f is None or f.get("value") is None:
        return "-"
    lo, hi = f["ci"] if f.get("ci") else (None, None)
    ci = f" [{lo:.3f}, {hi:.3f}]" if lo is not None else ""
    return f"{f['value']:.3f}{ci}"


def verdict(before: dict[str, Any] | None, after: dict[str, Any] | None) -> str:
    """"worse beyond CI" when the after figure is below the before CI, "better beyond CI"
    when above it, else "within CI"."""
    if not before or not after or before.get("value") is None or after.get("value") is None:
        return "-"
    lo, hi = before["ci"]
    if after["value"] < lo:
        return "**worse beyond CI**"
    if after["value"] > hi:
        return "better beyond CI"
    return "within CI"


def table(before: str, after: str, names: tuple[str, str]) -> str:
    b, a = _figures(before), _figures(after)
    lines = [f"| set | metric | n | {names[0]} [95% CI] | {names[1]} [95% CI] | change | |",
             "|---|---|---|---|---|---|---|"]
    for key in list(dict.fromkeys([*b, *a])):
        fb, fa = b.get(key), a.get(key)
        n = (fa or fb or {}).get("n", "-")
        change = (f"{fa['value'] - fb['value']:+.3f}" if fb and fa and fb.get("value") is not None
                  and fa.get("value") is not None else "-")
        lines.append(f"| {NAMES.get(key[0], key[0])} | `{key[1]}` | {n} | {_cell(fb)} | "
                     f"{_cell(fa)} | {change} | {verdict(fb, fa)} |")
    return "\n".join(lines)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("before")
    ap.add_argument("after")
    ap.add_argument("--before-name", default="before")
    ap.add_argument("--after-name", default="after")
    args = ap.parse_args()
    print(table(args.before, args.after, (args.before_name, args.after_name)))


if __name__ == "__main__":
    main()
