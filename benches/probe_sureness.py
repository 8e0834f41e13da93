"""How sure the offline judge is when it is wrong, from a run of `benches/probes.py --out`:
the share of its wrong verdicts among the probes it is least sure of (what routing's
`--escalate-share` would send to a stronger judge), and the AUROC of its sureness for
being right. Sureness is what routing reads (ragassay.routing.verdicts): a 1-10 rating r
is the probability p = (r - 1) / 9, and the judge is max(p, 1 - p) sure of its verdict.

    .venv/bin/python benches/probes.py --batches a,...,u --out run.json
    .venv/bin/python benches/probe_sureness.py run.json [--shares 0.1,0.2,0.3]
"""

from __future__ import annotations

import argparse
import json
from pathlib import Path
from typing import Any, NamedTuple


class Escalated(NamedTuple):
    """The least-sure `share` of the probes: how many, how many of them wrong, and how
    many wrong verdicts the run has in all."""

    share: float
    sent: int
    wrong_sent: int
    wrong: int


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


def auroc(run: list[dict[str, Any]]) -> float | None:
    """The probability that a right verdict is surer than a wrong one (ties count half);
    None without both."""
    rows = _scored(run)
    right = [s for s, ok in rows if ok]
    wrong = [s for s, ok in rows if not ok]
    if not right or not wrong:
        return None
    won = sum((r > w) + 0.5 * (r == w) for r in right for w in wrong)
    return won / (len(right) * len(wrong))


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("run", type=Path, help="a benches/probes.py --out file")
    ap.add_argument("--shares", default="0.1,0.2,0.3", help="least-sure shares to send up")
    args = ap.parse_args(argv)
    try:
        run = json.loads(args.run.read_text(encoding="utf-8"))
        shares = [float(x) for x in args.shares.split(",")]
    except (OSError, ValueError) as err:
        raise SystemExit(f"probe_sureness: {err}") from None
    for share in shares:
        e = escalated(run, share)
        caught = f"{e.wrong_sent} of {e.wrong} wrong verdicts" + (
            f" ({100 * e.wrong_sent / e.wrong:.0f}%)" if e.wrong else "")
        rate = f"{e.wrong_sent / e.sent:.2f}" if e.sent else "-"
        print(f"least sure {share:.0%} ({e.sent} probes): {caught}; wrong there {rate}")
    a = auroc(run)
    print(f"AUROC of sureness for a right verdict: {'-' if a is None else f'{a:.3f}'}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
