"""The streamed JSON report is the same document as dumping the whole report at once."""

from __future__ import annotations

import io
import json
from pathlib import Path

import pytest

from ragassay.report import build_report, dump_json, iter_details
from ragassay.store import Store


@pytest.mark.parametrize("n", [0, 1, 3])
def test_streamed_details_parse_to_the_same_document(n: int) -> None:
    report = {"evaluation_metadata": {"run_id": "r", "note": "é \"quoted\"\n"}, "usage": {}}
    details = [{"id": f"s{i}", "metrics": {"x": i / 3, "y": None}, "text": "<b>&"} for i in
               range(n)]
    fh = io.StringIO()
    dump_json(report, fh, iter(details))
    assert json.loads(fh.getvalue()) == {**report, "detailed_results": details}
    plain = io.StringIO()
    dump_json(report, plain)
    assert plain.getvalue() == json.dumps(report, indent=2, ensure_ascii=False)


def test_empty_report_with_details() -> None:
    fh = io.StringIO()
    dump_json({}, fh, iter([{"id": "a"}]))
    assert json.loads(fh.getvalue()) == {"detailed_results": [{"id": "a"}]}


def test_non_finite_numbers_are_refused() -> None:
    with pytest.raises(ValueError):
        dump_json({"a": 1}, io.StringIO(), iter([{"x": float("nan")}]))


def test_streamed_report_file_equals_the_built_report(
    run: tuple[Store, str], tmp_path: Path
) -> None:
    from ragassay.cli.app import write_json

    store, run_id = run
    out = tmp_path / "report.json"
    write_json(build_report(store, run_id, include_details=False), out,
               details=iter_details(store, run_id))
    got = json.loads(out.read_text(encoding="utf-8"))
    want = build_report(store, run_id)
    for doc in (got, want):
        doc["evaluation_metadata"].pop("generated")
    assert got == want
    assert not out.with_name("report.json.part").exists()
