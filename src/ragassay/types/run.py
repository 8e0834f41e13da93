"""What defines a run (`RunConfig`), stored with it so that it can be resumed and compared,
and what a run records about itself as it goes (`RunMeta`)."""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any, Literal

from pydantic import Field, ValidationError, field_serializer

from ragassay.types.backend import BackendOptions, Price
from ragassay.types.base import Frozen
from ragassay.types.reliability import RunReliability
from ragassay.types.routing import RoutingPlan

Ratings = Literal["expected", "greedy"]
"""How an LLM judge reads ratings and flags: probability-weighted, or as stated."""
ReadAs = Literal["auto", "rows", "traces"]
"""How a .json/.jsonl/.parquet dataset is read: as rows or traces by what it holds (the
keys of its first object), or as named (`eval --format`)."""

OFFLINE_SPECS = ("offline", "offline:accurate")
"""The offline judge's specs: the default, and the opt-in accurate relevance mode (the
transformer embeds the question and each context document's first 128 word pieces; the
`embed` extra)."""


def is_offline(spec: str | None) -> bool:
    """Whether a judge spec names the offline judge (in any of its modes)."""
    return (spec or "").strip() in ("", *OFFLINE_SPECS)


class RunConfig(Frozen):
    """What defines a run; stored with it so that it can be resumed and compared.

    `base_url` and `concurrency` override the same fields of `backend`; `base_urls` lists
    every endpoint when calls are spread over several (`base_url` is then the first).
    """

    dataset: str
    judge: str = "offline"
    base_url: str | None = None
    base_urls: tuple[str, ...] = ()
    metrics: tuple[str, ...] = ("judge",)
    concurrency: int = 8
    seed: int = 0
    use_cache: bool = True
    skip_invalid: bool = False
    max_context_tokens: int = 6000
    n_questions: int = Field(default=3, ge=1)  # ragas answer relevancy: questions generated
    backend: BackendOptions = BackendOptions()
    prompt_versions: dict[str, str] = Field(default_factory=dict)
    field_map: dict[str, str] = Field(default_factory=dict)  # {field: column} of the dataset
    # {role: [attribute, ...]} read first from a trace file (dataset.traces.mapping)
    trace_map: dict[str, list[str]] = Field(default_factory=dict)
    kind: Literal["eval", "bench", "meta-eval", "monitor"] = "eval"
    strategies: tuple[str, ...] = ()  # bench: the strategies compared
    split: str | None = None  # meta-eval: the dev-set split scored
    limit: int | None = None  # meta-eval: the first N samples only
    # how an LLM judge reads ratings and flags: probability-weighted from the token
    # probabilities (when the backend gives them), or the stated values
    ratings: Ratings = "expected"
    # a cascade or a jury (`--escalate`, `--jury`): the judges and how they are routed;
    # None: `judge` judges every sample
    routing: RoutingPlan | None = None
    read_as: ReadAs = "auto"  # the dataset read as rows or traces (`eval --format`)

    @field_serializer("backend")
    def _given_backend(self, backend: BackendOptions) -> dict[str, Any]:
        # only the options given: a stored config read back must not take a default for
        # one given (`max_tokens_overridden`: a resumed run's calls would ask for another
        # max_tokens, under other cache keys, than the run's first calls did)
        return backend.model_dump(mode="json", exclude_unset=True)

    def backend_options(self) -> BackendOptions:
        """The backend settings with this run's endpoint and concurrency."""
        return self.backend.model_copy(update={"base_url": self.base_url,
                                               "concurrency": self.concurrency})

    def endpoints(self) -> tuple[str, ...]:
        """Every judge endpoint: `base_urls`, else `base_url` alone (none: the default)."""
        return self.base_urls or ((self.base_url,) if self.base_url else ())

    def with_endpoints(self, urls: str | Iterable[str] | None) -> RunConfig:
        """The config judged at `urls`, one endpoint or several (the first is `base_url`;
        `base_urls` lists them all when there are several)."""
        listed = (urls,) if isinstance(urls, str) else tuple(urls or ())
        return self.model_copy(update={"base_url": listed[0] if listed else None,
                                       "base_urls": listed if len(listed) > 1 else ()})

    @classmethod
    def build(cls, dataset: str, *, urls: str | Iterable[str] | None = None,
              timeout_s: float | None = None, price: Price | None = None,
              **fields: Any) -> RunConfig:
        """The one way a front end (CLI, Python API, dashboard, bench, meta-eval) makes a
        run's config from its flat options: the judge's endpoints (`with_endpoints`), the
        per-call `timeout_s` and the judge's `price` (`backend`); any other field is
        RunConfig's own."""
        given: dict[str, Any] = {"timeout_s": timeout_s, "price": price}
        backend = BackendOptions(**{k: v for k, v in given.items() if v is not None})
        return cls(dataset=dataset, backend=backend, **fields).with_endpoints(urls)


class RunMeta(Frozen):
    """What a run records about itself besides its config (`runs.meta`), read by attribute:
    the runner's counters and notes of its last part, the engine, the judge's reliability
    table, where the dataset file was (`trend` links versions of one file by it), and a
    bench's record. A field that was never written is None (or empty)."""

    samples: int | None = None  # valid samples of the input, as the last part counted them
    invalid: int | None = None  # invalid rows
    seconds: float | None = None  # the last part's duration
    embedders: tuple[str, ...] = ()  # what the run embedded with, for its report
    engine: str | None = None  # "local", "ray": the engine of the last part
    ray_workers: int | None = None
    ray_peak_rss_mib: dict[str, float] = Field(default_factory=dict)  # worker PID -> MiB
    workers: int | None = None  # the local engine's worker processes (offline judge)
    worker_peak_rss_mib: dict[str, float] = Field(default_factory=dict)  # their PID -> MiB
    notes: tuple[str, ...] = ()  # what the judge's backend had to say about the run
    reliability: RunReliability | None = None  # the judge's measured agreement with people
    dataset_path: str | None = None  # the dataset file's resolved path
    bench: dict[str, Any] | None = None  # a bench's record (`report.BenchRecord` reads it)
    failure: str | None = None  # why a failed run failed (its first stopping error, one line)
    # `eval --judge-check`: a run made to check the judge against people's labels, whose
    # summaries (`runs show`, a resume's) count the warnings on the system's figures
    # instead of saying them (`runs show --warnings` says them)
    judge_check: bool | None = None
    # what an older version kept here: a config's free-form extras (m0003), unknown keys
    legacy_extra: dict[str, Any] = Field(default_factory=dict)
    other: dict[str, Any] = Field(default_factory=dict)

    @classmethod
    def read(cls, raw: Mapping[str, Any]) -> RunMeta:
        """The stored meta, field by field: a field that does not validate (a reliability
        table of an older shape) reads as unset; it and the keys this version does not know
        are kept in `other`, and written back as they were."""
        fields: dict[str, Any] = {}
        other: dict[str, Any] = dict(raw.get("other") or {}) if isinstance(
            raw.get("other"), Mapping) else {}
        for key, value in raw.items():
            if key == "other":
                continue
            if key not in cls.model_fields:
                other[key] = value
                continue
            try:
                cls.model_validate({key: value})
            except ValidationError:
                other[key] = value
                continue
            fields[key] = value
        return cls.model_validate({**fields, "other": other} if other else fields)

    def stored(self) -> dict[str, Any]:
        """The JSON object stored: the fields that were written, unknown keys as found."""
        out = self.model_dump(mode="json", exclude_unset=True, exclude={"other"})
        return {**{k: v for k, v in self.other.items() if k not in out}, **out}

    def merged(self, update: RunMeta) -> RunMeta:
        """This meta with the fields `update` wrote put over it."""
        values = {k: getattr(self, k) for k in self.model_fields_set}
        values.update({k: getattr(update, k) for k in update.model_fields_set if k != "other"})
        other = {**self.other, **update.other}
        if other:
            values["other"] = other
        return type(self).model_validate(values)
