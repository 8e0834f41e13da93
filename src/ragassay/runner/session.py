"""A run's life, from a checked plan to its outcome: the one owner of starting, resuming
and concluding a run, which every front end calls (the CLI, `ragassay.evaluate`, the
dashboard, the bench, meta-eval, the pytest plugin).

    plan = plan_run(RunRequest(FileSource(Path("data.jsonl")), store, judge="offline"))
    outcome = execute(plan, progress)    # or: await aexecute(plan, progress)
    outcome.status, outcome.run_id, outcome.findings

`execute` runs the engine the request names (local asyncio, or Ray; or the provider's
batch API when the plan has batch options: `runner.batch_engine`) and then the
end-of-run rules, the same for every front end: the dataset file's path is recorded (for
`trend`) and the request's `judge_check` (`RunMeta.judge_check`), a run whose every
judge call failed is recorded `failed` (not complete: its figures are empty), and what
the user should hear about the run comes back as `Finding`s (data, not printed): the
judge's notes, samples lacking an input some metric needs, judge replies that copied a
verdict from the judged text, failed judgments worth judging again. A stop (Ctrl-C,
SIGTERM, a cancelled await, an aborted judge) propagates after the engine recorded the
run `interrupted` or `failed`; `RunPlan.run_id` names it. A live run (a `LiveSource`:
the monitor) is not executed but fed: `open_feed(plan)` opens it and gives the `RunFeed`
that stores and judges each batch of samples as it arrives. A batch run that left its
batches at the provider (`BatchOptions.detach`) ends `interrupted` with
`RunOutcome.waiting` batches, which a resume waits for.
"""

from __future__ import annotations

import asyncio
import threading
from contextlib import suppress
from dataclasses import dataclass, field
from typing import Literal

from ragassay.aio import run_sync
from ragassay.runner.batch_engine import run_batch
from ragassay.runner.batch_submit import BatchProgress
from ragassay.runner.engine import RunFeed, run_async
from ragassay.runner.estimate import RunEstimate, estimate_run
from ragassay.runner.judging import RunInputs, RunStats
from ragassay.runner.plan import Note, RunPlan
from ragassay.runner.ray_engine import run_on_ray
from ragassay.runner.ray_session import RayOptions
from ragassay.runner.request import FileSource, LiveSource, LocalEngine, Progress
from ragassay.store import RunStatus
from ragassay.types import (
    LACKING_INPUT,
    NO_REFERENCE,
    RunMeta,
)

FindingKind = Literal["judge-note", "lacking-inputs", "no-references", "suspicious-replies",
                      "all-calls-failed", "transport-failures", "batches-waiting"]

# a missing-input reason -> the input a finding names, in the order it names them

@dataclass(frozen=True)
class Finding:
    """Something a finished run found that the user should hear, as one line; `count`
    is how many things it is about (calls, samples, judgments)."""

    kind: FindingKind
    text: str
    count: int = 0


@dataclass
class RunOutcome:
    """How a run ended: its id, status ("complete", "failed" when every judge call
    failed, "interrupted" when it left batches to wait for), the runner's counters, the
    plan's notes and the run's findings."""

    run_id: str
    status: RunStatus
    stats: RunStats
    notes: list[Note] = field(default_factory=list)
    findings: list[Finding] = field(default_factory=list)

    def of(self, kind: FindingKind) -> list[Finding]:
        """The findings of one kind, in the order found."""
        return [f for f in self.findings if f.kind == kind]

    @property
    def waiting(self) -> int:
        """Provider batches the run left to wait for (`BatchOptions.detach`): a resume
        waits for them and scores them."""
        return self.stats.waiting


def execute(plan: RunPlan, progress: Progress | None = None,
            batch_progress: BatchProgress | None = None) -> RunOutcome:
    """Run the plan and conclude it (see the module); `progress` hears how far it is,
    `batch_progress` how far a batch run's batches are. Synchronous: inside a running
    event loop (a notebook) the run gets a loop of its own; the Ray driver runs on this
    thread, so Ctrl-C interrupts it."""
    engine = plan.request.engine
    if isinstance(engine, RayOptions) and not isinstance(plan.request.source, LiveSource):
        stats = run_on_ray(plan.items(), plan.config, _inputs(plan, progress), engine)
        return conclude(plan, stats)
    return run_sync(aexecute(plan, progress, batch_progress))


async def aexecute(plan: RunPlan, progress: Progress | None = None,
                   batch_progress: BatchProgress | None = None) -> RunOutcome:
    """Run the plan on the caller's event loop and conclude it. The Ray driver (blocking)
    runs in a worker thread, so the loop runs on; a cancelled await stops it (the run is
    recorded "interrupted") before the cancellation propagates: no run goes on in the
    background."""
    engine = plan.request.engine
    if isinstance(plan.request.source, LiveSource):
        raise ValueError("a live run is fed, not executed: open_feed(plan)")
    if plan.batch is not None:
        stats = await run_batch(plan.items(), plan.config, _inputs(plan, progress),
                                plan.batch, batch_progress)
        return conclude(plan, stats)
    if not isinstance(engine, RayOptions):
        stats = await run_async(plan.items(), plan.config, _inputs(plan, progress))
        return conclude(plan, stats)
    stop = threading.Event()
    job = asyncio.ensure_future(asyncio.to_thread(
        run_on_ray, plan.items(), plan.config, _inputs(plan, progress, stop), engine))
    try:
        stats = await asyncio.shield(job)
    except asyncio.CancelledError:
        stop.set()
        with suppress(BaseException):
            await job
        raise
    return conclude(plan, stats)


def open_feed(plan: RunPlan) -> RunFeed:
    """Open a live run (its plan's source a `LiveSource`), created or resumed as the plan
    says, to be fed its samples as they arrive (`RunFeed.score`) and closed with its
    status (`RunFeed.close`). The feed judges every sample it is given: the caller gives
    only samples not yet judged."""
    if not isinstance(plan.request.source, LiveSource):
        raise ValueError("open_feed opens a live run (a LiveSource); execute runs the others")
    return RunFeed(plan.config, _inputs(plan, None))


def estimate(plan: RunPlan, judge: str | None = None) -> RunEstimate:
    """What the planned run would take (calls, tokens, dollars); nothing sent or stored.
    `judge`: as if that judge (one of a routed run's tiers) judged every sample."""
    config = plan.config if judge is None else plan.config.model_copy(
        update={"judge": judge, "routing": None})
    return estimate_run(plan.items(), config, plan.request.price)


def _inputs(plan: RunPlan, progress: Progress | None,
            stop: threading.Event | None = None) -> RunInputs:
    request = plan.request

    def opened(run_id: str) -> None:
        plan.run_id = run_id

    return RunInputs(plan.store, resume=plan.resumed.id if plan.resumed else None,
                     judge=request.judge_object, progress=progress,
                     total=plan.total, dataset_hash=plan.data.fingerprint,
                     headers=dict(request.headers) or None, stop=stop,
                     retry=plan.retry, opened=opened,
                     workers=request.engine.workers
                     if isinstance(request.engine, LocalEngine) else 1)


def conclude(plan: RunPlan, stats: RunStats) -> RunOutcome:
    """The end-of-run rules every front end shares (see the module)."""
    request, run_id = plan.request, stats.run_id
    store, names = plan.store, request.names
    kept = RunMeta(judge_check=True) if request.judge_check else RunMeta()
    if plan.data.path is not None:  # where the file was, for `trend`
        kept = kept.merged(RunMeta(dataset_path=str(plan.data.path.resolve())))
    if kept.model_fields_set:  # and a run made to check the judge (`eval --judge-check`)
        store.update_meta(run_id, kept)
    run = store.get_run(run_id)
    if stats.waiting:  # a detached batch run: nothing is scored yet
        noun = "batch" if stats.waiting == 1 else "batches"
        return RunOutcome(run_id=run_id, status=run.status, stats=stats,
                          notes=list(plan.notes), findings=[Finding(
                              "batches-waiting", f"run {run_id} waits for {stats.waiting} "
                              f"{noun} at the provider; {names.resume} {run_id} waits for "
                              "them and scores them", stats.waiting)])
    findings = [Finding("judge-note", f"note: {note}") for note in run.meta.notes]
    findings += _lacking(plan, run_id)
    suspicious = store.suspicious_replies(run_id)
    if suspicious:
        findings.append(Finding(
            "suspicious-replies", f"warning: {suspicious} judged sample"
            f"{'s' if suspicious != 1 else ''} got a suspicious judge reply (a verdict copied "
            "from the judged text, a rating outside its scale, or a reply that judged "
            "nothing it was shown); it was not taken for the verdict (the report's "
            "detailed_results: suspicious)", suspicious))
    status: RunStatus = run.status
    ok, failed = store.call_outcomes(run_id)
    if failed and not ok:
        store.finish_run(run_id, "failed", failure=f"every judge call failed ({failed} calls)")
        status = "failed"
        findings.append(Finding(
            "all-calls-failed", f"every judge call of run {run_id} failed ({failed} calls): "
            f"fix the judge, then judge them again with {names.resume_hint(run_id, 'all')}",
            failed))
    transport = len(store.failed_keys(run_id, "transport"))
    if transport:
        again = (f"ragassay eval {request.source.path} --resume {run_id} --retry-failed"
                 if isinstance(request.source, FileSource) and names.resume == "--resume"
                 else names.resume_hint(run_id, "transport"))
        findings.append(Finding(
            "transport-failures", f"{transport} judgment{'s' if transport != 1 else ''} "
            "failed for the endpoint's sake (no connection, timeout, 429, 5xx): judge them "
            f"again with {again}", transport))
    return RunOutcome(run_id=run_id, status=status, stats=stats, notes=list(plan.notes),
                      findings=findings)


def _lacking(plan: RunPlan, run_id: str) -> list[Finding]:
    """`2 samples lack an input some metrics need (no contexts: 1, no reference: 1): 5 of
    their metric values are unscored ...`: only inputs a chosen metric needed (read from
    the run's values); when no sample has a reference, that the data has none
    (`no sample has a reference: ...`, a finding of its own kind, which the short
    summary says in its words), not a problem with some rows."""
    per, samples, unscored = plan.store.unscored_lacking_inputs(run_id)
    if not samples:
        return []
    if set(per) == {NO_REFERENCE} and samples == plan.total:
        # (no sample has one: the data has no references, nothing is wrong with a row)
        values = "value that needs one is" if unscored == 1 else "values that need one are"
        return [Finding("no-references", f"no sample has a reference: {unscored} metric "
                        f"{values} unscored (add a `reference` to the samples to score "
                        "them)", samples)]
    parts = ", ".join(f"no {name}: {per[r]}" for r, name in LACKING_INPUT.items() if r in per)
    noun, own = ("sample lacks", "its") if samples == 1 else ("samples lack", "their")
    verb = "is" if unscored == 1 else "are"
    return [Finding("lacking-inputs", f"{samples} {noun} an input some metrics need ({parts}): "
                    f"{unscored} of {own} metric values {verb} unscored for the missing "
                    "input", samples)]
