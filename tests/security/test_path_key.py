"""A key in the base URL's path (`/sk-.../v1`, as some gateways take it) is sent, and
masked wherever the URL is stored or shown, as server error excerpts are (issue #33,
item 10)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from click.testing import CliRunner

from ragassay.cli import cli
from ragassay.store import Store
from ragassay.urls import redact_url
from tests.security.test_secrets import VALID, _assert_clean, _check_store_and_reports
from tests.support.scripted_server import ScriptedReply, ScriptedServer

PATH_KEY = "sk-PATHKEY0a1b2c3d4e5f6g7h8"


def test_redact_url_masks_a_key_in_the_path() -> None:
    assert redact_url(f"https://gw.example/{PATH_KEY}/v1?x=1") == "https://gw.example/***/v1"
    assert redact_url(f"gw.example/{PATH_KEY}/v1") == "gw.example/***/v1"  # no scheme


def test_a_path_key_is_sent_but_never_stored_or_shown(tmp_path: Path) -> None:
    data, db = tmp_path / "d.jsonl", tmp_path / "p.db"
    data.write_text("".join(json.dumps({"id": f"s{i}", "question": f"Q{i}{' [fail]' * i}?",
                                        "contexts": ["c"], "answer": "a", "reference": "r"})
                            + "\n" for i in range(2)))
    box: dict[str, ScriptedServer] = {}

    def handler(request: dict[str, Any], n: int) -> ScriptedReply:
        if "[fail]" in request["messages"][-1]["content"]:  # a gateway quoting the URL
            return ScriptedReply.error(400, f"bad request to {box['s'].request_paths[n]}")
        return ScriptedReply.chat(json.dumps(VALID))

    with ScriptedServer(handler) as server:
        box["s"] = server
        url = f"http://127.0.0.1:{server.port}/{PATH_KEY}/v1"
        result = CliRunner().invoke(cli, ["eval", str(data), "--judge", "openai:m",
                                          "--base-url", url, "--metrics", "judge", "--db",
                                          str(db)], env={"OPENAI_API_KEY": "sk-test-000000"})
        paths, port = list(server.request_paths), server.port
    assert result.exit_code == 0, result.output
    assert paths and all(p.startswith(f"/{PATH_KEY}/v1/") for p in paths)  # sent as given
    _assert_clean(result.output, "eval's output", PATH_KEY)
    report = _check_store_and_reports(db, PATH_KEY)
    assert any(e.unscored for e in report.detailed_results or ())  # the echo was judged
    with Store(db, readonly=True) as store:
        assert store.list_runs()[0].config.base_url == f"http://127.0.0.1:{port}/***/v1"


def test_an_unreachable_endpoint_with_a_path_key_is_named_masked(tmp_path: Path) -> None:
    data = tmp_path / "d.jsonl"
    data.write_text(json.dumps({"question": "q?", "contexts": ["c"], "answer": "a"}) + "\n")
    result = CliRunner().invoke(cli, ["eval", str(data), "--judge", "openai:m", "--base-url",
                                      f"http://127.0.0.1:9/{PATH_KEY}/v1", "--db",
                                      str(tmp_path / "u.db"), "-q"],
                                env={"OPENAI_API_KEY": "sk-test-000000"})
    assert result.exit_code == 2
    assert "cannot connect to the judge endpoint http://127.0.0.1:9/***/v1" in result.output
    _assert_clean(result.output, "the error line", PATH_KEY)
