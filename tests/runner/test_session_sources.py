"""The run session for the features that came after it (issue #37's rules on #40, #42,
#43): a provider batch run and the monitor's live run are planned by `plan_run` like any
other run, and `eval --format` is a setting the session stores and checks on resume."""

from __future__ import annotations

import asyncio
from pathlib import Path

import pytest

from ragassay.dataset import dataset_fingerprint
from ragassay.runner import (
    PYTHON_NAMES,
    BatchOptions,
    FileSource,
    LiveSource,
    RayOptions,
    RunRefused,
    RunRequest,
    execute,
    open_feed,
    plan_run,
)
from ragassay.store import Store
from ragassay.types import RunConfig, Sample
from tests.support.cli import settings_data


def _sample(i: int) -> Sample:
    return Sample(id=f"t{i}", question=f"What does setting {i} do?",
                  contexts=(f"Setting {i} controls buffer {i}.",),
                  answer=f"It controls buffer {i}.")


def test_a_live_run_is_planned_then_fed(tmp_path: Path) -> None:
    """The monitor's run: planned (no data to check first), fed batch by batch, closed;
    a resume with another judge is refused as any resume is; a live plan is not executed."""
    with Store(tmp_path / "m.db") as store:
        plan = plan_run(RunRequest(LiveSource("monitor:web"), store, metrics="judge",
                                   kind="monitor", names=PYTHON_NAMES))
        with pytest.raises(ValueError, match="fed, not executed"):
            execute(plan)
        feed = open_feed(plan)

        async def fed() -> None:
            await feed.score([_sample(0), _sample(1)])
            await feed.score([_sample(2)])
            await feed.close("interrupted")

        asyncio.run(fed())
        run = store.get_run(feed.run_id)
        assert (run.config.kind, run.config.dataset, run.status) == (
            "monitor", "monitor:web", "interrupted")
        assert store.count_samples(run.id) == 3
        with pytest.raises(RunRefused, match=f"run {run.id} was evaluated with judge offline"):
            plan_run(RunRequest(LiveSource("monitor:web"), store, judge="openai:x",
                                resume=run.id, names=PYTHON_NAMES))
        with pytest.raises(RunRefused, match="evaluated monitor:web, not monitor:other"):
            plan_run(RunRequest(LiveSource("monitor:other"), store, resume=run.id))
        again = open_feed(plan_run(RunRequest(LiveSource("monitor:web"), store,
                                              resume=run.id)))
        asyncio.run(again.score([_sample(3)]))
        asyncio.run(again.close("complete"))
        assert again.run_id == run.id and store.count_samples(run.id) == 4


def test_a_batch_run_is_refused_where_it_cannot_work(tmp_path: Path) -> None:
    data = settings_data(tmp_path / "d.jsonl", 2)
    with Store(tmp_path / "b.db") as store:
        with pytest.raises(RunRefused, match="--batch needs an LLM judge with a batch API"):
            plan_run(RunRequest(FileSource(data), store, batch=BatchOptions()))
        with pytest.raises(RunRefused, match=r"batch and engine='ray' do not go together"):
            plan_run(RunRequest(FileSource(data), store, judge="openai:x",
                                batch=BatchOptions(), engine=RayOptions(),
                                names=PYTHON_NAMES))
        assert plan_run(RunRequest(FileSource(data), store, judge="openai:x")).batch is None


def test_a_resumed_batch_run_keeps_its_stored_options(tmp_path: Path) -> None:
    """A resume of a batch run goes on through batches without asking again, with the
    options it stored; options given now go over them, `detach` is never kept."""
    data = settings_data(tmp_path / "d.jsonl", 2)
    with Store(tmp_path / "b.db") as store:
        run_id = store.create_run(RunConfig(dataset=str(data), judge="openai:x"),
                                  package_version="0",
                                  dataset_hash=dataset_fingerprint(data), judge_model="x")
        store.finish_run(run_id, "interrupted")
        store.set_batch_options(run_id, BatchOptions(poll_s=5, detach=True).stored())
        plan = plan_run(RunRequest(FileSource(data), store, resume=run_id))
        assert plan.batch == BatchOptions(poll_s=5)
        plan = plan_run(RunRequest(FileSource(data), store, resume=run_id,
                                   batch=BatchOptions(max_requests=3, detach=True)))
        assert plan.batch == BatchOptions(poll_s=5, max_requests=3, detach=True)


def test_the_reading_of_a_file_is_stored_and_checked_on_resume(tmp_path: Path) -> None:
    """`eval --format` (`FileSource.read_as`) is stored with the run; a resume reads the
    file the same way, and one given otherwise is refused."""
    data = settings_data(tmp_path / "d.jsonl", 2)
    with Store(tmp_path / "r.db") as store:
        outcome = execute(plan_run(RunRequest(FileSource(data, read_as="rows"), store,
                                              metrics="judge")))
        assert store.get_run(outcome.run_id).config.read_as == "rows"
        with pytest.raises(RunRefused, match="was evaluated with --format rows"):
            plan_run(RunRequest(FileSource(data, read_as="traces"), store,
                                resume=outcome.run_id))
        plan = plan_run(RunRequest(FileSource(data), store, resume=outcome.run_id))
        assert plan.config.read_as == "rows"


def test_a_column_named_as_a_label_but_not_read_as_one_is_said(tmp_path: Path) -> None:
    """Trial 48: a plain `hallucination` column was kept as metadata without a word; the
    plan says how to name it, and a column of the user's own is not mentioned."""
    data = tmp_path / "h.csv"
    data.write_text("id,question,contexts,answer,hallucination,team\n"
                    "a1,What is X?,X is 5.,X is 5.,false,blue\n")
    with Store(tmp_path / "h.db") as store:
        plan = plan_run(RunRequest(FileSource(data), store, metrics="judge"))
    said = [n.text for n in plan.notes if n.kind == "label-column"]
    assert said == ["note: column 'hallucination' is not read as a human label (kept as "
                    "metadata): name it labels.hallucination to compare the judge with it"]
