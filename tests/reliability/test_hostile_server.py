"""A judge endpoint is untrusted input: malformed, huge, deeply nested or absurd replies
unscore the call they answer, with a reason, and the run goes on; a dead or unreachable
endpoint stops the run at once with one line, keeping what is done for --resume."""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner

from ragassay.cli import cli
from ragassay.store import Store
from tests.support.cli import llm_eval_args
from tests.support.faults import is_judge_scores, judge_scores
from tests.support.scripted_server import ScriptedReply, ScriptedServer, chat_completion

GOOD_JUDGMENT = json.dumps({"context_relevance": 7, "answer_similarity": 6, "faithfulness": 8,
                            "hallucination": False, "reasoning": "ok"})


def _data(path: Path, n: int) -> Path:
    rows = [{"id": f"s{i}", "question": f"What does setting {i} do?",
             "contexts": [f"Setting {i} controls buffer {i}."],
             "answer": f"It controls buffer {i}.", "reference": f"Buffer {i}."}
            for i in range(n)]
    path.write_text("".join(json.dumps(r) + "\n" for r in rows))
    return path


def _hostile(kind: str) -> ScriptedReply:
    if kind == "non_json_body":
        return ScriptedReply(body=b"<html>oops</html>",
                             headers={"Content-Type": "application/json"})
    if kind == "huge_body":
        return ScriptedReply(body=b'{"junk": "' + b"x" * 50_000_000 + b'"}',
                             headers={"Content-Type": "application/json"})
    if kind == "deep_json":
        return ScriptedReply(body=b"[" * 100_000 + b"]" * 100_000,
                             headers={"Content-Type": "application/json"})
    if kind == "choices_int":
        return ScriptedReply(body={"choices": 3})
    if kind == "choices_dict":
        return ScriptedReply(body={"choices": {"0": {"message": {"content": GOOD_JUDGMENT}}}})
    if kind == "brackets":  # 150k characters of "[a": a parse that must stay cheap
        return ScriptedReply.chat("[a" * 75_000)
    raise AssertionError(kind)


HOSTILE = ("non_json_body", "huge_body", "deep_json", "choices_int", "choices_dict",
           "brackets")


# a hang is a failure here: pytest-timeout ends a test that never returns
pytestmark = pytest.mark.timeout(180)


@pytest.mark.parametrize("kind", HOSTILE)
def test_a_hostile_reply_unscores_its_sample_and_the_run_goes_on(kind: str,
                                                                 tmp_path: Path) -> None:
    def handler(request: dict[str, Any], n: int) -> ScriptedReply:
        if "setting 1 do" in json.dumps(request):
            return _hostile(kind)
        return ScriptedReply.chat(json.dumps(judge_scores(request)))

    db = tmp_path / "h.db"
    with ScriptedServer(handler) as server:
        result = CliRunner().invoke(cli, llm_eval_args(
            _data(tmp_path / "d.jsonl", 4), server.base_url, db, "-q", "--timeout", "10",
            "--concurrency", "2"), env={"OPENAI_API_KEY": "sk-test"})
    assert result.exit_code == 0, result.output
    with Store(db, readonly=True) as store:
        run = store.list_runs()[0]
        values = {s: r for s, r in ((x.sample_id, x) for x in store.iter_results(run.id))}
    assert run.status == "complete"
    bad = values["s1"].results[0]
    assert bad.value is None and bad.unscored_reason
    assert "Traceback" not in bad.unscored_reason
    assert all(values[f"s{i}"].results[0].value is not None for i in (0, 2, 3))


def test_absurd_usage_figures_are_not_believed(tmp_path: Path) -> None:
    def handler(request: dict[str, Any], n: int) -> ScriptedReply:
        body = chat_completion(json.dumps(judge_scores(request)))
        body["usage"] = {"prompt_tokens": 10**30, "completion_tokens": -5}
        return ScriptedReply(body=body)

    db = tmp_path / "u.db"
    with ScriptedServer(handler) as server:
        result = CliRunner().invoke(cli, llm_eval_args(
            _data(tmp_path / "d.jsonl", 2), server.base_url, db, "-q"),
            env={"OPENAI_API_KEY": "sk-test"})
    assert result.exit_code == 0, result.output
    with Store(db, readonly=True) as store:
        run = store.list_runs()[0]
        usage = store.usage(run.id)["total"]
    assert 0 < usage.input_tokens < 10_000  # estimated from the prompt instead


def test_an_infinite_chunk_index_unscores_context_precision_only(tmp_path: Path) -> None:
    def handler(request: dict[str, Any], n: int) -> ScriptedReply:
        text = json.dumps(request)
        if "chunks" in text and "reference_sentences" in text:
            return ScriptedReply.chat('{"chunks": [{"index": Infinity, "useful": true}], '
                                      '"reference_sentences": []}')
        if "questions" in text and "noncommittal" in text:
            return ScriptedReply.chat('{"questions": ["What is it?"], "noncommittal": false}')
        return ScriptedReply.chat('{"claims": [{"claim": "c", "supported": true}]}')

    data = _data(tmp_path / "d.jsonl", 1)
    db = tmp_path / "i.db"
    with ScriptedServer(handler) as server:
        result = CliRunner().invoke(cli, ["eval", str(data), "--judge", "openai:x",
                                          "--base-url", server.base_url, "--metrics", "ragas",
                                          "--db", str(db), "-q"],
                                    env={"OPENAI_API_KEY": "sk-test"})
    assert result.exit_code == 0, result.output
    with Store(db, readonly=True) as store:
        (res,) = list(store.iter_results(store.list_runs()[0].id))
    by = {m.name: m for m in res.results}
    assert by["ragas.context_precision"].value is None
    assert "chunk number" in (by["ragas.context_precision"].unscored_reason or "")
    assert by["ragas.faithfulness"].value == 1.0


def test_an_unreachable_endpoint_stops_at_once_with_one_line(tmp_path: Path) -> None:
    data = _data(tmp_path / "d.jsonl", 3)
    for url in ("http://127.0.0.1:9/v1", "notaurl"):
        result = CliRunner().invoke(cli, llm_eval_args(data, url, tmp_path / "x.db", "-q"),
                                    env={"OPENAI_API_KEY": "sk-test"})
        assert result.exit_code == 2, result.output
        line = result.output.strip()
        assert line.count("\n") == 0 and "cannot connect to the judge endpoint" in line
        assert "Traceback" not in result.output


def test_a_dead_endpoint_trips_the_breaker_and_resume_finishes(tmp_path: Path) -> None:
    data = _data(tmp_path / "d.jsonl", 12)
    db = tmp_path / "dead.db"
    state = {"dead": True}

    def handler(request: dict[str, Any], n: int) -> ScriptedReply:
        return ScriptedReply.chat(GOOD_JUDGMENT, delay_s=5 if state["dead"] else 0)

    env = {"OPENAI_API_KEY": "sk-test"}
    with ScriptedServer(handler) as server:
        result = CliRunner().invoke(cli, llm_eval_args(
            data, server.base_url, db, "-q", "--timeout", "1", "--concurrency", "2"), env=env)
        asked = server.count
        assert result.exit_code == 2, result.output
        assert "answered no call" in result.output and server.base_url in result.output
        assert "--resume" in result.output
        assert asked <= 2 * 5  # the two calls in flight, with their retries, then the stop
        with Store(db, readonly=True) as store:
            run = store.list_runs()[0]
            assert run.status != "complete" and store.count_results(run.id) == 0
        state["dead"] = False  # the endpoint is fixed
        result = CliRunner().invoke(cli, ["eval", str(data), "--resume", run.id, "--db",
                                          str(db), "-q"], env=env)
    assert result.exit_code == 0, result.output
    with Store(db, readonly=True) as store:
        values = [r.results[0].value for r in store.iter_results(run.id)]
        assert store.get_run(run.id).status == "complete"
    assert len(values) == 12 and all(v is not None for v in values)


def test_the_breaker_trips_after_calls_fail_in_a_row(tmp_path: Path) -> None:
    data = _data(tmp_path / "d.jsonl", 12)
    db = tmp_path / "breaker.db"

    def handler(request: dict[str, Any], n: int) -> ScriptedReply:
        if n < 2:
            return ScriptedReply.chat(GOOD_JUDGMENT)
        return ScriptedReply.error(503, "overloaded")

    with ScriptedServer(handler) as server:
        result = CliRunner().invoke(cli, llm_eval_args(
            data, server.base_url, db, "-q", "--concurrency", "1"),
            env={"OPENAI_API_KEY": "sk-test"})
        asked = server.count
    assert result.exit_code == 2, result.output
    assert "failed 3 calls in a row" in result.output and "HTTP 503" in result.output
    assert asked < 12 * 5
    with Store(db, readonly=True) as store:
        run = store.list_runs()[0]
        saved = [r.results[0].value for r in store.iter_results(run.id)]
    assert saved[:2] == [7.0, 7.0] and len(saved) == 4  # two scored, two unscored, stop


def _every_suite(request: dict[str, Any], n: int) -> ScriptedReply:
    """Valid replies for the judge, trace and ragas prompts."""
    from benches.valid_replies import reply_for

    messages = request["messages"]
    system, last = messages[0]["content"], messages[-1]["content"]
    if "TRACe" in system:
        answer_keys = sorted(set(re.findall(r"^([a-z]{1,3}): ", last, re.M)))
        return ScriptedReply.chat(json.dumps({
            "relevant_keys": ["0a"], "utilized_keys": ["0a"], "overall_supported": True,
            "sentences": [{"key": k, "supported": True} for k in answer_keys]}))
    if is_judge_scores(system):
        return ScriptedReply.chat(json.dumps(judge_scores(request)))
    return ScriptedReply.chat(json.dumps(reply_for(messages)))


def test_every_suite_at_the_default_concurrency(tmp_path: Path) -> None:
    """The first answer-relevancy score used to import the embedder on a worker thread
    while the SDK imported on the main thread (AttributeError: partially initialized
    module 'httpx'); the runner now builds what the run needs before it fans out."""
    data = _data(tmp_path / "d.jsonl", 24)
    db = tmp_path / "all.db"
    script = tmp_path / "run.py"
    script.write_text(  # a fresh interpreter: nothing imported yet, as in the CLI
        "import sys\nfrom ragassay.cli import main\nsys.argv = sys.argv[1:]\nmain()\n")
    with ScriptedServer(_every_suite) as server:
        proc = subprocess.run(
            [sys.executable, str(script), "ragassay", "eval", str(data), "--judge",
             "openai:x", "--base-url", server.base_url, "--metrics", "all", "--db", str(db),
             "-q"], capture_output=True, text=True, timeout=600,
            env={**os.environ, "OPENAI_API_KEY": "sk-test", "HF_HUB_OFFLINE": "1"})
    assert proc.returncode == 0, proc.stderr[-2000:]
    with Store(db, readonly=True) as store:
        results = list(store.iter_results(store.list_runs()[0].id))
    assert len(results) == 24 * 3
    unscored = [m for r in results for m in r.results if m.value is None
                and m.name not in ("trace.completeness",)]
    assert not unscored, unscored[:3]


def test_unscored_values_are_counted_on_stderr_and_all_failed_exits_1(tmp_path: Path) -> None:
    """Every call refused with a 400 (not an endpoint fault: no stop) unscores every
    value: the run says so on stderr under -q and exits 1."""
    data = _data(tmp_path / "d.jsonl", 3)
    with ScriptedServer(lambda req, n: ScriptedReply.error(400, "input too long")) as server:
        result = CliRunner().invoke(cli, llm_eval_args(data, server.base_url,
                                                       tmp_path / "f.db", "-q"),
                                    env={"OPENAI_API_KEY": "sk-test"})
    assert result.exit_code == 1, result.output
    lines = result.stderr.strip().splitlines()
    # trial 82: the line names the metrics the values are of, the top two by count
    assert re.match(r"15 values unscored, \S+ \(\d+\) and \S+ \(\d+\)( of \d+ metrics)?: "
                    r"judge call failed: HTTP 400: input too long \(15\)", lines[0]), lines[0]
    assert lines[-1].startswith("error: every judge call of run ")
    with Store(tmp_path / "f.db", readonly=True) as store:  # listed as failed, not complete
        assert store.list_runs()[0].status == "failed"


def test_a_partly_unscored_run_says_how_many_and_why(tmp_path: Path) -> None:
    def handler(request: dict[str, Any], n: int) -> ScriptedReply:
        if "setting 0 do" in json.dumps(request):
            return ScriptedReply.chat("not json")
        return ScriptedReply.chat(GOOD_JUDGMENT)

    data = _data(tmp_path / "d.jsonl", 3)
    with ScriptedServer(handler) as server:
        result = CliRunner().invoke(cli, llm_eval_args(data, server.base_url,
                                                       tmp_path / "p.db", "-q"),
                                    env={"OPENAI_API_KEY": "sk-test"})
    assert result.exit_code == 0, result.output
    assert re.match(r"5 (\S+ values unscored|values unscored, [^:]+): unparseable reply",
                    result.stderr), result.stderr


def test_a_huge_answer_is_cut_to_the_budget_before_it_reaches_the_judge(tmp_path: Path) -> None:
    row = {"id": "big", "question": "What does it do? " * 50_000,
           "contexts": ["It controls the buffer."], "answer": "It controls it. " * 1_250_000,
           "reference": "The buffer."}  # a 20 MB answer and a 850 kB question
    data = tmp_path / "big.jsonl"
    data.write_text(json.dumps(row) + "\n")
    sizes: list[int] = []

    def handler(request: dict[str, Any], n: int) -> ScriptedReply:
        sizes.append(len(json.dumps(request)))
        return ScriptedReply.chat(GOOD_JUDGMENT)

    db = tmp_path / "big.db"
    with ScriptedServer(handler) as server:
        result = CliRunner().invoke(cli, llm_eval_args(data, server.base_url, db, "-q"),
                                    env={"OPENAI_API_KEY": "sk-test"})
    assert result.exit_code == 0, result.output
    assert sizes and max(sizes) < 200_000  # the 6000-token budget, not 20 MB
    with Store(db, readonly=True) as store:
        (res,) = list(store.iter_results(store.list_runs()[0].id))
    assert res.results[0].truncated == ("answer", "question")
