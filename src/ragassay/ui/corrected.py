"""The dashboard's view of a run's corrected estimates: people's figures from a few human
labels and every judge score (`report.corrected`), beside the judge's own mean."""

from __future__ import annotations

from collections.abc import Mapping

import pandas as pd
import streamlit as st

from ragassay.report import Report
from ragassay.report.corrected_html import EXACT_HEADING
from ragassay.stats.corrected_text import exact_text, people_column, split_exact
from ragassay.types import MAJORITY, MetricSpec
from ragassay.ui.fmt import interval, metric_label, num, rows_height
from ragassay.ui.highlight import md_escape
from ragassay.ui.state import LABEL_RULE_KEY

WHY = ("What people would say about the whole run: the human labels on a sample, "
       "corrected by every judge score (prediction-powered inference). The interval is "
       "valid however biased the judge is; a better judge only narrows it.")


def show_headline(report: Report, specs: Mapping[str, MetricSpec]) -> None:
    """The overview's opening (`report.headline`): a card per linked metric, people's
    corrected figure when the run has enough labels (the judge's agreement measured on
    them beside it), else the judge's own mean with its held-apart agreement; a line per
    score whose values are another row's (`Report.note_lines`); then the prompt to
    label samples. Nothing when no metric of the run is linked to a label."""
    from ragassay.report import HEADLINE_TITLE

    head = report.headline
    if not head.rows:
        return
    st.header(HEADLINE_TITLE)
    rows = head.rows[:4]
    for col, r in zip(st.columns(max(1, len(rows))), rows, strict=False):
        e = r.estimate
        if e is not None:
            title = r.people_title()  # by what its number is: people's rate, via a metric
            col.metric(md_escape(title[:1].upper() + title[1:]), num(e.estimate),
                       help=f"{r.people_text}; judge's own {r.judge_text}; agreement "
                            f"{r.agreement_text}")
        else:
            own = r.judge.mean if r.judge is not None else None
            what = f"judge's {r.scale.figure}" if r.scale is not None else "judge"
            col.metric(f"{metric_label(r.metric, specs)}: {what}", num(own),
                       help=f"{r.people_text}; judge's own {r.judge_text}; agreement "
                            f"{r.agreement_text}")
    st.dataframe(pd.DataFrame([
        {"metric": metric_label(r.metric, specs) + r.metric_text()[len(r.metric):],
         head.people_heading: r.people_text, "judge's agreement with people": r.agreement_text,
         "judge's own (95% CI, its scale)": r.judge_text} for r in head.rows]),
        hide_index=True, height=rows_height(len(head.rows)))
    st.caption(md_escape(head.note))
    for line in report.note_lines():  # two rows that are one reading
        st.caption(md_escape(f"Note: {line}."))
    if head.prompt:
        st.info(md_escape(f"Next: {head.prompt} (or on the Annotate page)."))


def show_corrected(report: Report, specs: Mapping[str, MetricSpec]) -> None:
    """A header, one card per whole-run estimate, a table of all of them (per strategy
    too), the labels of every sample labelled apart, once per label (`split_exact`:
    nothing is corrected there, and the header says so), and a line per link without
    one; nothing when the run has no labels."""
    cor = report.corrected
    if cor is None:
        return
    exact, fixed = split_exact(cor.estimates)
    if fixed:
        st.header("People's figures, corrected from human labels")
        st.caption(WHY)
    else:
        st.header(EXACT_HEADING)
    whole = [e for e in [*fixed, *exact] if e.strategy is None]
    for col, e in zip(st.columns(max(1, min(4, len(whole)))), whole[:4], strict=False):
        via = "" if e.all_labelled else f" via {metric_label(e.metric, specs)}"
        col.metric(md_escape(f"{e.label} (people)"), num(e.estimate),
                   delta=None if e.judge_mean is None or e.all_labelled else md_escape(
                       f"judge's own {e.judge_text()}{via}"),
                   delta_color="off",
                   help=f"{cor.confidence:.0%} CI {interval(e.ci_low, e.ci_high)} from "
                        f"{e.n_labelled} of {e.n_total} samples labelled")
    if fixed:
        people = people_column(fixed)
        st.dataframe(pd.DataFrame([
            {"label": e.label, "via metric": metric_label(e.metric, specs),
             "strategy": e.strategy or "all", people: e.estimate,
             f"{cor.confidence:.0%} CI": interval(e.ci_low, e.ci_high),
             "labels only": interval(e.labels_only.ci_low, e.labels_only.ci_high),
             "judge's own (its scale)": e.judge_text(),
             "labels": f"{e.n_labelled} of {e.n_total}"}
            for e in fixed]), hide_index=True, height=rows_height(len(fixed)),
            column_config={people: st.column_config.NumberColumn(format="%.3f")})
    if exact:
        if fixed:
            st.subheader(EXACT_HEADING)
        st.caption(md_escape(exact_text(exact)))
        st.dataframe(pd.DataFrame([
            {"label": e.label, "strategy": e.strategy or "all", "people": e.estimate,
             f"{cor.confidence:.0%} CI": interval(e.ci_low, e.ci_high),
             "labels": f"{e.n_labelled} of {e.n_total}"} for e in exact]),
            hide_index=True, height=rows_height(len(exact)),
            column_config={"people": st.column_config.NumberColumn(format="%.3f")})
    for e in [*fixed, *exact]:
        if e.note:
            st.caption(md_escape(f"{e.subject()} ({e.strategy or 'all'}): {e.note}"))
    if (rule := cor.rule_text()) is not None:
        st.caption(md_escape(rule))
    for s in cor.skipped:
        if s.strategy is None:
            small = s.too_small()
            more = (md_escape(f" {small[:1].upper()}{small[1:]}.") if small is not None
                    else f" Label more on the Annotate page, or `ragassay annotate "
                    f"{report.run.run_id}`." if s.too_few_labels else "")
            st.caption(md_escape(f"No corrected estimate of {s.subject()}: {s.reason}.")
                       + more)


def show_people(report: Report) -> None:
    """Agreement between the people who labelled (`report.annotators`): per label its
    annotators and where the rule's values came from, alpha and kappa per pair with
    their intervals, or one line saying why agreement is absent; nothing when no
    person's label is stored for the run."""
    from ragassay.report import agreement_text

    section = report.annotators
    if section is None:
        return
    st.header("Agreement between people")
    everyone = sorted({who for p in section.labels.values() for who in p.annotators})
    rules = [MAJORITY, *(f"annotator:{who}" for who in everyone)]
    if st.session_state.get(LABEL_RULE_KEY, MAJORITY) not in rules:  # another run's person
        st.session_state[LABEL_RULE_KEY] = MAJORITY
    st.selectbox("Label rule: how several people's labels of a sample become the one value "
                 "the corrected figures read", rules, key=LABEL_RULE_KEY,
                 help="majority: the value most of its annotators gave (a tie leaves the "
                      "sample's label out); annotator:NAME: only that person's labels")
    st.caption(md_escape(f"Labels read by rule {section.rule} (ragassay report "
                         "--label-rule majority|annotator:NAME)."))
    for name, people in section.labels.items():
        st.markdown(md_escape(people.describe(name, section.rule)))
        a = people.agreement
        if a is None:
            st.caption(md_escape(people.absent or ""))
            continue
        st.dataframe(pd.DataFrame(
            [{"annotators": "all (Krippendorff's alpha, " + a.level + ")", "samples": a.samples,
              "agreement": a.alpha, f"{a.confidence:.0%} CI": interval(a.ci_low, a.ci_high)}]
            + [{"annotators": f"{p.first} vs {p.second} (Cohen's kappa)", "samples": p.samples,
                "agreement": p.kappa, f"{a.confidence:.0%} CI": interval(p.ci_low, p.ci_high)}
               for p in a.pairs]), hide_index=True, height=rows_height(1 + len(a.pairs)),
            column_config={"agreement": st.column_config.NumberColumn(format="%.3f")})
        st.caption(md_escape("; ".join(agreement_text(a))))
