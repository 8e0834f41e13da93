"""`ragassay.evaluate(..., batch=...)`: the provider's batch API from Python as `eval
--batch` uses it (against the loopback fake of OpenAI's batch endpoints): the same
scores as direct calls, no direct call, half the price; a bad value refused before the
run."""

from __future__ import annotations

from pathlib import Path

import pytest

import ragassay
from ragassay.runner import BatchOptions
from tests.support.batch_server import BatchServer
from tests.support.judge_replies import content_replies, shaped_rows


def _scores(result: ragassay.EvalResult) -> dict[str, object]:
    return {e.id: e.metrics for e in result.report().detailed_results}


def test_evaluate_sends_the_calls_as_a_batch(tmp_path: Path) -> None:
    data = shaped_rows(tmp_path / "d.jsonl", 4)
    common = {"metrics": "judge", "judge": "openai:gpt-4o-mini", "price_in": 2.0,
              "price_out": 8.0}
    with BatchServer(content_replies) as server:
        direct = ragassay.evaluate(str(data), store=tmp_path / "d.db",
                                   base_url=server.base_url, **common)
        sent_directly = len(server.direct)
        batch = ragassay.evaluate(str(data), store=tmp_path / "b.db",
                                  base_url=server.base_url,
                                  batch=BatchOptions(poll_s=0.01), **common)
        assert len(server.direct) == sent_directly  # not one direct call
        assert [b.status for b in server.created()] == ["completed"]
    assert _scores(batch) == _scores(direct)
    d, b = direct.report().usage, batch.report().usage
    assert b.calls == d.calls and b.batch is not None and d.batch is None
    assert b.cost_usd == pytest.approx(d.cost_usd / 2, abs=2e-6)


def test_a_bad_batch_value_is_refused_before_the_run(tmp_path: Path) -> None:
    data = shaped_rows(tmp_path / "d.jsonl", 2)
    with pytest.raises(ValueError, match="batch must be True or a BatchOptions"):
        ragassay.evaluate(str(data), judge="openai:gpt-4o-mini", store=tmp_path / "x.db",
                          base_url="http://127.0.0.1:9/v1", batch="yes")
