"""What the gate says besides its table: each metric's agreement with the run's own labels
(`agreement_in_run`), the line a run made with `eval --judge-check` opens with
(`judge_check_first`), and what a NOT READY gate leaves the user to do: the guidance
block said after its notes, before its verdict (trial 84: "on a first run, the gate's
default thresholds produce a long list of FAILs with little guidance"). None of them
changes a row or the exit code."""

from __future__ import annotations

from collections.abc import Collection, Mapping, Sequence
from typing import TYPE_CHECKING

from ragassay.cli.common import say
from ragassay.stats.gate import GateCheck

if TYPE_CHECKING:
    from ragassay.stats import ScoreTable
    from ragassay.stats.calibration import SameValues
    from ragassay.types import RunReliability

GATE_DOC = 'docs/cli.md, "gate" (its "Bars" point; docs/cli.md#gate)'
"""Where the gate's bars and config are described."""


def guidance_lines(checks: Sequence[GateCheck], *, defaults: bool, weak: Collection[str],
                   run_id: str, judge_check: bool = False) -> list[str]:
    """The guidance block: how many checks failed; which fail on the judge's own reading
    (of those, how many on a metric whose agreement with people is weak or unmeasured)
    and which on a data problem (people's labels say it, or the data lacks the input
    scored); under the default bars the two commands that set the user's own, and the
    doc section; [] when nothing failed. On a `judge_check` run, `JUDGE_CHECK_NEXT`."""
    failed = [c for c in checks if c.status == "FAIL"]
    if not failed:
        return []
    checked = sum(c.status != "NOT CHECKED" for c in checks)
    if judge_check:
        return [JUDGE_CHECK_NEXT.format(failed=len(failed), checked=checked, run=run_id)]
    judge = [c for c in failed if not c.label and c.value is not None]
    people = [f"people's {c.label} (via {c.metric}, their rate {c.value_text})"
              for c in failed if c.label]
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
    # (session 25: people's own rate past its bar read oddly as a "data problem")
    if people:
        lines.append("  on people's labels (their own rate past the bar, not the judge's "
                     f"reading): {'; '.join(people)}")
    elif any(c.label for c in checks):
        lines.append("  on people's labels: none (their rates pass)")
    if missing:
        lines.append(f"  data problems: the data lacks the input: {', '.join(missing)}")
    elif any(c.label for c in checks):
        lines.append("  data problems: none (no input missing)")
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


def judge_check_first(run_id: str, in_run: Mapping[str, str]) -> str:
    """The gate's first line on a run made with `eval --judge-check` (`RunMeta.judge_check`;
    session 25: its NOT READY, of answers written wrong on purpose, read as a verdict on
    the judge): what it gates, what its exit 1 means for CI there (trial 88), and where
    the judge's verdict is, its first figure said (`agreement_in_run`; trial 89: "nothing
    told me that gating a judge-check run is meaningless")."""
    first = next(iter(in_run.items()), None)
    measured = f"{first[0]} {first[1]}, in full in " if first else ""
    return ("judge check: this gate is on the answers' own rates, not on the judge, and a "
            "judge check's answers are written wrong on purpose, so in CI its exit 1 (NOT READY) "
            "means these answers miss their bars, not that the judge failed. The judge's "
            f"verdict is its agreement with your labels: {measured}ragassay runs show {run_id} "
            "(or eval's agreement line)")


JUDGE_CHECK_NEXT = ("what next: {failed} of {checked} checks failed, as a judge check's "
                    "answers written wrong on purpose do: nothing to fix in them; the judge's "
                    "verdict: ragassay runs show {run}")
"""The guidance on a judge check (trial 89: "7 failed checks and many notes"): one line."""


def say_guidance(checks: Sequence[GateCheck], *, defaults: bool, weak: Collection[str],
                 run_id: str, judge_check: bool = False) -> None:
    """`guidance_lines` on stderr, where the gate's notes go."""
    for line in guidance_lines(checks, defaults=defaults, weak=weak, run_id=run_id,
                               judge_check=judge_check):
        say(line, err=True)


def agreement_in_run(table: ScoreTable, gated: Collection[str]) -> tuple[dict, list[str]]:
    """Each metric's agreement with the run's own labels, said short ("AUROC of the 1-10
    rating 0.97 on 22 labels", what it ranks named: `fmt.auroc_of`; a yes/no verdict's
    led by the headline's figure, its abstentions counted,
    "right on 25 of 26 (96%); AUROC ..."; the first label linked to it), for the gate's
    reliability lines; a metric that repeats an earlier one's verdicts or values names it
    instead, as the headline does (trials 64, 71: "same verdicts as judge.hallucination on all 64
    labelled samples"); then the notes of the `gated` metrics (trial 73: not others'):
    each comparison with the lexical baseline said once for the metrics it holds for
    (trial 71), and what a baseline below chance means (`baseline.baseline_lines`)."""
    from ragassay.cli.fmt import auroc_of
    from ragassay.stats import BooleanAgreement, NumericAgreement, calibration
    from ragassay.stats.baseline import SaidOnce, baseline_lines
    from ragassay.stats.verdicts import right_on, same_verdicts_text

    if not table.label_names:
        return {}, []
    out: dict[str, str] = {}  # metric -> its agreement, said short
    lexical: dict[str, list[str]] = {}  # the baseline's sentence -> the metrics it is of
    pairs = calibration(table).pairs  # the headline's resamples: its very figures
    for p in pairs:
        if p.metric in out:
            continue
        if isinstance(p, BooleanAgreement) and p.verdicts is not None and p.verdicts.same_as:
            out[p.metric] = same_verdicts_text(p.verdicts.same_as, p.labelled)
        elif p.same_values is not None:
            out[p.metric] = same_values_short(p.same_values, p.labelled)
        elif isinstance(p, BooleanAgreement) and p.auroc is not None:
            lead = right_on(p, abstentions=False)  # a short line: the headline says the rest
            of = auroc_of(table.specs.get(p.metric), p.verdicts is not None)  # trial 87
            out[p.metric] = ((f"{lead}; " if lead else "")
                             + f"AUROC of {of} {p.auroc:.2f} on {p.n} labels")
            if p.baseline is not None and p.baseline.text and p.metric in gated:
                lexical.setdefault(p.baseline.text, []).append(p.metric)
        elif isinstance(p, NumericAgreement) and p.spearman is not None:
            out[p.metric] = f"Spearman {p.spearman:.2f} on {p.n} labels"
    once = SaidOnce()  # what a reversed baseline is, in full once (trial 84)
    said = [f"  {', '.join(metrics)}: {once(text)}" for text, metrics in lexical.items()]
    means = baseline_lines(p for p in pairs if p.metric in gated)
    return out, (["note: against the lexical baseline, on this run's labels:\n"
                  + "\n".join(said)] if said else []) + [f"note: {once(x)}" for x in means]


def same_values_short(same: SameValues, labelled: int) -> str:
    """`same values as A on all 44 labelled samples` (`calibration.same_values_text`'s
    lead, without its reason): what a gate note says of a score that repeats another."""
    from ragassay.stats.calibration import same_values_text

    return same_values_text(same, labelled).split(":", 1)[0]


def row_figures(checks: Sequence[GateCheck], reliability: RunReliability | None,
                in_run: Mapping[str, str], *, judge_check: bool = False
                ) -> tuple[dict[str, str], dict[str, str]]:
    """The metrics whose judge is weak on some unseen set (`weak_held_apart`: what a READY's
    `but` and the guidance name), and what each gated metric's row says of the judge: its
    weak figure, or on a judge check (`judge_check`) this run's agreement with the user's
    labels alone, the figure that counts there, the unseen sets said once under the table
    (`held_apart_context`; trial 90: both on every row, which to believe unclear)."""
    from ragassay.judge import weak_held_apart

    gated = [c.metric for c in checks if c.status != "NOT CHECKED" and not c.label]
    if judge_check:
        return {}, {m: f"agreement with your labels: {in_run[m]}" for m in gated if m in in_run}
    weak = {m: w for m in gated if (w := weak_held_apart(reliability, m, in_run))}
    return weak, weak
