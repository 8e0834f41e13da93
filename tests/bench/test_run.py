"""End to end over a tiny corpus with the judge stubbed, and the leaderboard."""

from __future__ import annotations

from pathlib import Path

import pytest

from ragassay.bench import (
    BenchOptions,
    RankingError,
    generate_samples,
    leaderboard,
    load_config,
    run_bench,
)
from ragassay.bench.leaderboard import leaderboard_table
from ragassay.judge import Verdict
from ragassay.store import Store
from ragassay.types import MetricResult, MetricSpec, RunConfig, Sample, SampleResult, Usage

from .conftest import HashEmbedder


class StubJudge:
    """An LLM judge stub: judge.faithfulness 10 when the answer contains the reference's
    first word, else 1; one call of 100 + 10 tokens per sample."""

    spec, kind, model = "stub", "llm", "stub"

    async def ask(self, prompt, values):
        first = values["reference"].split()[0].lower()
        faithful = first in values["answer"].lower()
        out = {"context_relevance": 5, "answer_similarity": 5,
               "faithfulness": 10 if faithful else 1, "hallucination": not faithful}
        return Verdict(prompt.name, prompt.version, prompt.output_model.model_validate(out),
                       usage=Usage(calls=1, input_tokens=100, output_tokens=10))

    async def aclose(self):
        return None


def test_end_to_end_with_a_stub_judge(tiny_bench: Path) -> None:
    cfg = load_config(tiny_bench)
    with Store(":memory:") as store:
        result = run_bench(cfg, store, BenchOptions(embedder=HashEmbedder(128),
                                                    judge=StubJudge()))
        names = ["fixed-12/o2 bm25 k2", "fixed-12/o2 hybrid k2", "markdown-12/o2 bm25 k2",
                 "markdown-12/o2 hybrid k2"]
        assert [s.name for s in result.strategies] == names
        assert result.run_id is not None
        samples = [s for s in store.iter_samples(result.run_id) if isinstance(s, Sample)]
        run = store.get_run(result.run_id)
        assert len(samples) == 4 * 3 and run.config.dataset == "bench:tiny"
        assert run.config.kind == "bench" and run.config.strategies == tuple(names)
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
        assert (tiny_bench.parent / "cache").is_dir()

        rows = leaderboard(store, result, "judge.faithfulness")
        assert [r.rank for r in rows] == [1, 2, 3, 4]
        means = [r.mean for r in rows]
        assert means == sorted(means, reverse=True)
        assert rows[0].vs_best == "best"
        assert all(r.vs_best in ("equivalent", "unclear", "worse") for r in rows[1:])
        board, versus = leaderboard_table(rows).renderables[:2]
        assert board.row_count == 4 and versus.row_count == 3  # each against the best
        assert "warm-up" in str(board.caption)  # the latencies say so
        # without rank_by: the metric the specs rank by (the judge suite's composite)
        assert leaderboard(store, result)[0].metric == "judge.overall"
        with pytest.raises(RankingError, match="cannot rank by 'nope.x'"):
            leaderboard(store, result, "nope.x")


def _toy_run(store: Store, result: object, values: dict[tuple[str, int], float]) -> str:
    """Store a judged run of one metric, toy.m, with `values[(strategy, question)]`, and
    make it the bench result's run."""
    run_id = store.create_run(RunConfig(dataset="bench:x", metrics=("toy",)),
                              package_version="t", dataset_hash=None, judge_model="m",
                              specs=[MetricSpec(name="toy.m")])
    samples = {(s, i): Sample(id=f"{s}::q{i}", question=f"q{i}", strategy=s,
                              metadata={"question_id": f"q{i}"}) for s, i in values}
    store.add_samples(run_id, list(samples.values()))
    for key, sample in samples.items():
        store.save_result(run_id, SampleResult(
            sample_id=sample.id, strategy=sample.strategy, suite="toy",
            results=(MetricResult(name="toy.m", value=values[key]),)), [])
    result.run_id = run_id  # type: ignore[attr-defined]
    return run_id


def test_leaderboard_marks_unscored_last_and_significance(tiny_bench: Path) -> None:
    cfg = load_config(tiny_bench)
    _, result = generate_samples(cfg, BenchOptions(embedder=HashEmbedder(128), use_cache=False))
    a, b, c, d = (s.name for s in result.strategies)
    n = 30
    with Store(":memory:") as store:
        _toy_run(store, result, {(s, i): v for i in range(n)
                                 for s, v in ((a, 0.9), (b, 0.1 + 0.001 * i),
                                              (c, 0.9 - 0.0001 * i))})
        rows_out = leaderboard(store, result, "toy.m")
    assert [r.strategy for r in rows_out] == [a, c, b, d]
    assert rows_out[2].vs_best == "worse"
    # c is 0.0015 below a on average: within toy.m's margin (2.5% of 0-1), shown by TOST
    assert rows_out[1].vs_best == "equivalent" and rows_out[1].margin == pytest.approx(0.025)
    assert rows_out[2].diff == pytest.approx(-0.8 + 0.001 * 29 / 2)
    assert rows_out[2].diff_ci_high < 0 and rows_out[2].effect_size < -0.8
    assert (rows_out[3].mean is None and rows_out[3].rank is None
            and rows_out[3].vs_best is None)


def test_leaderboard_adjusts_for_all_its_comparisons(tiny_bench: Path) -> None:
    """Every strategy is tested against a best picked from the same data: the p-values
    are Holm-adjusted over those k - 1 comparisons together, not one at a time."""
    from ragassay.report import run_table
    from ragassay.stats import CompareOptions, compare_strategies, holm

    cfg = load_config(tiny_bench)
    _, result = generate_samples(cfg, BenchOptions(embedder=HashEmbedder(128), use_cache=False))
    names = [s.name for s in result.strategies]
    n = 12
    gaps = {names[0]: 0.0, names[1]: 0.02, names[2]: 0.04, names[3]: 0.3}
    with Store(":memory:") as store:
        run_id = _toy_run(store, result, {
            (s, i): 0.9 - gap - (0.01 * ((i * 7) % 5) if gap else 0.0)
            for i in range(n) for s, gap in gaps.items()})
        board = leaderboard(store, result, "toy.m")
        table = run_table(store, run_id).table
        raw = {r.strategy: compare_strategies(table, names[0], r.strategy,
                                                 CompareOptions()).metrics["toy.m"]
               for r in board[1:]}
    assert board[0].strategy == names[0] and board[0].vs_best == "best"
    want = holm({k: v.wilcoxon_p for k, v in raw.items()})
    got = {r.strategy: r.p_adjusted for r in board[1:]}
    assert got == pytest.approx(want)
    # the adjustment is real: the strongest gap's p is multiplied by the 3 comparisons
    strongest = min(raw, key=lambda k: raw[k].wilcoxon_p)
    assert got[strongest] == pytest.approx(min(1.0, 3 * raw[strongest].wilcoxon_p))
    assert got[strongest] > raw[strongest].wilcoxon_p


def test_a_one_question_leaderboard_has_no_interval(tiny_bench: Path) -> None:
    """One value is no interval: null bounds in the rows, NO_INTERVAL in the table."""
    from rich.console import Console

    from ragassay.stats.describe import NO_INTERVAL

    cfg = load_config(tiny_bench)
    _, result = generate_samples(cfg, BenchOptions(embedder=HashEmbedder(128), use_cache=False))
    names = [s.name for s in result.strategies]
    with Store(":memory:") as store:
        _toy_run(store, result, {(s, 0): 0.9 - 0.1 * i for i, s in enumerate(names)})
        board = leaderboard(store, result, "toy.m")
    assert all(r.n == 1 and r.ci_low is None and r.ci_high is None for r in board)
    console = Console(width=400, record=True)
    console.print(leaderboard_table(board))
    text = console.export_text()
    assert text.count(NO_INTERVAL) == len(names) and "[0.900, 0.900]" not in text


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


class FirstCallSlowGenerator:
    """A generator whose first call reports a 2 s latency (a model load, say) and every
    later one 1 ms; it counts its calls and reports one call of usage each."""

    name = "first-slow"

    def __init__(self) -> None:
        self.calls = 0

    async def generate(self, question, contexts):  # type: ignore[no-untyped-def]
        from ragassay.bench.generation import Generation

        self.calls += 1
        return Generation(answer="27 days.", latency_s=2.0 if self.calls == 1 else 0.001,
                          usage=Usage(calls=1))


def test_warm_up_is_charged_to_no_strategy(tiny_bench: Path) -> None:
    """Two identical strategies get the same latencies (issue #29: the first one showed
    the warm-up, 2,034 ms against 1.7 ms answer p95): one untimed answer warms the
    generator up before timing, and its call is still counted in the usage."""
    text = tiny_bench.read_text().replace('chunker = ["fixed", "markdown"]',
                                          'chunker = ["fixed"]').replace(
        'retriever = ["bm25", "hybrid"]', 'retriever = ["bm25"]')
    tiny_bench.write_text(text + '\n[[strategy]]\nname = "again"\nchunker = "fixed"\n'
                          'size = 12\noverlap = 2\nretriever = "bm25"\nk = 2\n')
    gen = FirstCallSlowGenerator()
    cfg = load_config(tiny_bench)
    cfg = cfg.model_copy(update={"strategies": [s.model_copy(update={"generator": gen.name})
                                                for s in cfg.strategies]})
    _, result = generate_samples(cfg, BenchOptions(embedder=HashEmbedder(),
                                                   generators={gen.name: gen}))
    first, again = result.strategies
    assert first.answer_p95_s == again.answer_p95_s == pytest.approx(0.001)
    assert gen.calls == 2 * 3 + 1  # 3 questions per strategy, one warm-up
    assert first.generator_usage.calls == 3 + 1 and again.generator_usage.calls == 3


class CountingEmbedder(HashEmbedder):
    def __init__(self) -> None:
        super().__init__()
        self.texts = 0

    def embed(self, texts):  # type: ignore[no-untyped-def]
        self.texts += len(texts)
        return super().embed(texts)


def test_each_strategy_pays_its_own_extractive_answers(tiny_bench: Path) -> None:
    """The offline generator's sentence vectors are not shared between strategies: two
    identical strategies embed twice what one does (a later strategy used to answer
    from the earlier one's cache, and looked a thousand times faster)."""
    base = tiny_bench.read_text().replace('chunker = ["fixed", "markdown"]',
                                          'chunker = ["fixed"]').replace(
        'retriever = ["bm25", "hybrid"]', 'retriever = ["bm25"]')

    def embedded(extra: str) -> int:
        tiny_bench.write_text(base + extra)
        emb = CountingEmbedder()
        generate_samples(load_config(tiny_bench), BenchOptions(embedder=emb))
        return emb.texts

    once = embedded("")
    assert once > 0
    assert embedded('\n[[strategy]]\nname = "again"\nchunker = "fixed"\nsize = 12\n'
                    'overlap = 2\nretriever = "bm25"\nk = 2\n') == 2 * once


class FirstSeenSlowEmbedder(HashEmbedder):
    """Slow the first time it meets a text (like an embedder's per-word tables): a search
    timed before every question was seen once pays it."""

    SLOW_S = 0.3

    def __init__(self) -> None:
        super().__init__()
        self.seen: set[str] = set()

    def embed(self, texts):  # type: ignore[no-untyped-def]
        import time

        new = [t for t in texts if t not in self.seen]
        if new and len(texts) == 1:  # a query, not the index's chunks
            time.sleep(self.SLOW_S)
        self.seen.update(texts)
        return super().embed(texts)


def test_an_index_is_searched_untimed_before_its_first_strategy_is_timed(
        tiny_bench: Path) -> None:
    """Issue #29's trial: the first strategy with an embedder paid its per-word first-use
    cost in its search p95 (15 ms against 0.1 ms), whatever strategy came first. Every
    question is searched once, untimed, before an index's first strategy is timed."""
    text = tiny_bench.read_text().replace('chunker = ["fixed", "markdown"]',
                                          'chunker = ["fixed"]').replace(
        'retriever = ["bm25", "hybrid"]', 'retriever = ["dense"]')
    tiny_bench.write_text(text)
    cfg = load_config(tiny_bench)
    _, result = generate_samples(cfg, BenchOptions(embedder=FirstSeenSlowEmbedder()))
    for strategy in result.strategies:
        assert strategy.retrieval_p95_s is not None
        # no timed search met a new question (each would have slept 0.3 s)
        assert strategy.retrieval_p95_s < FirstSeenSlowEmbedder.SLOW_S / 2


def test_bench_cli_shows_the_gap_to_the_best_and_takes_an_equivalence_margin(
        tiny_bench: Path, tmp_path: Path) -> None:
    """Issue #44 item 1: each strategy against the best with the difference, its interval,
    Cohen's d and the tests; `--equivalence` sets the ranking metric's margin (stored with
    the bench's config and on every tested row)."""
    import json

    from click.testing import CliRunner

    from ragassay.cli import cli

    out = tmp_path / "bench.json"
    result = CliRunner().invoke(cli, ["bench", str(tiny_bench), "--db", str(tmp_path / "b.db"),
                                      "--out", str(out), "--equivalence", "0.4", "--quiet"])
    assert result.exit_code == 0, result.output
    assert "Against the best" in result.output and "equiv." in result.output, result.output
    report = json.loads(out.read_text())
    assert report["bench_config"]["bench"]["equivalence"] == 0.4
    tested = [r for r in report["leaderboard"] if r["vs_best"] not in (None, "best")]
    assert tested and all(r["margin"] == 0.4 for r in tested)
    assert all(r["vs_best"] in ("equivalent", "worse", "unclear") for r in tested)
    assert all({"diff", "diff_ci_low", "effect_size", "tost_p_adjusted"} <= set(r)
               for r in tested)
    bad = CliRunner().invoke(cli, ["bench", str(tiny_bench), "--equivalence", "0"])
    assert bad.exit_code == 2 and "--equivalence" in bad.output


def test_a_piped_bench_keeps_the_leaderboards_width(tiny_bench: Path, tmp_path: Path) -> None:
    """A pipe without COLUMNS gets a 100-wide console (`console.PIPED_WIDTH`), too narrow
    for the leaderboard's 17 columns: the bench asks for LEADERBOARD_WIDTH, so that each
    figure is shown whole; COLUMNS, when set, still rules."""
    import json

    from click.testing import CliRunner

    from ragassay.bench import LEADERBOARD_WIDTH
    from ragassay.cli import cli
    from ragassay.report import LEADERBOARD_COLUMNS, LeaderboardRow

    out = tmp_path / "bench.json"
    result = CliRunner().invoke(cli, ["bench", str(tiny_bench), "--db", str(tmp_path / "b.db"),
                                      "--out", str(out), "--quiet"], env={"COLUMNS": None})
    assert result.exit_code == 0, result.output
    assert max(map(len, result.stdout.splitlines())) <= LEADERBOARD_WIDTH
    rows = [LeaderboardRow.model_validate(r) for r in json.loads(out.read_text())["leaderboard"]]
    for c in LEADERBOARD_COLUMNS:
        for r in rows:
            assert not c.numeric or (c.text(r) or "—") in result.stdout, (c.header, r.strategy)
    narrow = CliRunner().invoke(cli, ["runs", "show", "--db", str(tmp_path / "b.db")],
                                env={"COLUMNS": "90"})
    assert narrow.exit_code == 0 and max(map(len, narrow.stdout.splitlines())) <= 90
