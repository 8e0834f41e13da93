"""A self-contained HTML report: tables and SVG charts, no script, all text escaped."""

from __future__ import annotations

from html import escape
from typing import Any

from ragassay.report.corrected_html import corrected_html
from ragassay.report.model import FailedEntry, Report, published
from ragassay.report.svg import heatmap, histogram, interval_bars
from ragassay.stats import Interval

CSS = """
body{font-family:system-ui,sans-serif;margin:2rem;color:#222;max-width:1200px}
table{border-collapse:collapse;margin:.5rem 0 1.5rem}
td,th{border:1px solid #ccc;padding:.25rem .5rem;text-align:right;vertical-align:top}
td:first-child,th:first-child{text-align:left}
.warning{color:#b00}.good{color:#070}.muted{color:#777}
.charts{display:flex;flex-wrap:wrap;gap:1rem}.chart{border:1px solid #eee;padding:.5rem}
pre{white-space:pre-wrap;max-width:60rem;background:#f7f7f7;padding:.5rem}
"""


def _e(value: Any) -> str:
    if value is None:
        return '<span class="muted">-</span>'
    if isinstance(value, float):
        return f"{value:.3f}"
    return escape(str(value))


def _table(headers: list[str], rows: list[list[Any]]) -> str:
    head = "".join(f"<th>{escape(h)}</th>" for h in headers)
    body = "".join("<tr>" + "".join(f"<td>{_e(c)}</td>" for c in row) + "</tr>" for row in rows)
    return f"<table><thead><tr>{head}</tr></thead><tbody>{body}</tbody></table>"


def _ci(entry: Interval) -> str:
    return entry.text()


def _aggregates(report: Report) -> str:
    rows = [[m, e.mean, _ci(e), e.count, e.unscored]
            for m, e in report.aggregate_metrics.metrics.items()]
    return "<h2>Aggregate metrics</h2>" + _table(
        ["metric", "mean", "95% CI", "scored", "unscored"], rows)


def _strategies(report: Report) -> str:
    strategies = report.strategies
    if not strategies:
        return ""
    figures = next(iter(strategies.values())).figure_fields  # the composites' own fields
    keys = [*dict.fromkeys(figures), "total_questions", "failed_questions"]
    rows = [[name] + [s.figure(k) for k in keys] for name, s in strategies.items()]
    out = "<h2>Strategies</h2>" + _table(["strategy", *keys], rows)
    charts = []
    for metric, spec in report.metric_specs.items():
        bars = []
        for name, s in strategies.items():
            e = s.metrics.get(metric)
            if e and e.mean is not None:
                bars.append((name, e.mean, e.ci_low, e.ci_high))
        if bars:
            charts.append(f'<div class="chart"><h4>{escape(metric)}</h4>'
                          f'{interval_bars(bars, spec.low, spec.high, title=metric)}</div>')
    return out + '<div class="charts">' + "".join(charts) + "</div>"


def _distributions(report: Report) -> str:
    keys = ["mean", "median", "std_dev", "min", "max", "percentile_25", "percentile_75",
            "perfect_count", "poor_count", "sample_count", "unscored_count"]
    rows = [[m] + [getattr(s, k) for k in keys] for m, s in report.per_metric_statistics.items()]
    charts = []
    values: dict[str, list[float]] = {}
    for entry in report.entries:
        for m, v in entry.metrics.items():
            if v is not None:
                values.setdefault(m, []).append(float(v))
    for m, vs in values.items():
        spec = report.spec(m)
        low, high = (spec.low, spec.high) if spec is not None else (0.0, 1.0)
        charts.append(f'<div class="chart"><h4>{escape(m)}</h4>'
                      f'{histogram(vs, low, high, title=m)}</div>')
    consistency = [[m, r.mean, r.std_dev, r.variance, r.count]
                   for m, r in report.rmse_metrics.items()]
    return ("<h2>Distributions</h2>" + _table(["metric", *keys], rows)
            + '<div class="charts">' + "".join(charts) + "</div>"
            + "<h2>Metric consistency</h2>"
            + _table(["metric", "mean", "std_dev", "variance", "count"], consistency))


def _correlations(report: Report) -> str:
    corr = report.correlations
    names = corr.metrics
    if len(names) < 2:
        return ""
    grid = [[corr.value(a, b) for b in names] for a in names]
    return "<h2>Metric correlations (Spearman)</h2>" + heatmap(names, grid)


def _findings(report: Report) -> str:
    rows = [[f.scope, f.metric, f.value, f.level, f.message] for f in report.interpretation]
    out = "<h2>Interpretation</h2>" + _table(["scope", "metric", "value", "level", "message"],
                                             rows)
    rows = [[d.rule, d.message, d.fix, d.count, ", ".join(d.worst_samples)]
            for d in report.diagnostics if d.fired]
    out += "<h2>Diagnostics</h2>" + (_table(["rule", "finding", "fix", "samples", "worst"], rows)
                                     if rows else "<p>No diagnostic rule fired.</p>")
    cal = report.calibration.pairs if report.calibration else []
    if cal:
        rows = [[c.label, c.metric, c.n, getattr(c, "auroc", None),
                 getattr(c, "balanced_accuracy", None), getattr(c, "spearman", None),
                 getattr(c, "kendall", None)] for c in cal]
        out += "<h2>Agreement with human labels</h2>" + _table(
            ["label", "metric", "n", "AUROC", "balanced acc.", "Spearman", "Kendall"], rows)
    return out


def _shown(value: Any) -> str:
    """A metric value as the tables show it: 3 decimals, yes/no, never Python's None."""
    if isinstance(value, bool):
        return "yes" if value else "no"
    if isinstance(value, float):
        return f"{value:.3f}"
    return str(value)


def _samples(report: Report, limit: int = 500) -> str:
    """Per sample: its values (unscored ones in their own column, with the reason); an
    invalid row shows why it was not scored."""
    rows = []
    for entry in report.entries[:limit]:
        metrics = "\n".join(f"{m}: {_shown(v)}" for m, v in entry.metrics.items()
                            if v is not None)
        unscored = "\n".join(f"{m}: {r}" for m, r in entry.unscored.items())
        texts = ("", "")
        if isinstance(entry, FailedEntry):
            unscored = f"invalid row: {entry.error}"
        else:
            texts = (entry.question, entry.answer)
        rows.append("<tr>" + "".join(f"<td><pre>{escape(str(c))}</pre></td>" for c in (
            entry.id, entry.strategy, *texts, metrics, unscored, entry.reasoning or ""))
            + "</tr>")
    head = "".join(f"<th>{h}</th>" for h in ("id", "strategy", "question", "answer", "metrics",
                                             "unscored", "reasoning"))
    return (f"<h2>Samples</h2><table><thead><tr>{head}</tr></thead>"
            f"<tbody>{''.join(rows)}</tbody></table>")


def _ms(seconds: Any) -> Any:
    return None if seconds is None else round(float(seconds) * 1000, 1)


def _leaderboard(report: Report) -> str:
    """A bench run's stored leaderboard, best first, with cost and latency."""
    rows = report.leaderboard
    if not rows:
        error = report.leaderboard_error
        return f"<h2>Leaderboard</h2><p>{escape(str(error))}</p>" if error else ""
    metric = rows[0].metric
    body = [[r.rank, r.strategy, r.kind, r.mean, _ci(r.interval), r.vs_best, r.failed,
             r.retrieval_recall, r.retrieval_mrr, _ms(r.answer_p50_s), _ms(r.answer_p95_s),
             r.cost_estimate_usd, r.cost_measured_usd] for r in rows]
    return (f"<h2>Leaderboard by {escape(str(metric))}</h2>" + _table(
        ["#", "strategy", "kind", "mean", "95% CI", "vs best", "failed", "recall", "mrr",
         "answer p50 ms", "answer p95 ms", "estimated $", "measured $"], body))


def _hops(report: Report) -> str:
    """The retrieval hops of a run read from traces, and the documents later hops lost."""
    hops = report.hops
    if hops is None:
        return ""
    out = f"<h2>Retrieval hops of {hops.traces} traces</h2>" + _table(
        ["hop", "kinds", "n", "mean relevance", "mean utilization"],
        [[p.position, ", ".join(f"{k} {n}" for k, n in p.kinds.items()), p.hops,
          p.mean_relevance, p.mean_utilization] for p in hops.by_position])
    if hops.samples_with_lost:
        out += (f"<h2>A later hop lost what an earlier hop found "
                f"({hops.samples_with_lost} traces)</h2>" + _table(
                    ["trace", "hop", "span", "document", "relevance"],
                    [[x.trace_id, x.hop, x.span_id, x.document, x.relevance]
                     for x in hops.lost]))
    return out


def to_html(report: Report) -> str:
    """Render a report as one HTML page with no external resources."""
    report = published(report)
    meta = report.run.model_dump(mode="json")
    usage = report.usage
    header = _table(["field", "value"], [[k, v if not isinstance(v, dict | list) else str(v)]
                                         for k, v in meta.items()])
    usage_t = _table(["calls", "input tokens", "output tokens", "cache hits"], [[
        usage.calls, usage.input_tokens, usage.output_tokens, usage.cache_hits]])
    body = (f"<h1>ragassay report {escape(report.run.run_id)}</h1>{header}"
            f"<h2>Usage</h2>{usage_t}{_leaderboard(report)}{_aggregates(report)}"
            f"{corrected_html(report)}"
            f"{_strategies(report)}{_hops(report)}"
            f"{_distributions(report)}{_correlations(report)}{_findings(report)}"
            f"{_samples(report)}")
    return (f'<!doctype html><html lang="en"><head><meta charset="utf-8">'
            f'<meta http-equiv="Content-Security-Policy" content="default-src \'none\'; '
            f'style-src \'unsafe-inline\'; img-src data:">'
            f"<title>ragassay {escape(report.run.run_id)}</title><style>{CSS}</style>"
            f"</head><body>{body}</body></html>")
