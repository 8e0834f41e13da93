"""`ragassay bench`: rank chunking and retrieval strategies end to end."""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING

import click

from ragassay.cli.app import cli, write_report
from ragassay.cli.common import (
    JUDGE_SPEC_HELP,
    FiniteFloat,
    StoreLocation,
    UsageProblem,
    check_base_url,
    check_judge_spec,
    check_metric_names,
    console,
    db_option,
    friendly,
    known_metrics,
    open_store,
    refuse_overwrites,
    say,
    sigterm_interrupts,
)
from ragassay.terminal import counted

if TYPE_CHECKING:
    from ragassay.bench import BenchResult


@cli.command("bench")
@click.argument("config_path", metavar="CONFIG", type=click.Path(path_type=Path))
@click.option("--out", type=click.Path(dir_okay=False, path_type=Path), default=None,
              help="Write the report (with the leaderboard) as JSON.")
@click.option("--judge", "judge_spec", default=None,
              help="Override [bench] judge: " + JUDGE_SPEC_HELP + ".")
@click.option("--base-url", default=None,
              help="OpenAI-compatible endpoint of the judge (and of the generator, unless "
                   "[generation] base_url is set).")
@click.option("--generator", default=None,
              help="Override every strategy's generator (offline or openai:MODEL).")
@click.option("--limit", type=click.IntRange(1), default=None, help="Only the first N questions.")
@click.option("--no-cache", is_flag=True, help="Rebuild indexes and embeddings.")
@click.option("--timeout", "timeout_s", type=FiniteFloat(1), default=None,
              help="Seconds per judge or generator call before it is retried.")
@click.option("--max-strategies", type=click.IntRange(1), default=None, metavar="N",
              help="Allow a [grid] that expands to more strategies than 100.")
@click.option("--equivalence", type=FiniteFloat(0, min_open=True), default=None,
              metavar="MARGIN",
              help="Override [bench] equivalence: the ranking metric's practical-equivalence "
                   "margin on its own scale (default: the one the metric declares); a "
                   "strategy shown within it of the best is 'equivalent'.")
@click.option("--quiet", "-q", is_flag=True)
@db_option
@friendly
def bench_cmd(config_path: Path, out: Path | None, judge_spec: str | None, base_url: str | None,
              generator: str | None, limit: int | None, no_cache: bool,
              timeout_s: float | None, max_strategies: int | None, equivalence: float | None,
              quiet: bool, db: StoreLocation) -> None:
    """Build each strategy's index, answer the questions, judge, and rank the strategies."""
    from ragassay.bench import (
        LEADERBOARD_WIDTH,
        BenchOptions,
        ConfigError,
        PipelineSetupError,
        QuestionsError,
        leaderboard_table,
        load_config,
        run_bench,
    )
    from ragassay.bench.config import MAX_STRATEGIES
    from ragassay.console import RichProgress
    from ragassay.corpus import CorpusError
    from ragassay.report import build_report

    try:
        config = load_config(config_path, max_strategies=max_strategies or MAX_STRATEGIES)
    except ConfigError as exc:
        raise UsageProblem(str(exc)) from None
    refuse_overwrites([("--out", out)], db=db, inputs=[
        (f"the bench config ({config_path})", config_path),
        (f"the corpus ({config.bench.corpus})", config.path(config.bench.corpus)),
        (f"the questions ({config.bench.questions})", config.path(config.bench.questions))])
    grid = len(config.strategies) - len(config.file.strategy)
    if grid:  # even under -q: it says how much work was asked for
        say(f"{config_path.name}: {counted(len(config.strategies), 'strategy', 'strategies')}"
            f" ({grid} from [grid])",
            err=True)
    check_judge_spec(judge_spec or config.bench.judge)
    check_base_url(base_url)
    check_base_url(config.bench.base_url, f"{config_path.name}: bench.base_url")
    check_base_url(config.file.generation.base_url, f"{config_path.name}: generation.base_url")
    if config.bench.rank_by:
        check_metric_names([config.bench.rank_by], known_metrics(),
                           what=f"{config_path.name}: bench.rank_by")
    overrides = {k: v for k, v in (("judge", judge_spec), ("base_url", base_url),
                                   ("timeout_s", timeout_s), ("equivalence", equivalence))
                 if v}
    if overrides:
        bench = config.bench.model_copy(update=overrides)
        config = config.model_copy(update={"file": config.file.model_copy(update={
            "bench": bench})})
    gen_update: dict[str, object] = {"timeout_s": timeout_s} if timeout_s else {}
    if base_url and config.file.generation.base_url is None:
        gen_update["base_url"] = base_url
    if gen_update:
        generation = config.file.generation.model_copy(update=gen_update)
        config = config.model_copy(update={"file": config.file.model_copy(update={
            "generation": generation})})
    if generator:
        config = config.model_copy(update={"strategies": tuple(
            s.model_copy(update={"generator": generator}) for s in config.strategies)})
    store = open_store(db)
    tell = (lambda msg: None) if quiet else (lambda msg: say(msg, err=True))
    options = BenchOptions(limit=limit, use_cache=not no_cache, progress=tell,
                           judge_progress=RichProgress("judging", enabled=not quiet))
    try:
        with sigterm_interrupts():
            result = run_bench(config, store, options)
    except (CorpusError, QuestionsError, PipelineSetupError, ConfigError) as exc:
        raise UsageProblem(str(exc)) from None
    assert result.run_id is not None
    report = build_report(store, result.run_id, include_details=out is not None,
                          per_sample=out is not None)
    if report.leaderboard is None:
        _say_failures(result)  # why there is nothing to rank, before the error
        raise UsageProblem(f"{report.leaderboard_error or 'no leaderboard'} "
                           f"(run {result.run_id} is stored)")
    console(piped_width=LEADERBOARD_WIDTH).print(leaderboard_table(report.leaderboard))
    _say_failures(result)
    if out is not None:
        write_report(report, out)
        say(f"report written to {out}", err=True)
    say(f"run {result.run_id} stored in {db}", err=True)


def _say_failures(result: BenchResult) -> None:
    """One line per strategy with failed pipeline calls: how many, and the first reason."""
    for r in result.strategies:
        if r.failed:
            say(f"{r.name}: {r.failed} of {result.n_questions} questions failed (failed rows "
                f"in the report); first: {r.failures[0]}", err=True)
