"""`ragassay meta-eval`: how well does a judge agree with people?"""

from __future__ import annotations

from pathlib import Path

import click

from ragassay.cli.app import cli, write_data
from ragassay.cli.calibrate import left_out, print_calibration
from ragassay.cli.common import (
    JUDGE_SPEC_HELP,
    FiniteFloat,
    StoreLocation,
    UsageProblem,
    check_base_url,
    check_judge_spec,
    db_option,
    executed,
    field_map,
    friendly,
    header_option,
    headers,
    map_option,
    open_store,
    planned,
    ratings_option,
    refuse_overwrites,
    say,
    sigterm_interrupts,
)
from ragassay.terminal import counted
from ragassay.types import Ratings


@cli.command("meta-eval")
@click.argument("data", type=click.Path(path_type=Path))
@click.option("--judge", "judge_spec", default="offline", show_default=True,
              help=JUDGE_SPEC_HELP + ".")
@click.option("--base-url", default=None,
              help="OpenAI-compatible endpoint for the judge (credentials in it are refused).")
@header_option
@map_option
@click.option("--metrics", default="all", show_default=True)
@click.option("--split", default=None,
              help="Only samples whose metadata.split equals this (e.g. eval: held apart "
                   "from what the offline judge was fitted on).")
@click.option("--limit", type=click.IntRange(1), default=None, help="At most this many samples.")
@click.option("--concurrency", type=click.IntRange(1, 1024), default=8, show_default=True)
@click.option("--n-resamples", type=click.IntRange(100), default=2000, show_default=True)
@click.option("--out", type=click.Path(dir_okay=False, path_type=Path), default=None,
              help="Write the agreement figures (and run id) as JSON.")
@click.option("--timeout", "timeout_s", type=FiniteFloat(1), default=60, show_default=True,
              help="Seconds per judge call before it is retried.")
@click.option("--max-context-tokens", type=click.IntRange(100), default=6000, show_default=True,
              help="Contexts beyond this budget are truncated (the results name the "
                   "texts cut).")
@ratings_option
@click.option("--quiet", "-q", is_flag=True)
@db_option
@friendly
def meta_eval_cmd(data: Path, judge_spec: str, base_url: str | None,
                  headers_given: tuple[str, ...], mapping_given: tuple[str, ...], metrics: str,
                  split: str | None, limit: int | None, concurrency: int, n_resamples: int,
                  out: Path | None, timeout_s: float, max_context_tokens: int, ratings: Ratings,
                  quiet: bool, db: StoreLocation) -> None:
    """Run a judge over human-labelled samples; report AUROC, Spearman, Kendall,
    balanced accuracy with bootstrap 95% CIs, beside the lexical baseline."""
    from ragassay.console import RichProgress
    from ragassay.dataset import iter_samples
    from ragassay.report import run_table
    from ragassay.runner import RowsSource, RunRequest
    from ragassay.stats import calibration
    from ragassay.types import Sample

    judge_spec, base_url = check_judge_spec(judge_spec), check_base_url(base_url)
    mapping, extra_headers = field_map(mapping_given), headers(headers_given)
    refuse_overwrites([("--out", out)], db=db, inputs=[(f"the dataset ({data})", data)])
    samples = [s for s in iter_samples(data, field_map=mapping) if isinstance(s, Sample)
               and (split is None or s.metadata.get("split") == split)]
    if limit:
        samples = samples[:limit]
    if not samples:
        raise UsageProblem(f"{data}: no samples" + (f" with split {split!r}" if split else ""))
    if not any(s.labels for s in samples):
        raise UsageProblem(f"{data}: no sample carries human 'labels'")
    plan = planned(RunRequest(
        RowsSource(samples, field_map=mapping or None, name=str(data), path=data),
        lambda: open_store(db),
        metrics=metrics, judge=judge_spec, endpoints=(base_url,) if base_url else (),
        headers=extra_headers, timeout_s=timeout_s, concurrency=concurrency,
        max_context_tokens=max_context_tokens, ratings=ratings, kind="meta-eval",
        split=split, limit=limit))
    for note in plan.notes:  # a label name with a typo would be measured against nothing
        say(note.text, err=True)
    with sigterm_interrupts():
        stats = executed(plan, RichProgress(enabled=not quiet)).stats
    store = plan.store
    cal = calibration(run_table(store, stats.run_id).table, seed=0, n_resamples=n_resamples)
    say(f"run {stats.run_id}: {counted(len(samples), 'sample')} of {data}"
        + (f" (split {split})" if split else "") + f", judge {judge_spec}")
    print_calibration(cal)
    if out is not None:
        write_data({"run_id": stats.run_id, "dataset": str(data), "split": split,
                    "judge": judge_spec, "ratings": ratings, "samples": len(samples),
                    "seconds": stats.seconds, "usage": stats.usage.model_dump(),
                    "calibration": cal.model_dump(), "left_out": left_out(cal),
                    "beats_baseline": [{"label": p.label, "metric": p.metric, "n": p.n,
                                        **b.model_dump()} for p in cal.pairs
                                       if (b := getattr(p, "baseline", None)) is not None]},
                   out)
