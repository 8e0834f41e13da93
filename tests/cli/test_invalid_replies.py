"""An LLM reply that judges nothing is an invalid reply, never a 0 (trial 50, issue #38
item 6's rule beyond the ratings), through `ragassay eval` against a scripted server on
loopback: a ragas context reply naming chunk 99 of 2, or no chunk; a trace reply whose
keys all name nothing; a 1-10 rating of 9.5 where the schema says integer. Each is asked
once more with the problem named, then unscored with "invalid reply: ...", the prompt
and raw reply kept; a reply that judges some and names one unknown stays scored."""

from __future__ import annotations

import json
from pathlib import Path

from click.testing import CliRunner

from ragassay.cli import cli
from tests.support.scripted_server import ScriptedReply, ScriptedServer

ENV = {"OPENAI_API_KEY": "sk-test", "COLUMNS": "200"}
ROW = {"id": "s1", "question": "How much do students pay?",
       "contexts": ["Students pay 9 EUR for admission.", "The museum is closed on Mondays."],
       "answer": "Students pay 9 EUR."}
CHUNKS_OK = {"chunks": [{"index": 0, "useful": True}, {"index": 1, "useful": False}],
             "reference_sentences": []}
TRACE_OK = {"relevant_keys": ["0a"], "utilized_keys": ["0a"], "overall_supported": True,
            "sentences": [{"key": "a", "supported": True, "supporting_keys": ["0a"]}],
            "abstains": False}
JUDGE_OK = {"context_relevance": 9, "answer_similarity": None, "faithfulness": 9,
            "hallucination": False, "abstains": False, "context_has_answer": True,
            "reasoning": "supported"}


def _run(tmp_path: Path, metrics: str, replies: list[dict]) -> tuple[dict, list[dict], str]:
    """Evaluate ROW with the scripted replies in order (the last one repeated); the
    sample's report row, the requests and stderr."""
    data, out = tmp_path / "d.jsonl", tmp_path / "r.json"
    data.write_text(json.dumps(ROW) + "\n")

    def script(req: dict, n: int) -> ScriptedReply:
        return ScriptedReply.chat(json.dumps(replies[min(n, len(replies) - 1)]))

    with ScriptedServer(script) as server:
        result = CliRunner().invoke(cli, [
            "eval", str(data), "--judge", "openai:x", "--base-url", server.base_url,
            "--metrics", metrics, "--db", str(tmp_path / "s.db"), "--out", str(out),
            "--no-cache"], env=ENV)
        requests = list(server.requests)
    assert result.exit_code in (0, 1), result.output
    report = json.loads(out.read_text())
    return report["detailed_results"][0] | {"_meta": report["evaluation_metadata"]}, \
        requests, result.stderr


def _repair_note(request: dict) -> str:
    return request["messages"][-1]["content"]


def test_a_chunk_index_that_names_no_chunk_is_an_invalid_reply(tmp_path: Path) -> None:
    bad = {"chunks": [{"index": 99, "useful": True}], "reference_sentences": []}
    row, requests, stderr = _run(tmp_path, "ragas.context_precision", [bad])
    assert len(requests) == 2  # the call, then one repair naming the problem
    why = ("invalid reply: chunks: the reply judges none of the 2 chunks shown (numbered "
           "0-1); it names 99")
    assert why in _repair_note(requests[1])
    assert row["metrics"]["ragas.context_precision"] is None  # not 0.0
    assert row["unscored"]["ragas.context_precision"] == why
    assert row["_meta"]["suspicious_replies"] == 1
    assert "suspicious judge reply" in stderr


def test_a_reply_that_labels_no_chunk_is_repaired(tmp_path: Path) -> None:
    empty = {"chunks": [], "reference_sentences": []}
    row, requests, _ = _run(tmp_path, "ragas.context_precision", [empty, CHUNKS_OK])
    assert len(requests) == 2
    assert "judges none of the 2 chunks shown" in _repair_note(requests[1])
    assert row["metrics"]["ragas.context_precision"] == 1.0  # from the repaired reply


def test_a_reply_that_judges_some_chunks_stays_scored(tmp_path: Path) -> None:
    some = {"chunks": [{"index": 0, "useful": True}, {"index": 7, "useful": True}],
            "reference_sentences": []}
    row, requests, _ = _run(tmp_path, "ragas.context_precision", [some])
    assert len(requests) == 1
    assert row["metrics"]["ragas.context_precision"] == 1.0
    assert row["details"]["ragas.context_precision"]["unknown_chunks"] == 1


def test_trace_keys_that_all_name_nothing_are_an_invalid_reply(tmp_path: Path) -> None:
    bad = {**TRACE_OK, "relevant_keys": ["9z"], "utilized_keys": ["9z"]}
    row, requests, _ = _run(tmp_path, "trace", [bad])
    assert len(requests) == 2
    why = ("invalid reply: relevant_keys: every key names no context sentence shown: 9z; "
           "the keys are 0a-1a (also utilized_keys)")
    assert why in _repair_note(requests[1])
    for name in ("context_relevance", "context_utilization", "adherence"):
        assert row["metrics"][f"trace.{name}"] is None, name
        assert row["unscored"][f"trace.{name}"] == why, name
    assert row["_meta"]["suspicious_replies"] == 1


def test_trace_sentence_labels_that_judge_no_answer_sentence_are_invalid(tmp_path: Path
                                                                         ) -> None:
    bad = {**TRACE_OK, "sentences": [{"key": "q", "supported": True}]}
    row, requests, _ = _run(tmp_path, "trace", [bad, TRACE_OK])
    assert len(requests) == 2
    assert "judges none of the answer's sentences: q" in _repair_note(requests[1])
    assert row["metrics"]["trace.adherence_ratio"] == 1.0


def test_trace_keys_some_known_stay_scored(tmp_path: Path) -> None:
    some = {**TRACE_OK, "relevant_keys": ["0a", "9z"]}
    row, requests, _ = _run(tmp_path, "trace", [some])
    assert len(requests) == 1
    assert row["metrics"]["trace.context_relevance"] > 0
    assert row["details"]["trace.context_relevance"]["unknown_keys"] == 1


def test_a_fractional_rating_is_an_invalid_reply_not_a_suspicious_one(tmp_path: Path) -> None:
    row, requests, _ = _run(tmp_path, "judge", [{**JUDGE_OK, "faithfulness": 9.5}])
    assert len(requests) == 2
    why = ("invalid reply: faithfulness: 9.5 is not a whole number (the scale 1-10 takes "
           "integers)")
    assert why in _repair_note(requests[1])
    assert row["metrics"]["judge.faithfulness"] is None
    assert row["unscored"]["judge.faithfulness"] == why
    assert row["_meta"]["suspicious_replies"] == 0  # a slip, not a reply told to lie
    # a whole number written as a float is a whole number
    (tmp_path / "b").mkdir()
    row, requests, _ = _run(tmp_path / "b", "judge", [{**JUDGE_OK, "faithfulness": 9.0}])
    assert len(requests) == 1 and row["metrics"]["judge.faithfulness"] == 9.0
