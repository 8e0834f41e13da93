"""`evaluate` and `aevaluate`: data in, a stored run and its result object out; a thin
layer over the run session (`ragassay.runner`): the arguments become a `RunRequest`, the
session checks it (the data, the judge spec, a resume against the run it continues) and
runs it, with the same rules as `ragassay eval`."""

from __future__ import annotations

import os
import sys
import warnings
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any

from ragassay.aio import loop_running
from ragassay.api.options import EvalOptions
from ragassay.api.result import EvalResult
from ragassay.metrics import suites_of
from ragassay.store import DEFAULT_DB_PATH, Store

if TYPE_CHECKING:  # the runner is imported when a run starts, not with `import ragassay`
    from ragassay.runner import BatchOptions, Progress, RunOutcome, RunPlan
    from ragassay.runner.request import RetryFailed, Source

StoreLike = Store | str | os.PathLike[str] | None


def open_store(store: StoreLike) -> Store:
    """A Store as given, or opened at a path (default: .ragassay/ragassay.db, where the
    CLI and the dashboard look)."""
    if isinstance(store, Store):
        return store
    return Store(DEFAULT_DB_PATH if store is None else os.fspath(store))


def _progress(opts: EvalOptions) -> Progress | None:
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


def _source(data: object, opts: EvalOptions) -> Source:
    """A path is a file (checked in full, then streamed); anything else is in memory."""
    from ragassay.runner import FileSource, RowsSource

    field_map = dict(opts.field_map) or None
    if isinstance(data, str | os.PathLike):
        return FileSource(Path(data), field_map=field_map,
                          trace_map={role: list(a) for role, a in opts.trace_map.items()}
                          or None, skip_invalid=opts.skip_invalid, name=opts.dataset)
    return RowsSource(data, field_map=field_map, skip_invalid=opts.skip_invalid,
                      name=opts.dataset)


def plan(data: object, metrics: str | Sequence[str] | None, judge: str | None,
         store: StoreLike, options: Mapping[str, Any], resume: str | None = None,
         retry_failed: RetryFailed | None = None) -> tuple[RunPlan, Progress | None]:
    """Check everything before the run starts (the run session's `plan_run`): options,
    suites, judge spec, the data, a resume; with the progress bar the options ask for. A
    label name of the data close to a vocabulary name is a UserWarning (`notes` keeps
    it)."""
    from ragassay.runner import PYTHON_NAMES, RunRequest, engine_choice, plan_run

    opts = EvalOptions.from_kwargs(options)
    _ = opts.rule  # a bad label rule is refused before the run
    if retry_failed not in (None, "transport", "all"):
        raise ValueError(f"retry_failed must be 'transport' or 'all', not {retry_failed!r}")
    planned = plan_run(RunRequest(
        _source(data, opts), store if isinstance(store, Store) else lambda: open_store(store),
        metrics=metrics, judge=judge,
        endpoints=opts.endpoints, headers=dict(opts.headers), timeout_s=opts.timeout_s,
        price=opts.judge_price, concurrency=opts.concurrency, ratings=opts.rating_mode,
        use_cache=opts.use_cache, max_context_tokens=opts.max_context_tokens,
        n_questions=opts.n_questions, seed=opts.seed,
        engine=engine_choice(opts.engine, opts.ray_address, opts.workers, PYTHON_NAMES,
                             ray_writes=opts.ray_writes),
        resume=resume, retry_failed=retry_failed, names=PYTHON_NAMES,
        routing=None if resume else opts.routing, batch=_batch(opts.batch)))
    for note in planned.notes:  # a typo'd label name would lose its labels without a word
        if note.kind == "label-name":
            warnings.warn(note.text, UserWarning, stacklevel=3)
    return planned, _progress(opts)


def _batch(given: object) -> BatchOptions | None:
    """`batch=`: True for the default batch options, a `BatchOptions`, or None / False."""
    from ragassay.runner import BatchOptions  # noqa: F811 (TYPE_CHECKING above)

    if given is None or given is False:
        return None
    if given is True:
        return BatchOptions()
    if isinstance(given, BatchOptions):
        return given
    raise ValueError(f"batch must be True or a BatchOptions, not {type(given).__name__}")


def _result(planned: RunPlan, outcome: RunOutcome, options: Mapping[str, Any]) -> EvalResult:
    """The result object (reading people's labels by the options' `label_rule`); a run
    whose every judge call failed says so as a warning (its status is "failed")."""
    for finding in outcome.of("all-calls-failed"):
        warnings.warn(finding.text, RuntimeWarning, stacklevel=2)
    return EvalResult(planned.store, outcome.run_id, outcome.stats, outcome=outcome,
                      label_rule=EvalOptions.from_kwargs(options).rule)


async def aevaluate(data: object, metrics: str | Sequence[str] | None = None,
                    judge: str | None = None, *, store: StoreLike = None,
                    resume: str | None = None, retry_failed: RetryFailed | None = None,
                    **options: Any) -> EvalResult:
    """Evaluate `data` on the caller's event loop; see `evaluate`."""
    from ragassay.runner import aexecute

    planned, progress = plan(data, metrics, judge, store, options, resume, retry_failed)
    return _result(planned, await aexecute(planned, progress), options)


def evaluate(data: object, metrics: str | Sequence[str] | None = None,
             judge: str | None = None, *, store: StoreLike = None,
             resume: str | None = None, retry_failed: RetryFailed | None = None,
             **options: Any) -> EvalResult:
    """Evaluate RAG samples and keep the run in the store (the dashboard shows it).

    `data`: a dataset file's path, a pandas DataFrame, a `datasets.Dataset`, a list of
    dicts (or Samples), or one dict. `metrics`: "all" (the default), suites ("judge,ragas"
    or a list), or qualified metric names (their suites are scored). `judge`: "offline"
    (the default: no key, no network) or BACKEND:MODEL ("openai:gpt-4o-mini",
    "litellm:anthropic/claude-..."). `store`: a Store, a path, or None for
    .ragassay/ragassay.db. `resume`: a run to continue without repeating its finished
    judgments (the same data, unchanged; `metrics`, `judge` and `field_map` left out
    reuse the run's, given they must be the same: else ValueError); `retry_failed`
    "transport" or "all" judges its failed judgments again (those that failed for the
    endpoint's sake, or every one). `options`: see `EvalOptions` (field_map, base_url,
    headers, concurrency, skip_invalid, ...).

    The result's `status` is "failed" (with a RuntimeWarning) when every judge call
    failed. Works inside a running event loop too (Jupyter): the run gets its own loop in
    a helper thread and this call waits for it. With engine="ray" outside a running loop
    the Ray driver runs on the calling thread, so Ctrl-C interrupts it.
    """
    from ragassay.aio import run_sync
    from ragassay.runner import execute

    if options.get("engine") == "ray" and not loop_running():
        planned, progress = plan(data, metrics, judge, store, options, resume, retry_failed)
        return _result(planned, execute(planned, progress), options)
    return run_sync(aevaluate(data, metrics, judge, store=store, resume=resume,
                              retry_failed=retry_failed, **options))


__all__ = ["aevaluate", "evaluate", "open_store", "suites_of"]
