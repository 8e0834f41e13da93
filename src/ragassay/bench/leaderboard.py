"""The leaderboard: strategies ranked by a metric's mean, with its CI, and a paired
significance verdict of each strategy against the best (ragassay.stats)."""

from __future__ import annotations

from typing import Any

from ragassay.bench.run import RETRIEVAL_METRICS, BenchResult
from ragassay.stats import CompareOptions, ScoreTable, compare_strategies
from ragassay.stats.strategies import GUIDE_METRICS, overall_score
from ragassay.stats.table import Row
from ragassay.types import MetricSpec

OVERALL = "judge.overall"


def metric_stats(entry: dict[str, Any], metric: str) -> dict[str, float | None]:
    """{mean, ci_low, ci_high} of `metric` in one report["strategies"] entry. The judge
    guide's composite (`judge.overall`) lives beside "metrics" with its interval."""
    m = (entry.get("metrics") or {}).get(metric)
    if isinstance(m, dict):
        return {k: m.get(k) for k in ("mean", "ci_low", "ci_high")}
    key = metric.split(".", 1)[-1]
    if key in entry:
        ci = (entry.get("intervals") or {}).get(key) or [None, None]
        return {"mean": entry[key], "ci_low": ci[0], "ci_high": ci[1]}
    return {"mean": None, "ci_low": None, "ci_high": None}


def _qid(row: dict[str, Any]) -> str:
    """Bench sample ids are `<strategy>::<question id>`."""
    sid, strategy = str(row.get("id", "")), str(row.get("strategy", ""))
    return sid.removeprefix(f"{strategy}::")


def table_from_report(report: dict[str, Any], metric: str) -> ScoreTable | None:
    """A one-metric ScoreTable from report["detailed_results"], paired by question id.
    `judge.overall` is computed per sample from the guide's four metrics."""
    spec_data = (report.get("metric_specs") or {}).get(metric)
    rows = []
    for r in report.get("detailed_results") or []:
        if r.get("status") != "ok":
            continue
        values = r.get("metrics") or {}
        if metric == OVERALL:
            parts = [values.get(m) for m in GUIDE_METRICS.values()]
            nums = [float(p) for p in parts if p is not None]
            v = float(overall_score(*nums)) if len(nums) == len(parts) else None
        else:
            raw = values.get(metric)
            v = None if raw is None else float(raw)
        rows.append(Row(id=_qid(r), strategy=str(r.get("strategy")), question=str(
            r.get("question", "")), question_id=_qid(r), values={metric: v}))
    if not rows:
        return None
    if spec_data:
        spec = MetricSpec(name=metric, **{k: spec_data[k] for k in (
            "low", "high", "kind", "higher_is_better") if k in spec_data})
    else:
        spec = MetricSpec(name=metric, low=0.0, high=10.0 if metric == OVERALL else 1.0)
    return ScoreTable.from_rows(rows, {metric: spec})


def leaderboard(
    report: dict[str, Any], bench: BenchResult, rank_by: str | None = None,
    *, alpha: float = 0.05, seed: int = 0,
) -> list[dict[str, Any]]:
    """One row per strategy, best first by the mean of `rank_by` (unscored last).

    `vs_best` is the paired verdict (Holm-adjusted Wilcoxon + bootstrap CI, from
    ragassay.stats.compare_strategies) of each strategy against the top one:
    "worse" marks a significant gap; "no detectable difference" means the data
    cannot separate them. Each row also carries the bench's own figures.
    """
    metric = rank_by or bench.rank_by
    strategies = report.get("strategies") or {}
    spec = (report.get("metric_specs") or {}).get(metric) or {}
    sign = 1.0 if spec.get("higher_is_better", True) else -1.0
    rows: list[dict[str, Any]] = []
    for s in bench.strategies:
        st = metric_stats(strategies.get(s.name) or {}, metric)
        rows.append({
            "strategy": s.name, "metric": metric, **st,
            **{f"retrieval.{m}": s.retrieval.get(m) for m in RETRIEVAL_METRICS},
            "no_answer_rate": s.no_answer_rate,
            "index_time_s": s.index_time_s,
            "retrieval_p50_s": s.retrieval_p50_s, "retrieval_p95_s": s.retrieval_p95_s,
            "answer_p50_s": s.answer_p50_s, "answer_p95_s": s.answer_p95_s,
            "cost_estimate_usd": s.cost_estimate.usd,
            "cost_measured_usd": s.cost_measured.usd if s.cost_measured else None,
        })
    rows.sort(key=lambda r: (r["mean"] is None, -sign * (r["mean"] or 0.0)))
    table = table_from_report(report, metric)
    best = rows[0]["strategy"] if rows and rows[0]["mean"] is not None else None
    for rank, row in enumerate(rows, 1):
        row["rank"] = rank if row["mean"] is not None else None
        row["vs_best"], row["p_adjusted"] = None, None
        if best is None or row["mean"] is None or table is None:
            continue
        if row["strategy"] == best:
            row["vs_best"] = "best"
            continue
        opts = CompareOptions(alpha=alpha, seed=seed)
        cmp = compare_strategies(table, best, row["strategy"], opts)
        res = cmp["metrics"].get(metric) or {}
        row["vs_best"] = res.get("verdict")
        row["p_adjusted"] = res.get("p_adjusted")
    return rows


def leaderboard_table(rows: list[dict[str, Any]]) -> Any:
    """A rich Table of leaderboard rows, for the CLI."""
    from rich.markup import escape
    from rich.table import Table

    def f(v: Any, nd: int = 3) -> str:
        return "—" if v is None else (f"{v:.{nd}f}" if isinstance(v, float) else str(v))

    metric = rows[0]["metric"] if rows else ""
    t = Table(title=f"Leaderboard by {metric}")
    for col in ("#", "strategy", "mean", "95% CI", "vs best", "recall", "mrr", "ndcg",
                "no-answer", "index s", "retr p95 ms", "ans p95 ms", "est $", "meas $"):
        t.add_column(col)
    for r in rows:
        ci = "—" if r["ci_low"] is None else f"[{f(r['ci_low'])}, {f(r['ci_high'])}]"
        t.add_row(
            f(r["rank"]), escape(r["strategy"]), f(r["mean"]), ci, f(r["vs_best"]),
            f(r["retrieval.recall"], 2), f(r["retrieval.mrr"], 2), f(r["retrieval.ndcg"], 2),
            f(r["no_answer_rate"], 2), f(r["index_time_s"], 2),
            f(None if r["retrieval_p95_s"] is None else r["retrieval_p95_s"] * 1000, 1),
            f(None if r["answer_p95_s"] is None else r["answer_p95_s"] * 1000, 1),
            f(r["cost_estimate_usd"], 4), f(r["cost_measured_usd"], 4),
        )
    return t
