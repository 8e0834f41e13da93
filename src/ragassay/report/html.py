"""A self-contained HTML report, the page a team lead reads: no script, no network (a
Content-Security-Policy forbids every fetch), SVG charts, all text escaped, printable.

Top to bottom: what was evaluated; the headline (people's figures first,
`report.headline`: per linked metric the corrected estimate and the judge's agreement
measured on this run's labels, or the prompt to label samples); the summary (each
metric's mean and interval, its verdict against the target and the judge's measured
agreement with people); the
strategies side by side with intervals; the distributions; the diagnostics; agreement
with human labels and correlations; the worst samples in full (`html_samples`); every
sample in one compact table; usage and cost. Figures are as published (`published`).
"""

from __future__ import annotations

from html import escape
from pathlib import PurePath
from typing import Any

from ragassay.dataset.traces import DOCUMENT_RELEVANCE, HOP_RELEVANCE, HOP_UTILIZATION, HOPS_NOTE
from ragassay.report.corrected_html import corrected_heading, corrected_html, people_html
from ragassay.report.disagreements import abstention_columns, abstentions_note
from ragassay.report.groups import AGREEMENT_NOTE, FIGURES_NOTE
from ragassay.report.headline import HEADLINE_TITLE
from ragassay.report.highlight import CSS as MARKS_CSS
from ragassay.report.html_samples import (
    all_samples,
    anchor,
    row_anchor,
    shown,
    worst_section,
)
from ragassay.report.leaderboard import (
    LEADERBOARD_COLUMNS,
    LEADERBOARD_HEADERS,
    LEADERBOARD_NOTE,
    VERSUS_COLUMNS,
    VERSUS_HEADERS,
    VERSUS_NOTE,
    leaderboard_notes,
    versus_rows,
)
from ragassay.report.model import Report, SampleEntry, published
from ragassay.report.no_reference import needs_reference, needs_reference_line
from ragassay.report.routing_html import routing_html
from ragassay.report.svg import heatmap, histogram, interval_bars
from ragassay.stats import level_text, target_for
from ragassay.stats.describe import FEWER_NOTE
from ragassay.stats.groups import group_cell, link_name
from ragassay.stats.interpret import wrong_side_text
from ragassay.terminal import counted
from ragassay.types import MetricSpec

CSS = """
*{box-sizing:border-box}
body{font-family:system-ui,-apple-system,"Segoe UI",sans-serif;margin:0 auto;padding:2rem;
 color:#1f2328;max-width:1180px;line-height:1.45}
h1{margin:0 0 .25rem;font-size:1.7rem}h2{margin:2.2rem 0 .6rem;padding-bottom:.3rem;
 border-bottom:2px solid #e5e7eb;font-size:1.3rem}h3{margin:0;font-size:1rem}
.wide{overflow-x:auto;max-width:100%;margin:.5rem 0 1rem}
table{border-collapse:collapse;width:100%}
td,th{border-bottom:1px solid #e5e7eb;padding:.35rem .6rem;text-align:left;vertical-align:top}
th{background:#f6f8fa;font-weight:600}td.num,th.num{text-align:right;
 font-variant-numeric:tabular-nums}td.num{white-space:nowrap}
.facts{display:grid;grid-template-columns:repeat(auto-fill,minmax(210px,1fr));gap:.4rem 1.2rem;
 margin:.8rem 0}.facts div{font-size:.9rem}.facts b{display:block;color:#57606a;
 font-weight:500;font-size:.75rem;text-transform:uppercase;letter-spacing:.03em}
.badge{display:inline-block;padding:.05rem .5rem;border-radius:1rem;font-size:.8rem;
 font-weight:600}.good{background:#dafbe1;color:#116329}.ok{background:#fff8c5;color:#7d4e00}
.warning{background:#ffebe9;color:#a40e26}.none{background:#eaeef2;color:#57606a}
.muted{color:#6e7781}.note{color:#57606a;font-size:.9rem}
.charts{display:flex;flex-wrap:wrap;gap:1rem}.chart{border:1px solid #e5e7eb;
 border-radius:.4rem;padding:.5rem .7rem;break-inside:avoid}.chart h4{margin:.1rem 0 .3rem;
 font-size:.9rem}.chart p{margin:.2rem 0 0;font-size:.8rem;color:#57606a}
.card{border:1px solid #d0d7de;border-radius:.5rem;padding:.8rem 1rem;margin:1rem 0;
 break-inside:avoid}.card header{display:flex;gap:.8rem;align-items:baseline;flex-wrap:wrap}
.tag{background:#ddf4ff;color:#0969da;border-radius:1rem;padding:0 .5rem;font-size:.8rem}
.score{margin-left:auto;font-weight:600}.label{margin:.6rem 0 .2rem;font-size:.75rem;
 text-transform:uppercase;letter-spacing:.03em;color:#57606a}.question{font-weight:600;
 margin:0}.pair{display:grid;grid-template-columns:1fr 1fr;gap:1rem}
.values{list-style:none;padding:0;margin:.6rem 0 0;display:flex;flex-wrap:wrap;gap:.3rem}
.values li{font-size:.8rem;border-radius:.3rem;padding:.05rem .4rem;background:#f6f8fa}
.values li.low{background:#ffebe9}.values li.unscored{background:#eaeef2;color:#57606a}
.values span{color:#57606a}.reasoning{font-style:italic;margin:0}
.claims{margin:.2rem 0;padding-left:1.2rem}.legend span{margin-right:.8rem;padding:0 .3rem}
table.samples td:nth-child(3){max-width:34rem}
nav{font-size:.9rem;margin:.5rem 0 0}nav a{margin-right:.8rem;color:#0969da}
@media print{body{padding:0;max-width:none;font-size:10.5pt}nav{display:none}
 .wide{overflow:visible}.wide table{font-size:7pt}.wide td,.wide th{padding:.15rem .2rem}
 .wide td.name{overflow-wrap:anywhere}
 h2{break-after:avoid}.card,.chart,tr{break-inside:avoid}a{color:inherit;text-decoration:none}
 .pair{grid-template-columns:1fr 1fr}@page{margin:1.4cm}}
"""


def _e(value: Any) -> str:
    """A table cell's text: numbers to 3 decimals, None as a muted dash."""
    return '<span class="muted">-</span>' if value is None else escape(shown(value))


def _table(headers: list[str], rows: list[list[Any]], numeric: set[int] | None = None,
           names: set[int] | None = None) -> str:
    """A table whose columns `numeric` (by index) are right-aligned; text stays left; the
    `names` columns' cells (long names: a strategy's) may break anywhere on paper."""
    nums, long_names = numeric or set(), names or set()

    def cls(i: int) -> str:
        return ' class="num"' if i in nums else ' class="name"' if i in long_names else ""

    head = "".join(f"<th{cls(i)}>{escape(h)}</th>" for i, h in enumerate(headers))
    body = "".join("<tr>" + "".join(f"<td{cls(i)}>{c if isinstance(c, _Raw) else _e(c)}</td>"
                                    for i, c in enumerate(row)) + "</tr>" for row in rows)
    # a table wider than the page scrolls inside it on screen, and wraps on paper
    return (f'<div class="wide"><table><thead><tr>{head}</tr></thead><tbody>{body}</tbody>'
            "</table></div>")


class _Raw(str):
    """Markup made here (a badge, a link): put into a cell as it is."""


def _badge(level: str | None, scored: bool = True, higher_is_better: bool = True) -> _Raw:
    """A metric's verdict in the console's words (`level_text`: "ok" once read as "fine"
    while the value missed its target, and "warning" as milder than "short of target")."""
    word = level_text(level, higher_is_better) if level else (
        "no target" if scored else "not scored")
    return _Raw(f'<span class="badge {escape(level or "none")}">{escape(word)}</span>')


def _facts(report: Report) -> str:
    """What was evaluated, in words: no raw dict, no internal path."""
    meta = report.run
    data = PurePath(meta.dataset).name if "/" in meta.dataset or "\\" in meta.dataset \
        else meta.dataset
    judge = meta.judge + ("" if meta.judge_model in ("", meta.judge) else f" ({meta.judge_model})")
    if report.routing is not None:  # a cascade or a jury: its tiers
        judge = " -> ".join(t.judge for t in report.routing.tiers)
    samples = f"{meta.total_samples}" + (f", {meta.invalid_samples} invalid rows"
                                         if meta.invalid_samples else "")
    status = "complete" if meta.complete else f"{meta.status}: figures cover the samples judged"
    facts = [("Dataset", data), ("Judge", judge), ("Samples", samples),
             ("Strategies", str(len(report.strategies))), ("Run", meta.run_id),
             ("Evaluated", meta.timestamp.replace("T", " ")), ("Status", status),
             ("Cost", _cost(report)), ("ragassay", meta.package_version)]
    return '<div class="facts">' + "".join(f"<div><b>{escape(k)}</b>{escape(v)}</div>"
                                           for k, v in facts) + "</div>"


def _cost(report: Report) -> str:
    usage = report.usage
    if report.run.method == "offline" and report.routing is None:
        return "$0 (offline judge)"
    if usage.cost_usd is not None:
        return f"${usage.cost_usd:.4f}"
    return "unknown (no price for the judge's model)"


TARGET_WORDS = (("target >= ", ">= "), ("target <= ", "<= "), (", warning below ", "; warning < "),
                (", warning above ", "; warning > "))


def _target(spec: MetricSpec | None) -> str:
    """The metric's target, short: `>= 9; warning < 7`: the one its verdict was taken
    against, and the bar `gate` checks it against (`target_for`)."""
    text = target_for(spec).describe() if spec is not None else ""
    for long, short in TARGET_WORDS:
        text = text.replace(long, short)
    return text


def _headline(report: Report) -> str:
    """The summary's opening (`report.headline`): per linked metric people's corrected
    figure and the judge's agreement measured on this run's labels, else the judge's own
    mean and held-apart agreement; a line per score whose values are another row's
    (`Report.note_lines`); then the prompt to label samples."""
    head = report.headline
    if not head.rows:
        return ""
    rows = [[r.metric_text(), _Raw(f"<b>{escape(r.people_text)}</b>") if r.estimate is not None
             else _Raw(f'<span class="muted">{escape(r.people_text)}</span>'),
             r.agreement_text,
             r.judge_text] for r in head.rows]
    out = (f'<section id="headline"><h2>{escape(HEADLINE_TITLE)}</h2>' + _table(
        ["metric", head.people_heading, "judge's agreement with people",
         "judge's own (95% CI)"], rows)
           + f'<p class="note">{escape(head.note)}.</p>')
    out += "".join(f'<p class="note"><b>Note:</b> {escape(line)}.</p>'
                   for line in report.note_lines())  # two rows that are one reading
    if head.prompt:
        out += f'<p class="note"><b>Next:</b> {escape(head.prompt)}.</p>'
    return out + "</section>"


def _summary(report: Report) -> str:
    """Per metric: mean, interval, scored/unscored/abstained (the abstained column where
    the run has abstentions, as the console's aggregate table: trial 66 read 132 scored
    + 0 unscored of 144), the verdict against its target, and the judge's agreement with
    people (on this run's labels where it has some, else on held-apart sets)."""
    abst = report.abstentions is not None
    flags = {f.metric: f for f in report.interpretation if f.scope == "overall"}
    reliability = report.run.judge_reliability
    lines = reliability.lines if reliability is not None else {}
    in_run = {r.metric: r.agreement_text for r in report.headline.rows
              if r.agreement is not None}
    rows, skipped = [], needs_reference(report)  # said in one line (trial 78)
    for m, agg in report.aggregate_metrics.metrics.items():
        if m in skipped:
            continue
        flag = flags.get(m)
        measured = m in (reliability.metrics if reliability is not None else {})
        line = lines.get(m, "")
        rows.append([m, agg.mean, agg.text(), agg.count, agg.unscored,
                     *((agg.abstained or 0,) if abst else ()),
                     _badge(flag.level if flag else None, agg.count > 0,
                            (spec := report.spec(m)) is None or spec.higher_is_better),
                     _target(report.spec(m)),
                     in_run[m] if m in in_run else line.partition(f"{m}: ")[2] or line
                     if measured else _Raw('<span class="muted">not measured</span>')])
    if not rows:
        return '<section id="summary"><h2>Summary</h2><p>No metric was scored.</p></section>'
    warnings = sum(1 for f in flags.values() if f.level == "warning")
    metrics = counted(len(rows), "metric")
    lead = f"<p>{metrics}; {wrong_side_text(warnings)}.</p>"
    if skipped:
        lead += f'<p class="note">{escape(needs_reference_line(skipped))}.</p>'
    if reliability is not None and reliability.metrics:
        lead += (f'<p class="note">The {escape(reliability.judge)} judge\'s agreement with '
                 "people was measured on human-labelled sets it was not tuned on"
                 + (f" ({escape(reliability.measured)})" if reliability.measured else "")
                 + ": read a metric whose agreement is low or not measured with care.</p>")
    return ('<section id="summary"><h2>Summary</h2>' + lead + _table(
        ["metric", "mean", "95% CI", "scored", "unscored", *(("abstained",) if abst else ()),
         "verdict", "target", "judge's agreement with people"], rows,
        {1, 2, 3, 4, *((5,) if abst else ())}) + "</section>")


def _abstentions(report: Report) -> str:
    """Per strategy: how often its answers declined, and how often where the judge read
    the contexts as answering (its basis named: `disagreements.false_said`)."""
    if not report.abstentions:
        return ""
    rows = [[name, a.abstention_rate.mean, a.abstention_rate.text(),
             a.false_abstention_rate.mean, a.false_abstention_rate.text(), a.abstained,
             a.correct, a.false, a.samples] for name, a in report.abstentions.items()]
    return ('<section id="abstentions"><h2>Abstentions</h2>'
            f"<p>{escape(abstentions_note(report))}.</p>" + _table(
                ["strategy", "abstention rate", "95% CI", "false abstention rate", "95% CI",
                 "abstained", *reversed(abstention_columns(report)), "samples"], rows,
                {1, 2, 3, 4, 5, 6, 7, 8}) + "</section>")


def _groups(report: Report) -> str:
    """The run by a metadata key (built `by` one; "" otherwise): per metric (its figure
    and range) and per linked label, a column per group, as the strategies are laid out."""
    g = report.groups
    if g is None:
        return ""
    rows: list[list[Any]] = [["samples", *[x.n for x in g.groups]]]
    rows += [[f"{m} ({g.scales[m].short()})", *[x.metrics[m].value_text(3) for x in g.groups]]
             for m in g.scales if any(x.metrics[m].mean is not None for x in g.groups)]
    links, said_once = g.agreement_columns()  # a link no group has a figure for: a note
    agree = [[link_name(metric, label), *[group_cell(a) if (a := x.agreement_of(label, metric))
                                           else "-" for x in g.groups]]
             for label, metric in links]
    head = [g.key, *[x.value for x in g.groups]]
    notes = [n[0].upper() + n[1:] for n in [FIGURES_NOTE, *([AGREEMENT_NOTE] if g.links else []),
                                            *filter(None, [g.note])]]
    return (f'<section id="groups"><h2>By {escape(g.key)}</h2>'
            + "".join(f'<p class="note">{escape(n)}.</p>' for n in [*notes, *said_once])
            + _table(head, rows, set(range(1, len(head))))
            + (_table(["judge vs people", *head[1:]], agree) if agree else "") + "</section>")


def _strategies(report: Report) -> str:
    """Every metric's mean and interval per strategy, side by side, and as bars."""
    strategies = report.strategies
    if not strategies:
        return ""
    names = list(strategies)
    rows: list[list[Any]] = [["samples", *[s.total_questions for s in strategies.values()]]]
    for m in report.metric_specs:
        cells = [strategies[n].metrics.get(m) for n in names]
        if any(c is not None and c.mean is not None for c in cells):
            rows.append([m, *[_Raw(escape(f"{c.mean:.3f} {c.text()}"
                                          f"{c.rests_on(strategies[n].total_questions)}"))
                              if c is not None and c.mean is not None else None
                              for n, c in zip(names, cells, strict=True)]])
    charts = []
    for metric, spec in report.metric_specs.items():
        bars = [(n, e.mean, e.ci_low, e.ci_high) for n in names
                if (e := strategies[n].metrics.get(metric)) is not None and e.mean is not None]
        if bars:
            charts.append(f'<div class="chart"><h4>{escape(metric)}</h4>'
                          f"{interval_bars(bars, spec.low, spec.high, width=340, title=metric)}"
                          "</div>")
    note = ('<p class="note">Each cell: the mean of the strategy\'s samples with its 95% '
            f"bootstrap interval; {escape(FEWER_NOTE)}. A composite's overall is the mean "
            "of its samples' own scores, as in the summary.</p>")
    if (constant := report.constant_note()) is not None:
        note += f'<p class="note">{escape(constant[0].upper() + constant[1:])}.</p>'
    return ('<section id="strategies"><h2>Strategies</h2>' + note
            + _table(["metric", *names], rows, set(range(1, len(names) + 1)))
            + '<div class="charts">' + "".join(charts) + "</div></section>")


def _distributions(report: Report) -> str:
    """A histogram per metric, with its median, spread and poor/perfect counts."""
    values: dict[str, list[float]] = {}
    for entry in report.entries:
        for m, v in entry.metrics.items():
            if v is not None:
                values.setdefault(m, []).append(float(v))
    charts = []
    for m, vs in values.items():
        spec = report.spec(m)
        low, high = (spec.low, spec.high) if spec is not None else (0.0, 1.0)
        d = report.per_metric_statistics.get(m)
        caption = "" if d is None else (
            f"<p>median {shown(d.median)}, sd {shown(d.std_dev)}, range {shown(d.min)}-"
            f"{shown(d.max)}; poor {d.poor_count}, perfect {d.perfect_count} of "
            f"{d.sample_count}</p>")
        charts.append(f'<div class="chart"><h4>{escape(m)}</h4>'
                      f"{histogram(vs, low, high, title=m)}{caption}</div>")
    if not charts:
        return ""
    return ('<section id="distributions"><h2>Distributions</h2><div class="charts">'
            + "".join(charts) + "</div></section>")


def _diagnostics(report: Report, shown_ids: set[str]) -> str:
    """The rules that fired: the finding (with its caveat, where its metrics' judge agrees
    weakly with people), its rule on its metrics' scales, the fix, how many samples (and
    how many its exemption cleared), the worst ones (linked to their card when it is on
    the page)."""
    only = next(iter(report.strategies)) if len(report.strategies) == 1 else None

    def link(key: str) -> str:
        # a run of one strategy names its samples by id alone (`stats.diagnostics`)
        strategy, _, sid = (only, "", key) if only is not None else key.partition("/")
        where = (anchor(strategy, sid) if f"{strategy}/{sid}" in shown_ids
                 else row_anchor(strategy, sid))
        return f'<a href="#{where}">{escape(key)}</a>'

    rows = [[_Raw(escape(d.message) + (f'<br><span class="note">{escape(d.caveat_text)}</span>'
                                        if d.caveat_text else "")),
             d.rule_text, d.fix, d.samples_text,
             _Raw(", ".join(link(k) for k in d.worst_samples))]
            for d in report.diagnostics if d.fired]
    body = (_table(["finding", "rule (per sample)", "fix", "samples", "worst samples"], rows,
                   {3}) if rows
            else "<p>No diagnostic rule fired.</p>")
    return f'<section id="diagnostics"><h2>Diagnostics</h2>{body}</section>'


def _agreement(report: Report) -> str:
    """Agreement with the data's human labels, and the metrics' correlations."""
    out = ""
    cal = report.calibration.pairs if report.calibration else []
    if cal:
        rows = [[c.label, c.metric, c.n, getattr(c, "auroc", None),
                 getattr(c, "balanced_accuracy", None), getattr(c, "spearman", None),
                 getattr(c, "kendall", None)] for c in cal]
        out += "<h2>Agreement with human labels</h2>" + _table(
            ["label", "metric", "n", "AUROC", "balanced acc.", "Spearman", "Kendall"], rows,
            {2, 3, 4, 5, 6})
    corr = report.correlations
    if len(corr.metrics) >= 2:
        grid = [[corr.value(a, b) for b in corr.metrics] for a in corr.metrics]
        out += ("<h2>Metric correlations (Spearman)</h2>"
                f'<div class="charts"><div class="chart">{heatmap(corr.metrics, grid)}'
                "</div></div>")
    return f'<section id="agreement">{out}</section>' if out else ""


def _leaderboard(report: Report) -> str:
    """A bench run's stored leaderboard, best first: the leaderboard's columns
    (`LEADERBOARD_COLUMNS`, as the console and the dashboard show them), then each
    strategy against the best (`VERSUS_COLUMNS`) and the notes."""
    rows = report.leaderboard
    if not rows:
        error = report.leaderboard_error
        return f"<h2>Leaderboard</h2><p>{escape(str(error))}</p>" if error else ""
    body: list[list[Any]] = [[c.text(r) for c in LEADERBOARD_COLUMNS] for r in rows]
    numeric = {i for i, c in enumerate(LEADERBOARD_COLUMNS) if c.numeric}
    out = (f'<section id="leaderboard"><h2>Leaderboard by {escape(rows[0].metric)}</h2>'
           + _table(list(LEADERBOARD_HEADERS), body, numeric,
                    {LEADERBOARD_HEADERS.index("strategy")})
           + f'<p class="muted">{escape(LEADERBOARD_NOTE)}</p>')
    versus = versus_rows(rows)
    if versus:
        out += (f"<h3>Against the best ({escape(rows[0].strategy)})</h3>"
                + _table(list(VERSUS_HEADERS), [[c.text(r) for c in VERSUS_COLUMNS]
                                                 for r in versus],
                         {i for i, c in enumerate(VERSUS_COLUMNS) if c.numeric},
                         {VERSUS_HEADERS.index("strategy")})
                + f'<p class="muted">{escape(VERSUS_NOTE)}</p>')
    out += "".join(f'<p class="note">{escape(n)}</p>' for n in leaderboard_notes(rows))
    return out + "</section>"


def _usage(report: Report) -> str:
    u = report.usage
    rows = [["total", u.calls, u.input_tokens, u.output_tokens, u.cache_hits, u.cost_usd]]
    rows += [[suite, s.calls, s.input_tokens, s.output_tokens, s.cache_hits, s.cost_usd]
             for suite, s in u.by_suite.items()]
    invalid = ""
    if report.invalid_rows:
        invalid = "<h2>Invalid rows</h2>" + _table(
            ["id", "where", "reason"], [[r.id, r.source, r.reason] for r in report.invalid_rows])
    batch = f"<p>{escape(u.batch.describe())}</p>" if u.batch is not None else ""
    return ('<section id="usage"><h2>Judge usage and cost</h2>' + _table(
        ["suite", "calls", "input tokens", "output tokens", "cache hits", "cost $"], rows,
        {1, 2, 3, 4, 5}) + batch + invalid + "</section>")


NAV = (("summary", "Summary"), ("strategies", "Strategies"), ("distributions", "Distributions"),
       ("diagnostics", "Diagnostics"), ("worst", "Worst samples"), ("samples", "All samples"),
       ("usage", "Usage and cost"))
ROUTING_NAV = ("routing", "Judge routing")  # a cascade or a jury
PEOPLE_NAV = ("annotators", "Agreement between people")  # people's labels stored
GROUPS_NAV = ("groups", "By key")  # built by a metadata key (`--by KEY`): "By kind"


def _hops(report: Report) -> str:
    """The retrieval hops of a run read from traces, and the documents later hops lost."""
    hops = report.hops
    if hops is None:
        return ""
    out = (f'<section id="hops"><h2>Retrieval hops of {hops.traces} traces</h2>' + _table(
        ["hop", "kinds", "n", f"mean {HOP_RELEVANCE}", f"mean {HOP_UTILIZATION}"],
        [[p.position, ", ".join(f"{k} {n}" for k, n in p.kinds.items()), p.hops,
          p.mean_relevance, p.mean_utilization] for p in hops.by_position], {0, 2, 3, 4})
        + f'<p class="note">{_e(HOPS_NOTE)}</p>')
    if hops.samples_with_lost:
        out += (f"<h2>A later hop lost what an earlier hop found "
                f"({hops.samples_with_lost} traces)</h2>" + _table(
                    ["trace", "hop", "span", "document", DOCUMENT_RELEVANCE],
                    [[x.trace_id, x.hop, x.span_id, x.document, x.relevance]
                     for x in hops.lost], {1, 4}))
    return out + "</section>"


def to_html(report: Report) -> str:
    """Render a report as one HTML page with no external resources."""
    report = published(report)
    meta = report.run
    worst = worst_section(report)
    shown_ids = {f"{e.strategy}/{e.id}" for e in report.entries
                 if isinstance(e, SampleEntry) and f'id="{anchor(e.strategy, e.id)}"' in worst}
    cor = report.corrected  # its link says the section's title
    extra = [n for n, on in ((("corrected", corrected_heading(cor) if cor else ""),
                              cor is not None),
                             (PEOPLE_NAV, report.annotators is not None),
                             (ROUTING_NAV, report.routing is not None),
                             (("groups", f"By {report.groups.key}") if report.groups
                              else GROUPS_NAV, report.groups is not None)) if on]
    links = (NAV[0], *extra, *NAV[1:])
    nav = "<nav>" + "".join(f'<a href="#{k}">{escape(v)}</a>'
                            for k, v in links) + "</nav>"
    body = (f"<header><h1>RAG evaluation: {escape(PurePath(meta.dataset).name or meta.dataset)}"
            f"</h1>{_facts(report)}{nav}</header>"
            f"{_headline(report)}{_summary(report)}{_abstentions(report)}"
            f"{corrected_html(report)}{people_html(report)}{routing_html(report)}"
            f"{_leaderboard(report)}{_strategies(report)}{_groups(report)}{_hops(report)}"
            f"{_distributions(report)}{_diagnostics(report, shown_ids)}{_agreement(report)}"
            f"{worst}{all_samples(report)}{_usage(report)}")
    return (f'<!doctype html><html lang="en"><head><meta charset="utf-8">'
            f'<meta name="viewport" content="width=device-width, initial-scale=1">'
            f'<meta http-equiv="Content-Security-Policy" content="default-src \'none\'; '
            f'style-src \'unsafe-inline\'; img-src data:">'
            f"<title>ragassay {escape(meta.run_id)}</title>"
            f"<style>{CSS}{_marks_css()}</style></head><body>{body}</body></html>")


def _marks_css() -> str:
    """The sentence marks' rules (shared with the dashboard), without their style tag."""
    return MARKS_CSS.replace("<style>", "").replace("</style>", "")
