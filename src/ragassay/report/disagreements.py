"""What the report's `disagreements` (`stats.disagreements`) are read with: the judge's
reasoning of each sample listed, from the store (`with_reasons`: read only for the
listing, a few samples), and the lines that name the command listing them, under the
console's headline and abstentions (trial 66: "misses 16 ..., flags 15 ..." and a false
abstention named no sample)."""

from __future__ import annotations

from ragassay.report.model import Report
from ragassay.stats.abstention import false_text
from ragassay.stats.disagreements import SIDES, Disagreements
from ragassay.stats.verdicts import marked
from ragassay.store import Store
from ragassay.terminal import counted

DISAGREE = "ragassay runs show {run} --disagree"
"""The command that lists the samples (`runs show --disagree`, `--json` for scripts)."""


def false_said(report: Report) -> str:
    """What the run's abstentions counted false are, with the bases of all its strategies
    (`abstention.false_text`): `the contexts were judged relevant (basis: offline context
    relevance)`."""
    bases = sorted({b for a in (report.abstentions or {}).values() for b in a.basis})
    return false_text(bases)


def abstentions_note(report: Report) -> str:
    """What the HTML's and the dashboard's abstentions table says under its title."""
    return ("An answer that declines is neither scored nor unscored on the answer metrics: "
            f"it is counted here, false where {false_said(report)}, correct where not: the "
            "judge's reading, not people's (docs/citations.md)")


def one_line(text: str | None) -> str | None:
    """A reasoning on one line (its whitespace runs made one space); None when empty."""
    said = " ".join((text or "").split())
    return said or None


def with_reasons(store: Store, run_id: str, found: Disagreements) -> Disagreements:
    """`found` with each sample's `reason`: the reasoning of the suite that gave the
    metric's value (of a false abstention, of the first metric that says so), on one
    line; None where that suite gave none."""
    reasons: dict[str, dict[str, str | None]] = {}  # sample id -> metric -> reasoning

    def reason(sample_id: str, metric: str) -> str | None:
        if sample_id not in reasons:
            reasons[sample_id] = {m.name: one_line(r.reasoning)
                                  for r in store.results_of(run_id, sample_id)
                                  for m in r.results}
        return reasons[sample_id].get(metric)

    verdicts = [v.model_copy(update={side: [d.model_copy(update={
        "reason": reason(d.id, v.metric)}) for d in v.side(side)]
        for side in SIDES}) for v in found.verdicts]
    false = [a.model_copy(update={"reason": reason(a.id, a.metrics[0]) if a.metrics else None})
             for a in found.false_abstentions]
    return found.model_copy(update={"verdicts": verdicts, "false_abstentions": false})


def declines_marked(n: int, label: str, problem: bool) -> str:
    """The answers a verdict set aside as declines where people marked the problem, in
    plain words (trial 76: "2 declines they marked hallucination" read as if the user's
    decline labels were wrong): `2 answers the judge set aside as declines were marked
    hallucinated by people (false abstentions by their labels)`; "" for none."""
    if not n:
        return ""
    one = n == 1
    return (f"{counted(n, 'answer')} the judge set aside as "
            f"{'a decline was' if one else 'declines were'} marked {marked(label, problem)} "
            f"by people ({'a false abstention' if one else 'false abstentions'} by their "
            "labels)")


def disagree_lines(report: Report) -> tuple[str | None, str | None]:
    """The lines naming the command that lists the samples: under the headline, of the
    verdicts that count some wrong (`METRIC misses 20 and flags 9 of people's labels, and
    2 answers the judge set aside as declines were marked hallucinated by people (false
    abstentions by their labels): ragassay runs show RUN --disagree lists them`:
    `declines_marked`), and under the abstentions, of those counted false; None where
    there is none."""
    found = report.disagreements
    if found is None:
        return None, None
    command = DISAGREE.format(run=report.run.run_id)
    said = [f"{v.metric} misses {len(v.missed)} and flags {len(v.flagged)} of people's "
            f"{v.label} labels" + (f", and {declines_marked(len(v.declined), v.label, v.problem)}"
                                   if v.declined else "")
            for v in found.verdicts if v.same_as is None and v.wrong()]
    verdicts = f"{'; '.join(said)}: {command} lists them" if said else None
    n = len(found.false_abstentions)
    false = (f"{counted(n, 'abstention')} counted false, where {false_said(report)}: "
             f"{command} lists {'it' if n == 1 else 'them'}") if n else None
    return verdicts, false
