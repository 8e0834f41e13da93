"""Run overview: aggregates with intervals, consistency, distribution, flags,
diagnostics (with links to the worst samples), usage and cost."""

from __future__ import annotations

from pathlib import Path

import pandas as pd
import streamlit as st

from ragassay.report import abstention_columns, abstentions_note, reliability_lines
from ragassay.stats.interpret import level_text, wrong_side_text
from ragassay.ui import state
from ragassay.ui.corrected import show_corrected, show_headline, show_people
from ragassay.ui.fmt import (
    consistency_lines,
    distribution_details,
    distribution_line,
    headline,
    metric_label,
    metric_range,
    num,
    rows_height,
)
from ragassay.ui.highlight import md_escape
from ragassay.ui.routing import show_routing

st.title("Run overview")
run_id, version, report = state.selected_report("overview")
meta = report.run
aggregates = report.aggregate_metrics.metrics
specs = report.metric_specs

st.dataframe(pd.DataFrame([
    ("run", meta.run_id), ("status", meta.status),
    ("dataset", meta.dataset), ("judge", f"{meta.judge} ({meta.judge_model})"),
    ("metrics", ", ".join(meta.metrics)), ("created", meta.timestamp[:19]),
    ("samples", f"{meta.total_samples} ({meta.invalid_samples} invalid)"),
], columns=["field", "value"]), hide_index=True)

show_headline(report, specs)  # people's number first

# -- aggregates ----------------------------------------------------------------------
st.header("Aggregate metrics")
cards = headline(list(aggregates), specs, limit=4)
for col, name in zip(st.columns(max(1, len(cards))), cards, strict=False):
    entry = aggregates[name]
    col.metric(md_escape(metric_label(name, specs)), num(entry.mean),
               help=f"95% CI {entry.text(none='—')}, n={entry.count}, "
                    f"{entry.unscored} unscored")
st.dataframe(pd.DataFrame([
    {"metric": metric_label(m, specs), "mean": e.mean, "95% CI": e.text(none="—"),
     "scored": e.count, "unscored": e.unscored, "abstained": e.abstained or 0,
     "range": metric_range(specs.get(m)),
     "better": "higher" if e.higher_is_better else "lower"}
    for m, e in aggregates.items()
]), hide_index=True, height=rows_height(len(aggregates)),
    column_config={"mean": st.column_config.NumberColumn(format="%.3f")})
st.caption("Intervals: 95% bootstrap confidence intervals of the mean. Unscored samples "
           "are excluded, never counted as 0.")
if report.abstentions:
    st.header("Abstentions")
    looked, not_looked = abstention_columns(report)
    st.dataframe(pd.DataFrame([
        {"strategy": name, "abstention_rate": a.abstention_rate.mean,
         "95% CI": a.abstention_rate.text(none="—"),
         "false_abstention_rate": a.false_abstention_rate.mean,
         "95% CI (false)": a.false_abstention_rate.text(none="—"),
         "abstained": a.abstained, not_looked: a.correct, looked: a.false,
         "samples": a.samples}
        for name, a in report.abstentions.items()
    ]), hide_index=True, column_config={
        "abstention_rate": st.column_config.NumberColumn(format="%.3f"),
        "false_abstention_rate": st.column_config.NumberColumn(format="%.3f")})
    st.caption(md_escape(abstentions_note(report)) + ".")
reliability = reliability_lines(report, list(aggregates))
if reliability:
    st.markdown("**How far the judge agrees with people** (on human-labelled sets it was "
                "not fitted on)")
    for line in reliability:
        st.caption(md_escape(line))
for suite, average in report.aggregate_metrics.suites.items():
    if average.average is None and average.note:
        st.caption(md_escape(f"{suite}: {average.note}"))
show_corrected(report, specs)
show_people(report)
show_routing(report)

# -- consistency and distribution ------------------------------------------------------
st.header("Metric consistency")
st.caption("Mean +/- standard deviation over the scored samples.")
st.code("\n".join(consistency_lines(report.rmse_metrics)), language=None)

st.header("Distribution")
per_metric = report.per_metric_statistics
st.code("\n".join(distribution_line(m, e) for m, e in per_metric.items()), language=None)
for name, dist in per_metric.items():
    with st.expander(md_escape(metric_label(name, specs))):
        st.dataframe(pd.DataFrame(distribution_details(dist), columns=["statistic", "value"]),
                     hide_index=True)

# -- interpretation ---------------------------------------------------------------------
st.header("Interpretation")
flags = report.interpretation
if not flags:
    st.caption("No interpretation flags for these metrics.")
else:
    order = {"warning": 0, "ok": 1, "good": 2}
    flagged = sorted(flags, key=lambda f: order.get(f.level, 3))
    warnings = [f for f in flagged if f.level == "warning" and f.scope == "overall"]
    if warnings:
        st.warning(f"Metrics: {wrong_side_text(len(warnings))}.", icon=":material/warning:")
    head = report.headline  # people's figure beside the judge's, as the console says it
    st.dataframe(pd.DataFrame([
        {"level": level_text(f.level, (sp := specs.get(f.metric)) is None
                             or sp.higher_is_better),
         "scope": f.scope, "metric": metric_label(f.metric, specs),
         "value": f.value, "message": head.flag_text(f)} for f in flagged
    ]), hide_index=True, height=rows_height(len(flagged), cap=15),
        column_config={"value": st.column_config.NumberColumn(format="%.3f")})

# -- diagnostics ----------------------------------------------------------------------
st.header("Diagnostics")
findings = [f for f in report.diagnostics if f.fired]
if not findings:
    st.success("No diagnostic rule fired.", icon=":material/check_circle:")
for i, finding in enumerate(findings):
    with st.container(border=True):
        share = finding.share_of_samples
        st.markdown(f"**{md_escape(finding.rule.replace('_', ' ').capitalize())}**: "
                    f"{finding.count} of {finding.evaluated} samples"
                    + (f" ({share:.0%})" if share is not None else "")
                    + (f", {finding.exempt} exempt" if finding.exempt else ""))
        st.text(f"{finding.message}\nRule: {finding.rule_text}\nFix: {finding.fix}")
        if finding.caveat_text:
            st.warning(finding.caveat_text, icon=":material/warning:")
        worst = finding.worst_samples
        if worst:
            st.caption("Worst samples (open in the sample explorer):")
            for j, label in enumerate(worst):
                left, right = st.columns([4, 1])
                left.text(label)
                right.page_link(state.PAGES["samples"].file, label="Open",
                                icon=":material/open_in_new:",
                                query_params={state.RUN_PARAM: run_id, state.SAMPLE_PARAM: label},
                                help=f"diagnostic {i + 1}, sample {j + 1}")

# -- usage and cost -------------------------------------------------------------------
st.header("Usage and cost")
usage = report.usage
cols = st.columns(4)
cols[0].metric("Judge calls", usage.calls)
cols[1].metric("Cache hits", usage.cache_hits)
cols[2].metric("Input tokens", usage.input_tokens)
cols[3].metric("Output tokens", usage.output_tokens)
if meta.method == "offline":
    st.text("Cost: $0.00 (the offline judge runs locally: no API calls, no tokens).")
else:
    st.caption("Cost estimate: enter the judge's prices (USD per million tokens).")
    a, b = st.columns(2)
    price_in = a.number_input("Input price", min_value=0.0, value=0.15, step=0.05,
                              key="price_in")
    price_out = b.number_input("Output price", min_value=0.0, value=0.60, step=0.05,
                               key="price_out")
    cost = (usage.input_tokens * price_in + usage.output_tokens * price_out) / 1e6
    st.text(f"Estimated cost: ${cost:.4f} for {usage.calls} calls "
            f"({usage.cache_hits} served from the cache, free).")
if len(usage.by_suite) > 1:
    st.dataframe(pd.DataFrame([{"suite": s, **u.model_dump()}
                               for s, u in usage.by_suite.items()]), hide_index=True)

# -- invalid rows and calibration ----------------------------------------------------
if report.invalid_rows:
    st.header("Invalid input rows")
    st.dataframe(pd.DataFrame([r.model_dump() for r in report.invalid_rows]), hide_index=True)
pairs = report.calibration.pairs if report.calibration else []
if pairs:
    st.header("Agreement with human labels")
    st.dataframe(pd.DataFrame([
        {"label": p.label, "metric": metric_label(p.metric, specs), "n": p.n,
         "AUROC": getattr(p, "auroc", None),
         "balanced accuracy": getattr(p, "balanced_accuracy", None),
         "kappa": getattr(p, "kappa", None), "correlation": getattr(p, "spearman", None)}
        for p in pairs
    ]), hide_index=True)
st.caption(f"Dataset file: {md_escape(Path(meta.dataset).name)} · "
           f"report generated {meta.generated}")
