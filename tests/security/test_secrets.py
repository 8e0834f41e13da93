"""A planted API key never reaches the store, reports, logs, terminal output or exceptions.

The scripted server echoes the Authorization header back in its error bodies (401, 403
with a non-JSON body, 400, 500), as misbehaving proxies and some real APIs do; every
output is then searched for the key: stdout, stderr (with the SDK's debug logging on),
log records, every table of the store and its raw bytes (WAL included), the JSON, CSV
and HTML reports, exception strings and reprs.
"""

from __future__ import annotations

import asyncio
import json
import logging
import os
import re
import sqlite3
import subprocess
import sys
import traceback
from pathlib import Path
from typing import Any

import pytest

from ragassay.judge import JudgeAborted
from ragassay.llm import BackendError, BackendOptions, get_backend
from ragassay.llm.wire import JudgeRequest, Message
from ragassay.report import Report, build_report, report_json, to_csv, to_html
from ragassay.runner import evaluate
from ragassay.store import Store
from ragassay.types import RunConfig, Sample
from tests.support.scripted_server import ScriptedReply, ScriptedServer

KEY = "sk-planted-SECRET-4f9a1c2b3d4e5f60718293a4b5c6d7e8"
FILE_KEY = "azure-style-key-0f1e2d3c4b5a69788796a5b4c3d2e1f0"  # not sk-shaped
VALID = {"context_relevance": 7, "answer_similarity": 6, "faithfulness": 8,
         "hallucination": False, "reasoning": "ok"}
CASES = ("ok", "401", "403raw", "400", "500")
FATAL = ("401", "403raw")  # refused credentials stop the run (JudgeAborted)


class EchoingServer(ScriptedServer):
    """Answers by the [case:x] marker in the question, echoing the caller's credentials."""

    def __init__(self) -> None:
        super().__init__(self._answer)

    def _answer(self, request: dict[str, Any], n: int) -> ScriptedReply:
        auth = self.request_headers[n].get("authorization", "")
        key = auth.removeprefix("Bearer ")
        m = re.search(r"\[case:(\w+)\]", request["messages"][-1]["content"])
        case = m.group(1) if m else "ok"
        if case == "401":
            return ScriptedReply.error(401, f"Incorrect API key provided: {key}. Find your key "
                                            "in your account settings.")
        if case == "403raw":
            return ScriptedReply(status=403, body=f"<html>forbidden for {auth}</html>".encode(),
                                 headers={"Content-Type": "text/html"})
        if case == "400":
            return ScriptedReply(status=400, body={"error": {
                "message": f"Invalid model for key {key}", "param": key, "code": key}})
        if case == "500":
            return ScriptedReply.error(500, f"upstream failed; headers: Authorization: {auth}")
        return ScriptedReply.chat(json.dumps(VALID))


def _samples(cases: tuple[str, ...] = CASES) -> list[Sample]:
    return [Sample(id=f"s-{c}", question=f"Question [case:{c}]?", contexts=("ctx",),
                   answer="answer", reference="ref") for c in cases]


def _run_all(config: RunConfig, store: Store) -> list[str]:
    """Evaluate the non-fatal cases, then each refused-credentials case (which stops its
    run); returns the abort messages."""
    evaluate(_samples(tuple(c for c in CASES if c not in FATAL)), config, store=store)
    aborts = []
    for case in FATAL:
        with pytest.raises(JudgeAborted) as info:
            evaluate(_samples((case,)), config, store=store)
        aborts.append(str(info.value))
    return aborts


def _assert_clean(text: str | bytes, where: str, *keys: str) -> None:
    for key in keys:
        needle: Any = key.encode() if isinstance(text, bytes) else key
        assert needle not in text, f"key found in {where}"
        # nor a large fragment of it
        frag = key[len(key) // 3: 2 * len(key) // 3]
        needle = frag.encode() if isinstance(text, bytes) else frag
        assert needle not in text, f"key fragment found in {where}"


def _dump_store(db: Path) -> str:
    conn = sqlite3.connect(db)
    try:
        tables = [r[0] for r in conn.execute(
            "SELECT name FROM sqlite_master WHERE type = 'table'")]
        assert {"runs", "samples", "results", "calls", "cache", "metric_values"} <= set(tables)
        return "\n".join(f"{t}: {row!r}" for t in tables
                         for row in conn.execute(f'SELECT * FROM "{t}"'))
    finally:
        conn.close()


def _check_store_and_reports(db: Path, *keys: str, run_id: str | None = None
                             ) -> Report:
    _assert_clean(_dump_store(db), "a store table", *keys)
    for path in db.parent.glob(db.name + "*"):  # the db, -wal and -shm files
        _assert_clean(path.read_bytes(), path.name, *keys)
    with Store(db, readonly=True) as store:
        run = store.get_run(run_id) if run_id else store.latest_run()
        assert run is not None
        report = build_report(store, run.id)
    for name, text in (("json", json.dumps(report_json(report))), ("csv", to_csv(report)),
                       ("html", to_html(report))):
        _assert_clean(text, f"the {name} report", *keys)
    return report


@pytest.fixture
def clean_env(monkeypatch: pytest.MonkeyPatch) -> pytest.MonkeyPatch:
    for name in ("OPENAI_API_KEY", "OPENAI_BASE_URL", "RAGASSAY_TEST_NO_KEY"):
        monkeypatch.delenv(name, raising=False)
    return monkeypatch


def test_env_key_never_leaks_in_process(clean_env: pytest.MonkeyPatch, tmp_path: Path,
                                        caplog: pytest.LogCaptureFixture) -> None:
    clean_env.setenv("OPENAI_API_KEY", KEY)
    caplog.set_level(logging.DEBUG)
    for name in ("openai", "httpx", "httpcore", "ragassay"):
        logging.getLogger(name).setLevel(logging.DEBUG)
    db = tmp_path / "runs.db"
    backend = BackendOptions(**{"timeout_s": 2.0, "max_retries": 1, "backoff_base_s": 0.01,
                         "backoff_max_s": 0.02})
    with EchoingServer() as server, Store(db) as store:
        config = RunConfig(dataset="secrets", judge="openai:m", base_url=server.base_url,
                           metrics=("judge",), backend=backend)
        aborts = _run_all(config, store)
        sent = {h.get("authorization") for h in server.request_headers}
    assert sent == {f"Bearer {KEY}"}  # the key really was used, and echoed
    for message in aborts:  # explained, with the key masked
        assert "refused" in message and "HTTP 40" in message
        _assert_clean(message, "the abort message", KEY)
    assert "***" in aborts[0]
    records = "\n".join(f"{r.name} {r.getMessage()} {r.args!r}" for r in caplog.records)
    assert records  # debug logging was on
    _assert_clean(records, "log records", KEY)
    with Store(db, readonly=True) as store:
        runs = store.list_runs()
    assert [r.status for r in runs] == ["failed", "failed", "complete"]  # newest first
    report = _check_store_and_reports(db, KEY, run_id=runs[-1].id)
    reasons = {r.id: r.unscored.get("judge.faithfulness") for r in report.entries}
    assert reasons["s-ok"] is None
    for case in ("400", "500"):  # each failure is explained, key masked
        assert reasons[f"s-{case}"] and "HTTP" in reasons[f"s-{case}"], reasons
    assert "***" in reasons["s-400"] or "***" in reasons["s-500"]


def test_key_file_never_leaks(clean_env: pytest.MonkeyPatch, tmp_path: Path) -> None:
    key_file = tmp_path / "judge.key"
    key_file.write_text(FILE_KEY + "\n", encoding="utf-8")
    db = tmp_path / "runs.db"
    backend = BackendOptions(api_key_file=str(key_file), api_key_env="RAGASSAY_TEST_NO_KEY",
                             timeout_s=2.0, max_retries=0)
    with EchoingServer() as server, Store(db) as store:
        config = RunConfig(dataset="secrets", judge="openai:m", base_url=server.base_url,
                           metrics=("judge",), backend=backend)
        aborts = _run_all(config, store)
        assert {h.get("authorization") for h in server.request_headers} == {f"Bearer {FILE_KEY}"}
    for message in aborts:
        _assert_clean(message, "the abort message", FILE_KEY)
    _check_store_and_reports(db, FILE_KEY)


def test_exceptions_and_reprs_never_show_the_key(clean_env: pytest.MonkeyPatch) -> None:
    clean_env.setenv("OPENAI_API_KEY", KEY)
    request = JudgeRequest(messages=(Message(role="user", content="q [case:CASE]"),))
    with EchoingServer() as server:
        options = BackendOptions(base_url=server.base_url, max_retries=1, backoff_base_s=0.0)
        backend = get_backend("openai:m", options)
        texts = [repr(backend), repr(options), repr(vars(backend)), str(backend.__dict__)]
        for case in ("401", "403raw", "400", "500"):
            req = request.model_copy(update={"messages": (
                Message(role="user", content=f"q [case:{case}]"),)})
            with pytest.raises(BackendError) as info:
                asyncio.run(backend.complete(req))
            exc = info.value
            texts += [str(exc), repr(exc), exc.reason,
                      "".join(traceback.format_exception(exc))]
    for text in texts:
        _assert_clean(text, "an exception or repr", KEY)
    assert any("***" in t for t in texts)


def test_unreadable_key_file_message_has_no_key(clean_env: pytest.MonkeyPatch,
                                                tmp_path: Path) -> None:
    empty = tmp_path / "empty.key"
    empty.write_text("  \n", encoding="utf-8")
    for path, expected in ((tmp_path / "missing.key", "cannot read api_key_file"),
                           (empty, "is empty")):
        with pytest.raises(BackendError) as info:
            get_backend("openai:m", BackendOptions(api_key_file=str(path)))
        assert expected in info.value.reason and str(path) in info.value.reason


@pytest.mark.slow
def test_cli_outputs_never_show_the_key(tmp_path: Path) -> None:
    """A real terminal run with the SDK's own debug logging switched on."""
    data, db, out = tmp_path / "d.jsonl", tmp_path / "runs.db", tmp_path / "report.json"
    refused = tmp_path / "refused.jsonl"
    with data.open("w", encoding="utf-8") as fh:
        for s in _samples(("ok", "400")):  # 500 is retried with the default (slow) backoff
            fh.write(s.model_dump_json(exclude={"strategy", "labels", "metadata"}) + "\n")
    with refused.open("w", encoding="utf-8") as fh:
        for s in _samples(FATAL):
            fh.write(s.model_dump_json(exclude={"strategy", "labels", "metadata"}) + "\n")
    env = {**os.environ, "OPENAI_API_KEY": KEY, "OPENAI_LOG": "debug"}
    env.pop("OPENAI_BASE_URL", None)
    outputs: list[str] = []
    with EchoingServer() as server:
        base = [sys.executable, "-m", "ragassay"]
        commands = [
            ["eval", str(data), "--judge", "openai:m", "--base-url", server.base_url,
             "--metrics", "judge", "--db", str(db), "--out", str(out)],
            ["runs", "list", "--db", str(db)],
            ["report", "--format", "html", "--db", str(db)],
            ["report", "--format", "csv", "--db", str(db)],
            ["eval", str(tmp_path / "missing.jsonl"), "--judge", "openai:m", "--db", str(db)],
            ["eval", str(refused), "--judge", "openai:m", "--base-url", server.base_url,
             "--metrics", "judge", "--db", str(tmp_path / "refused.db")],
        ]
        for cmd in commands:
            proc = subprocess.run(base + cmd, env=env, capture_output=True, text=True,
                                  timeout=120)
            outputs += [proc.stdout, proc.stderr]
            assert proc.returncode in (0, 2), proc.stderr
        assert server.count >= 4
    assert "run " in outputs[1]  # the summary was printed
    assert "refused" in outputs[-1] and "--resume" in outputs[-1]  # one line, exit 2
    for text in outputs:
        _assert_clean(text, "CLI output", KEY)
    _assert_clean(out.read_text(encoding="utf-8"), "--out report", KEY)
    _check_store_and_reports(db, KEY)
