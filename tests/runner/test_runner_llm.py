"""The runner against a scripted OpenAI-compatible server: faults, cache, resume."""

from __future__ import annotations

import json
import re
import threading
from collections import Counter
from typing import Any

import pytest

from ragassay.report import build_report
from ragassay.runner import evaluate
from ragassay.store import Store
from ragassay.types import BackendOptions, RunConfig, Sample, Usage
from tests.support.scripted_server import ScriptedReply

GOOD = {"context_relevance": 8, "answer_similarity": 7, "faithfulness": 9,
        "hallucination": False, "reasoning": "fine"}


def _case(request: dict[str, Any]) -> str:
    """Which scripted behaviour a request asks for, from a marker in the question."""
    text = request["messages"][-1]["content"]
    if "Your previous reply could not be used" in text:
        text = request["messages"][-3]["content"]
    m = re.search(r"\[case:(\w+)\]", text)
    return m.group(1) if m else "ok"


class Script:
    """Replies by case; counts requests per case and per question."""

    def __init__(self) -> None:
        self.lock = threading.Lock()
        self.seen: Counter[str] = Counter()
        self.questions: Counter[str] = Counter()

    def __call__(self, request: dict[str, Any], n: int) -> ScriptedReply:
        case = _case(request)
        q = re.search(r"<<<QUESTION \w+>>>\n(.*?)\n<<<END", request["messages"][-1]["content"],
                      re.S)
        with self.lock:
            k = self.seen[case]
            self.seen[case] += 1
            if q:
                self.questions[q.group(1)] += 1
        if case == "fenced":
            return ScriptedReply.chat("Here you go:\n```json\n" + json.dumps(GOOD) + "\n```")
        if case == "range":
            return ScriptedReply.chat(json.dumps({**GOOD, "context_relevance": 14,
                                                  "faithfulness": -2}))
        if case == "invalid":
            return ScriptedReply.chat("I think it is pretty good, maybe an 8?")
        if case == "repair":  # first reply invalid, the repair succeeds
            return ScriptedReply.chat("{oops" if k % 2 == 0 else json.dumps(GOOD))
        if case == "truncated":
            return ScriptedReply.chat('{"context_relevance": 8, "answer_sim', "length")
        if case == "ratelimit" and k == 0:
            return ScriptedReply.error(429, "slow down", headers={"Retry-After": "0.2"})
        if case == "flaky" and k == 0:
            return ScriptedReply.error(500, "boom")
        if case == "down":
            return ScriptedReply.error(503, "unavailable")
        if case == "slow" and k == 0:
            return ScriptedReply.chat(json.dumps(GOOD), delay_s=3.0)
        return ScriptedReply.chat(json.dumps(GOOD), usage=(100, 20))


def _samples(cases: list[str]) -> list[Sample]:
    return [Sample(id=f"s{i}", question=f"Question {i} [case:{c}]", contexts=("ctx a", "ctx b"),
                   answer=f"answer {i}", reference="ref") for i, c in enumerate(cases)]


def _config(server: Any, **kw: Any) -> RunConfig:
    backend = BackendOptions(**{"timeout_s": 1.0, "max_retries": 2, "backoff_base_s": 0.01,
                         "backoff_max_s": 0.05})
    return RunConfig(dataset="scripted", judge="openai:scripted", base_url=server.base_url,
                     metrics=("judge",), backend=backend, **kw)


def _metric_rows(store: Store, run_id: str) -> dict[str, dict[str, Any]]:
    out: dict[str, dict[str, Any]] = {}
    for r in store.iter_results(run_id):
        out[r.sample_id] = {m.name: m for m in r.results}
    return out


def test_every_sample_ends_scored_or_unscored_with_reason(scripted_server, tmp_path) -> None:
    cases = ["ok", "fenced", "range", "invalid", "repair", "truncated", "ratelimit", "flaky",
             "down", "slow"]
    script = Script()
    server = scripted_server(script)
    store = Store(tmp_path / "r.db")
    stats = evaluate(_samples(cases), _config(server, concurrency=4), store=store)
    rows = _metric_rows(store, stats.run_id)
    assert len(rows) == len(cases)
    for sid, metrics in rows.items():
        assert len(metrics) == 5
        for m in metrics.values():
            assert (m.value is not None) != (m.unscored_reason is not None), (sid, m)
    by_case = {c: rows[f"s{i}"] for i, c in enumerate(cases)}
    for ok in ("ok", "fenced", "repair", "ratelimit", "flaky", "slow"):
        assert by_case[ok]["judge.faithfulness"].value == 9, ok
    # a rating outside its scale is an invalid reply: re-asked once, never clamped,
    # unscored with the reason, suspicious (issue #38 item 6)
    ranged = by_case["range"]["judge.faithfulness"]
    assert ranged.value is None and ranged.unscored_reason == (
        "invalid reply: faithfulness: -2 is outside the scale 1-10 (also context_relevance)")
    assert "outside its scale" in (ranged.suspicious or "")
    assert script.seen["range"] == 2
    invalid = by_case["invalid"]["judge.faithfulness"]
    assert invalid.value is None and invalid.unscored_reason.startswith("unparseable reply")
    assert invalid.failure.raw_reply == "I think it is pretty good, maybe an 8?"
    assert invalid.failure.prompt[0].role == "system"
    assert "max_tokens" in by_case["truncated"]["judge.faithfulness"].unscored_reason
    assert "503" in by_case["down"]["judge.faithfulness"].unscored_reason
    # one repair at most: invalid and truncated replies were asked twice, never more
    assert script.seen["invalid"] == 2 and script.seen["truncated"] == 2
    assert script.seen["down"] == 3  # max_retries=2 -> 3 attempts
    report = build_report(store, stats.run_id)
    assert report.usage.calls >= len(cases)
    assert report.entries[3].unscored["judge.faithfulness"].startswith(
        "unparseable")


def test_cache_hit_costs_no_call_and_no_tokens(scripted_server, tmp_path) -> None:
    script = Script()
    server = scripted_server(script)
    store = Store(tmp_path / "r.db")
    samples = _samples(["ok"] * 5)
    first = evaluate(samples, _config(server), store=store)
    assert server.count == 5
    assert first.usage.calls == 5 and first.usage.input_tokens == 500
    second = evaluate(samples, _config(server), store=store)
    assert server.count == 5  # nothing re-requested
    assert second.usage == Usage(cache_hits=5)
    third = evaluate(samples, _config(server, use_cache=False), store=store)
    assert server.count == 10 and third.usage.calls == 5


class StopAfter:
    """A progress sink that interrupts the run after 32 finished samples, like Ctrl-C."""

    def __init__(self) -> None:
        self.done = 0

    def start(self, total: int | None) -> None:
        pass

    def advance(self, samples: int, usage: Usage) -> None:
        self.done += samples
        if self.done >= 32:
            raise KeyboardInterrupt

    def finish(self) -> None:
        pass


def test_resume_does_not_repeat_finished_judgments(scripted_server, tmp_path) -> None:
    script = Script()
    server = scripted_server(script)
    store = Store(tmp_path / "r.db")
    samples = _samples(["ok"] * 40)
    config = _config(server, concurrency=1, use_cache=False)
    with pytest.raises(KeyboardInterrupt):
        evaluate(samples, config, store=store, progress=StopAfter())
    run = store.latest_run()
    assert run is not None and run.status == "interrupted"
    assert server.count == 32
    stats = evaluate(samples, config, store=store, resume=run.id)
    assert server.count == 40  # only the 8 unfinished samples were requested
    assert stats.skipped == 32
    assert store.get_run(run.id).status == "complete"
    assert len(_metric_rows(store, run.id)) == 40
    assert max(script.questions.values()) == 1


def test_refused_credentials_stop_the_run_and_resume_finishes_it(scripted_server,
                                                                 tmp_path) -> None:
    from ragassay.judge import JudgeAborted

    refused = scripted_server(lambda req, n: ScriptedReply.error(401, "invalid api key"))
    store = Store(tmp_path / "r.db")
    samples = _samples(["ok"] * 50)
    with pytest.raises(JudgeAborted, match="refused"):
        evaluate(samples, _config(refused, concurrency=4), store=store)
    assert refused.count <= 8  # stopped at once, not one failure per sample
    run = store.latest_run()
    assert run is not None and run.status == "failed"
    good = scripted_server(Script())
    stats = evaluate(samples, _config(good, concurrency=4), store=store, resume=run.id)
    assert store.get_run(run.id).status == "complete"
    assert len(_metric_rows(store, stats.run_id)) == 50


class Collect:
    def __init__(self) -> None:
        self.steps: list[int] = []
        self.total: int | None = None

    def start(self, total: int | None) -> None:
        self.total = total

    def advance(self, samples: int, usage: Usage) -> None:
        self.steps.append(samples)

    def finish(self) -> None:
        pass


def test_progress_advances_sample_by_sample(scripted_server, tmp_path) -> None:
    from ragassay.types import InvalidRow

    server = scripted_server(Script())
    items: list[Any] = [*_samples(["ok"] * 5), InvalidRow(id="bad", source="d:7", reason="x")]
    progress = Collect()
    evaluate(items, _config(server), store=Store(tmp_path / "r.db"), progress=progress,
             total=6)
    assert progress.total == 6 and sum(progress.steps) == 6
    assert progress.steps.count(1) >= 5  # each judged sample reported when it finishes
