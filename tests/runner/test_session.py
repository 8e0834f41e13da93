"""The run session owns a run's life for every front end: the same checks before a run
(a resume refused when the data changed, or another judge, suites or column map are
given), the same end-of-run rules (every judge call failed: the run is `failed`), seen
through the real CLI and through `ragassay.evaluate` alike (issue #37)."""

from __future__ import annotations

import json
import warnings
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner

import ragassay
from ragassay.cli import cli
from ragassay.runner import RunRefused
from ragassay.store import Store
from tests.support.cli import settings_data
from tests.support.faults import judge_scores
from tests.support.scripted_server import ScriptedReply, ScriptedServer

pytestmark = pytest.mark.timeout(300)
ENV = {"OPENAI_API_KEY": "sk-test"}
FRONTS = ("cli", "python")


@pytest.fixture(autouse=True)
def _key(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("OPENAI_API_KEY", "sk-test")


def _run(front: str, data: Path, db: Path, *, judge: str | None = None,
         base_url: str | None = None, metrics: str | None = None,
         resume: str | None = None, field_map: dict[str, str] | None = None
         ) -> tuple[str | None, str]:
    """One evaluation through a front end: (the run's id, or None when refused; the error
    line or the warnings said)."""
    if front == "cli":
        args = ["eval", str(data), "--db", str(db), "-q"]
        args += ["--judge", judge] if judge else []
        args += ["--base-url", base_url] if base_url else []
        args += ["--metrics", metrics] if metrics else []
        args += ["--resume", resume] if resume else []
        for field, column in (field_map or {}).items():
            args += ["--map", f"{field}={column}"]
        result = CliRunner().invoke(cli, args, env=ENV)
        said = result.stderr.strip().splitlines()[-1] if result.stderr.strip() else ""
        if result.exit_code == 2:
            return None, said.removeprefix("error: ")
        with Store(db, readonly=True) as store:
            run_id = resume or store.list_runs()[0].id
        return run_id, said.removeprefix("error: ")
    options: dict[str, Any] = {"base_url": base_url} if base_url else {}
    if field_map:
        options["field_map"] = field_map
    try:
        with warnings.catch_warnings(record=True) as caught:
            warnings.simplefilter("always")
            result = ragassay.evaluate(str(data), metrics, judge, store=db, resume=resume,
                                       progress=False, **options)
    except RunRefused as exc:
        return None, str(exc)
    return result.run_id, " ".join(str(w.message) for w in caught)


def _status(db: Path, run_id: str) -> str:
    with Store(db, readonly=True) as store:
        return store.get_run(run_id).status


@pytest.mark.parametrize("front", FRONTS)
def test_a_changed_dataset_is_refused_on_resume(front: str, tmp_path: Path) -> None:
    data, db = settings_data(tmp_path / "d.jsonl", 3), tmp_path / "r.db"
    run_id, _ = _run(front, data, db, metrics="judge")
    assert run_id is not None and _status(db, run_id) == "complete"
    with data.open("a") as fh:
        fh.write(json.dumps({"question": "q?", "contexts": ["c"], "answer": "a"}) + "\n")
    refused, said = _run(front, data, db, resume=run_id)
    assert refused is None
    assert said.startswith(f"{data} changed since run {run_id} started: its finished "
                           "judgments are of the old rows; start a new run (without ")
    with Store(db, readonly=True) as store:
        assert len(store.list_runs()) == 1 and store.count_samples(run_id) == 3


@pytest.mark.parametrize("front", FRONTS)
@pytest.mark.parametrize("given, stored", [
    ({"judge": "openai:other"}, "judge offline"),
    ({"metrics": "trace"}, "metrics judge"),
    ({"field_map": {"answer": "response"}}, "no"),
])
def test_a_resume_with_other_settings_is_refused(front: str, given: dict[str, Any],
                                                 stored: str, tmp_path: Path) -> None:
    """Another judge, other suites or another column map would mix two runs' judgments;
    settings left out reuse the run's."""
    data, db = settings_data(tmp_path / "d.jsonl", 3), tmp_path / "r.db"
    run_id, _ = _run(front, data, db, metrics="judge")
    assert run_id is not None
    refused, said = _run(front, data, db, resume=run_id, **given)
    assert refused is None and said.startswith(f"run {run_id} was evaluated with ")
    assert stored.split()[-1] in said and "which reuses it" in said
    again, _ = _run(front, data, db, resume=run_id)  # left out: the run's own
    assert again == run_id and _status(db, run_id) == "complete"


@pytest.mark.parametrize("front", FRONTS)
def test_a_run_whose_every_call_failed_is_recorded_failed(front: str, tmp_path: Path) -> None:
    """Every call refused with a 400 (a content failure, so the run is not stopped):
    the run is `failed`, not complete, and says how to judge its calls again."""
    data, db = settings_data(tmp_path / "d.jsonl", 3), tmp_path / "f.db"
    with ScriptedServer(lambda req, n: ScriptedReply.error(400, "input too long")) as server:
        run_id, said = _run(front, data, db, judge="openai:x", base_url=server.base_url,
                            metrics="judge")
    assert run_id is not None and _status(db, run_id) == "failed"
    assert said.startswith(f"every judge call of run {run_id} failed (3 calls): fix the "
                           "judge, then judge them again with ")
    assert ("--resume" if front == "cli" else "resume=") in said


def test_evaluate_resumes_and_judges_again_what_failed(tmp_path: Path) -> None:
    """`ragassay.evaluate(..., resume=, retry_failed=)`: a finished run's judgments that
    failed for the endpoint's sake are judged again, the others are not asked again."""
    data, db = settings_data(tmp_path / "d.jsonl", 4), tmp_path / "r.db"
    asked: list[str] = []
    down = {"on": True}

    def handler(request: dict[str, Any], n: int) -> ScriptedReply:
        text = json.dumps(request)
        asked.append(next(f"s{i}" for i in range(9) if f"setting {i} do" in text))
        if down["on"] and "setting 2 do" in text:
            return ScriptedReply.error(503, "overloaded")
        return ScriptedReply.chat(json.dumps(judge_scores(request)))

    with ScriptedServer(handler) as server:
        options = {"base_url": server.base_url}
        first = ragassay.evaluate(str(data), "judge", "openai:x", store=db, progress=False,
                                  concurrency=1, **options)
        assert first.status == "complete" and any("s2" in a for a in asked)
        assert any("failed for the endpoint's sake" in f for f in first.findings)
        down["on"], asked[:] = False, []
        again = ragassay.evaluate(str(data), store=db, resume=first.run_id,
                                  retry_failed="transport", progress=False, **options)
    assert again.run_id == first.run_id and set(asked) == {"s2"}
    assert again.notes == ["judging again 1 judgment that failed for the endpoint's sake "
                           "(no connection, timeout, 429, 5xx)"]
    frame = again.to_pandas()
    assert frame["judge.overall"].notna().all()


def test_the_engine_refuses_to_resume_with_another_judge(tmp_path: Path) -> None:
    """Below the session, the runner holds the same line: `runner.evaluate(resume=)` with
    another config than the run's is refused, not mixed."""
    from ragassay.dataset import iter_samples
    from ragassay.runner import evaluate
    from ragassay.types import RunConfig

    data = settings_data(tmp_path / "d.jsonl", 2)
    with Store(tmp_path / "r.db") as store:
        stats = evaluate(iter_samples(data), RunConfig(dataset=str(data), metrics=("judge",)),
                         store=store)
        other = RunConfig(dataset=str(data), metrics=("judge",), judge="openai:x")
        with pytest.raises(RunRefused, match="another judge"):
            evaluate(iter_samples(data), other, store=store, resume=stats.run_id)
        assert store.count_results(stats.run_id) == 2
