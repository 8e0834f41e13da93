"""The one synchronous entry point of the runner: the local engine, or Ray's."""

from __future__ import annotations

from collections.abc import Iterable, Mapping

from ragassay.aio import run_sync
from ragassay.judge import Judge
from ragassay.runner.batch_options import BatchOptions
from ragassay.runner.batch_submit import BatchProgress
from ragassay.runner.engine import run_async
from ragassay.runner.judging import Progress, RunInputs, RunStats
from ragassay.runner.ray_engine import RayEngineError, RayOptions, run_on_ray
from ragassay.store import Store
from ragassay.types import InvalidRow, RunConfig, Sample


def evaluate(
    samples: Iterable[Sample | InvalidRow],
    config: RunConfig,
    *,
    store: Store,
    resume: str | None = None,
    judge: Judge | None = None,
    progress: Progress | None = None,
    total: int | None = None,
    dataset_hash: str | None = None,
    headers: Mapping[str, str] | None = None,
    ray: RayOptions | None = None,
    retry: str | None = "auto",
    batch: BatchOptions | None = None,
    batch_progress: BatchProgress | None = None,
    workers: int | None = 1,
) -> RunStats:
    """The one synchronous entry point: evaluate samples and record them in the store.
    Works inside a running event loop too (a notebook): the run gets a loop of its own.
    With `ray` (a `RayOptions`), Ray actors judge instead (`runner.ray_engine`: same
    results, same store); the judge is then built from the config on each worker.
    A resume judges again the judgments `retry` names (`retry_mode`: by default those of
    an unfinished run that failed for the endpoint's sake). With `batch` (a
    `BatchOptions`), the calls go through the provider's batch API (`runner.batch_engine`:
    same calls, cache keys and results; `batch_progress` hears the batches' counts).
    `workers`: the local engine's processes for the offline judge (1: this process;
    None: one per usable CPU)."""
    inputs = RunInputs(store, resume, judge, progress, total, dataset_hash, headers,
                       retry=retry, workers=workers)
    if config.routing is not None:
        if ray is not None:
            raise RayEngineError("a routed run (--escalate, --jury) runs on the local engine; "
                                 "leave out --engine ray")
        if judge is not None or batch is not None:
            raise ValueError("a routed run builds its tiers' judges from the config and "
                             "sends their calls directly: pass no judge object or batch")
        return run_sync(run_async(samples, config, inputs))
    if ray is not None:
        if judge is not None:
            raise ValueError("with ray=, the judge is built on each worker from the config: "
                             "pass no judge object")
        return run_on_ray(samples, config, inputs, ray)
    if batch is not None:
        from ragassay.runner.batch_engine import run_batch

        return run_sync(run_batch(samples, config, inputs, batch, batch_progress))
    return run_sync(run_async(samples, config, inputs))
