"""The dashboard's view of a routed run (a cascade of judge tiers or a jury): per tier
its judge, threshold, samples judged and decided, cost and agreement with people; the
share escalated and whether the guarantee holds (`report.routing`)."""

from __future__ import annotations

import pandas as pd
import streamlit as st

from ragassay.report import Report, SampleEntry
from ragassay.ui.fmt import num
from ragassay.ui.highlight import md_escape

WHY = ("Each sample was judged by the first judge sure enough of its verdict; the rest "
       "went up to the next. With people's labels each judge's threshold is chosen so that "
       "its agreement with people is guaranteed (Trust or Escalate, Jung et al. 2025).")


def show_routing(report: Report) -> None:
    """A header, cards, the tier table and a line per note; nothing for a run judged by
    one judge."""
    r = report.routing
    if r is None:
        return
    st.header("Judge routing")
    st.caption(WHY)
    cards = st.columns(3)
    cards[0].metric("escalated past tier 0", f"{r.escalated} of {r.samples}",
                    delta=None if r.escalated_share is None else f"{r.escalated_share:.1%}",
                    delta_color="off")
    cards[1].metric("left for a person", str(r.abstained))
    cards[2].metric("guarantee", "holds" if r.guarantee_holds else "none",
                    help=r.guarantee)
    st.dataframe(pd.DataFrame([
        {"tier": t.tier, "judge": t.judge, "threshold": t.threshold, "judged": t.judged,
         "decided": t.decided, "calls": t.calls,
         "tokens": t.input_tokens + t.output_tokens, "cost $": t.cost_usd,
         "agreement on labels": t.agreement, "labels": t.labelled,
         "agreement where it decided": t.agreement_decided,
         "bound on disagreement": t.risk_bound, "confidence": t.confidence}
        for t in r.tiers]), hide_index=True,
        column_config={c: st.column_config.NumberColumn(format="%.3f")
                       for c in ("threshold", "agreement on labels",
                                 "agreement where it decided", "bound on disagreement")})
    st.caption(md_escape(f"Guarantee: {r.guarantee}"))
    for t in r.tiers:
        for j in t.jurors:
            st.caption(md_escape(f"Tier {t.tier} juror {j.judge}: agreement on labels "
                                 f"{num(j.agreement)} (n={j.labelled})"))
    alone = r.last_tier_alone
    if alone is not None and alone.calls is not None:
        st.caption(md_escape(f"{r.calls} calls in all; {r.tiers[-1].judge} alone on every "
                             f"sample: about {alone.calls} calls"))


def routing_line(entry: SampleEntry) -> str | None:
    """Which tier decided a sample, in words (None: a run judged by one judge)."""
    r = entry.routing
    if r is None:
        return None
    confs = ", ".join(f"tier {i}: {num(c)}" for i, c in enumerate(r.confidences)
                      if c is not None)
    who = "left for a person (no judge was sure enough)" if r.tier is None else \
        f"decided by tier {r.tier} ({r.judge})"
    return who + (f"; confidences {confs}" if confs else "")
