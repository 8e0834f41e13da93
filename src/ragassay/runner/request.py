"""What a front end asks of a run (`RunRequest`): where the data is, the suites, the judge
and how to reach it, the engine, and a run to resume. One typed object for every front
end (the CLI, the Python API, the dashboard, the bench, meta-eval, the pytest plugin);
`runner.plan.plan_run` checks it, `runner.session.execute` carries it out.

A setting left None was not given: a new run takes the default, a resumed run the one it
was started with (given, it must agree with the stored one). Messages name a front end's
options its own way (`OptionNames`: `--judge` on the command line, `judge` in Python).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any, Literal, Protocol

from ragassay.runner.batch_options import BatchOptions
from ragassay.runner.ray_session import RayOptions
from ragassay.store import Store
from ragassay.types import Price, Ratings, ReadAs, RoutingPlan, RoutingSettings, Usage

if TYPE_CHECKING:
    from ragassay.judge import Judge

RunKind = Literal["eval", "bench", "meta-eval", "monitor"]
RetryFailed = Literal["transport", "all"]


class Progress(Protocol):
    """Receives a run's progress; the CLI and the Python API draw a bar, the dashboard
    its own, tests collect it."""

    def start(self, total: int | None) -> None: ...

    def advance(self, samples: int, usage: Usage) -> None: ...

    def finish(self) -> None: ...


@dataclass(frozen=True)
class OptionNames:
    """How a front end names the settings its messages mention."""

    judge: str
    metrics: str
    field_map: str
    resume: str
    retry_failed: str
    skip_invalid: str
    base_url: str
    engine: str
    ray_address: str
    workers: str
    ray_writes: str
    batch: str
    read_as: str

    def resume_hint(self, run_id: str, retry: str) -> str:
        """How to judge a run's failed judgments again (`retry`: "transport" or "all")."""
        if self is CLI_NAMES:
            flag = "--retry-failed" if retry == "transport" else "--retry-failed all"
            return f"--resume {run_id} {flag}"
        return f"resume={run_id!r}, retry_failed={retry!r}"


CLI_NAMES = OptionNames(judge="--judge", metrics="--metrics", field_map="--map",
                        resume="--resume", retry_failed="--retry-failed",
                        skip_invalid="--skip-invalid", base_url="--base-url",
                        engine="--engine", ray_address="--ray-address", workers="--workers",
                        ray_writes="--ray-writes", batch="--batch", read_as="--format")
PYTHON_NAMES = OptionNames(judge="judge", metrics="metrics", field_map="field_map",
                           resume="resume", retry_failed="retry_failed",
                           skip_invalid="skip_invalid", base_url="base_url", engine="engine",
                           ray_address="ray_address", workers="workers",
                           ray_writes="ray_writes", batch="batch", read_as="read_as")


@dataclass(frozen=True)
class FileSource:
    """A dataset file or a trace file, read as `ragassay.dataset` reads it: checked in
    full first (`check_dataset`), then streamed into the run. `name` names the run's
    dataset (default: the path as given); `read_as` reads the file as rows or as traces
    (None: not given; a new run reads by the first object's keys, "auto")."""

    path: Path
    field_map: Mapping[str, str] | None = None  # None: not given
    trace_map: Mapping[str, Sequence[str]] | None = None
    skip_invalid: bool = False
    name: str | None = None
    read_as: ReadAs | None = None


@dataclass(frozen=True)
class RowsSource:
    """Data given in memory: a pandas DataFrame, a `datasets.Dataset`, rows (mappings), one
    mapping, or Samples (and InvalidRows). Checked as a file is (`check=False`: samples a
    tool made itself, the bench's); `name` names the run's dataset (default: the kind of
    data and 8 hex digits of its content, "dataframe:3f2a9c1e"). `path`: the file the rows
    were read from (meta-eval reads a file's labelled rows, perhaps a split of them): the
    run records that file's fingerprint and path, as a `FileSource` run does, so that one
    file is one dataset whatever command judged it (the run's config says which part)."""

    data: object
    field_map: Mapping[str, str] | None = None
    skip_invalid: bool = False
    name: str | None = None
    check: bool = True
    path: Path | None = None


@dataclass(frozen=True)
class LiveSource:
    """Samples that arrive while the run goes on (a monitor's traces, scored as they
    complete): nothing to read or check first; `name` names the run's dataset
    ("monitor:NAME"), `trace_map` how its traces are read. The run is fed through
    `runner.open_feed`."""

    name: str
    trace_map: Mapping[str, Sequence[str]] | None = None
    # the samples come built: no column map, no rows to skip
    field_map: Mapping[str, str] | None = field(default=None, init=False)
    skip_invalid: bool = field(default=False, init=False)


Source = FileSource | RowsSource | LiveSource


@dataclass(frozen=True)
class LocalEngine:
    """This process judges (asyncio, `runner.engine`); the offline judge's CPU-bound work
    in `workers` processes (None: one per usable CPU, as memory allows; 1: in this
    process). An LLM judge's calls stay async in this process."""

    name: Literal["local"] = "local"
    workers: int | None = None


Engine = LocalEngine | RayOptions
"""Where a run is judged: here, or on Ray actors (`RayOptions`)."""


def engine_choice(engine: str, ray_address: str | None = None, workers: int | None = None,
                  names: OptionNames = CLI_NAMES, ray_writes: str | None = None) -> Engine:
    """The engine a front end's settings name; ValueError (one line) for an engine not
    known, a Ray address or a Ray writer without the Ray engine, or fewer than one
    worker. `ray_writes`: who saves a Ray run's judgments ("driver", the default, or
    "workers": a PostgreSQL store only, checked when the run starts)."""
    if engine not in ("local", "ray"):
        raise ValueError(f"{names.engine} must be 'local' or 'ray', not {engine!r}")
    if workers is not None and workers < 1:
        raise ValueError(f"{names.workers} must be at least 1, not {workers}")
    if ray_writes not in (None, "driver", "workers"):
        raise ValueError(f"{names.ray_writes} must be 'driver' or 'workers', not "
                         f"{ray_writes!r}")
    if engine == "ray":
        return RayOptions(address=ray_address, workers=workers,
                          writes="workers" if ray_writes == "workers" else "driver")
    ray = "--engine ray" if names is CLI_NAMES else "engine='ray'"
    for name, given in ((names.ray_address, ray_address), (names.ray_writes, ray_writes)):
        if given is not None:
            raise ValueError(f"{name} needs {ray}")
    return LocalEngine(workers=workers)


StoreOpener = Callable[[], Store]
"""Opens the run store when a run first needs it, so that a run refused by its checks
leaves no database behind (a front end that holds an open store passes it instead)."""


class StoreHandle:
    """The run's store, opened on first use."""

    def __init__(self, store: Store | StoreOpener) -> None:
        self._store = store if isinstance(store, Store) else None
        self._opener = None if isinstance(store, Store) else store

    def get(self) -> Store:
        if self._store is None:
            assert self._opener is not None
            self._store = self._opener()
        return self._store

    def close(self) -> None:
        """Close the store if this handle opened it (a store given open stays open)."""
        if self._opener is not None and self._store is not None:
            self._store.close()


@dataclass(frozen=True)
class RunRequest:
    """Everything a run is asked for; one object instead of many keyword arguments.

    `metrics` ("judge,ragas", a list of suites or qualified metric names, "all") and
    `judge` None: every suite and the offline judge for a new run, the run's own for a
    resume. `endpoints`: the judge's
    OpenAI-compatible servers (several of one model are spread over); `headers` go to them
    with every request and are never stored. `judge_object`: a judge the caller built (the
    bench's tests; the dashboard's), used instead of one made from the spec. `store`: the
    run store, or what opens it once the checks have passed (`StoreOpener`). `batch`: the
    judge calls go through the provider's batch API (`runner.batch_engine`); a resume of a
    batch run goes on with the options it stored, the fields set here over them.
    `routing`: a new run's cascade of judge tiers or jury (docs/routing.md; its first judge
    is the run's judge); `rerouting`: a resumed routed run's new threshold settings.
    `judge_check` (`eval --judge-check`): kept in the run's meta (`RunMeta.judge_check`)
    when the run ends or waits for its batches, for its summaries to honour.
    """

    source: Source
    store: Store | StoreOpener
    metrics: str | Sequence[str] | None = None
    judge: str | None = None
    endpoints: tuple[str, ...] = ()
    headers: Mapping[str, str] = field(default_factory=dict)
    timeout_s: float | None = None
    price: Price | None = None
    concurrency: int = 8
    ratings: Ratings = "expected"
    use_cache: bool = True
    max_context_tokens: int = 6000
    n_questions: int = 3
    seed: int = 0
    kind: RunKind = "eval"
    strategies: tuple[str, ...] = ()  # a bench: the strategies compared
    split: str | None = None  # meta-eval: the split scored
    limit: int | None = None  # meta-eval: the first N samples
    engine: Engine = LocalEngine()
    resume: str | None = None
    retry_failed: RetryFailed | None = None
    batch: BatchOptions | None = None
    judge_object: Judge | None = None
    routing: RoutingPlan | None = None
    rerouting: RoutingSettings | None = None
    judge_check: bool = False
    names: OptionNames = CLI_NAMES

    def settings(self) -> dict[str, Any]:
        """The RunConfig fields this request sets besides the data, judge and suites."""
        return {"concurrency": self.concurrency, "seed": self.seed,
                "use_cache": self.use_cache, "max_context_tokens": self.max_context_tokens,
                "n_questions": self.n_questions, "ratings": self.ratings, "kind": self.kind,
                "strategies": self.strategies, "split": self.split, "limit": self.limit}
