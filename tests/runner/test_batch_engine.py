"""The batch engine (`runner.batch_engine`) one level below the CLI: what is stored
before each step at the provider, so that a run stopped between any two of them resumes
without submitting a call twice; the spool at the provider's real limits."""

from __future__ import annotations

from pathlib import Path

import pytest

from ragassay.dataset import iter_samples
from ragassay.judge import JudgeAborted
from ragassay.llm.openai_batches import OpenAIBatches
from ragassay.llm.wire import JudgeRequest, Message
from ragassay.runner import evaluate
from ragassay.runner.batch_calls import Spool
from ragassay.runner.batch_engine import BatchOptions
from ragassay.store import Store
from ragassay.types import BackendOptions, RunConfig
from tests.support.batch_server import BatchServer
from tests.support.judge_replies import content_replies, shaped_rows

FAST = BatchOptions(poll_s=0.01)


def _config(server: BatchServer, data: Path) -> RunConfig:
    return RunConfig.build(str(data), urls=server.base_url, judge="openai:gpt-4o-mini",
                           metrics=("judge",), timeout_s=5)


def _run(server: BatchServer, data: Path, store: Store, resume: str | None = None) -> str:
    stats = evaluate(iter_samples(data), _config(server, data), store=store, resume=resume,
                     batch=FAST)
    return stats.run_id


@pytest.fixture(autouse=True)
def _key(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("OPENAI_API_KEY", "sk-batch-test")


def test_a_batch_stopped_before_its_upload_is_abandoned_and_sent_once(tmp_path: Path) -> None:
    """The upload fails: the run stops with one line, its batch stored (the calls it was
    to hold) but never sent; the resume drops it and submits those calls, once."""
    data = shaped_rows(tmp_path / "d.jsonl", 3)
    with Store(tmp_path / "s.db") as store, BatchServer(content_replies) as server:
        server.refuse_uploads = 1
        with pytest.raises(JudgeAborted, match="upload refused"):
            _run(server, data, store)
        run = store.latest_run()
        assert run is not None and run.status == "failed"
        (stuck,) = store.batches(run.id)
        assert (stuck.status, stuck.input_file, stuck.requests) == ("preparing", None, 3)
        _run(server, data, store, resume=run.id)
        assert [b.status for b in store.batches(run.id)] == ["abandoned", "completed"]
        assert len(server.created()) == 1 and len(server.created()[0].lines) == 3
        assert store.get_run(run.id).status == "complete"
        assert store.count_results(run.id) == 3


def test_a_batch_uploaded_but_not_created_is_created_from_its_file(tmp_path: Path) -> None:
    """The create is refused after the upload: the file id is stored; the resume, finding
    no batch made from that file, creates it from the same file (no second upload)."""
    data = shaped_rows(tmp_path / "d.jsonl", 3)
    with Store(tmp_path / "s.db") as store, BatchServer(content_replies) as server:
        server.refuse_creates = 1
        with pytest.raises(JudgeAborted, match="create refused"):
            _run(server, data, store)
        run = store.latest_run()
        assert run is not None
        (stuck,) = store.batches(run.id)
        assert stuck.status == "uploaded" and stuck.input_file in server.files
        uploads = len(server.files)
        _run(server, data, store, resume=run.id)
        (done,) = store.batches(run.id)
        assert done.status == "completed" and done.input_file == stuck.input_file
        assert len(server.files) == uploads + 1  # + its output file, no second input
        assert server.creates == 2 and len(server.created()) == 1
        assert store.count_results(run.id) == 3


def _request(i: int) -> JudgeRequest:
    return JudgeRequest(messages=(Message(role="system", content="Grade it."),
                                  Message(role="user", content=f"Question {i}?")),
                        output_schema={"type": "object", "properties": {"a": {"type": "integer"}}},
                        max_tokens=300, prompt_name="judge.scores", prompt_version="1",
                        top_logprobs=5)


def test_the_provider_limits_split_120k_calls_into_3_batches(tmp_path: Path) -> None:
    """120,000 real batch lines through the spool at OpenAI's limits (50,000 requests,
    200 MB): 50,000 + 50,000 + 20,000, each file as large as its lines."""
    provider = OpenAIBatches("gpt-4o-mini", BackendOptions(base_url="http://127.0.0.1:9/v1"))
    assert (provider.limits.requests, provider.limits.bytes) == (50_000, 200_000_000)
    spool = Spool(provider, provider.limits)
    try:
        for i in range(120_000):
            spool.add(f"key-{i}", _request(i))
            spool.add(f"key-{i}", _request(i))  # the same call asked twice: once
        spool.close()
        assert [len(c.ids) for c in spool.chunks] == [50_000, 50_000, 20_000]
        assert [c.path.stat().st_size for c in spool.chunks] == [c.size for c in spool.chunks]
        assert len({i for c in spool.chunks for i in c.ids}) == 120_000
    finally:
        spool.remove()
    assert not spool.folder.exists()


