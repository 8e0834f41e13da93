"""`evaluate` and `aevaluate`: data in, a stored run and its result object out."""

from __future__ import annotations

import asyncio
import os
import sys
import threading
from collections.abc import Iterable, Mapping, Sequence
from contextlib import suppress
from dataclasses import dataclass
from typing import Any

from ragassay.aio import loop_running, run_sync
from ragassay.api.options import EvalOptions
from ragassay.api.result import EvalResult
from ragassay.metrics import suites_of
from ragassay.store import DEFAULT_DB_PATH, Store
from ragassay.types import InvalidRow, RunConfig, Sample

StoreLike = Store | str | os.PathLike[str] | None


@dataclass
class _Prepared:
    items: list[Sample | InvalidRow]
    config: RunConfig
    store: Store
    dataset_hash: str | None
    progress: Any
    headers: dict[str, str]
    ray: Any = None  # the runner's RayOptions for engine="ray"


def check_judge(spec: str) -> str:
    """The judge spec, stripped, or ValueError saying what is wrong and what to type."""
    from ragassay.judge.spec import judge_spec_problem

    problem = judge_spec_problem(spec)
    if problem is not None:
        raise ValueError(problem)
    return (spec or "").strip()


def open_store(store: StoreLike) -> Store:
    """A Store as given, or opened at a path (default: .ragassay/ragassay.db, where the
    CLI and the dashboard look)."""
    if isinstance(store, Store):
        return store
    return Store(DEFAULT_DB_PATH if store is None else os.fspath(store))


def load_items(data: Any, opts: EvalOptions) -> tuple[list[Sample | InvalidRow], str,
                                                      str | None]:
    """(samples, dataset name, content hash) from a path, a DataFrame, a datasets.Dataset,
    rows (mappings), Samples, or one mapping (one sample). Checked like the CLI's input:
    a DatasetError for a bad row (unless skip_invalid) or when no row has an answer, or
    none contexts or a reference."""
    from ragassay.dataset import (
        DatasetError,
        check_dataset,
        check_items,
        dataset_fingerprint,
        iter_samples,
        load_samples,
    )
    from ragassay.dataset.check import unknown_columns

    field_map = dict(opts.field_map)
    if isinstance(data, str | os.PathLike):
        trace_map = {role: list(attrs) for role, attrs in opts.trace_map.items()}
        check = check_dataset(data, skip_invalid=opts.skip_invalid, field_map=field_map,
                              trace_map=trace_map)
        if check.problem():
            raise DatasetError(str(check.problem()))
        items = list(iter_samples(data, skip_invalid=opts.skip_invalid, field_map=field_map,
                                  trace_map=trace_map))
        return items, opts.dataset or str(data), dataset_fingerprint(data)
    kind = ("dataframe" if type(data).__name__ == "DataFrame" else
            "dataset" if _is_frame(data) else "rows")
    if isinstance(data, Mapping):
        data = [data]
    rows = list(data) if isinstance(data, Iterable) and not _is_frame(data) else data
    if isinstance(rows, list) and rows and all(isinstance(r, Sample | InvalidRow)
                                               for r in rows):
        items, kind = list(rows), "samples"
    else:
        items = load_samples(rows, skip_invalid=opts.skip_invalid,
                             name=opts.dataset or kind, field_map=field_map)
    name = opts.dataset or f"{kind}:{_content_id(items)}"
    check = check_items(items, name)
    check.unknown_columns = unknown_columns(rows, field_map)  # a misnamed answer column?
    problem = check.problem()
    if problem:
        raise DatasetError(problem.replace("--map ", "field_map "))
    return items, name, None


def _content_id(items: Sequence[Sample | InvalidRow]) -> str:
    """8 hex digits of the loaded rows' content: in-memory data gets a run name that tells
    one data set from another ("dataframe:3f2a9c1e"), the same for the same rows."""
    import hashlib

    digest = hashlib.sha256()
    for item in items:
        digest.update(item.model_dump_json().encode())
    return digest.hexdigest()[:8]


def _is_frame(data: Any) -> bool:
    module = type(data).__module__ or ""
    return module.startswith(("pandas", "datasets"))


def _progress(opts: EvalOptions) -> Any:
    show = opts.progress
    if show is None:
        show = sys.stderr.isatty() or "IPython" in sys.modules
    if not show:
        return None
    from ragassay.console import CleanConsole, RichProgress
    from ragassay.extras import installed

    # a notebook without ipywidgets: rich would warn at every cell ("install ipywidgets
    # for Jupyter support"); draw the bar as text on stderr instead (its last state shows)
    plain = None if installed("ipywidgets") else CleanConsole(stderr=True, force_jupyter=False)
    return RichProgress(console=plain)


def prepare(data: Any, metrics: str | Sequence[str] | None, judge: str, store: StoreLike,
            options: Mapping[str, Any]) -> _Prepared:
    """Check everything before the run starts: options, suites, judge spec, the data."""
    opts = EvalOptions.from_kwargs(options)
    suites, judge = suites_of(metrics), check_judge(judge)
    if opts.routing is not None:  # its first tier is the run's judge
        judge = next(check_judge(spec) for spec in opts.routing.judges())
        for spec in opts.routing.judges():
            check_judge(spec)
    items, name, digest = load_items(data, opts)
    config = RunConfig.build(
        name, urls=opts.base_url, timeout_s=opts.timeout_s, price=opts.judge_price,
        judge=judge, metrics=suites,
        concurrency=opts.concurrency, seed=opts.seed, use_cache=opts.use_cache,
        skip_invalid=opts.skip_invalid, max_context_tokens=opts.max_context_tokens,
        n_questions=opts.n_questions, field_map=dict(opts.field_map),
        trace_map={role: list(attrs) for role, attrs in opts.trace_map.items()},
        ratings="greedy" if opts.ratings == "greedy" else "expected", routing=opts.routing)
    return _Prepared(items, config, open_store(store), digest, _progress(opts),
                     dict(opts.headers), opts.ray())


async def aevaluate(data: Any, metrics: str | Sequence[str] | None = "all",
                    judge: str = "offline", *, store: StoreLike = None,
                    **options: Any) -> EvalResult:
    """Evaluate `data` on the caller's event loop; see `evaluate`."""
    from ragassay.runner import run_async

    prep = prepare(data, metrics, judge, store, options)
    if prep.ray is not None:
        return await _ray_in_thread(prep)
    stats = await run_async(prep.items, prep.config, _inputs(prep))
    return EvalResult(prep.store, stats.run_id, stats)


def _inputs(prep: _Prepared, stop: threading.Event | None = None) -> Any:
    from ragassay.runner import RunInputs

    return RunInputs(prep.store, progress=prep.progress, total=len(prep.items),
                     dataset_hash=prep.dataset_hash, headers=prep.headers or None, stop=stop)


def _ray_now(prep: _Prepared) -> EvalResult:
    """The Ray driver on this thread (blocking; Ctrl-C interrupts the run)."""
    from ragassay.runner.ray_engine import run_on_ray

    stats = run_on_ray(prep.items, prep.config, _inputs(prep), prep.ray)
    return EvalResult(prep.store, stats.run_id, stats)


async def _ray_in_thread(prep: _Prepared) -> EvalResult:
    """The blocking Ray driver in a worker thread, so that the caller's loop runs on; a
    cancelled await stops the driver (the run is recorded "interrupted") before it
    re-raises, so no run goes on in the background."""
    from ragassay.runner.ray_engine import run_on_ray

    stop = threading.Event()
    job = asyncio.ensure_future(asyncio.to_thread(
        run_on_ray, prep.items, prep.config, _inputs(prep, stop), prep.ray))
    try:
        stats = await asyncio.shield(job)
    except asyncio.CancelledError:
        stop.set()
        with suppress(BaseException):
            await job
        raise
    return EvalResult(prep.store, stats.run_id, stats)


def evaluate(data: Any, metrics: str | Sequence[str] | None = "all", judge: str = "offline",
             *, store: StoreLike = None, **options: Any) -> EvalResult:
    """Evaluate RAG samples and keep the run in the store (the dashboard shows it).

    `data`: a dataset file's path, a pandas DataFrame, a `datasets.Dataset`, a list of
    dicts (or Samples), or one dict. `metrics`: "all", suites ("judge,ragas" or a list),
    or qualified metric names (their suites are scored). `judge`: "offline" (no key, no
    network) or BACKEND:MODEL ("openai:gpt-4o-mini", "litellm:anthropic/claude-...").
    `store`: a Store, a path, or None for .ragassay/ragassay.db. `options`: see
    `EvalOptions` (field_map, base_url, headers, concurrency, skip_invalid, ...).

    Works inside a running event loop too (Jupyter): the run gets its own loop in a
    helper thread and this call waits for it. With engine="ray" outside a running loop
    the Ray driver runs on the calling thread, so Ctrl-C interrupts it.
    """
    if options.get("engine") == "ray" and not loop_running():
        return _ray_now(prepare(data, metrics, judge, store, options))
    return run_sync(aevaluate(data, metrics, judge, store=store, **options))


__all__ = ["aevaluate", "evaluate", "open_store", "suites_of"]

