"""End to end with the real llama.cpp server and SmolLM2-135M.

SmolLM2 cannot judge: these tests check the LLM path (grammar-constrained JSON,
parsing, usage accounting, report structure), never the scores' quality.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

pytestmark = [pytest.mark.llama, pytest.mark.slow, pytest.mark.timeout(1500)]

SAMPLES = [
    {"id": "e1", "question": "What is the capital of France?",
     "contexts": ["Paris is the capital and largest city of France."],
     "answer": "The capital of France is Paris.", "reference": "Paris"},
    {"id": "e2", "question": "How many legs does a spider have?",
     "contexts": ["Spiders are arachnids with eight legs and two body segments."],
     "answer": "A spider has six legs.", "reference": "eight"},
]


def _eval(tmp_path: Path, base_url: str, metrics: str) -> dict:
    data = tmp_path / "data.jsonl"
    data.write_text("\n".join(json.dumps(s) for s in SAMPLES) + "\n")
    out = tmp_path / f"{metrics.replace(',', '_')}.json"
    env = {**os.environ, "OPENAI_API_KEY": "sk-test-not-a-real-key"}
    proc = subprocess.run(
        [sys.executable, "-m", "ragassay", "eval", str(data), "--judge", "openai:smollm2",
         "--base-url", base_url, "--metrics", metrics, "--db", str(tmp_path / "e.db"),
         "--out", str(out), "--concurrency", "2", "--timeout", "600", "--quiet"],
        capture_output=True, text=True, timeout=900, env=env,
    )
    assert proc.returncode == 0, proc.stderr[-2000:]
    assert "sk-test-not-a-real-key" not in proc.stdout + proc.stderr
    return json.loads(out.read_text())


def _check_structure(report: dict, suite: str) -> None:
    meta = report["evaluation_metadata"]
    assert meta["judge"] == "openai:smollm2" and meta["total_samples"] == 2
    assert report["usage"]["calls"] >= 2
    assert report["usage"]["input_tokens"] > 100 and report["usage"]["output_tokens"] > 0
    assert report["usage"]["by_suite"][suite]["calls"] >= 2
    for entry in report["detailed_results"]:
        names = [m for m in entry["metrics"] if m.startswith(suite + ".")]
        assert names, entry
        for name in names:
            value = entry["metrics"][name]
            # every metric is scored, unscored with a reason, or abstained; never lost
            assert (value is None) == (name in entry["unscored"]
                                        or name in entry.get("abstained", {}))


def test_judge_suite_through_llama_cpp(llama_base_url: str, tmp_path: Path) -> None:
    report = _eval(tmp_path, llama_base_url, "judge")
    _check_structure(report, "judge")
    scored = [e["metrics"]["judge.faithfulness"] for e in report["detailed_results"]
              if e["metrics"]["judge.faithfulness"] is not None]
    assert all(1 <= v <= 10 for v in scored)
    # the server gives token probabilities (llama_cpp.server keeps logits_all on), so the
    # ratings are probability-weighted; the stated one is kept beside (the typed reading)
    for e in report["detailed_results"]:
        faith = (e.get("ratings") or {}).get("judge.faithfulness", {})
        if e["metrics"]["judge.faithfulness"] is not None and "stated" in faith:
            assert faith["mode"] == "expected"
    modes = {(e.get("ratings") or {}).get("judge.faithfulness", {}).get("mode")
             for e in report["detailed_results"]}
    assert "expected" in modes


@pytest.mark.parametrize("suite", ["trace", "ragas"])
def test_each_suite_through_llama_cpp(llama_base_url: str, tmp_path: Path, suite: str) -> None:
    report = _eval(tmp_path, llama_base_url, suite)
    _check_structure(report, suite)
    calls = report["usage"]["by_suite"][suite]["calls"]
    if suite == "ragas":
        assert calls <= 3 * 2 * 2  # at most 3 prompts per sample, each with one repair


REPO = Path(__file__).resolve().parents[2]


def test_bench_through_llama_cpp(llama_base_url: str, tmp_path: Path) -> None:
    handbook = REPO / "examples" / "handbook"
    config = tmp_path / "bench.toml"
    config.write_text(f"""
[bench]
name = "llama-e2e"
corpus = "{handbook / 'corpus'}"
questions = "{handbook / 'questions.jsonl'}"
cache_dir = "{tmp_path / 'cache'}"

[[strategy]]
chunker = "recursive"
size = 200
retriever = "bm25"
k = 2
""")
    out = tmp_path / "bench.json"
    proc = subprocess.run(
        [sys.executable, "-m", "ragassay", "bench", str(config), "--judge", "openai:smollm2",
         "--generator", "openai:smollm2", "--base-url", llama_base_url, "--limit", "2",
         "--timeout", "600",
         "--db", str(tmp_path / "b.db"), "--out", str(out), "--quiet"],
        capture_output=True, text=True, timeout=900,
        env={**os.environ, "OPENAI_API_KEY": "sk-test-not-a-real-key"},
    )
    assert proc.returncode == 0, proc.stderr[-2000:]
    report = json.loads(out.read_text())
    assert len(report["leaderboard"]) == 1
    strategy = report["bench"]["strategies"][0]
    # two questions, and the untimed warm-up answer (bench/run.py `_warm_up`: paid for)
    assert strategy["cost_measured"]["generator"]["calls"] == 3
    assert strategy["cost_measured"]["generator"]["output_tokens"] > 0
    assert report["usage"]["calls"] >= 2
