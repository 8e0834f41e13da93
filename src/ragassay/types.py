"""Core types shared by every subpackage.

Everything here is a plain, frozen pydantic model with no behaviour beyond
small derived values: domain objects never save, judge or aggregate themselves.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Iterable, Mapping
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field, SecretStr, model_validator

JSON = dict[str, Any]

NO_CONTEXTS, EMPTY_ANSWER, NO_REFERENCE = "no contexts", "empty answer", "no reference answer"
NO_CONTEXTS_OR_REFERENCE = "needs contexts or a reference answer"
NO_REFERENCE_OR_ANSWER = "needs a reference or an answer"
MISSING_INPUT = frozenset({NO_CONTEXTS, EMPTY_ANSWER, NO_REFERENCE, NO_CONTEXTS_OR_REFERENCE,
                           NO_REFERENCE_OR_ANSWER})
"""Unscored reasons that say a sample lacks an input the metric needs: a state of the
data, not a failure of scoring (the strategy summaries' `failed_questions` leave them out)."""

TRANSPORT_FAILURES = ("judge call failed: connection error*", "judge call failed: timed out*",
                      "judge call failed: HTTP 429*", "judge call failed: HTTP 5[0-9][0-9]*")
"""Unscored reasons (glob patterns, as SQLite's GLOB and `fnmatch.fnmatchcase` read
them) of a judge call that failed for the endpoint's sake: no connection, a timeout, 429 or
5xx after the retries. `--resume` judges them again; a reply that came but was unusable
(a content failure) is judged again only with `--retry-failed all`."""


class _Frozen(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid")


class Sample(_Frozen):
    """One RAG interaction to evaluate."""

    id: str
    question: str
    contexts: tuple[str, ...] = ()
    answer: str = ""
    reference: str | tuple[str, ...] | None = None
    strategy: str = "default"
    labels: dict[str, Any] = Field(default_factory=dict)
    metadata: dict[str, Any] = Field(default_factory=dict)

    @property
    def references(self) -> tuple[str, ...]:
        """The acceptable reference answers, as a tuple (empty when none)."""
        if self.reference is None:
            return ()
        if isinstance(self.reference, str):
            return (self.reference,) if self.reference.strip() else ()
        return tuple(r for r in self.reference if r.strip())

    @property
    def content_key(self) -> str:
        """The sample's content identity: a hash of its question, contexts and answer
        (not its id, strategy, reference or metadata). Human labels are stored under it,
        so a label applies to every run that scored the same interaction."""
        return content_key(self.question, self.contexts, self.answer)


def content_key(question: str, contexts: tuple[str, ...] | list[str], answer: str) -> str:
    """sha256 (first 32 hex digits) of the canonical JSON of [question, contexts, answer]."""
    text = json.dumps([question, list(contexts), answer], ensure_ascii=False,
                      separators=(",", ":"))
    return hashlib.sha256(text.encode("utf-8", "surrogatepass")).hexdigest()[:32]


class TraceDocument(_Frozen):
    """A document a retrieval (or rerank) span returned, with its scores once judged:
    `relevance` to the sample's question and `used` by the final answer (offline)."""

    id: str | None = None
    content: str
    score: float | None = None  # the retriever's or reranker's own score
    relevance: float | None = None
    used: float | None = None


class TraceHop(_Frozen):
    """A retrieval or rerank span of a trace: its query and documents; `relevance` (of
    its documents to the question, as a whole) and `utilization` (the share of its
    documents the final answer uses) once judged."""

    span_id: str
    name: str
    kind: Literal["retriever", "reranker"]
    query: str = ""
    documents: tuple[TraceDocument, ...] = ()
    relevance: float | None = None
    utilization: float | None = None


class TraceSpan(_Frozen):
    """One span of a trace as the sample keeps it: the tree (parent), its role (kind),
    its times (ns since the epoch) and the attributes no mapping rule took."""

    span_id: str
    parent_id: str | None = None
    name: str
    kind: str = ""
    start_ns: int | None = None
    end_ns: int | None = None
    attributes: dict[str, Any] = Field(default_factory=dict)


class LostDocument(_Frozen):
    """A document an earlier hop found relevant that the final contexts lack."""

    hop: int  # 0-based index into SampleTrace.hops
    span_id: str
    document: str  # its id, else the start of its text
    relevance: float


class SampleTrace(_Frozen):
    """The trace a sample was read from (`Sample.metadata["trace"]`): ids that link
    scores back to it, its spans, its hops, which hops fed the answer (`context_hops`)
    and, once judged (`judged`), the relevant documents later hops lost."""

    trace_id: str
    span_id: str  # the root span
    answer_span_id: str | None = None
    spans: tuple[TraceSpan, ...] = ()
    hops: tuple[TraceHop, ...] = ()
    context_hops: tuple[int, ...] = ()
    lost: tuple[LostDocument, ...] = ()
    judged: bool = False

    @classmethod
    def of(cls, sample: Sample) -> SampleTrace | None:
        """The sample's trace, when it was read from one."""
        raw = sample.metadata.get("trace")
        return cls.model_validate(raw) if isinstance(raw, Mapping) else None


class HumanLabel(_Frozen):
    """A person's label for one interaction (by its content key): a name from the label
    vocabulary (or any other), a bool or a number, who gave it, where from, and when."""

    content_key: str
    name: str
    value: bool | float
    annotator: str = ""
    source: str = ""  # "annotate:RUN", "import:labels.jsonl", ...
    note: str = ""
    created: str = ""  # ISO time; set by the store when empty


PlanKind = Literal["uniform", "uncertainty", "stratified"]


class AnnotationPlan(_Frozen):
    """How a run's annotation queue is drawn, so that the labels are a random sample with
    known inclusion probabilities: the order is fixed by `seed` and the samples' content
    keys; `uncertainty` weights by the judge's score of `metric`, `stratified` gives each
    strategy an equal share. `skipped`: content keys a person passed over (non-response)."""

    run_id: str
    kind: PlanKind = "uniform"
    seed: int = 0
    metric: str | None = None
    labels: tuple[str, ...] = ()
    skipped: tuple[str, ...] = ()
    created: str = ""


class InvalidRow(_Frozen):
    """An input row that failed validation, kept so that nothing is dropped silently."""

    id: str
    source: str  # "data.jsonl:17"
    reason: str  # "'contexts' must be a list of strings"
    strategy: str = "default"


class Usage(_Frozen):
    """Judge cost counters; add them with `+`."""

    calls: int = 0
    input_tokens: int = 0
    output_tokens: int = 0
    cache_hits: int = 0
    latency_s: float = 0.0
    # input tokens the server served from its prompt (prefix) cache; part of input_tokens
    cached_tokens: int = 0
    # US dollars the provider's usage cost, when the backend can price it (LiteLLM's
    # price table applied to the provider's token counts); None: not priced, not free
    cost_usd: float | None = None

    def __add__(self, other: Usage) -> Usage:
        costs = [c for c in (self.cost_usd, other.cost_usd) if c is not None]
        return Usage(
            calls=self.calls + other.calls,
            input_tokens=self.input_tokens + other.input_tokens,
            output_tokens=self.output_tokens + other.output_tokens,
            cache_hits=self.cache_hits + other.cache_hits,
            latency_s=self.latency_s + other.latency_s,
            cached_tokens=self.cached_tokens + other.cached_tokens,
            cost_usd=sum(costs) if costs else None,
        )


# -- a judge's measured agreement with people (judge.reliability loads it) --------


class Agreement(_Frozen):
    """One metric's measured agreement with people on data the judge never saw."""

    statistic: str = "AUROC"
    low: float  # the worst held-out set
    high: float  # the best held-out set
    sets: tuple[str, ...] = ()  # the held-out sets it was measured on
    lexical_low: float | None = None  # the lexical baseline's range on the same sets
    lexical_high: float | None = None

    def describe(self, judge: str, metric: str) -> str:
        """`offline judge, judge.faithfulness: AUROC 0.61-0.78 on 7 unseen human-labelled
        sets (lexical baseline 0.55-0.93)`."""
        text = (f"{judge} judge, {metric}: {self.statistic} {_span(self.low, self.high)} on "
                f"{len(self.sets)} unseen human-labelled set{'s' if len(self.sets) != 1 else ''}")
        if self.lexical_low is not None and self.lexical_high is not None:
            text += f" (lexical baseline {_span(self.lexical_low, self.lexical_high)})"
        return text


def _span(low: float, high: float) -> str:
    """`0.61-0.95`, or one figure where both ends print the same (one set)."""
    a, b = f"{low:.2f}", f"{high:.2f}"
    return a if a == b else f"{a}-{b}"


class Reliability(_Frozen):
    """A judge's agreement table: per qualified metric, or nothing measured."""

    judge: str
    measured: str = ""  # date
    command: str = ""  # what reproduces it
    metrics: dict[str, Agreement] = Field(default_factory=dict)

    def of(self, metric: str) -> Agreement | None:
        return self.metrics.get(metric)

    def lines(self, metrics: list[str]) -> list[str]:
        """One line per metric of the run: its agreement, or that none was measured."""
        out = []
        for m in metrics:
            a = self.of(m)
            out.append(a.describe(self.judge, m) if a else
                       f"{self.judge} judge, {m}: no measured agreement with people")
        return out


class RunReliability(_Frozen):
    """What a run stores about its judge's reliability (run meta "reliability"): the
    judge's table (`Reliability`'s fields) and one line per metric of the run, so that
    readers need not know judges."""

    judge: str
    measured: str = ""
    command: str = ""
    metrics: dict[str, Agreement] = Field(default_factory=dict)
    lines: dict[str, str] = Field(default_factory=dict)


def default_label(name: str) -> str:
    """`judge.context_relevance` -> `Context relevance (judge)`."""
    suite, _, short = name.partition(".")
    if not short:
        return name.replace("_", " ").capitalize()
    return f"{short.replace('_', ' ').capitalize()} ({suite})"


class Target(_Frozen):
    """Interpretation thresholds on a metric's own scale: good at/above `good`, warning
    below `warning` (at/below and above for lower-is-better metrics)."""

    good: float
    warning: float


class Condition(_Frozen):
    """One side of a diagnostics rule: a metric, normalised to 0-1, below / at least a value."""

    metric: str
    op: Literal["<", ">="]
    threshold: float

    def excess(self, x: float) -> float | None:
        """How far past the threshold x is (>= 0) when the condition holds, else None."""
        if self.op == "<":
            return self.threshold - x if x < self.threshold else None
        return x - self.threshold if x >= self.threshold else None


def below(metric: str, threshold: float) -> Condition:
    """The metric (normalised to 0-1) is below `threshold`."""
    return Condition(metric=metric, op="<", threshold=threshold)


def at_least(metric: str, threshold: float) -> Condition:
    """The metric (normalised to 0-1) is at least `threshold`."""
    return Condition(metric=metric, op=">=", threshold=threshold)


class Rule(_Frozen):
    """A diagnostics rule: a conjunction of conditions that points at one RAG failure."""

    name: str
    conditions: tuple[Condition, ...]
    message: str
    fix: str

    @property
    def metrics(self) -> tuple[str, ...]:
        return tuple(c.metric for c in self.conditions)


class Composite(_Frozen):
    """A metric computed from others: sum(w_i * part_i) / sum(w_i present) * (1 - penalty).

    Parts without a value are left out and the remaining weights rescaled; without a
    `required` part or the penalty there is no value. The one rule for the judge suite's
    `overall`, per sample (floats) and per strategy (means, or bootstrap arrays).
    """

    weights: dict[str, float]
    penalty: str | None = None
    required: tuple[str, ...] = ()

    def combine(self, values: Mapping[str, Any]) -> tuple[Any, dict[str, float]]:
        """(value, weights used); value None when a required part or the penalty is missing.
        Values may be floats or numpy arrays (element-wise)."""
        present = {k: v for k, v in ((k, values.get(k)) for k in self.weights) if v is not None}
        penalty = values.get(self.penalty) if self.penalty else 0.0
        if penalty is None or not present or any(values.get(r) is None for r in self.required):
            return None, {}
        total = sum(self.weights[k] for k in present)
        weights = {k: self.weights[k] / total for k in present}
        base = sum(weights[k] * v for k, v in present.items())
        return base * (1.0 - penalty), weights


class MetricSpec(_Frozen):
    """Everything about a metric, declared once next to its formula in `metrics/<suite>/`:
    name, label, range and direction, how it aggregates, its interpretation target, its
    default gate threshold, its place in headlines and leaderboards, the diagnostics rules
    it leads, and (for a composite) how it is computed from other metrics.

    Specs are stored with each run, so that a report reads a run with the definitions it
    was scored with; `stats`, `report`, `ui` and `bench` hold no metric names.
    """

    name: str  # qualified: "judge.faithfulness"
    label: str = ""  # display label; derived from the name when empty
    low: float = 0.0
    high: float = 1.0
    kind: Literal["score", "bool"] = "score"
    higher_is_better: bool = True
    description: str = ""
    target: Target | None = None  # interpretation on the raw scale (else a generic rule)
    # the default release-gate bar (None: not gated by default); declared `gate=True`: the
    # target's `good`, so that the gate and the report hold one bar. A number is a bar of
    # its own: a run stored before gate=True kept its bar, which the gate says beside the
    # target (cli `gate`).
    gate: float | None = None
    headline: int | None = None  # position in narrow summaries (lower first; None: not shown)
    rank: int | None = None  # preference as the leaderboard's ranking metric (lower first)
    rules: tuple[Rule, ...] = ()  # diagnostics rules whose first condition is on this metric
    composite: Composite | None = None

    @model_validator(mode="before")
    @classmethod
    def _gate_at_target(cls, data: Any) -> Any:
        """`gate=True`: the bar is the declared target's `good`; a spec without a target
        declares its bar as a number (there is no target to take it from)."""
        if isinstance(data, dict) and data.get("gate") is True:
            target = data.get("target")
            good = target.get("good") if isinstance(target, dict) else getattr(
                target, "good", None)
            if good is None:
                raise ValueError(f"{data.get('name')}: gate=True needs a declared target")
            data = {**data, "gate": good}
        return data

    @property
    def suite(self) -> str:
        return self.name.split(".", 1)[0]

    @property
    def short(self) -> str:
        """The name without its suite: `faithfulness`."""
        return self.name.split(".", 1)[-1]

    @property
    def display_label(self) -> str:
        return self.label or default_label(self.name)

    @property
    def aggregation(self) -> Literal["mean", "rate"]:
        """How values aggregate: a mean, or for booleans a rate."""
        return "rate" if self.kind == "bool" else "mean"

    def normalise(self, value: float) -> float:
        """Map a value onto 0-1 using the declared range."""
        if self.high == self.low:
            return float(value)
        return (float(value) - self.low) / (self.high - self.low)


ABSTENTION = "abstention"
"""The details key of an abstained value: "correct" (the contexts do not hold the answer),
"false" (they do) or "unknown" (the judge could not tell)."""
ABSTENTION_OUTCOMES = ("correct", "false", "unknown")


def abstained_reason(outcome: str) -> str:
    """What an export's reason column says for an abstained value ("abstained (false)"),
    beside the unscored reasons: every export and table says it this way."""
    return f"abstained ({outcome})"
Status = Literal["scored", "abstained", "unscored"]


class MetricResult(_Frozen):
    """One metric's outcome for one sample: a value, unscored with a reason, or abstained
    (the answer declines: no value and no unscored reason; `details["abstention"]` says
    whether declining was right). Abstentions are left out of means and counted apart."""

    name: str
    value: float | bool | None
    unscored_reason: str | None = None
    details: dict[str, Any] = Field(default_factory=dict)

    @property
    def scored(self) -> bool:
        return self.value is not None

    @property
    def abstention(self) -> str | None:
        """"correct", "false" or "unknown" when the value is an abstention, else None."""
        if self.value is not None or self.unscored_reason is not None:
            return None
        got = self.details.get(ABSTENTION)
        return got if got in ABSTENTION_OUTCOMES else None

    @property
    def status(self) -> Status:
        if self.value is not None:
            return "scored"
        return "abstained" if self.abstention is not None else "unscored"


class SampleResult(_Frozen):
    """Everything one suite produced for one sample."""

    sample_id: str
    strategy: str = "default"
    suite: str
    results: tuple[MetricResult, ...]
    reasoning: str | None = None
    usage: Usage = Usage()


class Message(_Frozen):
    role: Literal["system", "user", "assistant"]
    content: str


class JudgeRequest(_Frozen):
    """What a backend is asked: messages, the JSON schema wanted, sampling parameters."""

    messages: tuple[Message, ...]
    output_schema: dict[str, Any] | None = None
    temperature: float = 0.0
    max_tokens: int = 1024
    seed: int | None = 0
    prompt_name: str = ""
    prompt_version: str = ""
    # Set by the policy layer (never part of a cache key): the structured-output form to
    # ask for, and parameters the server rejected (drop them; "max_tokens" -> send
    # max_completion_tokens instead).
    structured_output: Literal["json_schema", "json_object", "prompt"] = "json_schema"
    omit: frozenset[str] = frozenset()
    # Ask for this many alternatives per generated token (probability-weighted ratings);
    # a backend that cannot give them answers without. Not part of the cache key.
    top_logprobs: int | None = None


class TokenLogprob(_Frozen):
    """One generated token: its text (and raw bytes), log-probability, best alternatives.

    `top` lists (token text, logprob) best first, the chosen token included. `after`
    holds, for some alternatives that are a number's first digit, the next-token
    alternatives had that digit been chosen (an in-process backend probes them, so
    that "10" split into "1" + "0" can be read when the model chose another digit).
    """

    token: str
    logprob: float
    bytes: tuple[int, ...] | None = None
    top: tuple[tuple[str, float], ...] = ()
    after: tuple[tuple[str, tuple[tuple[str, float], ...]], ...] = ()


class JudgeReply(_Frozen):
    """A backend's answer: raw text, parsed JSON (or why not), usage, finish reason."""

    text: str
    data: Any = None
    parse_error: str | None = None
    usage: Usage = Usage()
    finish_reason: str | None = None
    model: str = ""
    logprobs: tuple[TokenLogprob, ...] | None = None  # per generated token, when asked for

    @property
    def truncated(self) -> bool:
        return self.finish_reason == "length"


StructuredOutput = Literal["auto", "json_schema", "json_object", "prompt"]
Ratings = Literal["expected", "greedy"]
"""How an LLM judge reads ratings and flags: probability-weighted, or as stated."""


class Price(BaseModel):
    """A model's price in US dollars per million tokens (`--price-in/--price-out`, a
    bench's [prices], or LiteLLM's table: `ragassay.llm.pricing`)."""

    model_config = ConfigDict(frozen=True, extra="forbid", allow_inf_nan=False)

    input: float = Field(ge=0)
    output: float = Field(ge=0)
    # input tokens served from the provider's prompt cache (default: the input price)
    cached_input: float | None = Field(default=None, ge=0)

    @classmethod
    def given(cls, price_in: float | None, price_out: float | None) -> Price | None:
        """The price from a front end's two options (both or neither: ValueError)."""
        if price_in is None and price_out is None:
            return None
        if price_in is None or price_out is None:
            raise ValueError("--price-in and --price-out go together (US dollars per 1M "
                             "input and output tokens)")
        return cls(input=price_in, output=price_out)

    def cost(self, input_tokens: int, output_tokens: int, cached_tokens: int = 0) -> float:
        """Dollars for these tokens; `cached_tokens` of the input at the cached rate."""
        cached = max(0, min(cached_tokens, input_tokens))
        rate = self.input if self.cached_input is None else self.cached_input
        return ((input_tokens - cached) * self.input + cached * rate
                + output_tokens * self.output) / 1_000_000


class BackendOptions(BaseModel):
    """How to reach a judge server and how hard to try.

    Only `structured_output`, `max_tokens` (when set explicitly) and `extra_body`
    affect what the model answers; the rest (timeouts, retries, concurrency) never
    enter a cache key. Keys never live here: only where to read them from. No float is
    nan or inf (an inf timeout would be stored as null, and the run unreadable).
    """

    model_config = ConfigDict(frozen=True, extra="forbid", allow_inf_nan=False)

    base_url: str | None = None
    api_key_env: str = "OPENAI_API_KEY"
    api_key_file: str | None = None
    # Extra HTTP headers (`--header`, e.g. a gateway's key): sent, never shown or stored.
    headers: dict[str, SecretStr] = Field(default_factory=dict, repr=False)
    timeout_s: float = Field(default=60.0, gt=0)
    max_retries: int = Field(default=4, ge=0)
    concurrency: int = Field(default=8, ge=1)
    structured_output: StructuredOutput = "auto"
    # The completion budget; when given explicitly it overrides the request's own.
    max_tokens: int = Field(default=1024, ge=1)
    extra_body: dict[str, Any] = Field(default_factory=dict)
    # Backoff tuning (tests use small values): full jitter on base * 2**retry, capped.
    backoff_base_s: float = Field(default=0.5, ge=0)
    backoff_max_s: float = Field(default=30.0, ge=0)
    # Longest Retry-After we honour; longer values are clipped to this.
    retry_after_max_s: float = Field(default=60.0, ge=0)
    # AIMD: grow the concurrency bound by one after this many successes in a row.
    increase_after: int = Field(default=10, ge=1)
    # What a call costs (--price-in/--price-out); None: LiteLLM's table when installed
    # (`ragassay.llm.pricing`). Never in a cache key.
    price: Price | None = None

    @property
    def max_tokens_overridden(self) -> bool:
        """Whether `max_tokens` was given explicitly (and so wins over the request's)."""
        return "max_tokens" in self.model_fields_set


OFFLINE_SPECS = ("offline", "offline:accurate")
"""The offline judge's specs: the default, and the opt-in accurate relevance mode (the
transformer embeds the question and each context document's first 128 word pieces; the
`embed` extra)."""


def is_offline(spec: str | None) -> bool:
    """Whether a judge spec names the offline judge (in any of its modes)."""
    return (spec or "").strip() in ("", *OFFLINE_SPECS)


class RunConfig(_Frozen):
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
