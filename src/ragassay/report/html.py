"""A self-contained HTML report: tables and SVG charts, no script, all text escaped."""

from __future__ import annotations

from html import escape
from typing import Any

from ragassay.report.svg import heatmap, histogram, interval_bars
from ragassay.stats.describe import interval_text

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


def _ci(entry: dict[str, Any]) -> str:
    n = entry.get("count") or entry.get("n")
    return interval_text(entry.get("ci_low"), entry.get("ci_high"), n)


def _aggregates(report: dict[str, Any]) -> str:
    metrics = report.get("aggregate_metrics", {}).get("metrics", {})
    rows = [[m, e.get("mean"), _ci(e), e.get("count"), e.get("unscored")]
            for m, e in metrics.items()]
    return "<h2>Aggregate metrics</h2>" + _table(
        ["metric", "mean", "95% CI", "scored", "unscored"], rows)


def _strategies(report: dict[str, Any]) -> str:
    strategies = report.get("strategies", {})
    if not strategies:
        return ""
    keys = ["avg_context_relevance", "avg_answer_similarity", "avg_faithfulness",
            "hallucination_rate", "overall", "total_questions", "failed_questions"]
    rows = [[name] + [s.get(k) for k in keys] for name, s in strategies.items()]
    out = "<h2>Strategies</h2>" + _table(["strategy", *keys], rows)
    specs = report.get("metric_specs", {})
    charts = []
    for metric, spec in specs.items():
        bars = []
        for name, s in strategies.items():
            e = s.get("metrics", {}).get(metric)
            if e and e.get("mean") is not None:
                bars.append((name, e["mean"], e.get("ci_low"), e.get("ci_high")))
        if bars:
            charts.append(f'<div class="chart"><h4>{escape(metric)}</h4>'
                          f'{interval_bars(bars, spec["low"], spec["high"], title=metric)}</div>')
    return out + '<div class="charts">' + "".join(charts) + "</div>"


def _distributions(report: dict[str, Any]) -> str:
    stats = report.get("per_metric_statistics", {})
    keys = ["mean", "median", "std_dev", "min", "max", "percentile_25", "percentile_75",
            "perfect_count", "poor_count", "sample_count", "unscored_count"]
    rows = [[m] + [s.get(k) for k in keys] for m, s in stats.items()]
    charts = []
    specs = report.get("metric_specs", {})
    values: dict[str, list[float]] = {}
    for entry in report.get("detailed_results", []):
        for m, v in entry.get("metrics", {}).items():
            if v is not None:
                values.setdefault(m, []).append(float(v))
    for m, vs in values.items():
        spec = specs.get(m, {"low": 0.0, "high": 1.0})
        charts.append(f'<div class="chart"><h4>{escape(m)}</h4>'
                      f'{histogram(vs, spec["low"], spec["high"], title=m)}</div>')
    rmse = report.get("rmse_metrics", {})
    consistency = [[m, r.get("mean"), r.get("std_dev"), r.get("variance"), r.get("count")]
                   for m, r in rmse.items()]
    return ("<h2>Distributions</h2>" + _table(["metric", *keys], rows)
            + '<div class="charts">' + "".join(charts) + "</div>"
            + "<h2>Metric consistency</h2>"
            + _table(["metric", "mean", "std_dev", "variance", "count"], consistency))


def _correlations(report: dict[str, Any]) -> str:
    corr = report.get("correlations", {})
    names, matrix = corr.get("metrics", []), corr.get("matrix", {})
    if len(names) < 2:
        return ""
    grid = [[matrix.get(a, {}).get(b) for b in names] for a in names]
    return "<h2>Metric correlations (Spearman)</h2>" + heatmap(names, grid)


def _findings(report: dict[str, Any]) -> str:
    flags = report.get("interpretation", [])
    rows = [[f.get("scope"), f.get("metric"), f.get("value"), f.get("level"), f.get("message")]
            for f in flags]
    out = "<h2>Interpretation</h2>" + _table(["scope", "metric", "value", "level", "message"],
                                             rows)
    diag = [d for d in report.get("diagnostics", []) if d.get("fired")]
    rows = [[d.get("rule"), d.get("message"), d.get("fix"), d.get("count"),
             ", ".join(d.get("worst_samples", []))] for d in diag]
    out += "<h2>Diagnostics</h2>" + (_table(["rule", "finding", "fix", "samples", "worst"], rows)
                                     if rows else "<p>No diagnostic rule fired.</p>")
    cal = report.get("calibration", {}).get("pairs", [])
    if cal:
        rows = [[c.get("label"), c.get("metric"), c.get("n"), c.get("auroc"),
                 c.get("balanced_accuracy"), c.get("spearman"), c.get("kendall")] for c in cal]
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


def _samples(report: dict[str, Any], limit: int = 500) -> str:
    """Per sample: its values (unscored ones in their own column, with the reason); an
    invalid row shows why it was not scored."""
    rows = []
    for entry in report.get("detailed_results", [])[:limit]:
        metrics = "\n".join(f"{m}: {_shown(v)}" for m, v in entry.get("metrics", {}).items()
                            if v is not None)
        unscored = "\n".join(f"{m}: {r}" for m, r in entry.get("unscored", {}).items())
        if entry.get("status") == "failed":
            unscored = f"invalid row: {entry.get('error', '')}"
        rows.append("<tr>" + "".join(f"<td><pre>{escape(str(c))}</pre></td>" for c in (
            entry.get("id"), entry.get("strategy"), entry.get("question", ""),
            entry.get("answer", ""), metrics, unscored, entry.get("reasoning") or "")) + "</tr>")
    head = "".join(f"<th>{h}</th>" for h in ("id", "strategy", "question", "answer", "metrics",
                                             "unscored", "reasoning"))
    return (f"<h2>Samples</h2><table><thead><tr>{head}</tr></thead>"
            f"<tbody>{''.join(rows)}</tbody></table>")


def _ms(seconds: Any) -> Any:
    return None if seconds is None else round(float(seconds) * 1000, 1)


def _leaderboard(report: dict[str, Any]) -> str:
    """A bench run's stored leaderboard, best first, with cost and latency."""
    rows = report.get("leaderboard")
    if not rows:
        error = report.get("leaderboard_error")
        return f"<h2>Leaderboard</h2><p>{escape(str(error))}</p>" if error else ""
    metric = rows[0].get("metric", "")
    body = [[r.get("rank"), r.get("strategy"), r.get("kind"), r.get("mean"),
             _ci(r), r.get("vs_best"), r.get("failed"), r.get("retrieval.recall"),
             r.get("retrieval.mrr"), _ms(r.get("answer_p50_s")), _ms(r.get("answer_p95_s")),
             r.get("cost_estimate_usd"), r.get("cost_measured_usd")] for r in rows]
    return (f"<h2>Leaderboard by {escape(str(metric))}</h2>" + _table(
        ["#", "strategy", "kind", "mean", "95% CI", "vs best", "failed", "recall", "mrr",
         "answer p50 ms", "answer p95 ms", "estimated $", "measured $"], body))


def to_html(report: dict[str, Any]) -> str:
    """Render a report dictionary as one HTML page with no external resources."""
    meta = report["evaluation_metadata"]
    usage = report.get("usage", {})
    header = _table(["field", "value"], [[k, v if not isinstance(v, dict | list) else str(v)]
                                         for k, v in meta.items()])
    usage_t = _table(["calls", "input tokens", "output tokens", "cache hits"], [[
        usage.get("calls"), usage.get("input_tokens"), usage.get("output_tokens"),
        usage.get("cache_hits")]])
    body = (f"<h1>ragassay report {escape(str(meta.get('run_id')))}</h1>{header}"
            f"<h2>Usage</h2>{usage_t}{_leaderboard(report)}{_aggregates(report)}"
            f"{_strategies(report)}"
            f"{_distributions(report)}{_correlations(report)}{_findings(report)}"
            f"{_samples(report)}")
    return (f'<!doctype html><html lang="en"><head><meta charset="utf-8">'
            f'<meta http-equiv="Content-Security-Policy" content="default-src \'none\'; '
            f'style-src \'unsafe-inline\'; img-src data:">'
            f"<title>ragassay {escape(str(meta.get('run_id')))}</title><style>{CSS}</style>"
            f"</head><body>{body}</body></html>")
