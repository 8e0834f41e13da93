"""The options `evaluate` takes besides the data, the metrics and the judge."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field, fields
from typing import TYPE_CHECKING, Any

from ragassay.types import LabelRule, Price, Ratings, RoutingPlan

if TYPE_CHECKING:  # the runner is imported when a run starts
    from ragassay.runner import BatchOptions


@dataclass(frozen=True)
class EvalOptions:
    """Everything optional about one evaluation; `evaluate(..., **options)` fills it.

    `dataset` names the run in the store (default: the file's path, else the kind of
    data and 8 hex digits of its content, "dataframe:3f2a9c1e");
    `field_map` reads fields from columns of other names ({"answer": "generated"});
    `trace_map` reads other span attributes first from a trace file
    ({"question": ["my.input"]}, docs/traces.md);
    `base_url` is one endpoint, or a list of endpoints of the same model that calls are
    spread over (like a repeated `--base-url`);
    `headers` go to the judge's server with every request and are never stored;
    `progress` draws a bar on stderr (default: when stderr is a terminal or in IPython);
    `ratings` says how an LLM judge's ratings are read: "expected" (probability-weighted,
    when the backend gives token probabilities) or "greedy" (the stated values);
    `engine` "ray" judges on Ray actors (`ray_address` None starts a private local
    instance; `workers` defaults to the cluster's CPUs; `ray_writes` "workers" has each
    worker save its own judgments into a PostgreSQL store, default "driver"), with the
    same results (docs/scale.md); with the local engine `workers` is the processes that run the
    offline judge (default: one per CPU, as memory allows; 1: this process);
    `price_in`/`price_out` price the judge's calls in US dollars per 1M tokens (both or
    neither; default: LiteLLM's table where litellm is installed); `routing` a cascade of
    judge tiers or a jury (`RoutingPlan`, as `eval --escalate` builds it; its first tier
    is the run's judge; docs/routing.md); `label_rule` how several people's labels of a
    sample become one value for the result's corrected figures and report ("majority",
    the default: a tie leaves the sample's label out; or "annotator:NAME": one person's);
    `batch` sends an LLM judge's calls through the provider's batch API at its batch price
    (True, or `BatchOptions(fallback=..., poll_s=..., detach=...)` as `eval --batch` and
    its options; on a resume, options alone go over those the batch run stored).
    """

    dataset: str | None = None
    field_map: Mapping[str, str] = field(default_factory=dict)
    trace_map: Mapping[str, Sequence[str]] = field(default_factory=dict)
    skip_invalid: bool = False
    base_url: str | Sequence[str] | None = None
    headers: Mapping[str, str] = field(default_factory=dict)
    concurrency: int = 8
    max_context_tokens: int = 6000
    timeout_s: float = 60.0
    use_cache: bool = True
    n_questions: int = 3
    seed: int = 0
    progress: bool | None = None
    ratings: str = "expected"
    engine: str = "local"
    ray_address: str | None = None
    ray_writes: str | None = None
    workers: int | None = None
    price_in: float | None = None
    price_out: float | None = None
    routing: RoutingPlan | None = None
    label_rule: str = "majority"
    batch: BatchOptions | bool | None = None

    @property
    def rule(self) -> LabelRule:
        """`label_rule` parsed (ValueError, one line, for anything but "majority" or
        "annotator:NAME")."""
        return LabelRule.parse(self.label_rule)

    @property
    def endpoints(self) -> tuple[str, ...]:
        """`base_url` as the judge's endpoints (one, several, or none: the default)."""
        urls = self.base_url
        return (urls,) if isinstance(urls, str) else tuple(urls or ())

    @property
    def rating_mode(self) -> Ratings:
        return "greedy" if self.ratings == "greedy" else "expected"

    @property
    def judge_price(self) -> Price | None:
        """The judge's price from `price_in`/`price_out` (ValueError if only one)."""
        return Price.given(self.price_in, self.price_out)

    @classmethod
    def from_kwargs(cls, options: Mapping[str, Any]) -> EvalOptions:
        """The options from keyword arguments; TypeError naming an unknown one."""
        known = [f.name for f in fields(cls)]
        unknown = [k for k in options if k not in known]
        if unknown:
            raise TypeError(f"unknown option {unknown[0]!r} for ragassay.evaluate; "
                            f"options: {', '.join(known)}")
        opts = cls(**options)
        if opts.ratings not in ("expected", "greedy"):
            raise ValueError(f"ratings must be 'expected' or 'greedy', not {opts.ratings!r}")
        _check_engine(opts)
        _check_base_urls(opts.base_url)
        return opts

def _check_base_urls(urls: object) -> None:
    """base_url: None, a URL or a list of URLs (credentials in one are refused by the
    run's plan, as the CLI's --base-url)."""
    listed = [urls] if isinstance(urls, str) else urls
    if listed is None:
        return
    if not isinstance(listed, Sequence) or not all(isinstance(u, str) for u in listed):
        raise ValueError(f"base_url must be a URL or a list of URLs, not {urls!r}")


def _check_engine(options: EvalOptions) -> None:
    """engine / ray_address / workers as the CLI checks them: one-line ValueErrors."""
    engine = options.engine
    if engine not in ("local", "ray"):
        raise ValueError(f"engine must be 'local' or 'ray', not {engine!r}")
    address, workers = options.ray_address, options.workers
    if engine != "ray" and address is not None:
        raise ValueError("ray_address needs engine='ray'")
    if address is not None and (not isinstance(address, str) or not address.strip()):
        raise ValueError(f"ray_address must be 'auto', 'HOST:PORT' or 'ray://HOST:PORT', "
                         f"not {address!r}")
    if workers is not None and (isinstance(workers, bool) or not isinstance(workers, int)
                                or not 1 <= workers <= 4096):
        raise ValueError(f"workers must be a whole number from 1 to 4096, not {workers!r}")


__all__ = ["EvalOptions"]
