"""The options `evaluate` takes besides the data, the metrics and the judge."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field, fields
from typing import Any


@dataclass(frozen=True)
class EvalOptions:
    """Everything optional about one evaluation; `evaluate(..., **options)` fills it.

    `dataset` names the run in the store (default: the file's path, else "python");
    `field_map` reads fields from columns of other names ({"answer": "generated"});
    `headers` go to the judge's server with every request and are never stored;
    `progress` draws a bar on stderr (default: when stderr is a terminal or in IPython);
    `ratings` says how an LLM judge's ratings are read: "expected" (probability-weighted,
    when the backend gives token probabilities) or "greedy" (the stated values);
    `engine` "ray" judges on Ray actors (`ray_address` None starts a private local
    instance; `workers` defaults to the cluster's CPUs), with the same results
    (docs/scale.md).
    """

    dataset: str | None = None
    field_map: Mapping[str, str] = field(default_factory=dict)
    skip_invalid: bool = False
    base_url: str | None = None
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
    workers: int | None = None

    @classmethod
    def from_kwargs(cls, options: Mapping[str, Any]) -> EvalOptions:
        """The options from keyword arguments; TypeError naming an unknown one."""
        known = [f.name for f in fields(cls)]
        unknown = [k for k in options if k not in known]
        if unknown:
            raise TypeError(f"unknown option {unknown[0]!r} for ragassay.evaluate; "
                            f"options: {', '.join(known)}")
        ratings = options.get("ratings", "expected")
        if ratings not in ("expected", "greedy"):
            raise ValueError(f"ratings must be 'expected' or 'greedy', not {ratings!r}")
        engine = options.get("engine", "local")
        if engine not in ("local", "ray"):
            raise ValueError(f"engine must be 'local' or 'ray', not {engine!r}")
        if engine != "ray":
            given = [k for k in ("ray_address", "workers") if options.get(k) is not None]
            if given:
                raise ValueError(f"{' and '.join(given)} need engine='ray'")
        return cls(**options)

    def ray(self) -> Any:
        """The runner's RayOptions for engine "ray", else None."""
        if self.engine != "ray":
            return None
        from ragassay.runner import RayOptions

        return RayOptions(address=self.ray_address, workers=self.workers)


__all__ = ["EvalOptions"]
