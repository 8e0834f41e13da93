"""A routed run: a cascade of judge tiers (or a jury), executed from the run's plan.

The plan (`RunConfig.routing`) is data: a list of tiers, each a judge spec or a jury.
Tier 0 judges every sample as the input streams in; then, as `routing.decide` says,
the labelled samples are judged by every tier (to calibrate the thresholds), and each
tier judges what the tiers below it were not sure of, until every sample is decided
(or left for a person). Every tier's verdicts are saved as they come (`tier_results`),
so a resumed cascade judges only what a tier has not judged, and re-routing reads them
without a call (`reroute`, behind `ragassay route`). The routed verdicts go into
`results` with the routing summary in one transaction at the end.
"""

from __future__ import annotations

import asyncio
import time
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import Any, cast

from ragassay.judge import Asker, Judge
from ragassay.judge.offline_judge import OfflineJudge
from ragassay.judge.reliability import reliability_meta
from ragassay.metrics import Suite, get_suites
from ragassay.metrics.jury import combine
from ragassay.routing import Decision, decide, write
from ragassay.runner.judging import (
    HopScorer,
    RunInputs,
    RunStats,
    batch_evidence,
    batches,
    build_judge,
    call_records,
    embedders_used,
    failure_of,
    judge_notes,
    judge_one,
    open_run,
    run_meta,
    suite_options,
    with_prompt_versions,
)
from ragassay.runner.resume import retry_mode
from ragassay.store import Store, prepare_result
from ragassay.text import KeyedSample, key_sample
from ragassay.types import InvalidRow, RoutingPlan, RunConfig, RunMeta, Sample, Usage

BATCH = 32


@dataclass
class _Tier:
    """One tier's judges (several: a jury) and what they need."""

    specs: tuple[str, ...]
    judges: list[Judge]

    @property
    def offline(self) -> list[OfflineJudge | None]:
        return [j if isinstance(j, OfflineJudge) else None for j in self.judges]


def tier_config(config: RunConfig, spec: str) -> RunConfig:
    """The config one judge of a tier is built from: the run's, with that judge (the same
    options a plain run with `--judge spec` has, so its calls hit the same cache keys)."""
    return config.model_copy(update={"judge": spec, "routing": None})


class Cascade:
    """One routed run's state: its tiers, suites, store and counters."""

    def __init__(self, config: RunConfig, inputs: RunInputs) -> None:
        assert config.routing is not None
        self.plan: RoutingPlan = config.routing
        self.suites: list[Suite] = get_suites(config.metrics)
        self.config = with_prompt_versions(config, self.suites)
        self.inputs = inputs
        self.store: Store = inputs.store
        self.tiers = [_Tier(t.judges, [build_judge(tier_config(self.config, s), self.store,
                                                   inputs.headers) for s in t.judges])
                      for t in self.plan.tiers]
        first = self.tiers[0].judges[0]
        names = [spec.name for s in self.suites for spec in s.chosen_specs]
        # what a resume judges again: the tiers' verdicts that failed as `retry` says
        self.retry = None if not inputs.resume else retry_mode(
            self.store.get_run(inputs.resume).status, inputs.retry)
        self.run_id, _ = open_run(self.config, self.suites, first.model, inputs,
                                  RunMeta(reliability=reliability_meta(first, names)),
                                  with_done=False)
        self.stats = RunStats(run_id=self.run_id)
        self.failure: str | None = None  # why the run failed, when it does
        offline = next((j for t in self.tiers for j in t.judges
                        if isinstance(j, OfflineJudge)), None)
        self.hops = HopScorer(offline)
        self.options = suite_options(self.config, self.suites, first)
        if any(j.kind == "llm" for t in self.tiers for j in t.judges):
            llm = next(j for t in self.tiers for j in t.judges if j.kind == "llm")
            self.options = suite_options(self.config, self.suites, llm)
        self.gate = asyncio.Semaphore(max(1, config.concurrency))
        self.lock = asyncio.Lock()

    # -- judging one tier --------------------------------------------------------------
    async def _one(self, tier: int, item: KeyedSample, suite: Suite,
                   evidence: list[Any]) -> None:
        t = self.tiers[tier]
        async with self.gate:
            outcomes = [await judge_one(suite, item, ev, None if ev is not None
                                        else cast(Asker, judge), self.options)
                        for judge, ev in zip(t.judges, evidence, strict=True)]
        outcome = combine(suite, t.specs, outcomes) if len(outcomes) > 1 else outcomes[0]
        prepared = prepare_result(outcome.result,
                                  call_records(item.sample, suite.name, outcome))
        self.store.save_tier_results(self.run_id, tier, [prepared])
        self.stats.usage = self.stats.usage + outcome.result.usage
        self.stats.per_suite[suite.name] = self.stats.per_suite.get(suite.name, Usage()) + \
            outcome.result.usage

    async def judge_tier(self, tier: int, samples: Sequence[Sample]) -> int:
        """Judge each (sample, suite) the tier has not judged; returns how many."""
        done = self.store.tier_keys(self.run_id, tier) - self.store.tier_failed_keys(
            self.run_id, tier, self.retry)
        todo = [s for s in samples if any((s.id, su.name) not in done for su in self.suites)]
        progress = self.inputs.progress
        for batch in batches(todo, BATCH):
            valid = [s for s in batch if isinstance(s, Sample)]
            keyed = {s.id: key_sample(s, self.config.max_context_tokens) for s in valid}
            evidence = [await batch_evidence(keyed, off, self.lock)
                        for off in self.tiers[tier].offline]
            # a failure (the endpoint gone: JudgeAborted) cancels the batch's other calls,
            # and is raised as itself (the front ends say it in one line)
            try:
                async with asyncio.TaskGroup() as group:
                    for s in valid:
                        ev = [None if off is None else found[s.id] for off, found
                              in zip(self.tiers[tier].offline, evidence, strict=True)]
                        for su in self.suites:
                            if (s.id, su.name) not in done:
                                group.create_task(self._one(tier, keyed[s.id], su, ev))
            except BaseExceptionGroup as failed:
                raise failed.exceptions[0] from None
            if progress:
                progress.advance(len(valid), self.stats.usage)
        return len(todo)

    # -- the run ------------------------------------------------------------------------
    async def first_pass(self, samples: Iterable[Sample | InvalidRow]) -> None:
        """Store the input as it streams and judge it with tier 0."""
        for items in batches(samples, BATCH * 4):
            items = await asyncio.to_thread(self.hops, items)
            self.store.add_samples(self.run_id, items)
            valid = [s for s in items if isinstance(s, Sample)]
            self.stats.invalid += len(items) - len(valid)
            self.stats.samples += len(valid)
            judged = await self.judge_tier(0, valid)
            self.stats.skipped += (len(valid) - judged) * len(self.suites)
            if self.inputs.progress and len(items) > judged:  # invalid or judged before
                self.inputs.progress.advance(len(items) - judged, self.stats.usage)

    def import_labels(self) -> None:
        """`--labels FILE` into the store (by content: every run of the same samples)."""
        if self.plan.labels_file:
            from pathlib import Path

            from ragassay.labels import import_file

            import_file(self.store, self.run_id, Path(self.plan.labels_file))

    async def retry_failed(self) -> None:
        """A resume judges again what the tiers above 0 failed as `retry` says (tier 0's
        are judged again in the first pass)."""
        for tier in range(1, len(self.tiers)):
            ids = {sid for sid, _ in self.store.tier_failed_keys(self.run_id, tier,
                                                                 self.retry)}
            if ids:
                self._stage(tier, len(ids))
                await self.judge_tier(tier, self.samples(ids))

    def samples(self, ids: set[str]) -> list[Sample]:
        return [s for s in self.store.iter_samples(self.run_id)
                if isinstance(s, Sample) and s.id in ids]

    async def escalate(self) -> Decision:
        """Judge what the routing still needs, a tier at a time, until nothing is
        pending; the final decision."""
        while True:
            decision = decide(self.store, self.run_id, self.plan)
            decision.state.check()
            need = decision.state.needed()
            if need is None:
                return decision
            tier, ids = need
            self._stage(tier, len(ids))
            await self.judge_tier(tier, self.samples(ids))

    def _stage(self, tier: int, n: int) -> None:
        progress = self.inputs.progress
        if progress is None:
            return
        progress.finish()
        stage = getattr(progress, "stage", None)
        if stage is not None:
            stage(f"tier {tier}: {self.plan.tiers[tier].name}")
        progress.start(n)

    def save(self, decision: Decision) -> None:
        """The routed verdicts, each sample's routing and the summary, in one go."""
        write(self.store, self.run_id, decision, self.plan)

    async def close(self, status: str, started: float) -> None:
        self.stats.seconds = time.perf_counter() - started
        if self.inputs.progress:
            self.inputs.progress.finish()
        judges = [j for t in self.tiers for j in t.judges]
        notes = [n for j in judges for n in judge_notes(j)]
        self.store.finish_run(self.run_id, status, run_meta(
            self.stats, embedders_used(judges[0], self.options), notes),
            failure=self.failure)
        if self.inputs.judge is None:
            for j in judges:
                await j.aclose()


async def run_cascade(samples: Iterable[Sample | InvalidRow], config: RunConfig,
                      inputs: RunInputs) -> RunStats:
    """Evaluate samples through the run's routing plan into the store."""
    run = Cascade(config, inputs)
    progress = inputs.progress
    started = time.perf_counter()
    if progress:
        stage = getattr(progress, "stage", None)
        if stage is not None:
            stage(f"tier 0: {run.plan.tiers[0].name}")
        progress.start(inputs.total)
    status = "failed"
    try:
        await run.first_pass(samples)
        await run.retry_failed()
        run.import_labels()
        run.save(await run.escalate())
        status = "complete"
    except (KeyboardInterrupt, asyncio.CancelledError):
        status = "interrupted"
        raise
    except Exception as exc:
        run.failure = failure_of(exc)
        raise
    finally:
        await run.close(status, started)
    return run.stats
