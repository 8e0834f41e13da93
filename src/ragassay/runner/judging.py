"""What both engines share: the run's inputs and counters, opening and closing the run,
the judge and the suites' options, and how a batch is judged (keyed once, the offline
judge's evidence for the whole batch in one go, each (sample, suite) judged from it or
by asking). The local engine (`engine`) and the Ray workers (`ray_worker`) both call it.
"""

from __future__ import annotations

import asyncio
import threading
from collections.abc import Callable, Hashable, Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, TypeVar

from pydantic import SecretStr

from ragassay.dataset import DatasetError
from ragassay.judge import Asker, Judge, JudgeAborted, make_judge
from ragassay.judge.llm_judge import Cache
from ragassay.judge.offline import Evidence
from ragassay.judge.offline_judge import OfflineJudge
from ragassay.llm import BackendError
from ragassay.metrics import Outcome, Suite, SuiteOptions
from ragassay.runner.request import Progress
from ragassay.runner.resume import check_same_run, retry_mode
from ragassay.store import CallRecord, Store
from ragassay.text import KeyedSample
from ragassay.types import InvalidRow, MetricSpec, RunConfig, RunMeta, Sample, Usage, is_offline
from ragassay.version import __version__

K = TypeVar("K", bound=Hashable)


@dataclass
class RunStats:
    """What a run did, returned to the caller (the report reads the store)."""

    run_id: str
    samples: int = 0
    invalid: int = 0
    skipped: int = 0  # judgments already done before a resume
    usage: Usage = Usage()
    seconds: float = 0.0
    per_suite: dict[str, Usage] = field(default_factory=dict)
    waiting: int = 0  # provider batches the run left to wait for (`--batch --detach`)
    peak_rss_mib: dict[int, float] = field(default_factory=dict)  # worker process PID -> MiB
    worker_cpu_s: dict[int, float] = field(default_factory=dict)  # worker PID -> CPU seconds
    worker_saved: int = 0  # judgments Ray workers saved themselves (`RayOptions.writes`)


def has_traces(items: Iterable[Sample | InvalidRow]) -> bool:
    """Whether any of the items is a sample read from a trace (it has hops to score)."""
    return any(isinstance(s, Sample) and "trace" in s.metadata for s in items)


class HopScorer:
    """Scores the hops of samples read from traces (`judge.offline.hops`) before they
    are stored: with the offline judge's analyzer when the run has one, else its own
    (built on the first trace sample), so every judge gets the same hop scores."""

    def __init__(self, offline: OfflineJudge | None = None) -> None:
        self.analyzer: Any = offline.analyzer if offline is not None else None

    def __call__(self, items: list[Sample | InvalidRow]) -> list[Sample | InvalidRow]:
        if not has_traces(items):
            return items
        from ragassay.judge.offline import Analyzer
        from ragassay.judge.offline.hops import score_hops

        if self.analyzer is None:
            self.analyzer = Analyzer()
        return score_hops(items, self.analyzer)


def batches(items: Iterable[Sample | InvalidRow], size: int
            ) -> Iterator[list[Sample | InvalidRow]]:
    """The input in batches of `size` (the last may be shorter)."""
    batch: list[Sample | InvalidRow] = []
    for item in items:
        batch.append(item)
        if len(batch) >= size:
            yield batch
            batch = []
    if batch:
        yield batch


def call_records(sample: Sample, suite: str, outcome: Outcome) -> list[CallRecord]:
    """The ledger rows of one (sample, suite) judgment's calls."""
    return [
        CallRecord(sample_id=sample.id, suite=suite, prompt=c.prompt, cache_key=c.cache_key,
                   model=c.model, input_tokens=c.usage.input_tokens,
                   output_tokens=c.usage.output_tokens, latency_s=c.usage.latency_s,
                   cached_tokens=c.usage.cached_tokens,
                   cached=c.cached, status=c.status, error=c.error)
        for c in outcome.calls
    ]


def build_judge(config: RunConfig, cache: Cache,
                headers: Mapping[str, str] | None = None) -> Judge:
    """The run's judge over `cache` (the store, or a Ray worker's view of it); `headers`
    go to its backend with every request, never stored. Several endpoints
    (`config.base_urls`) are spread by one `llm.Spread` backend."""
    options = config.backend_options()
    if headers:
        options = options.model_copy(update={
            "headers": {k: SecretStr(v) for k, v in headers.items()}})
    urls = config.endpoints()
    if len(urls) > 1 and not is_offline(config.judge):
        from ragassay.judge.llm_judge import LLMJudge
        from ragassay.llm import spread_backend

        return LLMJudge(spread_backend(config.judge, options, urls), cache=cache,
                        use_cache=config.use_cache, spec=config.judge,
                        ratings=config.ratings)
    return make_judge(config.judge, cache=cache, use_cache=config.use_cache,
                      backend_options=options, ratings=config.ratings)


def judge_notes(judge: Judge) -> list[str]:
    """What the judge's backend had to say about the run (endpoints left out)."""
    return list(getattr(getattr(judge, "backend", None), "notes", None) or [])


async def judge_one(suite: Suite, item: KeyedSample, evidence: Evidence | None,
                    asker: Asker | None, options: SuiteOptions) -> Outcome:
    """One (sample, suite) judgment: from the offline judge's evidence, or by asking;
    its results are exactly the suite's declared metrics (`Suite.check_results`), of
    which the run keeps those it asked for (`Suite.keep_chosen`)."""
    if evidence is not None:
        outcome = suite.evaluate_offline(item, evidence, options)
    else:
        assert asker is not None
        outcome = await suite.evaluate(item, asker, options)
    suite.check_results(outcome.result.results)
    return suite.keep_chosen(outcome)


async def batch_evidence(keyed: Mapping[K, KeyedSample], offline: OfflineJudge | None,
                         lock: asyncio.Lock | None = None) -> dict[K, Evidence]:
    """The offline judge's evidence for a batch of keyed samples, in one go and off the
    event loop ({} for an LLM judge); `lock` serialises analyses that share caches."""
    if offline is None or not keyed:
        return {}
    if lock is None:
        found = await asyncio.to_thread(offline.analyze, list(keyed.values()))
    else:
        async with lock:
            found = await asyncio.to_thread(offline.analyze, list(keyed.values()))
    return dict(zip(keyed, found, strict=True))


def suite_options(config: RunConfig, suites: Sequence[Suite], judge: Judge) -> SuiteOptions:
    """The suites' options; an embedder the LLM path needs is built here, before the run
    fans out (importing it from worker threads while the SDK imports raced)."""
    embedder = None
    if judge.kind == "llm" and any(s.needs_embedder() for s in suites):
        from ragassay.embed import get_embedder, sentence_embedder_spec

        embedder = get_embedder(sentence_embedder_spec())
    return SuiteOptions(n_questions=config.n_questions, embedder=embedder,
                        analyzer=getattr(judge, "analyzer", None))


def embedders_used(judge: Judge, options: SuiteOptions) -> list[str]:
    """The embedders a run really used, for its report."""
    names = []
    if isinstance(judge, OfflineJudge):
        names.append(f"offline judge: {judge.embedder_name}")
    if options.embedder is not None:
        names.append(f"answer relevancy: {getattr(options.embedder, 'name', 'embedder')}")
    return names


def with_prompt_versions(config: RunConfig, suites: Sequence[Suite]) -> RunConfig:
    """The config as stored with the run: with the versions of the suites' prompts."""
    versions = {k: v for s in suites for k, v in s.prompt_versions().items()}
    return config.model_copy(update={"prompt_versions": versions})


def run_specs(suites: Sequence[Suite], config: RunConfig) -> list[MetricSpec]:
    """The metric specs a run is stored with: where the offline judge, whose values are
    soft, is its only judge, each at its soft target (`MetricSpec.on_soft_judge`: the
    judge's own line), so that eval's flags, the report and the gate read the one target
    of the run's scale. A routed run with an LLM tier keeps the targets: some of its values
    are an LLM's."""
    judges = config.routing.judges() if config.routing is not None else [config.judge]
    soft = all(is_offline(j) for j in judges)
    return [spec.on_soft_judge() if soft else spec for s in suites for spec in s.chosen_specs]


def open_run(config: RunConfig, suites: Sequence[Suite], judge_model: str,
             inputs: RunInputs, meta: RunMeta | None = None, with_done: bool = True
             ) -> tuple[str, set[tuple[str, str]]]:
    """The run's id (created with `meta`, or the one resumed: leased to this process, and
    refused when it was made with another judge, suites, maps or data: `check_same_run`)
    and the (sample, suite) judgments already done; those that failed as `inputs.retry`
    says (`retry_mode`) are not done: they are judged again. `with_done=False`: a caller
    that feeds only samples not yet judged (a monitor) skips reading them. `inputs.opened`
    hears the id."""
    store = inputs.store
    if inputs.resume:
        run = store.get_run(inputs.resume)
        check_same_run(run, config, inputs.dataset_hash)
        done = (store.done_keys(run.id, retry_mode(run.status, inputs.retry)) if with_done
                else set())
        store.finish_run(run.id, "running")
        run_id = run.id
    else:
        specs = run_specs(suites, config)
        run_id = store.create_run(config, package_version=__version__,
                                  dataset_hash=inputs.dataset_hash, judge_model=judge_model,
                                  specs=specs, meta=meta)
        done = set()
    if inputs.opened is not None:
        inputs.opened(run_id)
    return run_id, done


def failure_of(exc: BaseException) -> str:
    """Why an error stopped a run, in the one line a failed run records: the judge's
    own stop reason, an input error's text, else the error's type."""
    if isinstance(exc, BackendError):
        return exc.stop or exc.reason
    if isinstance(exc, JudgeAborted):
        return exc.reason
    if isinstance(exc, DatasetError):
        return str(exc)
    return f"stopped by an error ({type(exc).__name__})"


def run_meta(stats: RunStats, embedders: list[str], notes: list[str],
             engine: str = "local") -> RunMeta:
    """What a finished run records in its meta (the engine of its last part)."""
    meta = RunMeta(samples=stats.samples, invalid=stats.invalid, seconds=stats.seconds,
                   embedders=tuple(embedders), engine=engine)
    return meta.merged(RunMeta(notes=tuple(notes))) if notes else meta


@dataclass
class RunInputs:
    """What a run is given besides its samples and config; one object instead of many
    keyword arguments (`evaluate`, the sync entry point, takes them by keyword)."""

    store: Store
    resume: str | None = None
    judge: Judge | None = None
    progress: Progress | None = None
    total: int | None = None
    dataset_hash: str | None = None
    headers: Mapping[str, str] | None = None  # for the judge's backend; never stored
    stop: threading.Event | None = None  # set: the Ray driver stops, the run "interrupted"
    retry: str | None = "auto"  # failed judgments a resume judges again (`retry_mode`)
    opened: Callable[[str], None] | None = None  # hears the run's id once it is opened
    workers: int | None = 1  # the local engine's processes for the offline judge (None: cores)
