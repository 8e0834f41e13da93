"""Records, errors and the cache-key function of the run store."""

from __future__ import annotations

import hashlib
import json
from datetime import datetime
from pathlib import Path
from typing import Any, Literal

from pydantic import BaseModel

from ragassay.types import Frozen, MetricSpec, RunConfig, RunMeta

DEFAULT_DB_PATH = Path(".ragassay") / "ragassay.db"
"""Where the CLI keeps its database, relative to the working directory."""

RunStatus = Literal["running", "complete", "failed", "interrupted"]
RUN_STATUSES: tuple[str, ...] = ("running", "complete", "failed", "interrupted")


class StoreError(Exception):
    """A store failure with a one-line, user-facing message (no traceback needed)."""


class RunRecord(Frozen):
    """One run as stored: its identity, lifecycle and the config that defines it."""

    id: str
    created: datetime
    finished: datetime | None = None
    status: RunStatus = "running"
    config: RunConfig
    package_version: str
    dataset: str
    dataset_hash: str | None = None
    judge: str
    judge_model: str
    meta: RunMeta = RunMeta()
    specs: tuple[MetricSpec, ...] = ()  # the metric definitions the run was scored with
    # config fields this version does not know (a newer ragassay wrote the run): left out
    # of `config`, so the run can be read; writing to it is refused (`read_only_reason`)
    unknown_config: tuple[str, ...] = ()

    def spec_map(self) -> dict[str, MetricSpec]:
        return {s.name: s for s in self.specs}

    @property
    def failure(self) -> str | None:
        """Why a failed run failed (its first stopping error, one line), when recorded."""
        return (self.meta.failure or None) if self.status == "failed" else None

    def read_only_reason(self) -> str | None:
        """Why this version must not write to the run (None: it may)."""
        return read_only_reason(self.id, self.unknown_config)


def read_only_reason(run_id: str, unknown: tuple[str, ...]) -> str | None:
    """The one line that refuses a write to a run with config fields this version does
    not know (None when there are none)."""
    if not unknown:
        return None
    return (f"run {run_id} was written by a newer ragassay (config fields this version "
            f"does not know: {', '.join(unknown)}): it can be read here but not written to; "
            "resume it with that version, or start a new run")


class CallRecord(Frozen):
    """One judge call in the ledger: what was asked, of whom, at what cost, and how it ended.

    `run_id` may be left None: `Store.save_result` / `Store.add_calls` fill it in.
    `id` and `created` are set by the store and only present on records read back.
    """

    run_id: str | None = None
    sample_id: str = ""
    suite: str = ""
    prompt: str = ""
    cache_key: str | None = None
    model: str = ""
    input_tokens: int = 0
    output_tokens: int = 0
    latency_s: float = 0.0
    cached: bool = False
    cached_tokens: int = 0  # input tokens served from the server's prompt cache
    status: Literal["ok", "error"] = "ok"
    error: str | None = None
    id: int | None = None
    created: datetime | None = None


def json_default(obj: Any) -> Any:
    if isinstance(obj, BaseModel):
        return obj.model_dump(mode="json")
    if isinstance(obj, tuple | set | frozenset):
        return sorted(obj) if isinstance(obj, set | frozenset) else list(obj)
    if isinstance(obj, Path):
        return str(obj)
    raise TypeError(f"cache_key: cannot serialise {type(obj).__name__}")


def canonical_json(payload: Any) -> str:
    """JSON with sorted keys, no spaces, unescaped unicode; NaN and infinities are refused."""
    return json.dumps(
        payload,
        sort_keys=True,
        separators=(",", ":"),
        ensure_ascii=False,
        allow_nan=False,
        default=json_default,
    )


def cache_key(payload: Any) -> str:
    """sha256 hex digest of the canonical JSON of `payload`.

    Put into the payload exactly what changes the judge's output: the model, the
    messages, output-affecting parameters (temperature, max_tokens, seed, output
    schema) and the prompt name/version. Never put in timeouts, concurrency, retry
    settings, API keys or anything else that does not change the answer, or the cache
    stops hitting (or, worse, leaks a secret into the database). Pydantic models are
    dumped in JSON mode; dict key order does not matter; note that 0 and 0.0 differ.
    """
    return hashlib.sha256(canonical_json(payload).encode("utf-8")).hexdigest()
