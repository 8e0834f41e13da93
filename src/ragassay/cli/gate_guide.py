"""What a NOT READY gate leaves the user to do: the guidance block said after its notes,
before its verdict (trial 84: "on a first run, the gate's default thresholds produce a
long list of FAILs with little guidance"). It changes no row and no exit code."""

from __future__ import annotations

from collections.abc import Collection, Sequence

from ragassay.cli.common import say
from ragassay.stats.gate import GateCheck

GATE_DOC = 'docs/cli.md, "gate" (its "Bars" point; docs/cli.md#gate)'
"""Where the gate's bars and config are described."""


def guidance_lines(checks: Sequence[GateCheck], *, defaults: bool, weak: Collection[str],
                   run_id: str) -> list[str]:
    """The guidance block: how many checks failed; which fail on the judge's own reading
    (of those, how many on a metric whose agreement with people is weak or unmeasured)
    and which on a data problem (people's labels say it, or the data lacks the input
    scored); under the default bars the two commands that set the user's own, and the
    doc section; [] when nothing failed."""
    failed = [c for c in checks if c.status == "FAIL"]
    if not failed:
        return []
    checked = sum(c.status != "NOT CHECKED" for c in checks)
    judge = [c for c in failed if not c.label and c.value is not None]
    people = [f"people's {c.label} (via {c.metric})" for c in failed if c.label]
    missing = [c.metric for c in failed if not c.label and c.value is None]
    bars = "the default bars (each metric's target, not bars you chose)" if defaults \
        else "your config's bars"
    lines = [f"what next: {len(failed)} of {checked} checks failed, on {bars}"]
    if judge:
        shaky = sum(c.metric in weak for c in judge)
        lines.append(f"  on the judge's own reading ({len(judge)}"
                     + (f"; {shaky} where the judge agrees with people weakly on unseen "
                        "sets" if shaky else "")
                     + f"): {', '.join(c.metric for c in judge)}")
    if people or missing:
        lines.append("  data problems: " + "; ".join(
            x for x in ((f"people's labels say so: {', '.join(people)}" if people else ""),
                        (f"the data lacks the input: {', '.join(missing)}" if missing
                         else "")) if x))
    elif any(c.label for c in checks):
        lines.append("  data problems: none (people's labels pass; no input missing)")
    else:  # every failure is on the judge's own reading
        lines.append("  data problems: none from missing input; people's labels not gated "
                     "(--corrected gates them)")
    if defaults:
        first = (judge or failed)[0]
        lines += ["  to set your own bars: 1. write the metrics you gate, each with its bar, "
                  "in ./ragassay.toml, for example",
                  f'       [thresholds]\n       "{first.metric}" = {first.threshold:g}'
                  "   # today's default bar: set yours",
                  f"     2. ragassay gate {run_id}   (it reads ./ragassay.toml; "
                  "--config FILE for another)"]
    corrected = "" if any(c.label for c in checks) else (
        f"; to decide on people's labels instead: label a sample, then ragassay gate "
        f"{run_id} --corrected")
    lines.append(f"  see {GATE_DOC}{corrected}")
    return lines


def say_guidance(checks: Sequence[GateCheck], *, defaults: bool, weak: Collection[str],
                 run_id: str) -> None:
    """`guidance_lines` on stderr, where the gate's notes go."""
    for line in guidance_lines(checks, defaults=defaults, weak=weak, run_id=run_id):
        say(line, err=True)
