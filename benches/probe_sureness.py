"""How sure the offline judge is when it is wrong, from a run of `benches/probes.py --out`:
the share of its wrong verdicts among the probes it is least sure of (what routing's
`--escalate-share` would send to a stronger judge), and the AUROC of its sureness for
being right; how many probes the judge rated inside a band of the 1-10 scale (`--band`,
4-7 by default: a fixed band of ratings is not what routing reads). Sureness is what
routing reads (ragassay.routing.verdicts): a 1-10 rating r is the probability p = (r - 1)
/ 9, and the judge is max(p, 1 - p) sure of its verdict.

    .venv/bin/python benches/probes.py --batches a,...,u --out run.json
    .venv/bin/python benches/probe_sureness.py run.json [--shares 0.1,0.2,0.3]
"""

from __future__ import annotations

import argparse
import json
import os
import sys
from pathlib import Path
from typing import Any, NamedTuple

from ragassay.stats.agreement import auroc as agreement_auroc


class Escalated(NamedTuple):
    """The least-sure `share` of the probes: how many, how many of them wrong, and how
    many wrong verdicts the run has in all."""

    share: float
    sent: int
    wrong_sent: int
    wrong: int


KEYS = frozenset({"faithfulness", "right_hallucination", "right_faithfulness"})
"""What each probe of a `benches/probes.py --out` run holds that this reads."""


def sureness(rating: float) -> float:
    """The judge's probability that its verdict is right, read from a 1-10 rating."""
    p = (rating - 1) / 9
    return max(p, 1 - p)


def _scored(run: list[dict[str, Any]]) -> list[tuple[float, bool]]:
    return sorted((sureness(r["faithfulness"]), bool(r["right_hallucination"]
                                                       and r["right_faithfulness"]))
                  for r in run if r.get("faithfulness") is not None)


def escalated(run: list[dict[str, Any]], share: float) -> Escalated:
    """What sending the least-sure `share` of the scored probes up would catch."""
    rows = _scored(run)
    k = int(len(rows) * share)
    return Escalated(share, k, sum(not ok for _, ok in rows[:k]),
                     sum(not ok for _, ok in rows))


def in_band(run: list[dict[str, Any]], low: float, high: float) -> int:
    """How many scored probes the judge rated from `low` to `high` on the 1-10 scale."""
    return sum(1 for r in run if r.get("faithfulness") is not None
               and low <= r["faithfulness"] <= high)


def auroc(run: list[dict[str, Any]]) -> float | None:
    """The probability that a right verdict is surer than a wrong one (ties count half);
    None without both (ragassay.stats.agreement.auroc)."""
    rows = _scored(run)
    return agreement_auroc([s for s, _ in rows], [ok for _, ok in rows])


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("run", type=Path, help="a benches/probes.py --out file")
    ap.add_argument("--shares", default="0.1,0.2,0.3", help="least-sure shares to send up")
    ap.add_argument("--band", default="4,7", help="a band of the 1-10 scale: LOW,HIGH")
    args = ap.parse_args(argv)
    try:
        run = json.loads(args.run.read_text(encoding="utf-8"))
        shares = [float(x) for x in args.shares.split(",")]
        low, high = (float(x) for x in args.band.split(","))
    except (OSError, ValueError) as err:
        raise SystemExit(f"probe_sureness: {err}") from None
    if not isinstance(run, list) or not all(
            isinstance(r, dict) and r.keys() >= KEYS for r in run):
        raise SystemExit(f"probe_sureness: {args.run}: not a benches/probes.py --out file "
                         f"(a list of probes, each with {', '.join(sorted(KEYS))})")
    if not all(0 <= x <= 1 for x in shares):
        raise SystemExit(f"probe_sureness: --shares {args.shares}: each share is 0 to 1")
    every = escalated(run, 1.0)
    print(f"{every.sent} scored probes, {every.wrong} wrong verdicts "
          f"({every.wrong / every.sent if every.sent else 0:.2f} of them); "
          f"rated {low:g}-{high:g}: {in_band(run, low, high)}")
    for share in shares:
        e = escalated(run, share)
        caught = f"{e.wrong_sent} of {e.wrong} wrong verdicts" + (
            f" ({100 * e.wrong_sent / e.wrong:.0f}%)" if e.wrong else "")
        rate = f"{e.wrong_sent / e.sent:.2f}" if e.sent else "-"
        print(f"least sure {share:.0%} ({e.sent} probes): {caught}; wrong there {rate}")
    a = auroc(run)
    print(f"AUROC of sureness for a right verdict: {'-' if a is None else f'{a:.3f}'}")
    return 0


def quiet_pipe(argv: list[str] | None = None) -> int:
    """`main`, ending quietly when its reader stops reading (`| head`): a BrokenPipeError
    is no traceback, and stdout is pointed at /dev/null so that the interpreter's own
    flush at exit cannot raise it again (Python's documented recipe)."""
    try:
        code = main(argv)
        sys.stdout.flush()
    except BrokenPipeError:
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        return 0
    return code


if __name__ == "__main__":
    raise SystemExit(quiet_pipe())
