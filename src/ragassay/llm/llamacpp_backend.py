"""An in-process judge backend: a GGUF model run by llama.cpp (llama-cpp-python).

    ragassay eval data.jsonl --judge llamacpp:qwen2.5-coder-1.5b
    ragassay eval data.jsonl --judge llamacpp:/models/judge.gguf

The model's own chat template formats the messages; the prompt's output schema
becomes a JSON grammar, so every reply parses; the context window is sized to the
prompt (the model is reloaded with a larger one when a prompt needs it, up to the
model's training context); usage is counted with the model's own tokenizer. One
model per process and path is shared by every backend instance (so by every suite),
and calls run one at a time in a worker thread. While several calls wait, the one
whose prompt shares the longest token prefix with the model's current state runs
next, so that consecutive calls reuse the static part of a prompt (instructions and
examples) from the KV cache; `Usage.cached_tokens` counts the reused tokens.

With `JudgeRequest.top_logprobs`, each generated token carries the top alternatives
of the model's raw next-token distribution (before the grammar), and for a number's
first digit the continuation after each likely alternative digit is probed (one
token each), so that a two-token "10" can be read (see `ragassay.llm.logprobs`).

A call whose caller goes away (Ctrl-C or SIGTERM of a run, a timeout, a cancelled
task) stops the model within a graph node through llama.cpp's abort callback, instead
of holding the process (and the model) until its prompt is read: a 1,100-token prompt
takes minutes on one thread.

No retries, limits or timeouts here: a call either answers or raises `BackendError`;
the policy layer wraps it like any backend (`serial = True` tells it that calls in flight
wait for one another, so a call's timeout covers the calls queued before it).
`RAGASSAY_LLAMA_THREADS` sets the CPU threads (default: every core; `threads`).
"""

from __future__ import annotations

import asyncio
import bisect
import json
import logging
import math
import os
import sys
import threading
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from ragassay.llm.base import BackendError, BackendOptions
from ragassay.llm.logprobs import leaves, token_starts
from ragassay.llm.packaged import MODELS, resolve_model
from ragassay.llm.wire import JudgeReply, JudgeRequest, TokenLogprob
from ragassay.types import Usage

THREADS_ENV = "RAGASSAY_LLAMA_THREADS"
MIN_CTX = 4096
CTX_STEP = 1024
MAX_PROBES = 3  # alternative first digits probed per number
PROBE_MIN_P = 0.01


def _report(message: str) -> None:
    print(f"ragassay: {message}", file=sys.stderr, flush=True)


def _llama_log(level: int) -> None:
    """The level from which llama.cpp's own log lines reach stderr."""
    logging.getLogger("llama-cpp-python").setLevel(level)


def _import_llama() -> Any:
    try:
        import llama_cpp
    except ImportError:
        raise BackendError("the llamacpp judge needs llama-cpp-python: "
                           "pip install 'ragassay[local]'") from None
    return llama_cpp


def _threads_per_core() -> int:
    """Hardware threads per physical core (Linux /proc/cpuinfo: siblings / cpu cores),
    else 1."""
    try:
        info = Path("/proc/cpuinfo").read_text(encoding="utf-8", errors="replace")
    except OSError:
        return 1
    fields = {k.strip(): v.strip() for k, _, v in (line.partition(":") for line in
                                                    info.splitlines()[:40])}
    try:
        siblings, cores = int(fields.get("siblings", "")), int(fields.get("cpu cores", ""))
    except ValueError:
        return 1
    return max(1, siblings // cores) if cores > 0 else 1


def threads() -> int:
    """The CPU threads llama.cpp computes with: `RAGASSAY_LLAMA_THREADS`, else every core
    this process may run on (one per physical core: a core's second hardware thread adds
    nothing to llama.cpp's arithmetic). On a machine others are busy on, fewer threads
    can be faster (a thread that waits for a busy core holds the others back): set the
    variable there."""
    raw = os.environ.get(THREADS_ENV, "").strip()
    if raw.isdigit() and int(raw) > 0:
        return int(raw)
    try:
        logical = len(os.sched_getaffinity(0))
    except AttributeError:  # not Linux
        logical = os.cpu_count() or 1
    return max(1, logical // _threads_per_core())


def common_prefix(a: Any, b: list[int]) -> int:
    n = 0
    for x, y in zip(a, b, strict=False):
        if x != y:
            break
        n += 1
    return n


class _Recorder:
    """A logits processor that keeps the top-k of each step's raw distribution."""

    def __init__(self, k: int) -> None:
        self.k = k
        self.steps: list[tuple[list[int], list[float], float]] = []  # ids, logprobs, lse
        self.last: Any = None

    def __call__(self, input_ids: Any, logits: Any) -> Any:
        import numpy as np

        row = np.asarray(logits, dtype=np.float64)
        self.last = row.copy()
        top = np.argpartition(-row, self.k)[: self.k]
        top = top[np.argsort(-row[top])]
        high = float(row[top[0]])
        lse = high + math.log(float(np.exp(row - high).sum()))
        self.steps.append(([int(i) for i in top], [float(row[i]) - lse for i in top], lse))
        return logits


@dataclass
class _Waiter:
    tokens: list[int]
    seq: int
    ready: asyncio.Event = field(default_factory=asyncio.Event)


class _Engine:
    """One loaded model, shared process-wide; every method that touches it holds `lock`."""

    def __init__(self, path: Path) -> None:
        self.path = path
        self.lock = threading.Lock()  # held while the model generates
        self.load_lock = threading.Lock()  # held while it is (re)loaded or tokenizes
        self.llm: Any = None
        self.n_ctx = 0
        self.n_ctx_train = 0
        self._formatter: Any = None
        self._grammars: dict[str, Any] = {}
        self._state: list[int] = []  # tokens currently in the KV cache
        # the running call's stop flag, set when its caller has gone: llama.cpp reads it
        # at every graph node (in the computing thread, which takes the GIL briefly)
        self._stop = threading.Event()
        self._on_abort: Any = None
        # scheduling of waiting calls, per event loop
        self._loop: asyncio.AbstractEventLoop | None = None
        self._waiting: list[_Waiter] = []
        self._busy = False
        self._seq = 0

    # -- loading -----------------------------------------------------------------------
    def _load(self, n_ctx: int) -> None:
        llama_cpp = _import_llama()
        if self.llm is not None:
            self.llm.close()
            self.llm = None
        try:
            self.llm = llama_cpp.Llama(model_path=str(self.path), n_ctx=n_ctx,
                                       n_threads=threads(), n_threads_batch=threads(),
                                       verbose=False)
        except (ValueError, RuntimeError) as exc:
            raise BackendError(f"llama.cpp could not load {self.path.name}: {exc}") from None
        self.n_ctx = n_ctx
        self.n_ctx_train = int(self.llm._model.n_ctx_train()) or n_ctx
        if self._on_abort is None:  # kept alive here: llama.cpp holds only its address
            self._on_abort = llama_cpp.ggml_abort_callback(lambda _: self._stop.is_set())
        llama_cpp.llama_set_abort_callback(self.llm.ctx, self._on_abort, None)
        self._state = []
        from llama_cpp.llama_chat_format import Jinja2ChatFormatter

        template = self.llm.metadata.get("tokenizer.chat_template")
        if not template:
            raise BackendError(f"{self.path.name} has no chat template in its metadata")
        model = self.llm._model
        eos, bos = self.llm.token_eos(), self.llm.token_bos()
        self._formatter = Jinja2ChatFormatter(
            template=template,
            eos_token=model.token_get_text(eos) if eos != -1 else "",
            bos_token=model.token_get_text(bos) if bos != -1 else "")

    def ensure_loaded(self) -> None:
        if self.llm is not None:
            return
        with self.lock, self.load_lock:
            if self.llm is None:
                self._load(MIN_CTX)

    def tokenize(self, request: JudgeRequest) -> list[int]:
        """The prompt's tokens through the model's chat template (loads the model once)."""
        self.ensure_loaded()
        messages = [{"role": m.role, "content": m.content} for m in request.messages]
        try:
            prompt = self._formatter(messages=messages).prompt
        except Exception as exc:  # a template that rejects the roles
            raise BackendError(f"chat template failed: {type(exc).__name__}: {exc}") from None
        with self.load_lock:
            return list(self.llm.tokenize(prompt.encode("utf-8"), add_bos=False, special=True))

    def _grammar(self, schema: dict[str, Any]) -> Any:
        # property order is kept: the grammar writes the fields in the schema's order
        text = json.dumps(schema)
        grammar = self._grammars.get(text)
        if grammar is None:
            from llama_cpp import LlamaGrammar

            try:
                grammar = LlamaGrammar.from_json_schema(text, verbose=False)
            except Exception as exc:  # an unsupported schema feature
                raise BackendError(f"cannot build a JSON grammar for the output schema: "
                                   f"{type(exc).__name__}: {exc}") from None
            self._grammars[text] = grammar
        return grammar

    # -- scheduling --------------------------------------------------------------------
    async def run(self, request: JudgeRequest, tokens: list[int], max_tokens: int
                  ) -> tuple[JudgeReply, int]:
        """Wait for the model (prefix-aware order), then generate in a worker thread."""
        loop = asyncio.get_running_loop()
        if self._loop is not loop:
            self._loop, self._waiting, self._busy = loop, [], False
        self._seq += 1
        me = _Waiter(tokens, self._seq)
        self._waiting.append(me)
        self._wake()
        try:
            await me.ready.wait()
        except asyncio.CancelledError:
            if me in self._waiting:
                self._waiting.remove(me)
            elif me.ready.is_set():
                self._release()
            raise
        stop = threading.Event()
        try:
            return await asyncio.to_thread(self._complete, request, tokens, max_tokens, stop)
        except asyncio.CancelledError:
            _llama_log(logging.CRITICAL)  # llama.cpp logs the stop as an error: not one
            stop.set()  # the thread stops at llama.cpp's next graph node
            raise
        finally:
            self._release()

    def _release(self) -> None:
        self._busy = False
        self._wake()

    def _wake(self) -> None:
        if self._busy or not self._waiting:
            return
        state = self._state
        oldest = min(w.seq for w in self._waiting)

        def score(w: _Waiter) -> tuple[tuple[int, int], int]:
            # the longest shared prefix first; a call passed over 16 times goes first
            starving = self._seq - w.seq > 16 and w.seq == oldest
            return (1 if starving else 0, common_prefix(state, w.tokens)), -w.seq

        chosen = max(self._waiting, key=score)
        self._waiting.remove(chosen)
        self._busy = True
        chosen.ready.set()

    # -- one call (worker thread) ------------------------------------------------------
    def _complete(self, request: JudgeRequest, tokens: list[int], max_tokens: int,
                  stop: threading.Event) -> tuple[JudgeReply, int]:
        with self.lock:
            self._stop = stop
            try:
                if not stop.is_set():  # cancelled while the previous call finished
                    return self._sized(request, tokens, max_tokens)
            except (RuntimeError, BackendError):
                if not stop.is_set():
                    raise
            _llama_log(logging.ERROR)  # llama-cpp-python's level when not verbose
            raise BackendError("llama.cpp call stopped: its caller has gone")

    def _sized(self, request: JudgeRequest, tokens: list[int], max_tokens: int
               ) -> tuple[JudgeReply, int]:
        """Generate, the context first grown to hold the prompt and the reply."""
        need = len(tokens) + max_tokens + MAX_PROBES + 2
        if need > self.n_ctx:
            limit = max(self.n_ctx_train, self.n_ctx)
            if len(tokens) + 16 > limit:
                raise BackendError(f"prompt of {len(tokens)} tokens exceeds the model's "
                                   f"context of {limit} tokens")
            size = min(limit, max(MIN_CTX, math.ceil(need / CTX_STEP) * CTX_STEP))
            if size > self.n_ctx:
                with self.load_lock:
                    self._load(size)
            max_tokens = min(max_tokens, self.n_ctx - len(tokens) - MAX_PROBES - 2)
        return self._generate(request, tokens, max_tokens)

    def _generate(self, request: JudgeRequest, tokens: list[int], max_tokens: int
                  ) -> tuple[JudgeReply, int]:
        llama_cpp = _import_llama()
        llm = self.llm
        started = time.monotonic()
        reused = common_prefix(self._state, tokens)
        reused = min(reused, len(tokens) - 1)
        k = max(1, min(int(request.top_logprobs or 0), 50))
        recorder = _Recorder(k) if request.top_logprobs else None
        grammar = self._grammar(request.output_schema) if request.output_schema else None
        out: list[int] = []
        chosen_lp: list[float] = []
        finish = "length"
        self._state = []  # unknown until the call completes
        try:
            for tok in llm.generate(tokens, temp=0.0, repeat_penalty=1.0, grammar=grammar,
                                    logits_processor=[recorder] if recorder else None):
                if llama_cpp.llama_vocab_is_eog(llm._model.vocab, tok):
                    finish = "stop"
                    break
                out.append(int(tok))
                if recorder is not None:
                    chosen_lp.append(float(recorder.last[tok]) - recorder.steps[-1][2])
                if len(out) >= max_tokens:
                    break
        except (RuntimeError, ValueError) as exc:
            raise BackendError(f"llama.cpp failed: {exc}") from None
        pieces = [bytes(llm.detokenize([t])) for t in out]
        text = b"".join(pieces).decode("utf-8", "replace")
        logprobs = None
        if recorder is not None:
            logprobs = self._token_logprobs(tokens, out, pieces, chosen_lp, recorder)
        self._state = list(llm.input_ids[: llm.n_tokens])
        usage = Usage(calls=1, input_tokens=len(tokens), output_tokens=len(out),
                      cached_tokens=reused, latency_s=time.monotonic() - started)
        return JudgeReply(text=text, usage=usage, finish_reason=finish,
                          model=self.path.name, logprobs=logprobs), reused

    def _token_logprobs(self, prompt: list[int], out: list[int], pieces: list[bytes],
                        chosen_lp: list[float], recorder: _Recorder
                        ) -> tuple[TokenLogprob, ...]:
        llm = self.llm
        texts: dict[int, str] = {}

        def text_of(tid: int) -> str:
            if tid not in texts:
                texts[tid] = bytes(llm.detokenize([tid])).decode("utf-8", "replace")
            return texts[tid]

        # the first token of each JSON number in the reply; probed last-first, since each
        # probe drops the KV cache beyond its position
        text = b"".join(pieces).decode("utf-8", "replace")
        offsets = token_starts(text, [TokenLogprob(token="", logprob=0.0, bytes=tuple(p))
                                      for p in pieces]) or []
        numbers = {bisect.bisect_right(offsets, leaf.start) - 1 for leaf in leaves(text)
                   if isinstance(leaf.value, int | float) and not isinstance(leaf.value, bool)}
        starts = sorted(j for j in numbers if 0 <= j < len(out) and _is_digits(text_of(out[j])))
        probed = {j: self._probe(prompt, out, j, *recorder.steps[j][:2], text_of, recorder.k)
                  for j in reversed(starts)}
        result: list[TokenLogprob] = []
        for j, _tid in enumerate(out):
            ids, lps, _ = recorder.steps[j]
            top = tuple((text_of(i), lp) for i, lp in zip(ids, lps, strict=True))
            result.append(TokenLogprob(token=pieces[j].decode("utf-8", "replace"),
                                       logprob=chosen_lp[j], bytes=tuple(pieces[j]), top=top,
                                       after=probed.get(j, ())))
        return tuple(result)

    def _probe(self, prompt: list[int], out: list[int], j: int, ids: list[int],
               lps: list[float], text_of: Any, k: int
               ) -> tuple[tuple[str, tuple[tuple[str, float], ...]], ...]:
        """Next-token alternatives after each likely other first digit at step `j`."""
        import numpy as np

        llama_cpp = _import_llama()
        llm = self.llm
        probes: list[tuple[str, tuple[tuple[str, float], ...]]] = []
        for tid, lp in zip(ids, lps, strict=True):
            if len(probes) >= MAX_PROBES or lp < math.log(PROBE_MIN_P):
                break
            if tid == out[j] or not _is_digits(text_of(tid)):
                continue
            llm.n_tokens = len(prompt) + j
            llm.eval([tid])
            row = np.ctypeslib.as_array(llama_cpp.llama_get_logits_ith(llm.ctx, -1),
                                        shape=(llm.n_vocab(),)).astype(np.float64)
            top = np.argpartition(-row, k)[:k]
            top = top[np.argsort(-row[top])]
            high = float(row[top[0]])
            lse = high + math.log(float(np.exp(row - high).sum()))
            probes.append((text_of(tid),
                           tuple((text_of(int(i)), float(row[i]) - lse) for i in top)))
        return tuple(probes)


def _is_digits(text: str) -> bool:
    core = text.strip()
    return bool(core) and core.isdigit()


_ENGINES: dict[str, _Engine] = {}
_ENGINES_LOCK = threading.Lock()


def shared_engine(path: Path) -> _Engine:
    """The process-wide engine for a model file (one model per process and path)."""
    key = str(path.resolve())
    with _ENGINES_LOCK:
        engine = _ENGINES.get(key)
        if engine is None:
            engine = _ENGINES[key] = _Engine(path)
        return engine


class LlamaCppBackend:
    """Judge backend running a GGUF model in-process; see the module docstring."""

    name = "llamacpp"
    serial = True  # one model, one call at a time: see `ragassay.llm.policy.Guard`

    def __init__(self, model: str, options: BackendOptions | None = None) -> None:
        _import_llama()
        self.options = options or BackendOptions()
        self.path = resolve_model(model, report=_report)
        self.model = model.strip()
        self._engine = shared_engine(self.path)

    def __repr__(self) -> str:
        return f"LlamaCppBackend(model={self.model!r}, path={str(self.path)!r})"

    def cache_params(self) -> dict[str, Any]:
        packaged = MODELS.get(self.model.lower())
        ident = packaged.sha256 if packaged else f"{self.path.name}:{self.path.stat().st_size}"
        params: dict[str, Any] = {"backend": self.name, "model": ident, "grammar": True}
        if self.options.max_tokens_overridden:
            params["max_tokens"] = self.options.max_tokens
        return params

    async def complete(self, request: JudgeRequest) -> JudgeReply:
        tokens = await asyncio.to_thread(self._engine.tokenize, request)
        opts = self.options
        max_tokens = opts.max_tokens if opts.max_tokens_overridden else request.max_tokens
        reply, _ = await self._engine.run(request, tokens, max_tokens)
        if request.output_schema is not None:
            from ragassay.llm.parsing import parse_json_reply

            data, error = parse_json_reply(reply.text)
            reply = reply.model_copy(update={"data": data, "parse_error": error})
        return reply

    async def aclose(self) -> None:
        return None  # the model is shared by the process; it is freed at exit
