"""`ragassay eval --batch` through the real CLI against a loopback fake of OpenAI's batch
endpoints (tests/support/batch_server.py): the same scores as direct calls, half the
cost, kill -9 while polling then --resume, failed lines and expired or failed batches
retried alone (then failed, or sent directly), batches split at the limit, --detach,
`batches status|cancel`, `runs list`, the dry run, and the setup mistakes."""

from __future__ import annotations

import json
import os
import signal
import sys
from collections import Counter
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner, Result

from ragassay.cli import cli
from ragassay.store import Store
from tests.support.batch_server import BatchServer
from tests.support.judge_replies import content_replies, shaped_rows
from tests.support.processes import run_until
from tests.support.scripted_server import ScriptedReply

PRICE = ["--price-in", "2", "--price-out", "8"]
FAST = ["--batch-poll", "0.01"]


def _eval(data: Path, server: BatchServer, db: Path, *extra: str,
          metrics: str = "judge", out: Path | None = None) -> Result:
    args = ["eval", str(data), "--judge", "openai:gpt-4o-mini", "--base-url", server.base_url,
            "--metrics", metrics, "--db", str(db), "-q", *PRICE, *extra]
    if out is not None:
        args += ["--out", str(out)]
    return CliRunner().invoke(cli, args)


def _scores(report: dict[str, Any]) -> dict[str, Any]:
    return {e["id"]: (e["metrics"], e["unscored"], e["details"])
            for e in report["detailed_results"]}


def _body(request: dict[str, Any]) -> str:
    return json.dumps(request, sort_keys=True)


def test_a_batch_run_scores_as_direct_calls_at_half_the_price(tmp_path: Path) -> None:
    """Every suite, scripted replies that depend only on the request: the batch run
    sends the very requests the direct run sends, in one batch and no direct call, and
    gets the same values, details (expected ratings read from token probabilities) and
    usage, at half the cost; the report says what the batch cost against direct calls."""
    data = shaped_rows(tmp_path / "d.jsonl", 6)
    with BatchServer(content_replies) as server:
        direct = _eval(data, server, tmp_path / "d.db", metrics="judge,trace,ragas",
                       out=tmp_path / "direct.json")
        assert direct.exit_code == 0, direct.output
        sent_directly = list(server.direct)
        batch = _eval(data, server, tmp_path / "b.db", "--batch", *FAST,
                      metrics="judge,trace,ragas", out=tmp_path / "batch.json")
        assert batch.exit_code == 0, batch.output
        assert server.direct == sent_directly  # not one direct call
        assert [b.status for b in server.created()] == ["completed"]
        assert sorted(map(_body, server.line_requests)) == sorted(map(_body, sent_directly))
    d, b = (json.loads((tmp_path / f"{n}.json").read_text()) for n in ("direct", "batch"))
    assert _scores(b) == _scores(d)
    readings = [r for e in b["detailed_results"] for r in (e.get("ratings") or {}).values()]
    assert any(r["mode"] == "expected" for r in readings)
    for field in ("calls", "input_tokens", "output_tokens", "cache_hits"):
        assert b["usage"][field] == d["usage"][field]
    assert b["usage"]["cost_usd"] == pytest.approx(d["usage"]["cost_usd"] / 2, abs=2e-6)
    cost = b["usage"]["batch"]
    assert cost["requests"] == cost["answered"] == len(sent_directly)
    assert cost["statuses"] == {"completed": 1} and cost["failed"] == cost["waiting"] == 0
    assert cost["direct_cost_usd"] == pytest.approx(d["usage"]["cost_usd"], abs=2e-6)
    assert cost["cost_usd"] == pytest.approx(cost["direct_cost_usd"] / 2, abs=2e-6)
    assert "batch" not in d["usage"]
    run_id = b["evaluation_metadata"]["run_id"]
    html = CliRunner().invoke(cli, ["report", run_id, "--db", str(tmp_path / "b.db"),
                                    "--format", "html"])
    shown = CliRunner().invoke(cli, ["runs", "show", run_id, "--db", str(tmp_path / "b.db")])
    line = (f"provider batches: 1 (completed 1), {len(sent_directly)} requests "
            f"({len(sent_directly)} answered, 0 failed): ")
    assert line in html.output and line in " ".join(shown.output.split())


def test_a_rerun_is_served_by_the_cache_and_submits_nothing(tmp_path: Path) -> None:
    data = shaped_rows(tmp_path / "d.jsonl", 4)
    with BatchServer(content_replies) as server:
        assert _eval(data, server, tmp_path / "r.db", "--batch", *FAST).exit_code == 0
        again = _eval(data, server, tmp_path / "r.db", "--batch", *FAST,
                      out=tmp_path / "again.json")
        assert again.exit_code == 0, again.output
        assert len(server.created()) == 1 and not server.direct
    report = json.loads((tmp_path / "again.json").read_text())
    assert report["usage"]["cache_hits"] == 4 and report["usage"]["calls"] == 0


def _env() -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if k != "OPENAI_BASE_URL"}
    env["OPENAI_API_KEY"] = "sk-batch-test"
    src = str(Path(__file__).resolve().parents[2] / "src")
    env["PYTHONPATH"] = os.pathsep.join([src, env.get("PYTHONPATH", "")])
    return env


@pytest.mark.slow
@pytest.mark.skipif(not hasattr(signal, "SIGKILL"), reason="needs SIGKILL")
def test_kill_9_while_polling_then_resume_submits_no_new_batch(tmp_path: Path) -> None:
    """The batch stays in progress; the CLI is SIGKILLed while it polls. The run is
    stored with its batch (`runs list`: waiting for batch; `batches status`: in
    progress); `--resume` picks the same batch up, creates none and completes with the
    scores of an uninterrupted run."""
    data, db = shaped_rows(tmp_path / "d.jsonl", 5), tmp_path / "k.db"
    with BatchServer(content_replies) as server:
        server.hold.set()
        cmd = [sys.executable, "-m", "ragassay", "eval", str(data), "--judge",
               "openai:gpt-4o-mini", "--base-url", server.base_url, "--metrics", "judge",
               "--db", str(db), "-q", "--batch", *FAST]
        done = run_until(cmd, server, 6, _env())
        assert done.killed, done.err
        with Store(db, readonly=True) as store:
            run = store.latest_run()
            assert run is not None and run.status == "running"  # killed: no cleanup ran
            (held,) = store.batches(run.id)
        assert held.batch_id == server.created()[0].id and held.status == "in_progress"
        listed = CliRunner().invoke(cli, ["runs", "list", "--db", str(db), "--format", "json"])
        assert json.loads(listed.output)[0]["status"] == "waiting for batch"
        table = CliRunner().invoke(cli, ["runs", "list", "--db", str(db)])
        assert "waiting for batch" in table.output
        status = CliRunner().invoke(cli, ["batches", "status", run.id, "--db", str(db)],
                                    env={"OPENAI_API_KEY": "sk-batch-test"})
        assert status.exit_code == 0, status.output
        assert "in_progress" in status.output and held.batch_id in status.output
        server.hold.clear()
        resumed = CliRunner().invoke(cli, [
            "eval", str(data), "--resume", run.id, "--db", str(db), "-q", "--out",
            str(tmp_path / "resumed.json")], env={"OPENAI_API_KEY": "sk-batch-test"})
        assert resumed.exit_code == 0, resumed.output
        assert server.creates == 1 and len(server.created()) == 1 and not server.direct
        direct = _eval(data, server, tmp_path / "d.db", out=tmp_path / "direct.json")
        assert direct.exit_code == 0
    r, d = (json.loads((tmp_path / f"{n}.json").read_text()) for n in ("resumed", "direct"))
    assert r["evaluation_metadata"]["status"] == "complete"
    assert _scores(r) == _scores(d)
    listed = CliRunner().invoke(cli, ["runs", "list", "--db", str(db), "--format", "json"])
    assert json.loads(listed.output)[0]["status"] == "complete"


def _failing_first(status: int) -> Any:
    """Samples s1 and s3 fail on their first request (HTTP `status` lines); the rest,
    and every later request, are answered from their content."""
    seen: Counter[str] = Counter()

    def handler(request: dict[str, Any], n: int) -> ScriptedReply:
        text = request["messages"][-1]["content"]
        which = next((s for s in ("setting 1 ", "setting 3 ") if s in text), None)
        if which is not None:
            seen[which] += 1
            if seen[which] == 1:
                return ScriptedReply.error(status, "overloaded, try later")
        return content_replies(request, n)

    return handler


def test_failed_lines_are_retried_alone_in_a_second_batch(tmp_path: Path) -> None:
    data = shaped_rows(tmp_path / "d.jsonl", 5)
    with BatchServer(_failing_first(500)) as server:
        done = _eval(data, server, tmp_path / "f.db", "--batch", *FAST, out=tmp_path / "f.json")
        assert done.exit_code == 0, done.output
        first, second = server.created()
        assert (len(first.lines), first.failed, len(second.lines)) == (5, 2, 2)
        assert {line["custom_id"] for line in second.lines} < {
            line["custom_id"] for line in first.lines}
        assert not server.direct
    report = json.loads((tmp_path / "f.json").read_text())
    assert all(not e["unscored"] for e in report["detailed_results"])
    cost = report["usage"]["batch"]
    assert (cost["batches"], cost["requests"], cost["answered"], cost["failed"]) == (2, 7, 5, 2)


def test_a_line_failing_in_both_batches_is_unscored_with_its_reason(tmp_path: Path) -> None:
    data = shaped_rows(tmp_path / "d.jsonl", 3)

    def handler(request: dict[str, Any], n: int) -> ScriptedReply:
        if "setting 1 " in request["messages"][-1]["content"]:
            return ScriptedReply.error(400, "this model refuses the request")
        return content_replies(request, n)

    with BatchServer(handler) as server:
        done = _eval(data, server, tmp_path / "u.db", "--batch", *FAST, out=tmp_path / "u.json")
        assert done.exit_code == 0, done.output
        assert [len(b.lines) for b in server.created()] == [3, 1] and not server.direct
    entries = {e["id"]: e for e in json.loads((tmp_path / "u.json").read_text())[
        "detailed_results"]}
    reason = entries["s1"]["unscored"]["judge.faithfulness"]
    assert reason == ("judge call failed: HTTP 400: this model refuses the request "
                      "(2 batches)")
    assert not entries["s0"]["unscored"] and not entries["s2"]["unscored"]


@pytest.mark.parametrize("fate", ["expired", "failed"])
def test_an_expired_or_failed_batch_is_retried_once_then_sent_directly(
        tmp_path: Path, fate: str) -> None:
    """The first two batches end `fate` (an expired one answered its first 2 lines); the
    calls they left are sent in the second batch, then, with --batch-fallback direct, as
    direct calls: each unanswered call exactly once."""
    data = shaped_rows(tmp_path / "d.jsonl", 5)
    with BatchServer(content_replies, fate=lambda n: fate if n <= 2 else "completed",
                     expire_after=2) as server:
        done = _eval(data, server, tmp_path / "e.db", "--batch", *FAST,
                     "--batch-fallback", "direct", out=tmp_path / "e.json")
        assert done.exit_code == 0, done.output
        answered = 2 if fate == "expired" else 0
        assert [len(b.lines) for b in server.created()] == [5, 5 - answered]
        assert [b.status for b in server.created()] == [fate, fate]
        assert len(server.direct) == 5 - 2 * answered
    report = json.loads((tmp_path / "e.json").read_text())
    assert all(not e["unscored"] for e in report["detailed_results"])
    assert report["usage"]["calls"] == 5


def test_without_the_fallback_a_twice_failed_batch_leaves_its_calls_failed(
        tmp_path: Path) -> None:
    data = shaped_rows(tmp_path / "d.jsonl", 2)
    with BatchServer(content_replies, fate=lambda n: "failed") as server:
        done = _eval(data, server, tmp_path / "x.db", "--batch", *FAST, out=tmp_path / "x.json")
        assert done.exit_code == 1, done.output  # every judge call failed
        assert len(server.created()) == 2 and not server.direct
        assert "scripted validation failure" in done.output
    with Store(tmp_path / "x.db", readonly=True) as store:
        (reason,) = {r for _, _, _, r in store.metric_values(store.latest_run().id,  # type: ignore[union-attr]
                                                             "judge.faithfulness")}
    assert reason == ("judge call failed: batch failed: scripted validation failure "
                      "(2 batches)")


def test_an_unusable_reply_is_repaired_in_one_more_batch(tmp_path: Path) -> None:
    data = shaped_rows(tmp_path / "d.jsonl", 3)

    def handler(request: dict[str, Any], n: int) -> ScriptedReply:
        last = request["messages"][-1]["content"]
        if "setting 2 " in last:
            return ScriptedReply.chat("I would say about an eight.")
        return content_replies(request, n)

    with BatchServer(handler) as server:
        done = _eval(data, server, tmp_path / "p.db", "--batch", *FAST, out=tmp_path / "p.json")
        assert done.exit_code == 0, done.output
        first, repair = server.created()
        assert len(repair.lines) == 1
        assert "Your previous reply could not be used" in \
            repair.lines[0]["body"]["messages"][-1]["content"]
    entries = {e["id"]: e for e in json.loads((tmp_path / "p.json").read_text())[
        "detailed_results"]}
    assert not entries["s2"]["unscored"]
    assert entries["s2"]["usage"]["calls"] == 2  # the call and its repair, both paid


def test_a_run_is_split_into_batches_at_the_request_limit(tmp_path: Path) -> None:
    """--batch-max-requests 4 over 10 calls: 3 batches of 4, 4 and 2 (the provider's
    limits, 50,000 requests and 200 MB, are tested on the splitting function)."""
    data = shaped_rows(tmp_path / "d.jsonl", 10)
    with BatchServer(content_replies) as server:
        done = _eval(data, server, tmp_path / "s.db", "--batch", *FAST,
                     "--batch-max-requests", "4", out=tmp_path / "s.json")
        assert done.exit_code == 0, done.output
        assert [len(b.lines) for b in server.created()] == [4, 4, 2]
        ids = [line["custom_id"] for b in server.created() for line in b.lines]
        assert len(set(ids)) == 10
    assert json.loads((tmp_path / "s.json").read_text())["usage"]["batch"]["batches"] == 3


def test_detach_then_resume_and_cancel(tmp_path: Path) -> None:
    """--detach submits and exits (`runs list`: waiting for batch); `batches cancel`
    cancels the live batch; --resume submits its unanswered calls again, once, and
    completes."""
    data, db = shaped_rows(tmp_path / "d.jsonl", 3), tmp_path / "t.db"
    with BatchServer(content_replies) as server:
        server.hold.set()
        done = _eval(data, server, db, "--batch", *FAST, "--detach")
        assert done.exit_code == 0, done.output
        assert "waits for 1 batch" in done.output and "--resume" in done.output
        with Store(db, readonly=True) as store:
            run = store.latest_run()
        assert run is not None and run.status == "interrupted"
        listed = CliRunner().invoke(cli, ["runs", "list", "--db", str(db), "--format", "json"])
        assert json.loads(listed.output)[0]["status"] == "waiting for batch"
        offline = CliRunner().invoke(cli, ["batches", "status", run.id, "--db", str(db),
                                           "--base-url", "http://127.0.0.1:9/v1"],
                                     env={"OPENAI_API_KEY": "sk-batch-test", "COLUMNS": "200"})
        assert offline.exit_code == 0, offline.output
        assert "note: the batch API of openai:gpt-4o-mini failed: cannot connect" in \
            offline.output and "validating" in offline.output  # as stored at its create
        cancel = CliRunner().invoke(cli, ["batches", "cancel", run.id, "--db", str(db)],
                                    env={"OPENAI_API_KEY": "sk-batch-test"})
        assert cancel.exit_code == 0, cancel.output
        assert "cancelling" in cancel.output
        server.hold.clear()
        resumed = CliRunner().invoke(cli, ["eval", str(data), "--resume", run.id, "--db",
                                           str(db), "-q", "--out", str(tmp_path / "t.json")],
                                     env={"OPENAI_API_KEY": "sk-batch-test"})
        assert resumed.exit_code == 0, resumed.output
        first, again = server.created()
        assert first.status == "cancelled" and len(again.lines) == 3
    report = json.loads((tmp_path / "t.json").read_text())
    assert report["evaluation_metadata"]["status"] == "complete"
    assert all(not e["unscored"] for e in report["detailed_results"])


def test_a_create_whose_answer_was_lost_is_adopted_not_sent_again(tmp_path: Path) -> None:
    """The batch endpoint creates the batch but answers too late (the client times out):
    the client finds the batch made from its file and submits nothing twice."""
    data = shaped_rows(tmp_path / "d.jsonl", 2)
    with BatchServer(content_replies, create_delay_s=2.5) as server:
        done = _eval(data, server, tmp_path / "l.db", "--batch", *FAST, "--timeout", "1",
                     out=tmp_path / "l.json")
        assert done.exit_code == 0, done.output
        assert server.creates == 1 and len(server.created()) == 1
    report = json.loads((tmp_path / "l.json").read_text())
    assert all(not e["unscored"] for e in report["detailed_results"])


def test_dry_run_estimates_the_batch_price(tmp_path: Path) -> None:
    data = shaped_rows(tmp_path / "d.jsonl", 4)
    out = CliRunner().invoke(cli, ["eval", str(data), "--judge", "openai:gpt-4o-mini",
                                   "--metrics", "judge", "--dry-run", "--batch", *PRICE])
    assert out.exit_code == 0, out.output
    line = next(x for x in out.output.splitlines() if x.startswith("with --batch"))
    direct = next(x for x in out.output.splitlines() if x.startswith("estimated cost"))
    direct_usd = float(direct.split("$")[1].split()[0])
    batch_usd = float(line.split("$")[1].split()[0])
    assert batch_usd == pytest.approx(direct_usd / 2, abs=1e-4)  # as printed: 4 decimals
    assert "half of --price-in/--price-out" in line


@pytest.mark.parametrize(("args", "message"), [
    (["--judge", "offline", "--batch"], "--batch needs an LLM judge"),
    (["--judge", "openai:m", "--batch", "--engine", "ray"], "--batch and --engine ray"),
    (["--judge", "openai:m", "--batch-fallback", "direct"], "--batch-fallback needs --batch"),
    (["--judge", "litellm:anthropic/claude-3-5-haiku-latest", "--batch"],
     "--batch needs a judge with a provider batch API (openai:MODEL)"),
    (["--judge", "openai:m", "--batch", "--base-url", "http://127.0.0.1:9/v1",
      "--base-url", "http://127.0.0.1:8/v1"], "--batch takes one --base-url"),
])
def test_setup_mistakes_are_one_line(tmp_path: Path, args: list[str], message: str) -> None:
    data = shaped_rows(tmp_path / "d.jsonl", 1)
    out = CliRunner().invoke(cli, ["eval", str(data), "--db", str(tmp_path / "m.db"), *args],
                             env={"OPENAI_API_KEY": "sk-x"})
    assert out.exit_code == 2, out.output
    assert message in out.output and "Traceback" not in out.output


def test_batches_of_a_run_without_any_is_one_line(tmp_path: Path) -> None:
    data = shaped_rows(tmp_path / "d.jsonl", 1)
    assert CliRunner().invoke(cli, ["eval", str(data), "--db", str(tmp_path / "o.db"),
                                    "-q"]).exit_code == 0
    with Store(tmp_path / "o.db", readonly=True) as store:
        run_id = store.latest_run().id  # type: ignore[union-attr]
    out = CliRunner().invoke(cli, ["batches", "status", run_id, "--db", str(tmp_path / "o.db")])
    assert out.exit_code == 2 and "submitted no batch" in out.output


def test_a_batch_cancelled_while_the_run_waits_stops_it_and_a_resume_goes_on(
        tmp_path: Path) -> None:
    """Cancelled at the provider (its console, or `batches cancel` from another shell)
    while the run polls: the run stops in one line, interrupted, keeping what came; a
    resume submits the unanswered calls again and completes."""
    import threading

    data, db = shaped_rows(tmp_path / "d.jsonl", 3), tmp_path / "c.db"
    with BatchServer(content_replies) as server:
        server.hold.set()

        def cancel_when_made() -> None:
            while not server.created():
                threading.Event().wait(0.01)
            server.cancel(server.created()[0].id)

        canceller = threading.Thread(target=cancel_when_made, daemon=True)
        canceller.start()
        stopped = _eval(data, server, db, "--batch", *FAST)
        canceller.join(timeout=10)
        assert stopped.exit_code == 2, stopped.output
        assert f"batch {server.created()[0].id} was cancelled" in stopped.output
        assert "--resume" in stopped.output
        with Store(db, readonly=True) as store:
            run = store.latest_run()
        assert run is not None and run.status == "interrupted"
        server.hold.clear()
        resumed = CliRunner().invoke(cli, ["eval", str(data), "--resume", run.id, "--db",
                                           str(db), "-q"], env={"OPENAI_API_KEY": "sk-x"})
        assert resumed.exit_code == 0, resumed.output
        assert [len(b.lines) for b in server.created()] == [3, 3]
        with Store(db, readonly=True) as store:
            assert store.get_run(run.id).status == "complete"
