"""The routing benchmark's LLM verdicts: which rows, which calls, collected with resume.

Each dev set gives a seeded random order of its `eval`-split rows (the natural label
mix: the guarantee is about a population, not a balanced sample); the first `n` rows
are judged. Rows are taken in chunks of `CHUNK` across all sets in turn (chunk 0 of
every set, then chunk 1, ...), so that stopping at any time leaves every set with about
the same number of rows. Each (set, chunk) is one run of the `judge` suite with the
tier-1 judge in the bench's store: exactly the call the cascade later makes for that
row (same judge spec, prompt, context budget: the same cache key), so the routing
benchmark reads these verdicts from the judge-call cache and sends nothing. A chunk's
run that stopped midway is resumed (its finished judgments are not repeated).
"""

from __future__ import annotations

import json
import os
import random
import sys
import time
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from _devsets import load_rows, write_jsonl

from ragassay.types import Usage

# faithfulness sets first, cheap ones first (seconds per row grow with the context)
SETS = ("factcheck_gpt_stance", "begin", "evouna_tq", "dialfact", "q2", "factcheck_gpt",
        "wice", "summedits")
CHUNK = 10
TIER1 = "llamacpp:qwen2.5-coder-1.5b"
MAX_CONTEXT_TOKENS = 2000


@dataclass(frozen=True)
class Plan:
    """What the collection judges: the sets, rows per set, seed, tier-1 judge, budget."""

    sets: tuple[str, ...]
    n: int
    seed: int
    judge: str
    max_context_tokens: int
    out: Path

    @property
    def store(self) -> Path:
        return self.out / "store.db"


def ordered_rows(name: str, seed: int) -> list[dict[str, Any]]:
    """A set's eval-split rows in a seeded random order (a larger n keeps the smaller
    n's rows)."""
    rows = sorted(load_rows(name, "eval"), key=lambda r: r["id"])
    random.Random(f"{seed}:{name}").shuffle(rows)
    return rows


def chunks(plan: Plan) -> Iterator[tuple[str, int, list[dict[str, Any]]]]:
    """(set, chunk index, rows) in collection order: chunk 0 of every set, then 1, ..."""
    rows = {name: ordered_rows(name, plan.seed)[:plan.n] for name in plan.sets}
    for k in range((plan.n + CHUNK - 1) // CHUNK):
        for name in plan.sets:
            part = rows[name][k * CHUNK:(k + 1) * CHUNK]
            if part:
                yield name, k, part


class LogProgress:
    """Progress as log lines (the collection runs in the background)."""

    def __init__(self, label: str) -> None:
        self.label = label
        self.started = time.monotonic()
        self.done = 0

    def start(self, total: int | None) -> None:
        self.started = time.monotonic()

    def advance(self, samples: int, usage: Usage) -> None:
        self.done += samples
        per = (time.monotonic() - self.started) / max(1, self.done)
        print(f"  {self.label}: {self.done} rows, {per:.1f} s/row, calls {usage.calls}, "
              f"cache hits {usage.cache_hits}", file=sys.stderr, flush=True)

    def finish(self) -> None:
        return None


def collect(plan: Plan) -> None:
    """Judge every chunk not yet complete (resuming a chunk's unfinished run)."""
    from ragassay.dataset import iter_samples
    from ragassay.runner import build_judge, evaluate
    from ragassay.store import Store
    from ragassay.types import RunConfig

    os.environ.setdefault("RAGASSAY_LLAMA_THREADS", "2")
    state_path = plan.out / "runs.json"
    state: dict[str, str] = json.loads(state_path.read_text()) if state_path.exists() else {}
    store = Store(plan.store)
    judge = None
    for name, k, rows in chunks(plan):
        tag = f"{name}__{k:03d}"
        path = plan.out / "samples" / f"{tag}.jsonl"
        if tag in state:
            continue
        if not path.exists():
            write_jsonl(rows, path)
        # a run of this chunk that stopped midway (killed) is resumed
        run_id = next((r.id for r in store.list_runs(str(path)) if r.status != "complete"),
                      None)
        config = RunConfig.build(str(path), timeout_s=3600.0, judge=plan.judge,
                                 metrics=("judge",), concurrency=1,
                                 max_context_tokens=plan.max_context_tokens)
        if judge is None:  # one model in memory for every chunk
            judge = build_judge(config, store)
        print(f"{tag}: {len(rows)} rows" + (f" (resuming {run_id})" if run_id else ""),
              file=sys.stderr, flush=True)
        started = time.monotonic()
        stats = evaluate(iter_samples(path), config, store=store, resume=run_id, judge=judge,
                         progress=LogProgress(tag))
        state[tag] = stats.run_id
        state_path.write_text(json.dumps(state, indent=1) + "\n")
        print(f"{tag}: done in {time.monotonic() - started:.0f}s", file=sys.stderr, flush=True)
