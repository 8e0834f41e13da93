"""Config files: unknown keys and wrong types are rejected with the key named, never a crash.

Covers the gate thresholds TOML (`ragassay.stats.load_thresholds`, `ragassay gate
--config`) and the bench config (`ragassay.bench.load_config`, `ragassay bench`).
"""

from __future__ import annotations

import json
import math
import tempfile
import tomllib
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from ragassay.cli import cli
from ragassay.stats import ThresholdsError, load_thresholds
from tests.support.cli import llm_eval_args

REPO = Path(__file__).resolve().parents[2]
PROPS = settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])


def _q(text: str) -> str:
    """A TOML basic string (JSON's escapes, astral characters kept, DEL escaped)."""
    return json.dumps(text, ensure_ascii=False).replace("\x7f", "\\u007f")


def toml_value(v: Any) -> str:
    if isinstance(v, bool):
        return "true" if v else "false"
    if isinstance(v, float):
        return "nan" if math.isnan(v) else ("inf" if v > 0 else "-inf") if math.isinf(v) \
            else repr(v)
    if isinstance(v, str):
        return _q(v)
    if isinstance(v, int):
        return str(v)
    if isinstance(v, list):
        return "[" + ", ".join(toml_value(x) for x in v) + "]"
    if isinstance(v, dict):
        return "{" + ", ".join(f"{_q(k)} = {toml_value(x)}" for k, x in v.items()) + "}"
    raise TypeError(type(v))


def to_toml(doc: dict[str, Any]) -> str:
    """A small TOML writer: top-level dicts become tables, lists of dicts arrays of tables."""
    lines = [f"{_q(k)} = {toml_value(v)}" for k, v in doc.items()
             if not isinstance(v, dict) and not (isinstance(v, list) and v
                                                 and all(isinstance(x, dict) for x in v))]
    for k, v in doc.items():
        if isinstance(v, dict):
            lines.append(f"[{_q(k)}]")
            lines += [f"{_q(kk)} = {toml_value(vv)}" for kk, vv in v.items()]
        elif isinstance(v, list) and v and all(isinstance(x, dict) for x in v):
            for item in v:
                lines.append(f"[[{_q(k)}]]")
                lines += [f"{_q(kk)} = {toml_value(vv)}" for kk, vv in item.items()]
    return "\n".join(lines) + "\n"


keys = st.text(st.characters(codec="utf-8", exclude_categories=("Cs", "Cc")), min_size=1,
               max_size=12)
scalars = st.one_of(st.booleans(), st.integers(-10**6, 10**6), st.floats(), st.text(max_size=8))
values = st.recursive(scalars, lambda inner: st.one_of(
    st.lists(inner, max_size=3), st.dictionaries(keys, inner, max_size=3)), max_leaves=6)


def _write(tmp: str, name: str, text: str | bytes) -> Path:
    path = Path(tmp) / name
    path.write_bytes(text if isinstance(text, bytes) else text.encode("utf-8"))
    return path


# --- gate thresholds -------------------------------------------------------------------


@PROPS
@given(st.dictionaries(st.one_of(st.just("thresholds"), keys),
                       st.one_of(st.dictionaries(st.one_of(
                           st.sampled_from(["judge.overall", "ragas.faithfulness", "overall"]),
                           keys), values, max_size=4), values), max_size=3))
def test_thresholds_named_or_accepted(doc: dict[str, Any]) -> None:
    with tempfile.TemporaryDirectory() as tmp:
        path = _write(tmp, "gate.toml", to_toml(doc))
        try:
            got = load_thresholds(path)
        except ThresholdsError as exc:
            msg = str(exc)
            assert "\n" not in msg and msg.startswith("gate.toml: ")
            unknown = [k for k in doc if k != "thresholds"]
            if unknown:
                assert any(f'unknown key "{k}"' in msg for k in unknown), msg
            elif isinstance(doc.get("thresholds"), dict):
                assert [k for k in doc["thresholds"] if f'"{k}' in msg], msg
            return
    assert set(doc) <= {"thresholds"}
    expected: dict[str, float] = {}
    for key, value in doc.get("thresholds", {}).items():
        nested = value.items() if isinstance(value, dict) else [(None, value)]
        for sub, v in nested:
            expected[key if sub is None else f"{key}.{sub}"] = float(v)
    assert got == expected
    assert all("." in m and math.isfinite(v) for m, v in got.items())


@pytest.mark.parametrize("text, expected", [
    ('[thresholds]\n"judge.overall" = "high"\n', 'thresholds."judge.overall" must be a number'),
    ('[thresholds]\n"judge.overall" = true\n', 'thresholds."judge.overall" must be a number'),
    ('[thresholds]\n"judge.overall" = [7]\n', 'thresholds."judge.overall" must be a number'),
    ('[thresholds]\n"judge.overall" = nan\n', 'thresholds."judge.overall" must be a finite'),
    ('[thresholds]\noverall = 7\n', 'thresholds."overall" must be a qualified metric name'),
    ('[thresholds]\njudge.overall = 7\n[gates]\nx = 1\n', 'unknown key "gates"'),
    ('thresholds = 7\n', "thresholds must be a table"),
    ("[thresholds\n", "invalid TOML"),
    (b'[thresholds]\n"judge.overall" = 7 # \xff\n', "not valid UTF-8"),
])
def test_thresholds_errors_name_the_key(tmp_path: Path, text: str | bytes, expected: str) -> None:
    path = _write(str(tmp_path), "gate.toml", text)
    with pytest.raises(ThresholdsError) as info:
        load_thresholds(path)
    assert str(info.value).startswith("gate.toml: ") and expected in str(info.value)


def test_gate_cli_rejects_bad_thresholds_in_one_line(tmp_path: Path) -> None:
    from tests.support.faults import FaultServer

    data = tmp_path / "d.jsonl"
    data.write_text(json.dumps({"question": "q", "contexts": ["c"], "answer": "a"}) + "\n",
                    encoding="utf-8")
    db = tmp_path / "r.db"
    with FaultServer() as server:
        made = CliRunner().invoke(cli, llm_eval_args(data, server.base_url, db, "-q"))
    assert made.exit_code == 0, made.output
    for text, expected in ((b'[thresholds]\n"judge.overall" = "x"\n', '"judge.overall"'),
                           (b'[limits]\n"judge.overall" = 5\n', '"limits"'),
                           (b'[thresholds]\n"judge.overall" = 5 # \xff\n', "UTF-8")):
        path = _write(str(tmp_path), "gate.toml", text)
        result = CliRunner().invoke(cli, ["gate", "--config", str(path), "--db", str(db)])
        assert result.exit_code == 2, result.output
        assert result.output.startswith("error: gate.toml: ") and expected in result.output
        assert result.output.count("\n") == 1


# --- bench config ------------------------------------------------------------------------

BENCH_BASE = (REPO / "examples" / "handbook" / "bench.toml")
from ragassay.bench import config as bench_config  # noqa: E402  (a plain import: never skip)


def _bench_doc() -> dict[str, Any]:
    return tomllib.loads(BENCH_BASE.read_text(encoding="utf-8"))


TABLES = ("bench", "generation", "strategy", "grid", "prices")


@settings(max_examples=150, deadline=None)
@given(table=st.sampled_from(TABLES), key=st.one_of(st.sampled_from(
    ["name", "corpus", "k", "size", "overlap", "chunker", "retriever", "threshold", "seed",
     "input"]), keys), value=st.one_of(values, st.lists(st.integers(-2, 2), max_size=2)))
def test_bench_config_names_the_bad_key(table: str, key: str, value: Any) -> None:
    doc = _bench_doc()
    if table == "strategy":
        doc["strategy"][1][key] = value
        entry = "strategy[1]"
    elif table == "grid":
        doc["grid"] = {"chunker": ["fixed"], key: value}
        entry = "grid"
    elif table == "prices":
        doc["prices"]["gpt-4o-mini"][key] = value
        entry = "prices.gpt-4o-mini"
    else:
        doc.setdefault(table, {})[key] = value
        entry = table
    with tempfile.TemporaryDirectory() as tmp:
        path = _write(tmp, "bench.toml", to_toml(doc))
        try:
            bench_config.load_config(path)
        except bench_config.ConfigError as exc:
            lines = str(exc).splitlines()
            assert all(line.startswith("bench.toml: ") for line in lines), lines
            places = [line.removeprefix("bench.toml: ") for line in lines]
            if not any(p.startswith("duplicate strategy name") for p in places):
                # a line names the key (or, for a value of the key, the key with its index)
                assert any(p.startswith(f"{entry}.{key}") for p in places), (entry, key, lines)


@pytest.mark.parametrize("mutate, expected", [
    (lambda d: d["bench"].update(nmae="x"), "bench.nmae: unknown key"),
    (lambda d: d["bench"].update(seed="zero"), "bench.seed"),
    (lambda d: d["strategy"][2].update(chunkr="fixed"), "strategy[2].chunkr: unknown key"),
    (lambda d: d["strategy"][0].update(k="four"), "strategy[0].k"),
    (lambda d: d["generation"].update(threshold=[1]), "generation.threshold"),
    (lambda d: d.update(extra={"a": 1}), "extra: unknown key"),
    (lambda d: d["prices"]["gpt-4o-mini"].update(input="cheap"), "prices.gpt-4o-mini.input"),
    (lambda d: d["strategy"][1].update(size=-5), "strategy[1].size: Input should be greater"),
    (lambda d: d.update(grid={"chunker": ["fixed"], "k": [0]}), "bench.toml: grid.k: Input"),
    (lambda d: d.update(grid={"chunker": ["fixed"], "overlap": [-1]}), "bench.toml: grid.overlap"),
])
def test_bench_config_errors(tmp_path: Path, mutate: Any, expected: str) -> None:
    doc = _bench_doc()
    mutate(doc)
    path = _write(str(tmp_path), "bench.toml", to_toml(doc))
    with pytest.raises(bench_config.ConfigError) as info:
        bench_config.load_config(path)
    assert expected in str(info.value)
    result = CliRunner().invoke(cli, ["bench", str(path), "--db", str(tmp_path / "r.db")])
    assert result.exit_code == 2 and expected in result.output
    assert "Traceback" not in result.output


@pytest.mark.parametrize("content, expected", [
    (b'[bench]\nname = "x" # \xff\n', "bench.toml: not valid UTF-8"),
    (b"[bench\n", "bench.toml: invalid TOML"),
])
def test_bench_config_unreadable(tmp_path: Path, content: bytes, expected: str) -> None:
    path = _write(str(tmp_path), "bench.toml", content)
    with pytest.raises(bench_config.ConfigError) as info:
        bench_config.load_config(path)
    assert str(info.value).startswith(expected)
    folder = tmp_path / "dir.toml"
    folder.mkdir()
    for target in (path, folder):
        result = CliRunner().invoke(cli, ["bench", str(target), "--db", str(tmp_path / "r.db")])
        assert result.exit_code == 2, result.output
        assert result.output.startswith("error: ") and "Traceback" not in result.output
