"""A judge endpoint that redirects to another origin does not get the request re-sent
there: httpx strips only `Authorization`, so `--header` values (Azure's `api-key`) and
the prompt would travel to the other host. The run stops with one line instead; a
redirect within the endpoint's own origin is still followed (issue #33, item 3)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner

from ragassay.cli import cli
from tests.support.cli import llm_eval_args
from tests.support.faults import judge_scores
from tests.support.scripted_server import ScriptedReply, ScriptedServer

pytestmark = pytest.mark.timeout(120)
SECRET = "gw-7Hq2xVv9ZpLk"


def _data(path: Path) -> Path:
    path.write_text("".join(json.dumps({"id": f"s{i}", "question": f"What is {i}?",
                                        "contexts": [f"{i} is a number."], "answer": "A number.",
                                        "reference": "A number."}) + "\n" for i in range(3)))
    return path


def _ok(request: dict[str, Any], n: int) -> ScriptedReply:
    return ScriptedReply.chat(json.dumps(judge_scores(request)))


@pytest.mark.parametrize("status", [307, 308, 302])
def test_a_redirect_to_another_origin_is_not_followed(status: int, tmp_path: Path) -> None:
    with ScriptedServer(_ok) as elsewhere:
        target, other = f"{elsewhere.base_url}/chat/completions", elsewhere.port
        with ScriptedServer(lambda req, n: ScriptedReply(
                status=status, body={}, headers={"Location": target})) as endpoint:
            url = endpoint.base_url
            result = CliRunner().invoke(cli, llm_eval_args(
                _data(tmp_path / "d.jsonl"), url, tmp_path / "r.db", "-q",
                "--header", f"X-Gateway-Key={SECRET}"), env={"OPENAI_API_KEY": "sk-test"})
            asked = endpoint.count
        assert elsewhere.count == 0 and not elsewhere.request_headers
    assert result.exit_code == 2, result.output
    line = result.output.strip()
    assert "\n" not in line and "Traceback" not in line
    assert (f"the judge endpoint {url} redirected the request to another origin "
            f"(http://127.0.0.1:{other}): not followed") in line
    assert SECRET not in result.output
    assert asked == 1  # the first call: not retried, no other sample sent


def test_a_redirect_within_the_endpoint_is_followed(tmp_path: Path) -> None:
    box: dict[str, ScriptedServer] = {}

    def handler(request: dict[str, Any], n: int) -> ScriptedReply:
        if box["server"].request_paths[n].startswith("/v1/"):
            return ScriptedReply(status=307, body={},
                                 headers={"Location": "/v2/chat/completions"})
        return _ok(request, n)

    with ScriptedServer(handler) as server:
        box["server"] = server
        result = CliRunner().invoke(cli, llm_eval_args(
            _data(tmp_path / "d.jsonl"), server.base_url, tmp_path / "s.db", "-q",
            "--header", f"X-Gateway-Key={SECRET}"), env={"OPENAI_API_KEY": "sk-test"})
        paths = list(server.request_paths)
    assert result.exit_code == 0, result.output
    assert sum(p.startswith("/v2/") for p in paths) == 3
