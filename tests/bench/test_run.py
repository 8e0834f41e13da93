"""End to end over a tiny corpus with the runner stubbed, and the leaderboard."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from ragassay.bench import BenchOptions, generate_samples, leaderboard, load_config, run_bench
from ragassay.bench.leaderboard import leaderboard_table
from ragassay.types import RunConfig, Sample

from .conftest import HashEmbedder


def fake_report(samples: list[Sample]) -> dict[str, Any]:
    """A report shaped like ragassay.report.build_report's: a judge.score per sample that
    is 1 when the answer contains the reference's first word, else 0."""
    detailed: list[dict[str, Any]] = []
    per: dict[str, list[float]] = {}
    for s in samples:
        ref = (s.reference if isinstance(s.reference, str) else "") or ""
        v = 1.0 if ref.split()[0].lower() in s.answer.lower() else 0.0
        detailed.append({"id": s.id, "strategy": s.strategy, "status": "ok",
                         "question": s.question, "metrics": {"judge.score": v},
                         "usage": {"calls": 1, "input_tokens": 100, "output_tokens": 10}})
        per.setdefault(s.strategy, []).append(v)
    strategies = {
        name: {"metrics": {"judge.score": {"mean": sum(v) / len(v), "ci_low": 0.0,
                                           "ci_high": 1.0, "count": len(v)}},
               "usage": {"calls": len(v), "input_tokens": 100 * len(v),
                         "output_tokens": 10 * len(v)}}
        for name, v in per.items()
    }
    return {"strategies": strategies, "detailed_results": detailed,
            "metric_specs": {"judge.score": {"low": 0, "high": 1, "kind": "score",
                                             "higher_is_better": True}}}


def test_end_to_end_with_a_stub_runner(tiny_bench: Path) -> None:
    cfg = load_config(tiny_bench)
    seen: dict[str, Any] = {}

    def evaluator(samples: list[Sample], rc: RunConfig) -> tuple[str, dict[str, Any]]:
        seen["samples"], seen["config"] = samples, rc
        return "run-1", fake_report(samples)

    result = run_bench(cfg, evaluator, BenchOptions(embedder=HashEmbedder(128)))
    names = ["fixed-12/o2 bm25 k2", "fixed-12/o2 hybrid k2", "markdown-12/o2 bm25 k2",
             "markdown-12/o2 hybrid k2"]
    assert [s.name for s in result.strategies] == names
    samples: list[Sample] = seen["samples"]
    assert len(samples) == 4 * 3 and seen["config"].dataset == "bench:tiny"
    s0 = samples[0]
    assert s0.id == "fixed-12/o2 bm25 k2::a" and s0.metadata["question_id"] == "a"
    assert len(s0.contexts) == len(s0.metadata["retrieved_ids"]) <= 2
    assert s0.metadata["retrieval"]["recall"] == 1.0  # the leave doc is found
    no_gold = next(s for s in samples if s.metadata["question_id"] == "c")
    assert no_gold.metadata["retrieval"] is None
    assert no_gold.metadata["retrieval_unscored_reason"] == "no gold labels"
    assert no_gold.answer == "The handbook does not say."
    r0 = result.strategies[0]
    assert r0.retrieval_scored == 2 and r0.retrieval["recall"] is not None
    assert r0.retrieval_p50_s is not None and r0.answer_p95_s is not None
    assert r0.cost_estimate.usd == 0.0
    assert r0.cost_measured is not None and r0.cost_measured.judge.calls == 3
    assert result.run_id == "run-1" and (tiny_bench.parent / "cache").is_dir()

    rows = leaderboard(result.report or {}, result, "judge.score")
    assert [r["rank"] for r in rows] == [1, 2, 3, 4]
    means = [r["mean"] for r in rows]
    assert means == sorted(means, reverse=True)
    assert rows[0]["vs_best"] == "best"
    assert all(r["vs_best"] in ("no detectable difference", "worse") for r in rows[1:])
    assert leaderboard_table(rows).row_count == 4


def test_leaderboard_marks_unscored_last_and_significance(tiny_bench: Path) -> None:
    cfg = load_config(tiny_bench)
    _, result = generate_samples(cfg, BenchOptions(embedder=HashEmbedder(128), use_cache=False))
    a, b, c, d = (s.name for s in result.strategies)
    n = 30
    detailed = [
        {"id": f"{s}::q{i}", "strategy": s, "status": "ok", "question": f"q{i}",
         "metrics": {"m": v}}
        for i in range(n)
        for s, v in ((a, 0.9), (b, 0.1 + 0.001 * i), (c, 0.9 - 0.0001 * i))
    ]
    report = {
        "strategies": {a: {"metrics": {"m": {"mean": 0.9, "ci_low": 0.9, "ci_high": 0.9}}},
                       b: {"metrics": {"m": {"mean": 0.11, "ci_low": 0.1, "ci_high": 0.13}}},
                       c: {"metrics": {"m": {"mean": 0.8985, "ci_low": 0.89,
                                             "ci_high": 0.9}}}},
        "detailed_results": detailed,
    }
    rows = leaderboard(report, result, "m")
    assert [r["strategy"] for r in rows] == [a, c, b, d]
    assert rows[2]["vs_best"] == "worse"
    assert rows[3]["mean"] is None and rows[3]["rank"] is None and rows[3]["vs_best"] is None


def test_overall_falls_back_to_the_guide_composite() -> None:
    from ragassay.bench.leaderboard import metric_stats

    entry = {"overall": 7.5, "intervals": {"overall": [7.0, 8.0]}, "metrics": {}}
    assert metric_stats(entry, "judge.overall") == {"mean": 7.5, "ci_low": 7.0, "ci_high": 8.0}
    assert metric_stats({}, "judge.overall")["mean"] is None


def test_example_bench_generates_samples() -> None:
    """The bundled example, every chunker and retriever, with the fast hash embedder."""
    from .conftest import EXAMPLE

    cfg = load_config(EXAMPLE / "bench.toml")
    samples, result = generate_samples(
        cfg, BenchOptions(embedder=HashEmbedder(256), use_cache=False)
    )
    assert len(samples) == len(cfg.strategies) * result.n_questions
    assert len({s.id for s in samples}) == len(samples)
    bm25 = [r for r in result.strategies if r.spec.retriever == "bm25"]
    assert all((r.retrieval["recall"] or 0) > 0.8 for r in bm25)
    assert all(r.retrieval_scored == 30 for r in result.strategies)
