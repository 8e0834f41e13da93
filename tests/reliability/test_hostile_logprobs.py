"""Token probabilities come from the judge server: malformed ones (a byte outside 0-255,
a log-probability that is NaN or above 0) give no soft reading for that call, which is
read greedily with the reason recorded; never a crash, on a first run or on --resume
(issue #33, item 1)."""

from __future__ import annotations

import json
import math
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner
from hypothesis import given, settings
from hypothesis import strategies as st

from ragassay.cli import cli
from ragassay.llm.logprobs import SoftField, read_soft_values
from ragassay.llm.wire import TokenLogprob
from ragassay.store import Store
from tests.support.cli import llm_eval_args, settings_data
from tests.support.faults import judge_scores
from tests.support.logprobs import logprobs_content
from tests.support.scripted_server import ScriptedReply, ScriptedServer

pytestmark = pytest.mark.timeout(180)
ENV = {"OPENAI_API_KEY": "sk-test"}


def _spoil(entry: dict[str, Any], kind: str) -> None:
    if kind == "byte_high":
        entry["bytes"] = [999999]
    elif kind == "byte_negative":
        entry["bytes"] = [-1]
    elif kind == "logprob_nan":
        entry["logprob"] = math.nan
    elif kind == "logprob_huge":  # exp() of it overflows
        entry["top_logprobs"][0]["logprob"] = 1000.0
    else:
        raise AssertionError(kind)


def _malformed(kind: str) -> Any:
    def handler(request: dict[str, Any], n: int) -> ScriptedReply:
        text = json.dumps(judge_scores(request))
        content = logprobs_content(text, [])
        _spoil(content[1], kind)
        return ScriptedReply.chat(text, logprobs=content)
    return handler


@pytest.mark.parametrize("kind", ["byte_high", "byte_negative", "logprob_nan", "logprob_huge"])
def test_malformed_logprobs_are_read_greedily_with_the_reason(kind: str, tmp_path: Path) -> None:
    db = tmp_path / "m.db"
    with ScriptedServer(_malformed(kind)) as server:
        result = CliRunner().invoke(cli, llm_eval_args(settings_data(tmp_path / "d.jsonl", 3),
                                                       server.base_url, db, "-q"), env=ENV)
    assert result.exit_code == 0, repr(result.exception)
    with Store(db, readonly=True) as store:
        run = store.list_runs()[0]
        rows = list(store.iter_results(run.id))
    assert run.status == "complete" and len(rows) == 3
    for row in rows:
        faith = {m.name: m for m in row.results}["judge.faithfulness"]
        assert faith.value is not None and not math.isnan(faith.value)
        assert faith.rating.mode == "greedy"
        assert faith.rating.fallback.startswith("malformed token probabilities")


def test_resume_with_malformed_logprobs_finishes(tmp_path: Path) -> None:
    """A run stopped by a dead endpoint, resumed against one whose probabilities carry a
    byte of 999999: the resume finishes (it used to crash as the first run did)."""
    data = settings_data(tmp_path / "d.jsonl", 6)
    db = tmp_path / "r.db"
    state = {"dead": True}
    spoiled = _malformed("byte_high")

    def handler(request: dict[str, Any], n: int) -> ScriptedReply:
        if state["dead"]:
            return ScriptedReply.error(503, "overloaded")
        return spoiled(request, n)

    with ScriptedServer(handler) as server:
        first = CliRunner().invoke(cli, llm_eval_args(data, server.base_url, db, "-q",
                                                      "--concurrency", "1"), env=ENV)
        assert first.exit_code == 2, first.output
        with Store(db, readonly=True) as store:
            run_id = store.list_runs()[0].id
        state["dead"] = False
        result = CliRunner().invoke(cli, ["eval", str(data), "--resume", run_id, "--db",
                                          str(db), "-q"], env=ENV)
    assert result.exit_code == 0, repr(result.exception)
    with Store(db, readonly=True) as store:
        assert store.get_run(run_id).status == "complete"
        values = [r.results[0] for r in store.iter_results(run_id)]
    assert len(values) == 6 and all(v.value is not None for v in values)


_TOKENS = st.lists(st.builds(
    TokenLogprob, token=st.sampled_from(["{", '"faithfulness": ', "7", "1", "0", "}", " true"]),
    logprob=st.floats(allow_nan=True, allow_infinity=True),
    bytes=st.none() | st.lists(st.integers(-2**40, 2**40), max_size=4).map(tuple),
    top=st.lists(st.tuples(st.sampled_from(["7", "8", "1", "true", "x"]),
                           st.floats(allow_nan=True, allow_infinity=True)),
                 max_size=3).map(tuple)), max_size=6)


@settings(max_examples=300, deadline=None)
@given(tokens=_TOKENS)
def test_any_token_probabilities_give_a_reading_or_a_reason(tokens: list[TokenLogprob]) -> None:
    fields = {"faithfulness": SoftField("rating", 1, 10), "hallucination": SoftField("flag")}
    text = "".join(t.token for t in tokens)
    soft, why = read_soft_values(text, tokens, fields)
    assert bool(soft) != bool(why)
    for value in soft.values():
        assert math.isfinite(value.value)
