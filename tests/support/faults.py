"""A fault-injecting OpenAI-compatible server for reliability tests, built on ScriptedServer.

Every chat request is either answered validly or given one injected fault, chosen by a
seeded RNG at a given rate. The choice depends only on (seed, the judged content, how
many times that content was asked before), never on arrival order, so a run with
concurrency injects the same faults as a sequential one. Valid replies depend only on
the request's judged content (the fenced blocks of its last user message), so scores
are comparable across runs with and without faults, and the structured-output form or a
repair re-ask does not change them.

    plan = FaultPlan(rate=0.3, seed=7)
    with FaultServer(judge_scores, plan) as server:
        ... RunConfig(base_url=server.base_url, ...) ...
        server.faults            # Counter by fault kind
        server.history[key]      # kinds served for one judgment, in order ("ok" = valid)

Loopback only (127.0.0.1), bounded: after `max_requests` requests or `max_seconds`
seconds every further request gets an immediate 503 and `exhausted` is set, so a
runaway client cannot keep a test alive.
"""

from __future__ import annotations

import copy
import hashlib
import json
import random
import re
import threading
import time
from collections import Counter, defaultdict
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from tests.support.scripted_server import ScriptedReply, ScriptedServer, chat_completion

__all__ = [
    "CONTENT_FAULTS",
    "FAULT_KINDS",
    "REPAIR_NOTE",
    "TRANSPORT_FAULTS",
    "FaultPlan",
    "FaultServer",
    "Valid",
    "fenced",
    "judge_scores",
    "judged_key",
    "judged_message",
    "out_of_range",
]

# Failures the backend sees as a failed attempt (retried with backoff).
TRANSPORT_FAULTS: tuple[str, ...] = (
    "rate_limit",  # 429 without Retry-After
    "rate_limit_retry_after",  # 429 with Retry-After
    "http_500",
    "http_502",
    "http_503",
    "slow",  # never answers: held until the client's timeout hangs up
    "reset",  # connection reset mid-body
    "empty_choices",  # 200 with "choices": []
)
# Replies that arrive but carry no usable verdict (the judge re-asks once).
CONTENT_FAULTS: tuple[str, ...] = (
    "invalid_json",
    "truncated",  # JSON cut by max_tokens, finish_reason "length"
    "wrong_type",  # scores that are not numbers
    "refusal",  # "I can't help with that."
    "out_of_range",  # scores outside the scale: invalid (never clamped) and suspicious
)
FAULT_KINDS: tuple[str, ...] = TRANSPORT_FAULTS + CONTENT_FAULTS

REPAIR_NOTE = "Your previous reply could not be used"
_FENCE = re.compile(r"<<<([A-Z_]+) ([0-9a-f]{12})>>>")
REFUSAL = "I'm sorry, but I can't help with that."

Valid = Callable[[dict[str, Any]], dict[str, Any]]
"""Makes the valid JSON verdict for a request (from its content only)."""


@dataclass(frozen=True)
class FaultPlan:
    """Which faults to inject and how often: `rate` of requests, kinds uniformly."""

    rate: float = 0.3
    seed: int = 0
    kinds: tuple[str, ...] = FAULT_KINDS
    retry_after_s: float = 0.05

    def __post_init__(self) -> None:
        unknown = set(self.kinds) - set(FAULT_KINDS)
        if unknown:
            raise ValueError(f"unknown fault kinds: {sorted(unknown)}")
        if not 0.0 <= self.rate <= 1.0:
            raise ValueError("rate must be within [0, 1]")

    def choose(self, key: str, attempt: int) -> str | None:
        """The fault for the `attempt`-th request (0-based) about `key`, or None."""
        if self.rate <= 0 or not self.kinds:
            return None
        rng = random.Random(f"{self.seed}|{key}|{attempt}")
        if rng.random() >= self.rate:
            return None
        return rng.choice(self.kinds)


def judged_message(request: dict[str, Any]) -> str:
    """The user message being judged: the last one that is not a repair note."""
    users = [m.get("content") or "" for m in request.get("messages", [])
             if m.get("role") == "user"]
    for content in reversed(users):
        if not str(content).startswith(REPAIR_NOTE):
            return str(content)
    return ""


def judged_key(request: dict[str, Any]) -> str:
    """A stable id for the judgment asked: its fence tags (digests of the fenced texts).

    Schema instructions appended in "prompt" mode and repair re-asks keep the key.
    """
    text = judged_message(request)
    tags = _FENCE.findall(text)
    basis = "|".join(f"{label}:{tag}" for label, tag in tags) if tags else text
    return hashlib.sha256(basis.encode("utf-8", "surrogatepass")).hexdigest()[:16]


def fenced(request: dict[str, Any], label: str) -> str | None:
    """The text inside the `label` fence of the judged message (e.g. "QUESTION")."""
    text = judged_message(request)
    m = re.search(rf"<<<{label} ([0-9a-f]{{12}})>>>\n(.*?)\n<<<END {label} \1>>>", text, re.S)
    return m.group(2) if m else None


def _digits(key: str) -> list[int]:
    return list(hashlib.sha256(key.encode()).digest())


def is_judge_scores(system: str) -> bool:
    """Whether a system message is the `judge.scores` prompt's (its first line, whatever
    the prompt's version says)."""
    from ragassay.metrics.judge.suite import PROMPT

    return PROMPT.system.strip().splitlines()[0] in system


def judge_scores(request: dict[str, Any]) -> dict[str, Any]:
    """A valid `judge.scores` verdict derived from the judged content only."""
    d = _digits(judged_key(request))
    return {
        "context_relevance": 1 + d[0] % 10,
        "answer_similarity": 1 + d[1] % 10,
        "faithfulness": 1 + d[2] % 10,
        "hallucination": d[3] % 4 == 0,
        "reasoning": f"scripted verdict {d[4]:02x}",
    }


def out_of_range(verdict: Any) -> Any:
    """Numbers pushed far outside any scale: alternately +100 and -100, in field order."""
    counter = iter(range(10**6))

    def walk(v: Any) -> Any:
        if isinstance(v, bool):
            return v
        if isinstance(v, int | float):
            return v + 100 if next(counter) % 2 == 0 else v - 100
        if isinstance(v, dict):
            return {k: walk(x) for k, x in v.items()}
        if isinstance(v, list):
            return [walk(x) for x in v]
        return v

    return walk(copy.deepcopy(verdict))


def _wrong_type(verdict: Any) -> Any:
    """Numbers become words and booleans "maybe": nothing a validator can coerce."""
    if isinstance(verdict, bool):
        return "maybe"
    if isinstance(verdict, int | float):
        return "quite high"
    if isinstance(verdict, dict):
        return {k: _wrong_type(x) for k, x in verdict.items()}
    if isinstance(verdict, list):
        return [_wrong_type(x) for x in verdict]
    return verdict


@dataclass
class _Log:
    lock: threading.Lock = field(default_factory=threading.Lock)
    history: dict[str, list[str]] = field(default_factory=lambda: defaultdict(list))
    faults: Counter[str] = field(default_factory=Counter)
    retries: int = 0  # requests that follow a transport fault for the same judgment
    repairs: int = 0  # repair re-asks that follow a content fault


class FaultServer:
    """ScriptedServer whose replies are valid or faulty according to a FaultPlan."""

    def __init__(self, valid: Valid = judge_scores, plan: FaultPlan | None = None, *,
                 max_requests: int = 20_000, max_seconds: float = 300.0,
                 latency_s: float = 0.0) -> None:
        self.valid = valid
        self.plan = plan or FaultPlan(rate=0.0)
        self.max_requests = max_requests
        self.max_seconds = max_seconds
        self.latency_s = latency_s
        self.exhausted = False
        self._log = _Log()
        self._started = time.monotonic()
        self._server = ScriptedServer(self._handle)

    # -- lifecycle ------------------------------------------------------------------
    def start(self) -> FaultServer:
        self._started = time.monotonic()
        self._server.start()
        return self

    def stop(self) -> None:
        self._server.stop()

    def __enter__(self) -> FaultServer:
        return self.start()

    def __exit__(self, *exc: object) -> None:
        self.stop()

    # -- introspection --------------------------------------------------------------
    @property
    def base_url(self) -> str:
        return self._server.base_url

    @property
    def requests(self) -> list[dict[str, Any]]:
        return self._server.requests

    @property
    def count(self) -> int:
        return self._server.count

    @property
    def replied(self) -> int:
        """Chat replies written in full (a reply cut by a killed client is not)."""
        return self._server.replied

    @property
    def errors(self) -> list[str]:
        return self._server.errors

    @property
    def faults(self) -> Counter[str]:
        with self._log.lock:
            return Counter(self._log.faults)

    @property
    def history(self) -> dict[str, list[str]]:
        """Per judgment key, the kinds served in order ("ok" for a valid reply)."""
        with self._log.lock:
            return {k: list(v) for k, v in self._log.history.items()}

    @property
    def retries(self) -> int:
        return self._log.retries

    @property
    def repairs(self) -> int:
        return self._log.repairs

    # -- answering --------------------------------------------------------------------
    def _handle(self, request: dict[str, Any], n: int) -> ScriptedReply:
        if n >= self.max_requests or time.monotonic() - self._started > self.max_seconds:
            self.exhausted = True
            return ScriptedReply.error(503, "fault server: request or time budget exhausted")
        key = judged_key(request)
        is_repair = any(str(m.get("content", "")).startswith(REPAIR_NOTE)
                        for m in request.get("messages", []) if m.get("role") == "user")
        log = self._log
        with log.lock:
            past = log.history[key]
            kind = self.plan.choose(key, len(past))
            if past and past[-1] in TRANSPORT_FAULTS:
                log.retries += 1
            elif is_repair and past and past[-1] in CONTENT_FAULTS:
                log.repairs += 1
            past.append(kind or "ok")
            if kind:
                log.faults[kind] += 1
        reply = self._reply(kind, self.valid(request))
        if self.latency_s and kind != "slow":
            reply.delay_s = max(reply.delay_s, self.latency_s)
        return reply

    def _reply(self, kind: str | None, verdict: dict[str, Any]) -> ScriptedReply:
        good = json.dumps(verdict)
        plan = self.plan
        if kind is None:
            return ScriptedReply.chat(good, usage=(120, 30))
        if kind == "rate_limit":
            return ScriptedReply.error(429, "Rate limit reached", headers={})
        if kind == "rate_limit_retry_after":
            return ScriptedReply.error(429, "Rate limit reached",
                                       headers={"Retry-After": f"{plan.retry_after_s:g}"})
        if kind.startswith("http_"):
            return ScriptedReply.error(int(kind[5:]), f"upstream failure {kind[5:]}")
        if kind == "slow":
            return ScriptedReply(hold=True)
        if kind == "reset":
            return ScriptedReply.chat(good, reset=True)
        if kind == "empty_choices":
            return ScriptedReply(body={**chat_completion(None), "choices": []})
        if kind == "invalid_json":
            return ScriptedReply.chat("Sure! {context_relevance: 8, 'faithfulness': nine,")
        if kind == "truncated":
            return ScriptedReply.chat(good[: len(good) // 2], finish_reason="length")
        if kind == "wrong_type":
            return ScriptedReply.chat(json.dumps(_wrong_type(verdict)))
        if kind == "refusal":
            return ScriptedReply.chat(REFUSAL)
        if kind == "out_of_range":
            return ScriptedReply.chat(json.dumps(out_of_range(verdict)))
        raise AssertionError(f"unhandled fault kind {kind}")  # pragma: no cover
