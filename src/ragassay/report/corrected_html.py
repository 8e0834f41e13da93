"""The HTML report's section on corrected estimates: people's figures from a few human
labels and every judge score, beside the judge's own mean and the labels alone."""

from __future__ import annotations

import re
from html import escape

from ragassay.report.model import Report
from ragassay.stats.corrected import Corrected
from ragassay.stats.corrected_text import EXACT_TITLE, exact_text, people_column, split_exact

NOTE = ("What people would say about the whole run: the human labels on a sample, "
        "corrected by every judge score (prediction-powered inference). The interval is "
        "valid however biased the judge is; a better judge only narrows it.")
EXACT_HEADING = EXACT_TITLE[:1].upper() + EXACT_TITLE[1:]
CORRECTED_HEADING = "People's figures, corrected from human labels"
NONE_HEADING = "People's labels: no corrected estimate"


def corrected_heading(cor: Corrected) -> str:
    """The section's title, which the page's navigation links to in the same words
    (trial 60: its link said "Corrected by labels" where nothing was): people's figures
    corrected, every sample labelled (`EXACT_TITLE`), or no estimate at all."""
    exact, fixed = split_exact(cor.estimates)
    if fixed:
        return CORRECTED_HEADING
    return EXACT_HEADING if exact else NONE_HEADING


def _num(x: float | None) -> str:
    return "-" if x is None else f"{x:.3f}"


FIGURE = re.compile(r"-?\d[\d,.]*|\[-?[\d.]+, -?[\d.]+\]")
"""A cell that is a figure or an interval: right-aligned, as every table of the page's."""


def _row(cells: list[str]) -> str:
    num = ' class="num"'
    return "<tr>" + "".join(f"<td{num if FIGURE.fullmatch(c) else ''}>{escape(c)}</td>"
                            for c in cells) + "</tr>"


def _table(head: tuple[str, ...], rows: list[str]) -> str:
    return ('<div class="wide"><table><thead><tr>'
            + "".join(f"<th>{escape(h)}</th>" for h in head)
            + "</tr></thead><tbody>" + "".join(rows) + "</tbody></table></div>")


def corrected_html(report: Report) -> str:
    """The section ("" when the run has no labels): a table of the estimates (whole run,
    then per strategy), the labels of every sample labelled apart, once per label
    (`split_exact`: nothing is corrected there, and the heading says so), the strategy
    differences, and why any link has none."""
    cor = report.corrected
    if cor is None:
        return ""
    exact, fixed = split_exact(cor.estimates)
    out = f'<section id="corrected"><h2>{escape(corrected_heading(cor))}</h2>'
    if exact and not fixed:
        out += f"<p>{escape(exact_text(exact))}.</p>"
    elif fixed:
        out += f"<p>{escape(NOTE)}</p>"
    if fixed:
        head = ("label", "via metric", "strategy", people_column(fixed),
                f"{cor.confidence:.0%} CI",
                "labels only", "judge's own (its scale)", "labels")
        out += _table(head, [_row([e.label, e.metric + (" (inverted)" if e.inverted else ""),
                                   e.strategy or "all", _num(e.estimate),
                                   f"[{_num(e.ci_low)}, {_num(e.ci_high)}]",
                                   f"{_num(e.labels_only.estimate)} "
                                   f"[{_num(e.labels_only.ci_low)}, "
                                   f"{_num(e.labels_only.ci_high)}]", e.judge_text(),
                                   f"{e.n_labelled} of {e.n_total}"]) for e in fixed])
    if exact:
        if fixed:  # beside corrected ones: its own heading and words
            out += f"<h3>{escape(EXACT_HEADING)}</h3><p>{escape(exact_text(exact))}.</p>"
        out += _table(("label", "strategy", "people", f"{cor.confidence:.0%} CI", "labels"),
                      [_row([e.label, e.strategy or "all", _num(e.estimate),
                             f"[{_num(e.ci_low)}, {_num(e.ci_high)}]",
                             f"{e.n_labelled} of {e.n_total}"]) for e in exact])
    # each estimate's caution, and what more labels would do to a whole-run interval
    # (the line the console says under its table)
    notes = [(e, line) for e in [*fixed, *exact]
             for line in (e.note, e.narrowing()
                          if e.strategy is None else None) if line]
    if notes:
        out += "<ul>" + "".join(
            f"<li>{escape(e.subject())} ({escape(e.strategy or 'all')}): {escape(line)}</li>"
            for e, line in notes
        ) + "</ul>"
    if cor.differences:
        out += "<ul>" + "".join(
            f"<li>{escape(d.label)} via {escape(d.metric)}: {escape(d.a)} - {escape(d.b)} = "
            f"{d.estimate:+.3f} [{d.ci_low:+.3f}, {d.ci_high:+.3f}]"
            f"{' (paired)' if d.paired else ''}</li>" for d in cor.differences) + "</ul>"
    if (rule := cor.rule_text()) is not None:
        out += f"<p>{escape(rule)}</p>"
    whole = [s for s in cor.skipped if s.strategy is None]
    if whole:
        out += "<ul>" + "".join(
            f'<li class="muted">No corrected estimate of {escape(s.subject())}: '
            f"{escape(s.reason)}"
            + (f" ({escape(small)})" if (small := s.too_small()) is not None
               else f" (label more: <code>ragassay annotate {escape(report.run.run_id)}"
               "</code>)" if s.too_few_labels else "") + "</li>" for s in whole) + "</ul>"
    return out + "</section>"


def people_html(report: Report) -> str:
    """The section on the people who labelled ("" when no person's label is stored for
    the run's samples): per label its annotators and where the rule's values came from,
    then the agreement between them, or one line saying why it is absent."""
    from ragassay.report.people import agreement_text

    section = report.annotators
    if section is None:
        return ""
    out = ('<section id="annotators"><h2>Agreement between people</h2>'
           f"<p>Labels read by rule <code>{escape(section.rule)}</code>.</p><ul>")
    for name, people in section.labels.items():
        out += f"<li>{escape(people.describe(name, section.rule))}"
        if people.agreement is not None:
            out += "<ul>" + "".join(f"<li>{escape(line)}</li>"
                                    for line in agreement_text(people.agreement)) + "</ul>"
        elif people.absent:
            out += f'<br><span class="muted">{escape(people.absent)}</span>'
        out += "</li>"
    return out + "</ul></section>"
