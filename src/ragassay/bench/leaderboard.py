"""The leaderboard: strategies ranked by a metric's mean, with its CI, and a paired
significance verdict of each strategy against the best (ragassay.stats), read from the
bench's run in the store."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from ragassay.bench.config import BenchConfig
from ragassay.bench.result import RETRIEVAL_METRICS, BenchResult
from ragassay.report import (
    LEADERBOARD_COLUMNS,
    LEADERBOARD_NOTE,
    VERSUS_COLUMNS,
    VERSUS_NOTE,
    BenchFigures,
    BenchRecord,
    LeaderboardRow,
    leaderboard_notes,
    run_table,
    versus_rows,
)
from ragassay.stats import (
    CompareOptions,
    MetricComparison,
    ScoreTable,
    compare_strategies,
    holm,
    metric_ci,
    verdict,
)
from ragassay.store import Store
from ragassay.types import MetricSpec, RunMeta


class RankingError(ValueError):
    """The bench cannot rank by the metric asked for (one line, for the CLI)."""


def ranking_metric(specs: Mapping[str, MetricSpec], rank_by: str | None = None) -> str:
    """`rank_by`, or the run's metric its spec prefers for ranking (`MetricSpec.rank`). A
    run with no metric at all judged no question: every one is a failed row."""
    if not specs:
        raise RankingError("no question was judged: every pipeline call failed (failed "
                           "rows in the report)")
    if rank_by:
        if rank_by not in specs:
            raise RankingError(f"cannot rank by {rank_by!r}: the run has "
                               f"{', '.join(specs) or 'no metrics'}")
        return rank_by
    ranked = sorted((s.rank, i, n) for i, (n, s) in enumerate(specs.items())
                    if s.rank is not None)
    if not ranked:
        raise RankingError("no metric of this run declares a ranking role; set rank_by")
    return ranked[0][2]


def leaderboard(
    store: Store, bench: BenchResult, rank_by: str | None = None,
    *, alpha: float = 0.05, seed: int = 0, margin: float | None = None,
) -> list[LeaderboardRow]:
    """One row per strategy, best first by the mean of the ranking metric (unscored last).

    The run's scores are read from the store. `vs_best` is the paired verdict of each
    strategy against the top one (ragassay.stats.compare_strategies, with Holm's
    adjustment over all the strategies' comparisons): "equivalent" when the difference is
    shown to lie within the metric's equivalence margin (`margin`, else the one its spec
    declares), "worse" for a significant gap beyond it, "unclear" when the data can tell
    neither. Beside it: the difference with its interval, Cohen's d_av and the adjusted
    p-value; `constant` when the strategy scores each question as the best does. Each
    row also carries the bench's own figures.
    """
    if bench.run_id is None:
        raise RankingError("the bench has no judged run to rank")
    full = run_table(store, bench.run_id).table
    metric = ranking_metric(full.specs, rank_by or bench.rank_by)
    spec = full.specs[metric]
    table = ScoreTable(rows=full.rows, specs={metric: spec})
    sign = 1.0 if spec.higher_is_better else -1.0
    figures: list[dict[str, Any]] = []
    for s in bench.strategies:
        st = metric_ci(table.for_strategy(s.name), metric, seed=seed)
        figures.append({
            "strategy": s.name, "metric": metric, "mean": st.mean, "ci_low": st.ci_low,
            "ci_high": st.ci_high, "n": st.count,
            **{f"retrieval.{m}": s.retrieval.get(m) for m in RETRIEVAL_METRICS},
            "retrieval.n": s.retrieval_scored,
            "no_answer_rate": s.no_answer_rate,
            "index_time_s": s.index_time_s,
            "retrieval_p50_s": s.retrieval_p50_s, "retrieval_p95_s": s.retrieval_p95_s,
            "answer_p50_s": s.answer_p50_s, "answer_p95_s": s.answer_p95_s,
            "cost_estimate_usd": s.cost_estimate.usd,
            "cost_measured_usd": s.cost_measured.usd if s.cost_measured else None,
            "kind": "pipeline" if s.pipeline else "built-in", "failed": s.failed,
        })
    figures.sort(key=lambda r: (r["mean"] is None, -sign * (r["mean"] or 0.0)))
    best = figures[0]["strategy"] if figures and figures[0]["mean"] is not None else None
    options = CompareOptions(alpha=alpha, seed=seed,
                             margins={} if margin is None else {metric: margin})
    tested: dict[str, MetricComparison] = {}
    for row in figures:
        if best is not None and row["mean"] is not None and row["strategy"] != best:
            cmp = compare_strategies(table, best, row["strategy"], options)
            if metric in cmp.metrics:
                tested[row["strategy"]] = cmp.metrics[metric]
    # every strategy is tested against a best picked from the same data: Holm over all
    # of those comparisons, not one at a time
    adjusted = holm({s: r.wilcoxon_p for s, r in tested.items()})
    tost_adjusted = holm({s: r.tost_p for s, r in tested.items()})
    rows = []
    for rank, row in enumerate(figures, 1):
        name, res = row["strategy"], tested.get(row["strategy"])
        vs: dict[str, Any] = {"vs_best": "best" if name == best else None,
                              "p_adjusted": None}
        if res is not None:
            vs = {"vs_best": verdict(res, spec, alpha, adjusted[name], tost_adjusted[name]),
                  "p_adjusted": adjusted[name], "diff": res.diff, "diff_ci_low": res.ci_low,
                  "diff_ci_high": res.ci_high, "effect_size": res.effect_size,
                  "margin": res.margin, "tost_p_adjusted": tost_adjusted[name],
                  "constant": res.constant}
        rows.append(LeaderboardRow.model_validate({
            **row, "rank": rank if row["mean"] is not None else None, **vs}))
    return rows


LEADERBOARD_WIDTH = 150
"""The console width the leaderboard's 17 columns fit (numbers whole, headers and names
wrapped): what it asks of a pipe without COLUMNS (`console(piped_width=...)`)."""


def _rich_table(title: str, caption: str, columns: Any, rows: list[LeaderboardRow],
                wide: tuple[str, ...]) -> Any:
    from rich import box
    from rich.markup import escape
    from rich.table import Table

    t = Table(title=escape(title), caption=caption, box=box.SIMPLE_HEAD, show_edge=False,
              pad_edge=False, collapse_padding=True)
    cells = [[c.text(r) or "—" for c in columns] for r in rows]
    for i, c in enumerate(columns):
        # in LEADERBOARD_WIDTH, a number keeps its width and its header wraps; the
        # strategy's name takes the room left, wrapped at spaces; no word is cut
        word = max(len(w) for w in [w for row in cells for w in row[i].split()]
                   + c.header.split())
        t.add_column(c.header, justify="right" if c.numeric else "left",
                     width=word if c.numeric else None, overflow="fold",
                     min_width=word if c.header == "strategy" else None,
                     max_width=None if c.header in ("strategy", *wide) else word,
                     no_wrap=c.header in wide)
    for row in cells:
        t.add_row(*map(escape, row))
    return t


def leaderboard_table(rows: list[LeaderboardRow]) -> Any:
    """The leaderboard for the CLI, as rich renderables: the leaderboard's columns
    (`report.LEADERBOARD_COLUMNS`, as the HTML report and the dashboard show them), each
    strategy against the best (`report.VERSUS_COLUMNS`) and the notes."""
    from rich.console import Group
    from rich.markup import escape

    metric = rows[0].metric if rows else ""
    parts = [_rich_table(f"Leaderboard by {metric}", LEADERBOARD_NOTE, LEADERBOARD_COLUMNS,
                         rows, ("95% CI",))]
    versus = versus_rows(rows)
    if versus:
        parts.append(_rich_table(f"Against the best ({rows[0].strategy}) on {metric}",
                                 VERSUS_NOTE, VERSUS_COLUMNS, versus,
                                 ("95% CI of the difference",)))
    parts += [f"[bold]note:[/bold] {escape(n)}" for n in leaderboard_notes(rows)]
    return Group(*parts)


def bench_config_record(config: BenchConfig) -> dict[str, Any]:
    """The bench's config as stored with its run: the [bench], [generation] and [prices]
    tables and the resolved strategies; base URLs without query or userinfo, header
    values masked unless they name ${ENV} variables."""
    from ragassay.urls import redact_url

    bench = config.bench.model_dump(mode="json", by_alias=True)
    generation = config.file.generation.model_dump(mode="json")
    for table in (bench, generation):
        if table.get("base_url"):
            table["base_url"] = redact_url(table["base_url"])
    return {"bench": bench, "generation": generation,
            "prices": {k: v.model_dump(mode="json") for k, v in config.file.prices.items()},
            "strategies": [s.model_dump(mode="json") for s in config.strategies]}


def store_bench(store: Store, config: BenchConfig, result: BenchResult) -> None:
    """Save the bench with its run (run meta): the config, the per-strategy figures
    (cost, latency, retrieval, failures) and the leaderboard, so that `ragassay report`
    and the dashboard show it later. A ranking that cannot be made is recorded as such."""
    assert result.run_id is not None
    figures = BenchFigures.model_validate(result.model_dump(mode="json"))
    try:
        record = BenchRecord(config=bench_config_record(config), result=figures,
                             leaderboard=leaderboard(store, result,
                                                     margin=config.bench.equivalence))
    except RankingError as exc:
        record = BenchRecord(config=bench_config_record(config), result=figures,
                             leaderboard_error=str(exc))
    store.save_bench_record(result.run_id, record.stored())


def stored_bench(meta: RunMeta) -> BenchRecord | None:
    """The bench record a run's meta holds (see `store_bench`), or None."""
    return BenchRecord.read(meta.bench)
