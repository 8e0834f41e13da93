"""Cost (issue #29 item 5): the console prints tokens and dollars after a run, the
openai backend's runs are priced (--price-in/--price-out, else LiteLLM's table), and
`eval --dry-run` estimates calls, tokens and cost while sending nothing."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from click.testing import CliRunner

from ragassay.cli import cli
from ragassay.dataset import demo_dataset_path, iter_samples
from ragassay.llm import pricing
from ragassay.metrics import parse_metrics
from ragassay.runner.estimate import OUTPUT_SHARE, estimate_run
from ragassay.types import Price, RunConfig
from tests.support.faults import judge_scores
from tests.support.scripted_server import ScriptedReply, ScriptedServer

TOKENS = (1000, 200)  # what the scripted server reports per call


def _rows(path: Path, n: int = 3) -> Path:
    rows = [{"id": f"q{i}", "question": f"What is the capital of country {i}?",
             "answer": f"City {i}.", "contexts": [f"The capital of country {i} is City {i}."],
             "reference": f"City {i}."} for i in range(n)]
    path.write_text("".join(json.dumps(r) + "\n" for r in rows))
    return path


def flat(text: str) -> str:
    """The console's text with its line wrapping undone."""
    return " ".join(text.split())


def _scores(req: dict, n: int) -> ScriptedReply:
    return ScriptedReply.chat(json.dumps(judge_scores(req)), usage=TOKENS)


def test_an_openai_run_is_priced_from_the_given_price(tmp_path: Path) -> None:
    data, out = _rows(tmp_path / "d.jsonl"), tmp_path / "r.json"
    with ScriptedServer(_scores) as server:
        result = CliRunner().invoke(cli, [
            "eval", "-v", str(data), "--judge", "openai:house-model", "--base-url", server.base_url,
            "--metrics", "judge", "--db", str(tmp_path / "x.db"), "--out", str(out),
            "--price-in", "2.5", "--price-out", "10", "--no-cache"],
            env={"OPENAI_API_KEY": "sk-test", "COLUMNS": "200"})
        calls = server.count
    assert result.exit_code == 0, result.output
    expected = calls * (TOKENS[0] * 2.5 + TOKENS[1] * 10) / 1e6
    usage = json.loads(out.read_text())["usage"]
    assert usage["calls"] == calls == 3
    assert usage["cost_usd"] == pytest.approx(expected)
    assert (f"tokens in {calls * TOKENS[0]} / out {calls * TOKENS[1]}, cache hits 0, "
            f"cost ${expected:.4f}") in flat(result.output)


def test_without_a_price_the_console_says_how_to_give_one(tmp_path: Path,
                                                          monkeypatch: pytest.MonkeyPatch
                                                          ) -> None:
    monkeypatch.setattr(pricing, "litellm_table", lambda: {})  # litellm not installed
    data = _rows(tmp_path / "d.jsonl", 1)
    with ScriptedServer(_scores) as server:
        result = CliRunner().invoke(cli, [
            "eval", "-v", str(data), "--judge", "openai:team-model", "--base-url",
            server.base_url, "--metrics", "judge", "--db", str(tmp_path / "x.db")],
            env={"OPENAI_API_KEY": "sk-test", "COLUMNS": "300"})
    assert result.exit_code == 0, result.output
    assert ("cost unknown: no price for team-model (pip install 'ragassay[litellm]' for "
            "LiteLLM's price table; or give --price-in/--price-out)") in flat(result.output)


def test_dry_run_prices_common_openai_models_without_litellm(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Issue #44 item 5: without the litellm extra, `--dry-run` prices the common OpenAI
    models from ragassay's packaged table, saying its date."""
    import sys

    monkeypatch.setitem(sys.modules, "litellm", None)  # not importable: not installed
    pricing.litellm_table.cache_clear()
    try:
        result = CliRunner().invoke(cli, [
            "eval", "-v", str(demo_dataset_path()), "--judge", "openai:gpt-4o-mini", "--dry-run",
            "--metrics", "judge", "--db", str(tmp_path / "x.db")], env={"COLUMNS": "300"})
        table = pricing.packaged_table()
        assert pricing.litellm_table() == {}
    finally:
        pricing.litellm_table.cache_clear()
    assert result.exit_code == 0, result.output
    out = flat(result.output)
    assert "estimated cost $" in out and "at $0.15 in / $0.60 out per 1M tokens" in out
    assert (f"(ragassay's packaged OpenAI prices of {table['as_of']}; pip install "
            "'ragassay[litellm]' for LiteLLM's current table)") in out
    assert pricing.packaged_price("openai/gpt-4.1") == Price(input=2, output=8,
                                                              cached_input=0.5)
    assert pricing.packaged_price("team-model") is None


def test_the_packaged_table_is_litellms_where_it_has_the_model() -> None:
    table = pricing.litellm_table()
    if not table:
        pytest.skip("litellm is not installed (the litellm extra)")
    packaged = pricing.packaged_table()
    assert packaged["as_of"] and "LiteLLM" in packaged["source"]
    for name in packaged["models"]:
        ours, theirs = pricing.packaged_price(name), pricing.litellm_price(name)
        assert ours is not None and theirs is not None, name
        assert ours.model_dump() == pytest.approx(theirs.model_dump()), name


def test_the_offline_judge_costs_nothing_and_says_so(tmp_path: Path) -> None:
    result = CliRunner().invoke(cli, ["eval", "-v", str(demo_dataset_path()), "--metrics", "judge",
                                      "--db", str(tmp_path / "x.db")],
                                env={"COLUMNS": "200"})
    assert result.exit_code == 0, result.output
    assert "judge calls 0, tokens in 0 / out 0, cache hits 0, cost $0 (offline judge)" \
        in flat(result.output)


def test_litellms_shipped_table_prices_known_models() -> None:
    table = pricing.litellm_table()
    if not table:
        pytest.skip("litellm is not installed (the litellm extra)")
    entry = table["gpt-4o-mini"]
    price = pricing.litellm_price("gpt-4o-mini")
    assert price is not None
    assert price.input == pytest.approx(entry["input_cost_per_token"] * 1e6)
    assert price.output == pytest.approx(entry["output_cost_per_token"] * 1e6)
    assert pricing.litellm_price("openai/gpt-4o-mini") == price  # provider prefix
    assert pricing.litellm_price("no-such-model-anywhere") is None
    found, source = pricing.resolve_price("openai:gpt-4o-mini")
    assert (found, source) == (price, "LiteLLM's price table")
    given = Price(input=1, output=2)
    assert pricing.resolve_price("openai:gpt-4o-mini", given) == (
        given, "--price-in/--price-out")


def test_dry_run_sends_nothing_needs_no_key_and_stores_nothing(tmp_path: Path) -> None:
    data, db = _rows(tmp_path / "d.jsonl", 4), tmp_path / "x.db"
    with ScriptedServer(_scores) as server:
        result = CliRunner().invoke(cli, [
            "eval", "-v", str(data), "--judge", "openai:house-model", "--base-url", server.base_url,
            "--metrics", "judge,ragas.faithfulness", "--db", str(db), "--dry-run",
            "--price-in", "1", "--price-out", "4"], env={"OPENAI_API_KEY": "",
                                                        "COLUMNS": "200"})
        assert server.count == 0  # not one request, not even a probe
    assert result.exit_code == 0, result.output
    assert not db.exists()
    config = RunConfig.build(str(data), judge="openai:house-model",
                             metrics=parse_metrics("judge,ragas.faithfulness"))
    est = estimate_run(iter_samples(data), config, Price(input=1, output=4))
    # one judge call and one ragas claims call per sample: the calls the metrics need
    assert {k: s.calls for k, s in est.suites.items()} == {"judge": 4, "ragas": 4}
    t = est.total
    assert t.output_tokens == 4 * (300 + 1500) // OUTPUT_SHARE
    assert est.usd == pytest.approx((t.input_tokens * 1 + t.output_tokens * 4) / 1e6)
    assert f"│ total │     8 │ {t.input_tokens:>12,} │" in result.output
    assert f"estimated cost ${est.usd:.4f}" in flat(result.output)


def test_dry_run_input_tokens_grow_with_the_texts(tmp_path: Path) -> None:
    """The estimate reads the rendered prompts: a longer context costs more tokens."""
    short, long = _rows(tmp_path / "s.jsonl", 1), tmp_path / "l.jsonl"
    row = json.loads(short.read_text())
    row["contexts"] = [row["contexts"][0] + " Filler sentence here." * 200]
    long.write_text(json.dumps(row) + "\n")
    config = RunConfig.build(str(short), judge="openai:m", metrics=("judge",))
    a = estimate_run(iter_samples(short), config).total.input_tokens
    b = estimate_run(iter_samples(long), config).total.input_tokens
    assert b - a == pytest.approx(len(" Filler sentence here." * 200) / 4, rel=0.1)


def test_dry_run_of_the_offline_judge_and_price_mistakes(tmp_path: Path) -> None:
    data = _rows(tmp_path / "d.jsonl", 2)
    result = CliRunner().invoke(cli, ["eval", "-v", str(data), "--dry-run",
                                      "--db", str(tmp_path / "x.db")])
    assert result.exit_code == 0, result.output
    assert "no judge call: the offline judge runs here; cost $0" in result.output
    result = CliRunner().invoke(cli, ["eval", "-v", str(data), "--price-out", "3"])
    assert result.exit_code == 2
    assert "--price-in and --price-out go together" in result.output


def test_the_python_api_takes_a_price(tmp_path: Path, monkeypatch: pytest.MonkeyPatch
                                      ) -> None:
    import ragassay

    monkeypatch.setenv("OPENAI_API_KEY", "sk-test")
    data = _rows(tmp_path / "d.jsonl", 2)
    with ScriptedServer(_scores) as server:
        result = ragassay.evaluate(data, metrics="judge", judge="openai:house-model",
                                   base_url=server.base_url, store=tmp_path / "x.db",
                                   price_in=3.0, price_out=15.0, use_cache=False)
    usage = result.report().usage
    assert usage.calls == 2
    assert usage.cost_usd == pytest.approx(2 * (TOKENS[0] * 3 + TOKENS[1] * 15) / 1e6)
    with pytest.raises(ValueError, match="go together"):
        ragassay.evaluate(data, metrics="judge", store=tmp_path / "x.db", price_in=1.0)
