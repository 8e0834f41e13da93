"""Several `--base-url`s with the local engine: spread, one down left out, said once."""

from __future__ import annotations

import json
from pathlib import Path

from click.testing import CliRunner

from ragassay.cli import cli
from ragassay.store import Store
from tests.support.cli import llm_eval_args
from tests.support.faults import FaultServer
from tests.support.scripted_server import ScriptedReply, ScriptedServer


def _data(path: Path, n: int = 12) -> Path:
    path.write_text("".join(json.dumps({
        "id": f"e{i}", "question": f"Endpoint question {i}?", "contexts": [f"Fact {i}."],
        "answer": f"Answer {i}.", "reference": f"Fact {i}."}) + "\n" for i in range(n)))
    return path


def test_one_endpoint_down_is_left_out_and_said_once(tmp_path: Path) -> None:
    data, db = _data(tmp_path / "d.jsonl"), tmp_path / "r.db"
    with ScriptedServer(lambda req, n: ScriptedReply.error(502, "bad gateway")) as down, \
            FaultServer() as good:
        result = CliRunner().invoke(cli, [*llm_eval_args(data, down.base_url, db, "-q"),
                                          "--base-url", good.base_url, "--concurrency", "4"],
                                    env={"OPENAI_API_KEY": "sk-test"})
        urls = (down.base_url, good.base_url)
        assert good.count == 12
    assert result.exit_code == 0, result.output
    lines = [line for line in result.output.splitlines() if line.startswith("note: ")]
    assert len(lines) == 1 and lines[0].startswith(
        f"note: judge endpoint {urls[0]} left out (the judge endpoint {urls[0]} answered no "
        "call (first failure: HTTP 502")
    assert lines[0].endswith("; 1 of 2 still in use")
    with Store(db, readonly=True) as store:
        run = store.latest_run()
        assert run is not None and run.config.base_urls == urls
        assert run.config.base_url == urls[0]
        values = [v for r in store.iter_results(run.id) for v in r.results]
    assert len(values) == 12 * 5 and all(m.value is not None for m in values)


def test_every_base_url_is_checked_for_credentials(tmp_path: Path) -> None:
    data = _data(tmp_path / "d.jsonl", 1)
    result = CliRunner().invoke(cli, [*llm_eval_args(data, "http://127.0.0.1:9/v1",
                                                     tmp_path / "r.db"),
                                      "--base-url", "http://u:secret@127.0.0.1:9/v1"])
    assert result.exit_code == 2
    assert result.output.startswith("error: --base-url http://127.0.0.1:9/v1 carries "
                                    "credentials")
    assert "secret" not in result.output


def test_resume_with_other_endpoints_says_which_are_used(tmp_path: Path) -> None:
    data, db = _data(tmp_path / "d.jsonl", 4), tmp_path / "r.db"
    with FaultServer() as one, FaultServer() as two, FaultServer() as three:
        first = CliRunner().invoke(cli, llm_eval_args(data, one.base_url, db, "-q"),
                                   env={"OPENAI_API_KEY": "sk-test"})
        assert first.exit_code == 0, first.output
        with Store(db, readonly=True) as store:
            run = store.latest_run()
        assert run is not None
        again = CliRunner().invoke(cli, ["eval", str(data), "--resume", run.id, "--db", str(db),
                                         "--base-url", two.base_url, "--base-url",
                                         three.base_url, "-q"],
                                   env={"OPENAI_API_KEY": "sk-test"})
        assert again.exit_code == 0, again.output
        assert (f"resuming run {run.id} against --base-url {two.base_url} {three.base_url} "
                f"(it was started with {one.base_url})") in again.output


def test_the_python_api_spreads_calls_over_a_list_of_base_urls(tmp_path: Path,
                                                                monkeypatch) -> None:
    import ragassay

    monkeypatch.setenv("OPENAI_API_KEY", "sk-test")
    rows = [json.loads(line) for line in _data(tmp_path / "d.jsonl").read_text().splitlines()]
    with FaultServer() as one, FaultServer() as two:
        result = ragassay.evaluate(rows, "judge", "openai:gpt-4o-mini", store=tmp_path / "r.db",
                                   base_url=[one.base_url, two.base_url], concurrency=4)
        assert one.count > 0 and two.count > 0 and one.count + two.count == 12
        urls = (one.base_url, two.base_url)
    run = Store(tmp_path / "r.db", readonly=True).get_run(result.run_id)
    assert run.config.base_urls == urls
    assert result.to_pandas()["judge.faithfulness"].notna().all()
