"""`ragassay bench` with an OpenAI-compatible judge and generator (the scripted server)."""

from __future__ import annotations

import json
import threading
from collections import Counter
from pathlib import Path
from typing import Any

from click.testing import CliRunner

from ragassay.cli import cli
from tests.support.faults import is_judge_scores
from tests.support.scripted_server import ScriptedReply

JUDGE = {"context_relevance": 8, "answer_similarity": 7, "faithfulness": 9,
         "hallucination": False, "reasoning": "ok"}


class Script:
    def __init__(self) -> None:
        self.lock = threading.Lock()
        self.kinds: Counter[str] = Counter()

    def __call__(self, request: dict[str, Any], n: int) -> ScriptedReply:
        system = request["messages"][0]["content"]
        kind = "judge" if is_judge_scores(system) else "generate"
        with self.lock:
            self.kinds[kind] += 1
        if kind == "judge":
            return ScriptedReply.chat(json.dumps(JUDGE), usage=(300, 40))
        return ScriptedReply.chat("Employees get 27 days.", usage=(120, 8))


def test_bench_with_llm_judge_and_generator(tiny_bench: Path, scripted_server,
                                            tmp_path: Path) -> None:
    script = Script()
    server = scripted_server(script)
    out = tmp_path / "bench.json"
    result = CliRunner().invoke(cli, [
        "bench", str(tiny_bench), "--judge", "openai:m", "--generator", "openai:m",
        "--base-url", server.base_url, "--db", str(tmp_path / "b.db"), "--out", str(out),
        "--quiet"], env={"OPENAI_API_KEY": "sk-planted-bench-key"})
    assert result.exit_code == 0, result.output
    report = json.loads(out.read_text())
    n_strategies = len(report["leaderboard"])
    assert n_strategies == 4  # 2 chunkers x 2 retrievers
    # 3 questions per strategy: one generation and one judge call each, and one untimed
    # warm-up answer for the generator (counted in the first strategy's usage)
    assert script.kinds["generate"] == 3 * n_strategies + 1
    # identical (question, contexts, answer) across strategies are judged once: the cache
    assert script.kinds["judge"] + report["usage"]["cache_hits"] == 3 * n_strategies
    assert report["usage"]["calls"] == script.kinds["judge"]
    for row in report["leaderboard"]:
        assert row["mean"] is not None
    strategies = report["bench"]["strategies"]
    measured = strategies[0]["cost_measured"]
    assert measured["generator"]["calls"] == 3 + 1
    assert measured["generator"]["input_tokens"] == 4 * 120
    # the measured judge cost of each strategy is its share of the run's usage
    judge_calls = sum(s["cost_measured"]["judge"]["calls"] for s in strategies)
    judge_tokens = sum(s["cost_measured"]["judge"]["input_tokens"] for s in strategies)
    assert judge_calls == script.kinds["judge"] and judge_tokens == 300 * judge_calls
    assert "sk-planted-bench-key" not in out.read_text() + result.output
