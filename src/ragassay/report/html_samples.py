"""The HTML report's samples: the worst ones in full (question, contexts and answer, the
unsupported sentences and claims highlighted, every value and unscored reason, people's
labels with a marker where a verdict disagrees, the judge's reasoning) and one compact
row per sample. All text is escaped; the sentence
marks are `report.highlight`'s, as on the dashboard."""

from __future__ import annotations

from html import escape
from typing import Any

from ragassay.report.disagreements import DISAGREE
from ragassay.report.highlight import (
    Marks,
    answer_html,
    claims_title,
    contexts_html,
    marks_of,
    unmatched_claims,
)
from ragassay.report.model import FailedEntry, Report, SampleEntry
from ragassay.report.people import label_names
from ragassay.stats.disagreements import Side
from ragassay.types import MetricSpec

WORST = 10
"""Samples shown in full, worst first by the headline metric."""
ALL_ROWS = 500
"""Rows of the compact table of every sample (the JSON and CSV reports hold them all)."""


def anchor(strategy: str, sample_id: str) -> str:
    """The element id of a sample's card (`s-<strategy>/<id>`, escaped for an attribute)."""
    return escape(f"s-{strategy}/{sample_id}", quote=True)


def row_anchor(strategy: str, sample_id: str) -> str:
    """The element id of a sample's row in the table of every sample."""
    return escape(f"r-{strategy}/{sample_id}", quote=True)


def shown(value: Any) -> str:
    """A metric value as the page shows it: 3 decimals, yes/no, never Python's None."""
    if value is None:
        return "-"
    if isinstance(value, bool):
        return "yes" if value else "no"
    if isinstance(value, float):
        return f"{value:.3f}"
    return str(value)


def headline_metric(report: Report) -> str | None:
    """The metric the worst samples are picked by: the leaderboard's ranking metric
    (lowest `rank`), else the first headline metric, else the first metric."""
    specs = [s for s in report.metric_specs.values() if report.aggregate(s.name)]
    if not specs:
        return None
    ranked = [s for s in specs if s.rank is not None]
    if ranked:
        return min(ranked, key=lambda s: s.rank or 0).name
    headed = [s for s in specs if s.headline is not None]
    return (min(headed, key=lambda s: s.headline or 0) if headed else specs[0]).name


def _badness(spec: MetricSpec, value: bool | float) -> float:
    """0 (best) .. 1 (worst) on the metric's own range and direction."""
    x = spec.normalise(float(value))
    return x if not spec.higher_is_better else 1.0 - x


def worst_samples(report: Report, metric: str, n: int = WORST) -> list[SampleEntry]:
    """The `n` scored samples worst on `metric`, worst first (ties: report order)."""
    spec = report.spec(metric)
    scored = [e for e in report.entries
              if isinstance(e, SampleEntry) and e.metrics.get(metric) is not None]
    if spec is None:
        return scored[:n]
    return sorted(scored, key=lambda e: -_badness(spec, e.metrics[metric]))[:n]  # type: ignore[arg-type]


def _values(report: Report, entry: SampleEntry) -> str:
    """The sample's values as small labelled cells; unscored ones with their reason."""
    cells = []
    for m, v in entry.metrics.items():
        if v is None:
            cells.append(f'<li class="unscored"><span>{escape(m)}</span> unscored: '
                         f"{escape(entry.unscored.get(m, 'unscored'))}</li>")
        else:
            spec = report.spec(m)
            bad = spec is not None and _badness(spec, v) >= 0.5
            cells.append(f'<li class="{"low" if bad else "high"}"><span>{escape(m)}</span> '
                         f"<b>{escape(shown(v))}</b></li>")
    return f'<ul class="values">{"".join(cells)}</ul>'


SIDE_TITLES: dict[Side, str] = {
    "missed": "people marked a problem the judge's verdict did not",
    "flagged": "the judge's verdict marked a problem people did not",
    "declined": "the answer declined where people marked a problem: counted wrong"}
"""What a disagreement marker's tooltip says of each side (`stats.disagreements`)."""


def people_cells(report: Report, entry: SampleEntry,
                 marks: dict[tuple[str, str], list[tuple[str, Side]]]) -> list[str]:
    """People's labels of a sample as small cells (`hallucinated yes`), then a marker per
    linked verdict that disagrees there (`≠ METRIC: missed`); [] for a run
    without labels (trial 66: neither the cards nor the table showed them)."""
    cells = [f"<li><span>{escape(n)}</span> <b>{escape(shown(entry.labels.get(n)))}</b></li>"
             for n in label_names(report)]
    cells += [f'<li class="low" title="{escape(SIDE_TITLES[side], quote=True)}">&ne; '
              f"{escape(m)}: {side}</li>" for m, side in marks.get((entry.strategy, entry.id),
                                                                    ())]
    return cells


def _marks(report: Report) -> dict[tuple[str, str], list[tuple[str, Side]]]:
    found = report.disagreements
    return found.marks() if found is not None else {}


def _claims_html(answer: str, marks: Marks) -> str:
    """The claims the sample's metrics checked, each with its verdict and probability
    (`supported (0.60)`); without them (a run stored before they were kept), the
    unsupported claims that are not answer sentences."""
    if marks.claims:
        items = "".join(f'<li><span class="{"" if c.supported else "ra-unsupported"}">'
                        f"{escape(c.text)}</span> <i>{escape(c.verdict_text())}</i></li>"
                        for _, c in marks.claims)
        return (f'<p class="label">{escape(claims_title(marks))}</p><ul class="claims">'
                f"{items}</ul>")
    extra = unmatched_claims(answer, marks)
    return ("<p class=\"label\">Unsupported claims (not answer sentences)</p><ul class="
            "\"claims\">" + "".join(f'<li><span class="ra-unsupported">{escape(c)}</span>'
                                    "</li>" for c in extra) + "</ul>") if extra else ""


def sample_card(report: Report, entry: SampleEntry, metric: str) -> str:
    """One sample in full: what was asked, retrieved and answered, what the judge found."""
    marks = marks_of(entry.marks)
    claims = _claims_html(entry.answer, marks)
    contexts = contexts_html(entry.contexts, marks, show_keys=False) or [
        '<p class="muted">no contexts</p>']
    refs = "".join(f"<p>{escape(r)}</p>" for r in entry.references) or (
        '<p class="muted">none given</p>')
    reasoning = (f'<p class="label">Judge\'s reasoning</p><p class="reasoning">'
                 f"{escape(entry.reasoning)}</p>") if entry.reasoning else ""
    value = shown(entry.metrics.get(metric))
    people = people_cells(report, entry, _marks(report))
    people_part = (f'<p class="label">People\'s labels</p><ul class="values">{"".join(people)}'
                   "</ul>") if people else ""
    return (f'<article class="card" id="{anchor(entry.strategy, entry.id)}">'
            f'<header><h3>{escape(entry.id)}</h3><span class="tag">{escape(entry.strategy)}'
            f'</span><span class="score">{escape(metric)} {escape(value)}</span></header>'
            f'<p class="label">Question</p><p class="question">{escape(entry.question)}</p>'
            f'<div class="pair"><div><p class="label">Answer</p>'
            f"{answer_html(entry.answer, marks, show_keys=False)}{claims}"
            f'<p class="label">Reference</p>{refs}</div>'
            f'<div><p class="label">Contexts ({len(entry.contexts)})</p>'
            f"{''.join(contexts)}</div></div>"
            f"{_values(report, entry)}{people_part}{reasoning}</article>")


def worst_section(report: Report) -> str:
    """The worst samples in full, with the highlighting legend."""
    metric = headline_metric(report)
    if metric is None:
        return ""
    worst = worst_samples(report, metric)
    if not worst:
        return ""
    legend = ('<p class="legend"><span class="ra-unsupported">unsupported by the contexts'
              '</span> <span class="ra-relevant">relevant to the question</span> '
              '<span class="ra-used">used by the answer</span></p>')
    return (f'<section id="worst"><h2>Worst samples by {escape(metric)}</h2>'
            f"<p>The {len(worst)} scored samples with the lowest {escape(report.label(metric))}"
            f", worst first.</p>{legend}"
            + "".join(sample_card(report, e, metric) for e in worst) + "</section>")


def _decided_by(entry: SampleEntry) -> str:
    r = entry.routing
    if r is None:
        return "-"
    return "a person" if r.tier is None else f"tier {r.tier}: {r.judge}"


def all_samples(report: Report, limit: int = ALL_ROWS) -> str:
    """One compact row per sample: id, strategy, question, the headline value, the
    number of unscored values, people's labels with a marker where a verdict disagrees
    (a run with labels); an invalid row with its reason."""
    metric = headline_metric(report)
    routed = report.routing is not None  # a column: the tier that decided each sample
    labelled = bool(label_names(report))  # a column: people's labels, where the judge differs
    marks = _marks(report)
    rows = []
    entries = report.entries
    for e in entries[:limit]:
        if isinstance(e, FailedEntry):
            rows.append(f'<tr id="{row_anchor(e.strategy, e.id)}"><td>{escape(e.id)}</td>'
                        f"<td>{escape(e.strategy)}</td>"
                        f'<td class="muted">invalid row: {escape(e.error)}</td>'
                        '<td class="num">-</td><td class="num">-</td>'
                        + ("<td>-</td>" if labelled else "")
                        + ("<td>-</td>" if routed else "") + "</tr>")
            continue
        unscored = "; ".join(f"{m}: {r}" for m, r in e.unscored.items())
        rows.append(f'<tr id="{row_anchor(e.strategy, e.id)}"><td>{escape(e.id)}</td>'
                    f"<td>{escape(e.strategy)}</td><td>{escape(e.question)}</td>"
                    f'<td class="num">{escape(shown(e.metrics.get(metric or "")))}</td>'
                    f'<td title="{escape(unscored, quote=True)}" class="num">'
                    f"{len(e.unscored)}</td>"
                    + (f'<td><ul class="values">{"".join(people_cells(report, e, marks))}'
                       "</ul></td>" if labelled else "")
                    + (f"<td>{escape(_decided_by(e))}</td>" if routed else "") + "</tr>")
    if not rows:
        return ""
    more = (f"<p class=\"muted\">The first {limit} of {len(entries)} samples; the JSON and "
            "CSV reports hold every one.</p>") if len(entries) > limit else ""
    num = ' class="num"'
    head = "".join(f"<th{num if i in (3, 4) else ''}>{escape(h)}</th>" for i, h in
                   enumerate(("id", "strategy", "question", metric or "value", "unscored",
                              *(("people",) if labelled else ()),
                              *(("decided by",) if routed else ()))))
    if marks:
        more += ('<p class="note">&ne; marks a yes/no verdict that is not people\'s label '
                 "(missed: people marked a problem the verdict did not; flagged: the other "
                 f"way); {escape(DISAGREE.format(run=report.run.run_id))} lists them.</p>")
    return (f'<section id="samples"><h2>All samples</h2>{more}<div class="wide">'
            f'<table class="samples"><thead><tr>{head}</tr></thead><tbody>{"".join(rows)}'
            "</tbody></table></div></section>")
