"""The streamed JSON report is the same document as dumping the whole report at once."""

from __future__ import annotations

import io
import json
from pathlib import Path

import pytest

from ragassay.report import build_report, dump_json, entry_json, iter_details, report_json
from ragassay.store import Store
from tests.report.conftest import entry, make_report


@pytest.mark.parametrize("n", [0, 1, 3])
def test_streamed_details_parse_to_the_same_document(n: int) -> None:
    details = [entry(f"s{i}", {"x": i / 3, "y": None}, question="<b>&", answer="é \"q\"\n")
               for i in range(n)]
    report = make_report(dataset="é \"quoted\"\n")
    fh = io.StringIO()
    dump_json(report, fh, iter(details))
    assert json.loads(fh.getvalue()) == {**report_json(report),
                                         "detailed_results": [entry_json(e) for e in details]}
    plain = io.StringIO()
    whole = report.model_copy(update={"detailed_results": details})
    dump_json(whole, plain)
    assert plain.getvalue() == json.dumps(report_json(whole), indent=2, ensure_ascii=False)
    assert json.loads(plain.getvalue()) == json.loads(fh.getvalue())


def test_non_finite_numbers_are_refused() -> None:
    with pytest.raises(ValueError):
        dump_json(make_report(), io.StringIO(), iter([entry("a", {"x": float("nan")})]))


def test_streamed_report_file_equals_the_built_report(
    run: tuple[Store, str], tmp_path: Path
) -> None:
    from ragassay.cli.app import write_report

    store, run_id = run
    out = tmp_path / "report.json"
    write_report(build_report(store, run_id, include_details=False), out,
                 details=iter_details(store, run_id))
    got = json.loads(out.read_text(encoding="utf-8"))
    want = report_json(build_report(store, run_id))
    for doc in (got, want):
        doc["evaluation_metadata"].pop("generated")
    assert got == want
    assert not out.with_name("report.json.part").exists()
