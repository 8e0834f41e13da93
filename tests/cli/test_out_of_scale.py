"""An LLM judge's rating outside its scale (issue #38 item 6), through `ragassay eval`:
faithfulness 99 on 1-10 is an invalid reply, asked once more, then unscored with the
reason, never clamped to 10; the run counts it as suspicious and says so."""

from __future__ import annotations

import json
from pathlib import Path

from click.testing import CliRunner, Result

from ragassay.cli import cli
from tests.support.faults import fenced
from tests.support.scripted_server import ScriptedReply, ScriptedServer

ENV = {"OPENAI_API_KEY": "sk-test", "COLUMNS": "200"}
OUT_OF_SCALE = {"context_relevance": 9, "answer_similarity": 9, "faithfulness": 99,
                "hallucination": False, "reasoning": "perfect"}
GOOD = {**OUT_OF_SCALE, "faithfulness": 9}


def _eval(tmp_path: Path, answers: dict[str, str], bad: str, reply: dict,
          reference: str | None = None) -> tuple[Result, int, dict]:
    """`ragassay eval` of one row per answer against the scripted judge, which sends
    `reply` for an answer holding `bad` and GOOD otherwise: (result, calls, report)."""
    data, out = tmp_path / "d.jsonl", tmp_path / "r.json"
    data.write_text("".join(json.dumps({
        "id": sid, "question": "How long do refunds take?", "answer": answer,
        "contexts": ["Refunds take 30 days."],
        **({"reference": reference} if reference else {})}) + "\n"
        for sid, answer in answers.items()))

    def judge(req: dict, n: int) -> ScriptedReply:
        wrong = bad in (fenced(req, "ANSWER") or "")
        return ScriptedReply.chat(json.dumps(reply if wrong else GOOD))

    with ScriptedServer(judge) as server:
        result = CliRunner().invoke(cli, [
            "eval", str(data), "--judge", "openai:x", "--base-url", server.base_url,
            "--metrics", "judge", "--db", str(tmp_path / "s.db"), "--out", str(out),
            "--no-cache"], env=ENV)
        asked = server.count
    assert result.exit_code == 0, result.output
    return result, asked, json.loads(out.read_text())


def test_a_rating_of_99_is_unscored_suspicious_and_counted(tmp_path: Path) -> None:
    result, asked, report = _eval(tmp_path, {"s1": "Refunds take 90 days.",
                                             "s2": "Refunds take 30 days."},
                                  "90 days", OUT_OF_SCALE, reference="30 days.")
    assert asked == 3  # s1's reply, then one repair; s2's reply
    row = next(r for r in report["detailed_results"] if r["id"] == "s1")
    assert row["metrics"]["judge.faithfulness"] is None  # never clamped to 10
    assert row["unscored"]["judge.faithfulness"] == (
        "invalid reply: faithfulness: 99 is outside the scale 1-10")
    assert report["evaluation_metadata"]["suspicious_replies"] == 1
    assert "warning: 1 judged sample got a suspicious judge reply" in result.stderr
    assert "a rating outside its scale" in result.stderr


def test_every_field_outside_the_scale_is_named_and_a_missing_reference_says_so(
        tmp_path: Path) -> None:
    """Trial 51: a reply rating every metric 99 named only faithfulness, and a sample
    without a reference had the reply's reason for answer_similarity instead of "no
    reference answer"."""
    all_99 = {**OUT_OF_SCALE, "context_relevance": 99, "answer_similarity": 99}
    _, _, report = _eval(tmp_path, {"s": "Refunds take 30 days.", "ok": "Refunds take a month."},
                         "30 days", all_99)
    unscored = next(r for r in report["detailed_results"] if r["id"] == "s")["unscored"]
    assert unscored["judge.answer_similarity"] == "no reference answer"
    for metric in ("judge.context_relevance", "judge.faithfulness", "judge.hallucination"):
        assert unscored[metric] == (
            "invalid reply: faithfulness: 99 is outside the scale 1-10 (also "
            "context_relevance, answer_similarity)"), metric
