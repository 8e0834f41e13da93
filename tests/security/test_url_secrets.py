"""Secrets beyond `sk-` keys (issue 17, item 8): a token in the base URL's query string or
userinfo, and values given with `--header`, never reach the store, the reports, the
terminal or an exception text.

The echoing server quotes the full request URL (query included) and every header value
in its error bodies, as misbehaving gateways do.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner

from ragassay.cli import cli
from ragassay.llm import BackendOptions, get_backend
from ragassay.runner import evaluate
from ragassay.store import Store
from ragassay.types import RunConfig, Sample
from ragassay.urls import credential_parts, redact_url, redact_urls
from tests.security.test_secrets import VALID, _assert_clean, _check_store_and_reports
from tests.support.scripted_server import ScriptedReply, ScriptedServer

TOKEN = "tok-QUERYSECRET-9f8e7d6c5b4a"
HEADER = "hdr-GATEWAYSECRET-1a2b3c4d5e6f"


class EchoingServer(ScriptedServer):
    """Valid verdicts, except for questions marked [fail]: a 400 quoting the request URL
    with its query and every request header."""

    def __init__(self) -> None:
        super().__init__(self._answer)

    def _answer(self, request: dict[str, Any], n: int) -> ScriptedReply:
        if "[fail]" not in request["messages"][-1]["content"]:
            return ScriptedReply.chat(json.dumps(VALID))
        url = f"http://127.0.0.1:{self.port}{self.request_paths[n]}"
        headers = "; ".join(f"{k}: {v}" for k, v in self.request_headers[n].items())
        return ScriptedReply.error(400, f"bad request to {url} with headers {headers}")


def _samples() -> list[Sample]:
    return [Sample(id=f"s{i}", question=f"Question {i}{' [fail]' if i == 1 else ''}?",
                   contexts=("ctx",), answer="answer", reference="ref") for i in range(3)]


def test_redaction_rules() -> None:
    url = f"https://user:pw@gw.example:8443/v1?api-version=2024&token={TOKEN}#frag"
    assert redact_url(url) == "https://gw.example:8443/v1"
    assert redact_urls(f"POST {url} failed") == "POST https://gw.example:8443/v1 failed"
    assert credential_parts(url) == ["user:password", "token"]
    assert credential_parts("http://h/v1?api-version=2024") == []
    assert credential_parts("http://h/v1?api_key=x&sig=y&X-Amz-Signature=z") == [
        "api_key", "sig", "X-Amz-Signature"]


def test_a_query_token_is_sent_but_never_stored_or_shown(tmp_path: Path) -> None:
    db = tmp_path / "runs.db"
    with EchoingServer() as server:
        base = f"{server.base_url}?api-version=2024-06-01&token={TOKEN}"
        config = RunConfig(dataset="d.jsonl", judge="openai:m", base_url=base,
                           metrics=("judge",), concurrency=1)
        with Store(db) as store:
            stats = evaluate(_samples(), config, store=store)
            run = store.get_run(stats.run_id)
        sent, plain = list(server.request_paths), server.base_url
    assert all(f"token={TOKEN}" in p and "api-version=2024-06-01" in p for p in sent)
    assert run.config.base_url == plain  # stored without the query
    report = _check_store_and_reports(db, TOKEN, run_id=run.id)
    reasons = [e.unscored for e in report.entries if e.unscored]
    assert reasons and all("HTTP 400" in r for d in reasons for r in d.values())
    backend = get_backend("openai:m", BackendOptions(base_url=f"http://u:{TOKEN}@h/v1"))
    _assert_clean(repr(backend), "the backend's repr", TOKEN)


def test_the_cli_refuses_credentials_in_a_url(tmp_path: Path) -> None:
    data = tmp_path / "d.jsonl"
    data.write_text(json.dumps({"question": "q?", "contexts": ["c"], "answer": "a"}) + "\n",
                    encoding="utf-8")
    for url in (f"http://127.0.0.1:9/v1?api_key=sk-1234567890&token={TOKEN}",
                f"http://me:{TOKEN}@127.0.0.1:9/v1"):
        result = CliRunner().invoke(cli, ["eval", str(data), "--judge", "openai:m",
                                          "--base-url", url, "--db", str(tmp_path / "r.db")])
        assert result.exit_code == 2
        assert result.output.startswith("error: --base-url http://127.0.0.1:9/v1 carries "
                                        "credentials")
        assert "--header" in result.output and result.output.count("\n") == 1
        _assert_clean(result.output, "the error line", TOKEN, "sk-1234567890")
    assert not (tmp_path / "r.db").exists()  # refused before anything is stored


def test_header_values_are_sent_and_never_stored_or_shown(tmp_path: Path) -> None:
    data, db = tmp_path / "d.jsonl", tmp_path / "runs.db"
    data.write_text("\n".join(s.model_dump_json() for s in _samples()) + "\n", encoding="utf-8")
    with EchoingServer() as server:
        result = CliRunner().invoke(cli, [
            "eval", str(data), "--judge", "openai:m", "--base-url", server.base_url,
            "--metrics", "judge", "--db", str(db), "--header", f"X-Gateway-Key={HEADER}",
            "--header", "api-key=azure-style-000111222333", "--concurrency", "1"])
        seen = list(server.request_headers)
    assert result.exit_code == 0, result.output
    assert seen and all(h.get("x-gateway-key") == HEADER for h in seen)
    assert all(h.get("api-key") == "azure-style-000111222333" for h in seen)
    _assert_clean(result.output, "eval's output", HEADER, "azure-style-000111222333")
    report = _check_store_and_reports(db, HEADER, "azure-style-000111222333")
    assert any(e.unscored for e in report.entries)  # the echo was judged
    options = BackendOptions(headers={"X-Gateway-Key": HEADER})  # type: ignore[dict-item]
    _assert_clean(repr(options) + str(options.model_dump()) + options.model_dump_json(),
                  "the options", HEADER)


@pytest.mark.parametrize("bad", ["novalue", "=x", "bad name=x", "X-Key="])
def test_a_malformed_header_is_one_line(tmp_path: Path, bad: str) -> None:
    result = CliRunner().invoke(cli, ["eval", str(tmp_path / "d.jsonl"), "--header", bad,
                                      "--judge", "openai:m"])
    assert result.exit_code == 2 and result.output.startswith("error: --header ")
    assert result.output.count("\n") == 1


def test_resume_with_another_base_url_says_which_is_used(tmp_path: Path) -> None:
    data, db = tmp_path / "d.jsonl", tmp_path / "runs.db"
    data.write_text("\n".join(s.model_dump_json() for s in _samples()[:2]) + "\n",
                    encoding="utf-8")
    with EchoingServer() as old, EchoingServer() as new:
        config = RunConfig(dataset=str(data), judge="openai:m", base_url=old.base_url,
                           metrics=("judge",))
        with Store(db) as store:  # a run that was interrupted before any judgment
            run_id = store.create_run(config, package_version="t", dataset_hash=None,
                                      judge_model="m")
            store.finish_run(run_id, "interrupted")
        result = CliRunner().invoke(cli, ["eval", str(data), "--resume", run_id, "--base-url",
                                          new.base_url, "--db", str(db), "-q"])
        assert result.exit_code == 0, result.output
        assert old.count == 0 and new.count == 2
        assert (f"resuming run {run_id} against --base-url {new.base_url} (it was started "
                f"with {old.base_url})") in result.output
