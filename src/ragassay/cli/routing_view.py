"""A routed run's routing on the terminal (`eval`, `report`, `route`): per tier the judge,
its confidence, threshold, samples judged and decided, calls, tokens, cost and agreement
with the labels; then the share escalated, the guarantee and the cost against the last
tier alone."""

from __future__ import annotations

from rich.console import Console
from rich.markup import escape
from rich.table import Table

from ragassay.llm.pricing import usd_text
from ragassay.stats.routing import ranking_line
from ragassay.types import RoutingSummary, TierSummary


def _num(v: float | None, digits: int = 3) -> str:
    return "-" if v is None else f"{v:.{digits}f}"


def _agreement(value: float | None, n: int) -> str:
    return "-" if value is None else f"{value:.3f} (n={n})"


def _cost(v: float | None, calls: int) -> str:
    if v is not None:
        return usd_text(v)
    return "$0" if not calls else "unpriced"


def tier_table(summary: RoutingSummary) -> Table:
    """One row per tier."""
    target = "" if summary.agreement_target is None else \
        f", target agreement {summary.agreement_target:g}"
    t = Table(title=f"routing on {summary.verdict}"
              + (f" (label: {summary.label})" if summary.label else "") + target)
    for col in ("tier", "judge", "threshold", "judged", "decided", "calls", "tokens", "cost",
                "agreement on labels", "on those it decided", "upper bound on disagreement"):
        t.add_column(col, justify="left" if col in ("tier", "judge") else "right")
    for tier in summary.tiers:
        t.add_row(str(tier.tier), escape(tier.judge), _num(tier.threshold),
                  str(tier.judged), str(tier.decided), str(tier.calls),
                  f"{tier.input_tokens + tier.output_tokens:,}",
                  _cost(tier.cost_usd, tier.calls), _agreement(tier.agreement, tier.labelled),
                  _agreement(tier.agreement_decided, tier.labelled_decided),
                  _num(tier.risk_bound))
    return t


def _tier_notes(tier: TierSummary) -> list[str]:
    out = [f"tier {tier.tier} confidence: {tier.confidence}"]
    if tier.note:
        out.append(f"tier {tier.tier}: {tier.note}")
    out += [f"tier {tier.tier} juror {j.judge}: agreement on labels "
            f"{_agreement(j.agreement, j.labelled)}" for j in tier.jurors]
    return out


def print_routing(summary: RoutingSummary, console: Console) -> None:
    """The routing section: the tier table, then one line each for what it adds up to."""
    console.print(tier_table(summary))
    for tier in summary.tiers:
        for line in _tier_notes(tier):
            console.print(f"[dim]{escape(line)}[/dim]", highlight=False)
    for tier in summary.tiers:  # how well each confidence ranks its own errors (trial 73)
        if (ranked := ranking_line(summary, tier)) is not None:
            console.print(escape(ranked), highlight=False)
    n = summary.samples
    share = "" if summary.escalated_share is None else f" ({summary.escalated_share:.1%})"
    line = f"escalated past tier 0: {summary.escalated} of {n}{share}"
    if summary.abstained:
        line += (f"; left for a person: {summary.abstained} (ragassay annotate offers them "
                 "first)")
    console.print(line, highlight=False)
    if summary.labels:
        console.print(f"labels used: {summary.labels}; the routed verdicts agree with them "
                      f"{_num(summary.agreement_measured)} (on the labels themselves, which "
                      "also chose the thresholds)", highlight=False)
    colour = "green" if summary.guarantee_holds else "yellow"
    console.print(f"[{colour}]guarantee[/{colour}] {escape(summary.guarantee)}",
                  highlight=False)
    alone = summary.last_tier_alone
    if alone is not None and alone.calls is not None:
        last = summary.tiers[-1].judge
        cost = "" if summary.cost_usd is None else f" {usd_text(summary.cost_usd)},"
        other = "" if alone.cost_usd is None else f" {usd_text(alone.cost_usd)},"
        console.print(f"cost:{cost} {summary.calls} calls; {escape(last)} alone on every "
                      f"sample: about{other} {alone.calls} calls (from its measured cost per "
                      "sample)", highlight=False)
    for p in summary.pending:
        cost = "" if p.cost_usd is None else f", about {usd_text(p.cost_usd)}"
        calls = "" if p.calls is None else f", about {p.calls} calls"
        console.print(f"[yellow]needs[/yellow] tier {p.tier} ({escape(p.judge)}) to judge "
                      f"{p.samples} more samples{calls}{cost}", highlight=False)
