"""The bench TOML config: [bench], [prices], [generation], [[strategy]] and [grid].

Every table forbids unknown keys and errors name the key (`strategy[1].chunkr`),
paths are relative to the config file, and a grid expands to named strategies
such as `recursive-400/o50 bm25 k4`.
"""

from __future__ import annotations

import itertools
import tomllib
from pathlib import Path
from typing import Any

from pydantic import BaseModel, ConfigDict, Field, ValidationError, field_validator, model_validator

from ragassay.bench.generation import GenerationOptions
from ragassay.bench.pipeline import PipelineFields, PipelineSpec
from ragassay.bench.retrieval import RetrieverKind
from ragassay.corpus.chunking import ChunkerKind, ChunkerSpec, overlap_fits
from ragassay.types import Price


class _Strict(BaseModel):
    # no nan or inf: an inf timeout would fail only when the run is stored
    model_config = ConfigDict(frozen=True, extra="forbid", allow_inf_nan=False)


class BenchSection(_Strict):
    model_config = ConfigDict(populate_by_name=True)  # merged with _Strict's

    name: str
    corpus: str
    questions: str
    # {field: column}: read a question field from a column of another name (TOML `map`)
    field_map: dict[str, str] = Field(default_factory=dict, alias="map")

    @field_validator("field_map")
    @classmethod
    def _known_fields(cls, v: dict[str, str]) -> dict[str, str]:
        from ragassay.bench.questions import FIELDS

        for field in v:
            if field not in FIELDS:
                raise ValueError(f"unknown question field {field!r} (fields: {', '.join(FIELDS)})")
        return v
    metrics: tuple[str, ...] = ("judge",)
    judge: str = "offline"
    base_url: str | None = None  # the judge's server, passed on to the runner
    generator: str = "offline"
    rank_by: str | None = None  # default: the metric the suites rank by (MetricSpec.rank)
    # the ranking metric's practical-equivalence margin, on its scale (default: the one
    # its spec declares, MetricSpec.equivalence): a strategy within it of the best is
    # "equivalent"
    equivalence: float | None = Field(default=None, gt=0, allow_inf_nan=False)
    seed: int = 0
    embedder: str = "local"

    @field_validator("embedder")
    @classmethod
    def _known_embedder(cls, v: str) -> str:
        from ragassay.embed import canonical_spec

        return canonical_spec(v)  # a bad spec stops the load, naming bench.embedder

    @field_validator("metrics", mode="before")
    @classmethod
    def _suites(cls, v: Any) -> tuple[str, ...]:
        """Suite or metric names, as the runner takes them (metrics.suites_of); an
        unknown or no suite: ValueError."""
        from ragassay.metrics import suites_of

        return suites_of(v)

    @model_validator(mode="after")
    def _rankable(self) -> BenchSection:
        """A metric of the suites ranks the strategies: found at load, not after the
        whole bench has been answered and judged."""
        from ragassay.metrics import all_specs, parse_metrics

        suites = self.metrics
        specs = all_specs(suites)
        # a name no suite has is left to the caller's check (with its "did you mean")
        known = self.rank_by is not None and self.rank_by in all_specs(parse_metrics("all"))
        if known and self.rank_by not in specs:
            raise ValueError(f"rank_by {self.rank_by!r} is not a metric of the bench's suites "
                             f"({', '.join(suites)}): add its suite to metrics")
        if self.rank_by is None and not any(s.rank is not None for s in specs.values()):
            raise ValueError(f"no metric of {', '.join(suites)} ranks strategies: set rank_by")
        return self

    cache_dir: str = ".ragassay/bench-cache"
    concurrency: int = Field(default=4, ge=1)
    timeout_s: float = Field(default=60.0, gt=0)  # per judge call, before a retry
    # judge calls per sample for each suite (for the cost estimate); unknown suites: 1
    calls_per_sample: dict[str, int] = Field(default_factory=dict)
    judge_prompt_tokens: int = Field(default=700, ge=0)  # fixed prompt overhead per call
    judge_output_tokens: int = Field(default=300, ge=0)
    answer_tokens: int = Field(default=80, ge=0)  # expected generator output tokens


class StrategyEntry(_Strict):
    """One [[strategy]]: chunker + parameters + retriever + k + generator."""

    name: str | None = None
    chunker: ChunkerKind = "recursive"
    size: int = 400
    overlap: int = 0
    percentile: float = 25.0
    retriever: RetrieverKind = "bm25"
    k: int = Field(default=4, ge=1)
    generator: str | None = None
    # your own pipeline instead of chunker/retriever/generator: "module:function" or a URL
    pipeline: str | None = None
    fields: PipelineFields | None = None
    headers: dict[str, str] = Field(default_factory=dict)
    body: dict[str, Any] = Field(default_factory=dict)


class GridSection(_Strict):
    """Lists to expand as a cartesian product into strategies."""

    chunker: list[ChunkerKind]
    size: list[int] = [400]
    overlap: list[int] = [0]
    percentile: list[float] = [25.0]
    retriever: list[RetrieverKind] = ["bm25"]
    k: list[int] = [4]
    generator: list[str] | None = None

    @field_validator("chunker", "size", "overlap", "percentile", "retriever", "k")
    @classmethod
    def _non_empty(cls, v: list[Any]) -> list[Any]:
        if not v:
            raise ValueError("must list at least one value")
        return v


class ConfigFile(_Strict):
    bench: BenchSection
    prices: dict[str, Price] = Field(default_factory=dict)
    generation: GenerationOptions = GenerationOptions()
    strategy: list[StrategyEntry] = Field(default_factory=list)
    grid: GridSection | None = None


class Strategy(_Strict):
    """A resolved strategy with its unique readable name."""

    name: str
    chunker: ChunkerSpec
    retriever: RetrieverKind
    k: int
    generator: str
    pipeline: PipelineSpec | None = None  # set: the strategy is the team's own pipeline


class BenchConfig(_Strict):
    """A loaded config: the file's content, its directory, and the expanded strategies."""

    file: ConfigFile
    base_dir: Path
    strategies: tuple[Strategy, ...]

    @property
    def bench(self) -> BenchSection:
        return self.file.bench

    def path(self, value: str) -> Path:
        """A config path, resolved against the config file's directory."""
        p = Path(value).expanduser()
        return p if p.is_absolute() else self.base_dir / p


class ConfigError(ValueError):
    """A config that cannot be used; the message names the offending key."""


def _loc(loc: tuple[int | str, ...]) -> str:
    out = ""
    for part in loc:
        out += f"[{part}]" if isinstance(part, int) else (f".{part}" if out else str(part))
    return out or "(top level)"


def format_validation_error(source: str, exc: ValidationError) -> str:
    lines = []
    for err in exc.errors():
        msg = ("unknown key" if err["type"] == "extra_forbidden"
               else err["msg"].removeprefix("Value error, "))  # our validators' own text
        lines.append(f"{source}: {_loc(tuple(err['loc']))}: {msg}")
    return "\n".join(lines)


def strategy_name(chunker: ChunkerSpec, retriever: str, k: int, generator: str, default_gen: str):
    """`recursive-400/o50 bm25 k4`, plus the generator when it is not the default."""
    name = f"{chunker.label} {retriever} k{k}"
    return name if generator == default_gen else f"{name} {generator}"


def _pipeline(entry: StrategyEntry, where: str) -> PipelineSpec | None:
    if entry.pipeline is None:
        unused = [k for k in ("fields", "headers", "body") if getattr(entry, k)]
        if unused:
            raise ConfigError(f"{where}.{unused[0]}: only a strategy with a pipeline takes it")
        return None
    target = entry.pipeline.strip()
    is_url = target.startswith(("http://", "https://"))
    if not is_url and (":" not in target or target.startswith(":") or target.endswith(":")):
        raise ConfigError(f"{where}.pipeline: {target!r} is neither 'module:function' nor an "
                          "http(s):// URL")
    if not is_url and (entry.headers or entry.body):
        raise ConfigError(f"{where}.{'headers' if entry.headers else 'body'}: only an HTTP "
                          "pipeline takes it")
    return PipelineSpec(target=target, fields=entry.fields or PipelineFields(),
                        headers=entry.headers, body=entry.body)


def _resolve(entry: StrategyEntry, bench: BenchSection, where: str) -> Strategy:
    pipeline = _pipeline(entry, where)
    if pipeline is not None:
        return Strategy(name=entry.name or pipeline.label, chunker=ChunkerSpec(kind="fixed"),
                        retriever=entry.retriever, k=entry.k, generator="pipeline",
                        pipeline=pipeline)
    try:
        chunker = ChunkerSpec(
            kind=entry.chunker, size=entry.size, overlap=entry.overlap, percentile=entry.percentile
        )
    except ValidationError as exc:
        err = exc.errors()[0]
        loc = ".".join(str(p) for p in err["loc"])  # name the key, e.g. strategy[1].size
        where = f"{where}.{loc}" if loc else where
        raise ConfigError(f"{where}: {err['msg'].removeprefix('Value error, ')}") from exc
    gen = entry.generator or bench.generator
    name = entry.name or strategy_name(chunker, entry.retriever, entry.k, gen, bench.generator)
    return Strategy(name=name, chunker=chunker, retriever=entry.retriever, k=entry.k, generator=gen)


MAX_STRATEGIES = 100
"""The most strategies a [grid] may expand to unless the caller raises it (each one builds
an index, answers every question and is judged: a runaway grid is days of work)."""


def grid_size(grid: GridSection, bench: BenchSection) -> int:
    """How many strategies `expand_grid` makes, counted without making them."""
    tail = len(grid.retriever) * len(grid.k) * len(grid.generator or [bench.generator])
    n = 0
    for kind in grid.chunker:
        if kind == "semantic":  # overlap ignored (its first value), percentile used
            fits = sum(overlap_fits(kind, size, grid.overlap[0]) for size in grid.size)
            n += fits * len(grid.percentile)
        else:  # percentile ignored
            n += sum(overlap_fits(kind, size, ov) for size in grid.size for ov in grid.overlap)
    return n * tail


def expand_grid(grid: GridSection, bench: BenchSection, where: str = "grid") -> list[Strategy]:
    """The cartesian product of the grid's lists, in list order. Combinations that make no
    sense (overlap >= size, overlap or percentile on chunkers that ignore them) are skipped
    rather than duplicated."""
    out: list[Strategy] = []
    gens = grid.generator or [bench.generator]
    for kind, size, overlap, pct, ret, k, gen in itertools.product(
        grid.chunker, grid.size, grid.overlap, grid.percentile, grid.retriever, grid.k, gens
    ):
        if not overlap_fits(kind, size, overlap):
            continue
        if kind == "semantic" and overlap != grid.overlap[0]:
            continue  # semantic ignores overlap
        if kind != "semantic" and pct != grid.percentile[0]:
            continue  # only semantic uses the percentile
        try:
            entry = StrategyEntry(
                chunker=kind, size=size, overlap=0 if kind == "semantic" else overlap,
                percentile=pct, retriever=ret, k=k, generator=gen,
            )
        except ValidationError as exc:  # e.g. k = [0]: name the grid key
            err = exc.errors()[0]
            loc = ".".join(str(p) for p in err["loc"])
            raise ConfigError(f"{where}.{loc}: {err['msg']}") from exc
        out.append(_resolve(entry, bench, where))
    return out


def parse_config(data: dict[str, Any], base_dir: Path, source: str = "config", *,
                 max_strategies: int = MAX_STRATEGIES) -> BenchConfig:
    """Validate a parsed TOML document and expand its strategies; a [grid] that would
    expand past `max_strategies` is refused before it is expanded."""
    try:
        file = ConfigFile.model_validate(data)
    except ValidationError as exc:
        raise ConfigError(format_validation_error(source, exc)) from exc
    strategies = [
        _resolve(e, file.bench, f"{source}: strategy[{i}]") for i, e in enumerate(file.strategy)
    ]
    if file.grid is not None:
        n = grid_size(file.grid, file.bench)
        if n > max_strategies:
            raise ConfigError(f"{source}: [grid] expands to {n:,} strategies, more than "
                              f"{max_strategies:,}: narrow its lists, or allow them with "
                              f"--max-strategies {n} (max_strategies= in Python)")
        strategies += expand_grid(file.grid, file.bench, f"{source}: grid")
    if not strategies:
        raise ConfigError(f"{source}: no strategies: add [[strategy]] entries or a [grid]")
    seen: set[str] = set()
    for s in strategies:
        if s.name in seen:
            raise ConfigError(f"{source}: duplicate strategy name {s.name!r}")
        seen.add(s.name)
    return BenchConfig(file=file, base_dir=base_dir, strategies=tuple(strategies))


def load_config(path: str | Path, *, max_strategies: int = MAX_STRATEGIES) -> BenchConfig:
    """Read and validate a bench TOML file (see `parse_config`)."""
    p = Path(path)
    try:
        data = tomllib.loads(p.read_text(encoding="utf-8"))
    except FileNotFoundError as exc:
        raise ConfigError(f"config not found: {p}") from exc
    except OSError as exc:
        raise ConfigError(f"{p.name}: cannot read ({exc.strerror or exc})") from None
    except UnicodeDecodeError as exc:
        raise ConfigError(f"{p.name}: not valid UTF-8 (byte {exc.start + 1})") from None
    except tomllib.TOMLDecodeError as exc:
        raise ConfigError(f"{p.name}: invalid TOML ({exc})") from exc
    return parse_config(data, p.resolve().parent, p.name, max_strategies=max_strategies)
