"""Property tests: hostile files give samples, InvalidRows or one-line errors, never crashes.

Every loaded item must also survive the store (a sample the loader accepts but the
store cannot serialise would crash a run later, far from the bad row).
"""

from __future__ import annotations

import json
import tempfile
from pathlib import Path

import pyarrow as pa
import pyarrow.parquet as pq
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from ragassay.dataset import DatasetError, load_samples
from ragassay.store import Store
from ragassay.types import InvalidRow, RunConfig, Sample
from tests.reliability.bad_input import (
    check_error,
    csv_bytes,
    json_list_bytes,
    json_values,
    jsonl_bytes,
    rows,
)

pytestmark = pytest.mark.timeout(120)
PROPS = settings(max_examples=60, deadline=None,
                 suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])


def _load(data: bytes, suffix: str, skip_invalid: bool) -> tuple[list, str]:
    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp) / f"data{suffix}"
        path.write_bytes(data)
        return load_samples(path, skip_invalid=skip_invalid), path.name


def _storable(items: list) -> None:
    with Store(":memory:") as store:
        run = store.create_run(RunConfig(dataset="x"), package_version="t", dataset_hash=None,
                               judge_model="m")
        store.add_samples(run, items)
        assert list(store.iter_samples(run)) == items


def _check_file(data: bytes, suffix: str) -> None:
    try:
        strict, name = _load(data, suffix, skip_invalid=False)
    except DatasetError as exc:
        check_error(exc, f"data{suffix}")
        strict = None
    if strict is not None:
        assert all(isinstance(s, Sample) for s in strict)
        _storable(strict)
    try:
        lenient, name = _load(data, suffix, skip_invalid=True)
    except DatasetError as exc:
        # only problems with the file as a whole survive --skip-invalid
        check_error(exc, f"data{suffix}")
        assert strict is None
        return
    assert lenient, "an empty result must be an error"
    for item in lenient:
        if isinstance(item, InvalidRow):
            assert item.source.startswith(name + ":") and item.reason
            assert "\n" not in item.reason
    if strict is not None:
        assert lenient == strict
    _storable(lenient)
    assert len({(i.id) for i in lenient}) == len(lenient)  # ids stay unique


@PROPS
@given(jsonl_bytes())
def test_jsonl_never_crashes(data: bytes) -> None:
    _check_file(data, ".jsonl")


@PROPS
@given(jsonl_bytes())
def test_jsonl_skip_invalid_keeps_every_line(data: bytes) -> None:
    try:
        items, name = _load(data, ".jsonl", skip_invalid=True)
    except DatasetError as exc:
        assert "no samples" in check_error(exc, "data.jsonl")
        return
    lines = data.split(b"\n")
    if lines and lines[0].startswith(b"\xef\xbb\xbf"):
        lines[0] = lines[0][3:]
    filled = [i + 1 for i, ln in enumerate(lines) if ln.strip()]
    assert len(items) == len(filled)
    for item, lineno in zip(items, filled, strict=True):
        if isinstance(item, InvalidRow):
            assert item.source == f"{name}:{lineno}"


@PROPS
@given(csv_bytes())
def test_csv_never_crashes(data: bytes) -> None:
    _check_file(data, ".csv")


@PROPS
@given(json_list_bytes())
def test_json_never_crashes(data: bytes) -> None:
    _check_file(data, ".json")


@PROPS
@given(st.binary(max_size=200), st.sampled_from([".jsonl", ".csv", ".json", ".parquet",
                                                 ".jsonl.gz", ".csv.gz"]))
def test_random_bytes_never_crash(data: bytes, suffix: str) -> None:
    _check_file(data, suffix)


_ARROW_COLUMNS = {
    "question": st.sampled_from([pa.string(), pa.int64(), pa.list_(pa.string()), pa.binary()]),
    "contexts": st.sampled_from([pa.list_(pa.string()), pa.string(), pa.list_(pa.int64()),
                                 pa.struct([("a", pa.string())])]),
    "answer": st.sampled_from([pa.string(), pa.float64(), pa.bool_()]),
    "reference": st.sampled_from([pa.string(), pa.list_(pa.string()), pa.int32()]),
    "id": st.sampled_from([pa.string(), pa.int64(), pa.float64()]),
    "labels": st.sampled_from([pa.struct([("correct", pa.bool_())]), pa.string()]),
    "extra": st.sampled_from([pa.string(), pa.timestamp("s"), pa.list_(pa.float32())]),
}


def _arrow_value(typ: pa.DataType, i: int, draw: st.DrawFn) -> object:
    if draw(st.integers(0, 5)) == 0:
        return None
    if pa.types.is_string(typ):
        return draw(st.sampled_from(["", " ", "a\x00b", f"text {i}", "é😀"]))
    if pa.types.is_binary(typ):
        return draw(st.binary(max_size=6))
    if pa.types.is_integer(typ):
        return draw(st.integers(-5, 5))
    if pa.types.is_floating(typ):
        return draw(st.sampled_from([0.5, float("nan"), float("inf"), -1.0]))
    if pa.types.is_boolean(typ):
        return draw(st.booleans())
    if pa.types.is_timestamp(typ):
        return draw(st.integers(0, 2**31))
    if pa.types.is_list(typ):
        return [_arrow_value(typ.value_type, i, draw) for _ in range(draw(st.integers(0, 2)))]
    if pa.types.is_struct(typ):
        return {f.name: _arrow_value(f.type, i, draw) for f in typ}
    raise AssertionError(typ)  # pragma: no cover


@st.composite
def parquet_tables(draw: st.DrawFn) -> pa.Table:
    names = draw(st.lists(st.sampled_from(sorted(_ARROW_COLUMNS)), min_size=1, max_size=5,
                          unique=True))
    n = draw(st.integers(0, 4))
    columns = {}
    for name in names:
        typ = draw(_ARROW_COLUMNS[name])
        columns[name] = pa.array([_arrow_value(typ, i, draw) for i in range(n)], type=typ)
    return pa.table(columns)


@settings(max_examples=30, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(parquet_tables())
def test_parquet_never_crashes(table: pa.Table) -> None:
    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp) / "data.parquet"
        pq.write_table(table, path)
        data = path.read_bytes()
    _check_file(data, ".parquet")


@PROPS
@given(st.lists(st.one_of(rows(), json_values), max_size=5))
def test_in_memory_rows_never_crash(items: list) -> None:
    try:
        loaded = load_samples(items, skip_invalid=True, name="rows")
    except DatasetError as exc:
        check_error(exc, "rows")
        assert not items
        return
    assert len(loaded) == len(items)
    _storable(loaded)


def test_lone_surrogate_is_a_row_error_not_a_crash(tmp_path: Path) -> None:
    """A JSON escape like \\ud800 decodes to a string that UTF-8 cannot encode."""
    path = tmp_path / "s.jsonl"
    path.write_text('{"question": "q\\ud800"}\n{"question": "ok", "metadata": {"k": "\\udfff"}}\n'
                    '{"question": "fine"}\n', encoding="utf-8")
    with pytest.raises(DatasetError) as info:
        load_samples(path)
    assert check_error(info.value, "s.jsonl:1")
    items = load_samples(path, skip_invalid=True)
    assert [type(i).__name__ for i in items] == ["InvalidRow", "InvalidRow", "Sample"]
    assert [i.source for i in items[:2]] == ["s.jsonl:1", "s.jsonl:2"]
    assert "question" in items[0].reason and "metadata" in items[1].reason
    _storable(items)


@pytest.mark.timeout(60)
def test_huge_field_and_100k_contexts_load_quickly(tmp_path: Path) -> None:
    path = tmp_path / "big.jsonl"
    big = "word " * 2_000_000  # 10 MB
    with path.open("w", encoding="utf-8") as fh:
        fh.write(json.dumps({"id": "big", "question": "q?", "answer": big}) + "\n")
        fh.write(json.dumps({"id": "many", "question": "q?",
                             "contexts": [f"c{i}" for i in range(100_000)]}) + "\n")
        fh.write(json.dumps({"id": "bad", "question": "q?",
                             "contexts": [f"c{i}" for i in range(99_999)] + [7]}) + "\n")
    with pytest.raises(DatasetError) as info:
        load_samples(path)
    assert str(info.value) == "big.jsonl:3: 'contexts' must be a list of strings (item 100000 " \
        "is int)"
    items = load_samples(path, skip_invalid=True)
    assert len(items[0].answer) == 10_000_000 and len(items[1].contexts) == 100_000
    assert isinstance(items[2], InvalidRow)
    _storable(items)
