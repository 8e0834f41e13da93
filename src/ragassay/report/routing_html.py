"""The HTML report's routing section: which judge decided what, at what threshold and
cost, with what agreement with people, and whether the guarantee holds."""

from __future__ import annotations

from html import escape

from ragassay.report.model import Report
from ragassay.stats.routing import ranking_line
from ragassay.types import RoutingSummary

NOTE = ("Each sample was judged by the first judge sure enough of its verdict; the rest "
        "went up to the next (Trust or Escalate, Jung et al. 2025). With people's labels "
        "each judge's threshold is chosen so that its agreement with people is guaranteed.")


def _num(x: float | None, digits: int = 3) -> str:
    return "-" if x is None else f"{x:.{digits}f}"


def _usd(x: float | None, calls: int) -> str:
    if x is not None:
        return f"${x:.4f}"
    return "$0" if not calls else "unpriced"


def _agree(x: float | None, n: int) -> str:
    return "-" if x is None else f"{x:.3f} (n={n})"


def _tiers(r: RoutingSummary) -> str:
    head = ("tier", "judge", "confidence", "threshold", "judged", "decided", "calls",
            "tokens", "cost", "agreement on labels", "on those it decided",
            "bound on disagreement")
    rows = [[str(t.tier), t.judge, t.confidence, _num(t.threshold), str(t.judged),
             str(t.decided), str(t.calls), f"{t.input_tokens + t.output_tokens:,}",
             _usd(t.cost_usd, t.calls), _agree(t.agreement, t.labelled),
             _agree(t.agreement_decided, t.labelled_decided), _num(t.risk_bound)]
            for t in r.tiers]
    return ("<table><thead><tr>" + "".join(f"<th>{escape(h)}</th>" for h in head)
            + "</tr></thead><tbody>" + "".join(
                "<tr>" + "".join(f"<td>{escape(c)}</td>" for c in row) + "</tr>"
                for row in rows) + "</tbody></table>")


def routing_html(report: Report) -> str:
    """The section ("" for a run judged by one judge)."""
    r = report.routing
    if r is None:
        return ""
    target = "" if r.agreement_target is None else \
        f"; target agreement {r.agreement_target:g} (delta {_num(r.delta, 2)})"
    items = [f"Routed on {r.verdict}" + (f", compared with the label {r.label}" if r.label
                                          else "") + target,
             f"Escalated past tier 0: {r.escalated} of {r.samples}"
             + ("" if r.escalated_share is None else f" ({r.escalated_share:.1%})"),
             f"Guarantee: {r.guarantee}"]
    if r.abstained:
        items.append(f"Left for a person: {r.abstained} (ragassay annotate "
                     f"{report.run.run_id} offers them first)")
    if r.labels:
        items.append(f"Labels used: {r.labels}; the routed verdicts agree with them "
                     f"{_num(r.agreement_measured)} (in-sample: these labels also chose the "
                     "thresholds)")
    alone = r.last_tier_alone
    if alone is not None and alone.calls is not None:
        items.append(f"Cost: {r.calls} calls" + ("" if r.cost_usd is None else
                                                  f", ${r.cost_usd:.4f}")
                     + f"; {r.tiers[-1].judge} alone on every sample: about {alone.calls} "
                     "calls" + ("" if alone.cost_usd is None else f", ${alone.cost_usd:.4f}"))
    items += [line[0].upper() + line[1:] for t in r.tiers
              if (line := ranking_line(r, t)) is not None]
    items += [f"Tier {t.tier} juror {j.judge}: agreement on labels "
              f"{_agree(j.agreement, j.labelled)}" for t in r.tiers for j in t.jurors]
    items += [f"Tier {t.tier}: {t.note}" for t in r.tiers if t.note]
    return ('<section id="routing"><h2>Judge routing</h2>'
            f"<p>{escape(NOTE)}</p>{_tiers(r)}<ul>"
            + "".join(f"<li>{escape(i)}</li>" for i in items) + "</ul></section>")
