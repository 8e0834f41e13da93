"""`--resume` judges again what failed for the endpoint's sake (no connection, timeout,
429, 5xx after the retries), so an outage leaves no holes; `--retry-failed` does it for a
finished run, `--retry-failed all` for unusable replies too, which otherwise stay
unscored (issue #33, item 5)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner

from ragassay.cli import cli
from ragassay.store import Store
from tests.support.cli import llm_eval_args, settings_data
from tests.support.faults import judge_scores
from tests.support.scripted_server import ScriptedReply, ScriptedServer

pytestmark = pytest.mark.timeout(300)
ENV = {"OPENAI_API_KEY": "sk-test"}


def _sample(request: dict[str, Any]) -> str:
    text = json.dumps(request)
    return next(f"s{i}" for i in range(100) if f"setting {i} do" in text)


def _values(db: Path, run_id: str) -> dict[str, Any]:
    with Store(db, readonly=True) as store:
        return {r.sample_id: r.results[0] for r in store.iter_results(run_id)}


def _first(data: Path, url: str, db: Path, exit_code: int) -> tuple[Any, str]:
    """The first run (one call at a time), its exit code checked, and its id."""
    result = CliRunner().invoke(cli, llm_eval_args(data, url, db, "-q", "--concurrency", "1"),
                                env=ENV)
    assert result.exit_code == exit_code, result.output
    with Store(db, readonly=True) as store:
        return result, store.list_runs()[0].id


def _resume(data: Path, db: Path, run_id: str, *extra: str) -> Any:
    return CliRunner().invoke(cli, ["eval", str(data), "--resume", run_id, "--db", str(db),
                                    "-q", *extra], env=ENV)


def test_resume_after_an_outage_judges_the_failed_again(tmp_path: Path) -> None:
    data, db = settings_data(tmp_path / "d.jsonl", 8), tmp_path / "o.db"
    state = {"down": False}
    asked: list[str] = []

    def handler(request: dict[str, Any], n: int) -> ScriptedReply:
        asked.append(_sample(request))
        if n == 2:
            state["down"] = True  # the outage begins with the third call
        if state["down"]:
            return ScriptedReply.error(503, "upstream overloaded")
        return ScriptedReply.chat(json.dumps(judge_scores(request)))

    with ScriptedServer(handler) as server:
        first, run_id = _first(data, server.base_url, db, 2)
        assert "failed 3 calls in a row" in first.output
        holes = {s for s, v in _values(db, run_id).items() if v.value is None}
        assert len(holes) == 2 and all("HTTP 503" in (_values(db, run_id)[s].unscored_reason
                                                      or "") for s in holes)
        state["down"] = False
        asked.clear()
        result = _resume(data, db, run_id)
    assert result.exit_code == 0, result.output
    assert f"judging again {len(holes)} judgments that failed for the endpoint's sake" \
        in result.stderr
    assert holes <= set(asked) and "s0" not in asked  # scored ones are not asked again
    values = _values(db, run_id)
    assert len(values) == 8 and all(v.value is not None for v in values.values())
    with Store(db, readonly=True) as store:
        assert store.get_run(run_id).status == "complete"


def test_unusable_replies_stay_unscored_unless_asked(tmp_path: Path) -> None:
    data, db = settings_data(tmp_path / "d.jsonl", 8), tmp_path / "c.db"
    state = {"down": False, "garbled": True, "over": False}
    asked: list[str] = []

    def handler(request: dict[str, Any], n: int) -> ScriptedReply:
        sample = _sample(request)
        asked.append(sample)
        if sample == "s1" and state["garbled"]:
            return ScriptedReply.chat("not json at all")
        if sample == "s4" and not state["over"]:
            state["down"] = True
        if state["down"]:
            return ScriptedReply.error(502, "bad gateway")
        return ScriptedReply.chat(json.dumps(judge_scores(request)))

    with ScriptedServer(handler) as server:
        _, run_id = _first(data, server.base_url, db, 2)
        assert "unparseable reply" in (_values(db, run_id)["s1"].unscored_reason or "")
        state.update(down=False, over=True)
        asked.clear()
        assert _resume(data, db, run_id).exit_code == 0
        assert "s1" not in asked  # a content failure is not judged again by --resume
        values = _values(db, run_id)
        assert values["s1"].value is None
        assert all(v.value is not None for s, v in values.items() if s != "s1")
        state["garbled"] = False
        asked.clear()
        again = _resume(data, db, run_id, "--retry-failed", "all")
    assert again.exit_code == 0, again.output
    assert asked == ["s1"]
    assert _values(db, run_id)["s1"].value is not None


def test_retry_failed_judges_a_finished_runs_transport_failures_again(tmp_path: Path) -> None:
    data, db = settings_data(tmp_path / "d.jsonl", 4), tmp_path / "f.db"
    state = {"s2_down": True}
    asked: list[str] = []

    def handler(request: dict[str, Any], n: int) -> ScriptedReply:
        sample = _sample(request)
        asked.append(sample)
        if sample == "s2" and state["s2_down"]:
            return ScriptedReply.error(429, "rate limited")
        return ScriptedReply.chat(json.dumps(judge_scores(request)))

    with ScriptedServer(handler) as server:
        first, run_id = _first(data, server.base_url, db, 0)
        with Store(db, readonly=True) as store:
            assert store.get_run(run_id).status == "complete"
        assert (f"1 judgment failed for the endpoint's sake (no connection, timeout, 429, 5xx): "
                f"judge them again with ragassay eval {data} --resume {run_id} --retry-failed"
                ) in first.stderr
        state["s2_down"] = False
        asked.clear()
        assert _resume(data, db, run_id).exit_code == 0
        assert asked == []  # a finished run: only when asked
        result = _resume(data, db, run_id, "--retry-failed")
    assert result.exit_code == 0, result.output
    assert asked == ["s2"]
    assert all(v.value is not None for v in _values(db, run_id).values())


def test_retry_failed_needs_resume(tmp_path: Path) -> None:
    result = CliRunner().invoke(cli, ["eval", str(settings_data(tmp_path / "d.jsonl", 1)),
                                      "--retry-failed", "--db", str(tmp_path / "x.db")])
    assert result.exit_code == 2
    assert result.output.strip() == ("error: --retry-failed needs --resume RUN (the run whose "
                                     "failed judgments to judge again)")
