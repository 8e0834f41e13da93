"""Config parsing: unknown keys are named, grids expand to named strategies."""

from __future__ import annotations

from pathlib import Path

import pytest

from ragassay.bench.config import ConfigError, load_config, parse_config

from .conftest import EXAMPLE

BASE = {"bench": {"name": "t", "corpus": "c", "questions": "q.jsonl"}}


def parse(extra: dict) -> object:
    return parse_config({**BASE, **extra}, Path("/cfg"), "bench.toml")


def test_unknown_keys_are_named() -> None:
    with pytest.raises(ConfigError, match=r"strategy\[1\]\.chunkr: unknown key"):
        parse({"strategy": [{"chunker": "fixed"}, {"chunkr": "fixed"}]})
    with pytest.raises(ConfigError, match=r"bench\.ranked_by: unknown key"):
        parse_config({"bench": {**BASE["bench"], "ranked_by": "x"}}, Path("/"), "bench.toml")
    with pytest.raises(ConfigError, match=r"prices\.gpt\.inptu: unknown key"):
        parse({"prices": {"gpt": {"inptu": 1, "output": 2}}, "strategy": [{}]})
    with pytest.raises(ConfigError, match=r"^bench\.toml: spam: unknown key"):
        parse({"spam": 1, "strategy": [{}]})


def test_bad_values_are_named() -> None:
    with pytest.raises(ConfigError, match=r"strategy\[0\]\.retriever"):
        parse({"strategy": [{"retriever": "tfidf"}]})
    with pytest.raises(ConfigError,
                       match=r"strategy\[0\]\.overlap: 50 must be smaller than size \(50\)"):
        parse({"strategy": [{"chunker": "fixed", "size": 50, "overlap": 50}]})
    # an embedder the bench could not build stops the load (it used to be a traceback
    # once the bench reached the embedder), in one line without pydantic's prefix
    with pytest.raises(ConfigError) as err:
        parse({"bench": {**BASE["bench"], "embedder": "local:8"}, "strategy": [{}]})
    assert str(err.value) == ("bench.toml: bench.embedder: embedder spec 'local:8': "
                              "N in local:N is 16 to 512 word pieces")
    with pytest.raises(ConfigError, match=r"bench\.embedder: unknown embedder spec 'w2v'"):
        parse({"bench": {**BASE["bench"], "embedder": "w2v"}, "strategy": [{}]})
    spelled = parse({"bench": {**BASE["bench"], "embedder": "local:0128"}, "strategy": [{}]})
    assert spelled.bench.embedder == "local:128"  # type: ignore[attr-defined]
    with pytest.raises(ConfigError, match="no strategies"):
        parse({})
    with pytest.raises(ConfigError, match="duplicate strategy name"):
        parse({"strategy": [{}, {}]})


def test_grid_expansion_and_names() -> None:
    cfg = parse({"grid": {"chunker": ["recursive", "semantic"], "size": [200, 400],
                          "overlap": [50], "retriever": ["bm25", "dense"], "k": [4]}})
    names = [s.name for s in cfg.strategies]  # type: ignore[attr-defined]
    assert names == [
        "recursive-200/o50 bm25 k4", "recursive-200/o50 dense k4",
        "recursive-400/o50 bm25 k4", "recursive-400/o50 dense k4",
        "semantic-200/p25 bm25 k4", "semantic-200/p25 dense k4",
        "semantic-400/p25 bm25 k4", "semantic-400/p25 dense k4",
    ]


def test_grid_skips_meaningless_combinations_and_adds_generator() -> None:
    cfg = parse({"grid": {"chunker": ["fixed"], "size": [50, 100], "overlap": [0, 50],
                          "generator": ["offline", "openai:gpt-4o-mini"]}})
    names = [s.name for s in cfg.strategies]  # type: ignore[attr-defined]
    assert "fixed-50/o50 bm25 k4" not in names  # overlap >= size
    assert names[:2] == ["fixed-50 bm25 k4", "fixed-50 bm25 k4 openai:gpt-4o-mini"]
    assert len(names) == 6


def test_example_config_loads_with_paths_relative_to_it() -> None:
    cfg = load_config(EXAMPLE / "bench.toml")
    assert cfg.path(cfg.bench.corpus) == EXAMPLE / "corpus"
    assert len(cfg.strategies) >= 5
    assert {s.chunker.kind for s in cfg.strategies} == {
        "fixed", "recursive", "sentence", "markdown", "semantic"}
    assert {s.retriever for s in cfg.strategies} == {"bm25", "dense", "hybrid"}


def test_missing_and_invalid_files(tmp_path: Path) -> None:
    with pytest.raises(ConfigError, match="not found"):
        load_config(tmp_path / "nope.toml")
    bad = tmp_path / "bad.toml"
    bad.write_text("[bench\n")
    with pytest.raises(ConfigError, match="invalid TOML"):
        load_config(bad)


def test_the_ranking_metric_is_checked_at_load() -> None:
    """A rank_by outside the bench's suites, or no suite, used to stop the bench only
    after every strategy had been answered and judged."""
    def load(**bench: object) -> object:
        return parse({"bench": {**BASE["bench"], **bench}, "strategy": [{}]})

    with pytest.raises(ConfigError) as err:
        load(rank_by="ragas.faithfulness")
    assert str(err.value) == ("bench.toml: bench: rank_by 'ragas.faithfulness' is not a "
                              "metric of the bench's suites (judge): add its suite to metrics")
    with pytest.raises(ConfigError, match=r"^bench\.toml: bench\.metrics: no metric suite named"):
        load(metrics=[])
    with pytest.raises(ConfigError, match=r"bench\.metrics: unknown metric suite 'nope'"):
        load(metrics=["nope"])
    ok = load(metrics=["judge", "ragas"], rank_by="ragas.faithfulness")
    assert ok.bench.rank_by == "ragas.faithfulness"  # type: ignore[attr-defined]
    # what the runner takes: suite names ("all"), or metrics alone (issue #29)
    assert load(metrics="all").bench.metrics == ("judge", "trace", "ragas")  # type: ignore[attr-defined]
    assert load(metrics=["judge.overall"]).bench.metrics == ("judge.overall",)  # type: ignore[attr-defined]
    with pytest.raises(ConfigError, match=r"bench\.timeout_s"):
        load(timeout_s=float("inf"))


# -- a runaway [grid] (issue #33, item 10) -------------------------------------------------


def test_grid_size_counts_what_expand_grid_makes() -> None:
    import itertools

    from ragassay.bench.config import BenchSection, GridSection, expand_grid, grid_size

    bench = BenchSection.model_validate(BASE["bench"])
    for chunkers, sizes, overlaps, pcts in itertools.product(
            (["fixed"], ["semantic"], ["sentence", "recursive"], ["semantic", "fixed"]),
            ([50], [50, 400]), ([0], [0, 50], [50, 100]), ([25.0], [10.0, 25.0])):
        grid = GridSection(chunker=chunkers, size=sizes, overlap=overlaps, percentile=pcts,
                           retriever=["bm25", "dense"], k=[2, 4])
        assert grid_size(grid, bench) == len(expand_grid(grid, bench)), grid


def _grid_config(tmp_path: Path, sizes: int, overlaps: int) -> Path:
    path = tmp_path / "bench.toml"
    path.write_text(
        '[bench]\nname = "g"\ncorpus = "nowhere"\nquestions = "q.jsonl"\n\n[grid]\n'
        'chunker = ["fixed", "recursive", "sentence"]\n'
        f"size = {list(range(1000, 1000 + sizes))}\noverlap = {list(range(overlaps))}\n"
        'retriever = ["bm25", "dense", "hybrid"]\nk = [1, 2, 3, 4, 5]\n')
    return path


def test_a_runaway_grid_is_refused_with_its_count(tmp_path: Path) -> None:
    from click.testing import CliRunner

    from ragassay.cli import cli

    config = _grid_config(tmp_path, 202, 150)  # 3 x 202 x 150 x 3 x 5 = 1,363,500
    result = CliRunner().invoke(cli, ["bench", str(config), "--db", str(tmp_path / "b.db")])
    assert result.exit_code == 2
    assert result.output == ("error: bench.toml: [grid] expands to 1,363,500 strategies, more "
                             "than 100: narrow its lists, or allow them with --max-strategies "
                             "1363500 (max_strategies= in Python)\n")
    small = _grid_config(tmp_path, 2, 4)  # 3 x 2 x 4 x 3 x 5 = 360
    result = CliRunner().invoke(cli, ["bench", str(small), "--max-strategies", "400", "-q",
                                      "--db", str(tmp_path / "b.db")])
    assert "bench.toml: 360 strategies (360 from [grid])" in result.stderr
    assert "corpus" in result.stderr  # past the cap: the next check is the missing corpus
    assert "more than" not in result.output
