"""A batch run's judge calls: prepared exactly as for a direct call, answered from the
run's batches.

The judge of a batch run is the run's `LLMJudge` over a `BatchBackend`: the judge
renders, keys, looks up the cache, validates, repairs and caches as it always does; only
the backend differs. For each request it is given, the backend finds the call's batch
reply (by the request's cache key, the batch line's `custom_id`) and returns it as the
`JudgeReply` a direct call would have given, priced at the batch price. A call with no
reply yet raises `Pending`: the request is written to the `Spool` (the next batch's input
files) unless a live batch holds it, and the judgment waits for the next pass
(`Tracked`). A call whose batches failed twice is failed as a direct call fails, or, with
`--batch-fallback direct`, sent directly by the run's policy-wrapped backend in a last
pass. A repair re-ask is one more request, keyed and batched the same way.

A judgment's cache entries are kept apart (`JudgmentCache`) until it is saved: a judgment
that must wait leaves nothing behind, so that when it is judged again its paid replies are
read again as paid calls (the ledger counts each batch reply once, where it is used).
"""

from __future__ import annotations

import tempfile
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, BinaryIO, Literal

from ragassay.judge import Verdict
from ragassay.judge.llm_judge import LLMJudge, request_key
from ragassay.judge.prompt import Prompt
from ragassay.llm import BackendError, Policy
from ragassay.llm.batch import BatchProvider, Chunker, Limits
from ragassay.llm.pricing import priced
from ragassay.llm.wire import JudgeReply, JudgeRequest
from ragassay.store import Store
from ragassay.types import Price

BATCH_ATTEMPTS = 2
"""Batches a call is sent in before it is failed (or sent directly): the first, and one
retry of the lines that failed or of a batch that expired or failed."""
WAITING = "waiting for its batch"

Fallback = Literal["none", "direct"]


class Pending(Exception):
    """A call without a reply yet; `direct`: it is left for the last, direct pass."""

    def __init__(self, direct: bool = False) -> None:
        self.direct = direct
        super().__init__("waiting for a batch" if not direct else "left for a direct call")


@dataclass
class Chunk:
    """One batch input file being written: its path, the calls it holds, its size."""

    path: Path
    ids: list[str] = field(default_factory=list)
    size: int = 0
    handle: BinaryIO | None = None  # open while it is the file written to


class Spool:
    """The requests a pass found no reply for, written as batch input files as they come:
    each call once (by its key), cut at the provider's limits (`Chunker`)."""

    def __init__(self, provider: BatchProvider, limits: Limits) -> None:
        self.provider = provider
        self.folder = Path(tempfile.mkdtemp(prefix="ragassay-batch-"))
        self.chunker = Chunker(limits)
        self.chunks: list[Chunk] = []
        self.seen: set[str] = set()

    def add(self, key: str, request: JudgeRequest) -> None:
        if key in self.seen:
            return
        self.seen.add(key)
        line = self.provider.line(key, request)
        if self.chunker.add(len(line)) or not self.chunks:
            self.close()
            path = self.folder / f"batch-{len(self.chunks) + 1}.jsonl"
            self.chunks.append(Chunk(path, handle=path.open("wb")))
        chunk = self.chunks[-1]
        assert chunk.handle is not None
        chunk.handle.write(line)
        chunk.ids.append(key)
        chunk.size += len(line)

    def close(self) -> None:
        """Finish the file being written (the pass is over, or it is full)."""
        if self.chunks and self.chunks[-1].handle is not None:
            self.chunks[-1].handle.close()
            self.chunks[-1].handle = None

    def __len__(self) -> int:
        return len(self.seen)

    def remove(self) -> None:
        """Delete the input files (uploaded, or to be written again by a resume)."""
        self.close()
        for chunk in self.chunks:
            chunk.path.unlink(missing_ok=True)
        if self.folder.exists():
            self.folder.rmdir()


class BatchBackend:
    """The backend of a batch run's judge: each call answered from its batch reply."""

    def __init__(self, inner: Policy, provider: BatchProvider, store: Store, run_id: str,
                 price: Price | None, fallback: Fallback) -> None:
        self.inner, self.provider, self.store, self.run_id = inner, provider, store, run_id
        self.name, self.model = inner.name, inner.model
        self.price = price
        self.fallback = fallback
        self.spool: Spool | None = None  # where calls to submit go (None: none this pass)
        self.direct = False  # the last pass: calls out of batch attempts go directly

    def cache_params(self) -> dict[str, Any]:
        return self.inner.cache_params()

    async def aclose(self) -> None:
        await self.inner.aclose()
        await self.provider.aclose()

    async def complete(self, request: JudgeRequest) -> JudgeReply:
        key = request_key(self, request)
        states = self.store.call_states(self.run_id, key)
        answered = next((s for s in states if s.status == "ok"), None)
        if answered is not None:
            return self._reply(answered.reply, request)
        if any(s.status == "held" for s in states):
            raise Pending
        failed = [s for s in states if s.status != "held" and s.batch_status != "cancelled"]
        if len(failed) < BATCH_ATTEMPTS:
            if self.spool is not None:
                self.spool.add(key, request)
            raise Pending
        if self.fallback == "direct":
            if not self.direct:
                raise Pending(direct=True)
            return await self.inner.complete(request)
        raise BackendError(f"{failed[-1].error or 'batch failed'} ({len(failed)} batches)")

    def _reply(self, raw: str | None, request: JudgeRequest) -> JudgeReply:
        import json

        try:
            body = json.loads(raw or "null")
        except ValueError:
            raise BackendError("invalid response body (not JSON)") from None
        try:
            reply = self.provider.reply(body, request)
        except BackendError as exc:  # final: the batch's reply is what it is
            raise BackendError(exc.reason) from None
        return reply.model_copy(update={"usage": priced(reply.usage, self.price)})


class JudgmentCache:
    """The cache as one judgment sees it: the store's entries and those kept by the pass
    so far (`kept`), its own new entries apart (`puts`) until the judgment is saved."""

    def __init__(self, store: Store, kept: Mapping[str, dict[str, Any]]) -> None:
        self.store, self.kept = store, kept
        self.puts: dict[str, dict[str, Any]] = {}

    def cache_get(self, key: str) -> dict[str, Any] | None:
        if key in self.puts:
            return self.puts[key]
        if key in self.kept:
            return self.kept[key]
        return self.store.cache_get(key)

    def cache_put(self, key: str, value: dict[str, Any]) -> None:
        self.puts[key] = value


class Tracked:
    """One judgment's asker: the run's judge with the judgment's own cache; a call that
    is pending answers "unscored, waiting" and marks the judgment pending."""

    def __init__(self, judge: LLMJudge, cache: JudgmentCache) -> None:
        self.judge = LLMJudge(judge.backend, cache=cache, use_cache=judge.use_cache,
                              spec=judge.spec, ratings=judge.ratings)
        self.cache = cache
        self.pending = False
        self.direct = False

    async def ask(self, prompt: Prompt, values: Mapping[str, Any]) -> Verdict:
        try:
            return await self.judge.ask(prompt, values)
        except Pending as wait:
            self.pending = True
            self.direct = self.direct or wait.direct
            return Verdict(prompt.name, prompt.version, None, unscored_reason=WAITING)
