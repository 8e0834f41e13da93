"""Hostile files that used to crash the loader (issue 17, item 5): a 5,000-digit integer,
JSON nested 100,000 or 900 levels deep, in JSONL, CSV and JSON-list files and in rows
from Python. Each gives one line naming the place and exit 2, or, with --skip-invalid,
the row is skipped with that reason; the run goes on. Never a traceback.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from click.testing import CliRunner

from ragassay.cli import cli
from ragassay.dataset import DatasetError, load_samples
from ragassay.dataset.values import MAX_DEPTH, MAX_DIGITS
from ragassay.types import InvalidRow, Sample

pytestmark = pytest.mark.timeout(120)

HUGE = "7" * 5000
GOOD = {"question": "Which plan?", "contexts": ["The Free plan."], "answer": "The Free plan."}


def _deep(levels: int) -> str:
    return "[" * levels + "]" * levels


def _jsonl(value_text: str, where: str) -> bytes:
    """A JSONL file: a good row, then one whose `where` holds the raw JSON value text."""
    good = json.dumps(GOOD)
    if where == "metadata":
        bad = '{"question": "q?", "answer": "a", "contexts": ["c"], "metadata": {"n": ' \
              + value_text + "}}"
    elif where == "labels":
        bad = '{"question": "q?", "answer": "a", "contexts": ["c"], "labels": {"x": ' \
              + value_text + "}}"
    else:  # an extra column
        bad = '{"question": "q?", "answer": "a", "contexts": ["c"], "extra": ' + value_text + "}"
    return (good + "\n" + bad + "\n" + good.replace("Which", "What") + "\n").encode()


CASES = {
    # name: (file name, bytes, the reason the bad row gets)
    "jsonl_huge_int_metadata": ("d.jsonl", _jsonl(HUGE, "metadata"),
                                f"'metadata' holds an integer of 5000 digits (more than "
                                f"{MAX_DIGITS})"),
    "jsonl_huge_negative_int": ("d.jsonl", _jsonl("-" + HUGE, "extra"),
                                "'extra' holds an integer of 5000 digits"),
    "jsonl_100k_deep": ("d.jsonl", _jsonl(_deep(100_000), "extra"),
                        f"JSON nested more than {MAX_DEPTH} levels deep"),
    "jsonl_900_deep": ("d.jsonl", _jsonl(_deep(900), "labels"),
                       f"'labels' is nested more than {MAX_DEPTH} levels deep"),
    "csv_huge_int_contexts": ("d.csv", (
        "question,contexts,answer\nq1?,c,a\n"
        f'q2?,"[{HUGE}]",a\nq3?,c,a\n').encode(),
        "'contexts' holds an integer of 5000 digits"),
    "csv_deep_labels": ("d.csv", (
        "question,contexts,answer,labels\nq1?,c,a,\n"
        f'q2?,c,a,"{{""x"": {_deep(100_000)}}}"\nq3?,c,a,\n').encode(),
        f"JSON nested more than {MAX_DEPTH} levels deep"),
    "csv_900_deep_metadata_column": ("d.csv", (
        "question,contexts,answer,metadata.x\nq1?,c,a,1\n"
        f"q2?,c,a,{_deep(900)}\nq3?,c,a,2\n").encode(),
        f"'metadata.x' is nested more than {MAX_DEPTH} levels deep"),
    "json_list_huge_int": ("d.json", (
        "[" + json.dumps(GOOD) + ', {"question": "q?", "answer": "a", "contexts": ["c"], '
        '"metadata": {"n": ' + HUGE + "}}, " + json.dumps({**GOOD, "id": "z"}) + "]").encode(),
        "'metadata' holds an integer of 5000 digits"),
    "json_list_900_deep": ("d.json", (
        "[" + json.dumps(GOOD) + ', {"question": "q?", "answer": "a", "contexts": ["c"], '
        '"x": ' + _deep(900) + "}, " + json.dumps({**GOOD, "id": "z"}) + "]").encode(),
        f"'x' is nested more than {MAX_DEPTH} levels deep"),
}


@pytest.mark.parametrize("case", sorted(CASES))
def test_loader_names_the_row_and_skips_it_when_asked(tmp_path: Path, case: str) -> None:
    name, content, reason = CASES[case]
    path = tmp_path / name
    path.write_bytes(content)
    with pytest.raises(DatasetError) as info:
        load_samples(path)
    assert str(info.value).startswith(f"{name}:")
    assert reason in str(info.value) and "\n" not in str(info.value)
    items = load_samples(path, skip_invalid=True)
    assert [type(i) for i in items] == [Sample, InvalidRow, Sample]
    assert reason in items[1].reason  # type: ignore[union-attr]


@pytest.mark.parametrize("case", sorted(CASES))
def test_cli_one_line_exit_2_or_the_row_skipped(tmp_path: Path, case: str) -> None:
    name, content, reason = CASES[case]
    path, db = tmp_path / name, tmp_path / "r.db"
    path.write_bytes(content)
    strict = CliRunner().invoke(cli, ["eval", str(path), "--metrics", "judge", "--db", str(db),
                                      "-q"])
    assert strict.exit_code == 2 and "Traceback" not in strict.output
    lines = strict.output.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith(f"error: {name}:") and reason in lines[0]
    out = tmp_path / "report.json"
    lenient = CliRunner().invoke(cli, ["eval", str(path), "--metrics", "judge", "--db", str(db),
                                       "-q", "--skip-invalid", "--out", str(out)])
    assert lenient.exit_code == 0, lenient.output
    report = json.loads(out.read_text(encoding="utf-8"))
    assert [r["reason"] for r in report["invalid_rows"]] == [lines[0].split(": ", 2)[2]]
    assert report["evaluation_metadata"]["total_samples"] == 3


def test_a_json_list_nested_past_the_decoder_stops_with_one_line(tmp_path: Path) -> None:
    """100,000 levels inside a .json list: its end cannot be found, so the file stops
    (also with --skip-invalid), with one line naming the place."""
    path = tmp_path / "d.json"
    path.write_text("[" + json.dumps(GOOD) + ",\n" + _deep(100_000) + "]", encoding="utf-8")
    for extra in ((), ("--skip-invalid",)):
        result = CliRunner().invoke(cli, ["eval", str(path), "--db", str(tmp_path / "r.db"),
                                          "-q", *extra])
        assert result.exit_code == 2, result.output
        assert result.output == (f"error: d.json:2: JSON nested more than {MAX_DEPTH} "
                                 "levels deep\n")


def test_rows_from_python_are_held_to_the_same_limits() -> None:
    deep: list = []
    inner = deep
    for _ in range(5000):  # deeper than the interpreter's recursion limit
        inner.append([])
        inner = inner[0]
    huge = 7 * (10**5000 - 1) // 9  # 5,000 sevens (int() of the text would refuse it)
    rows = [dict(GOOD), {**GOOD, "metadata": {"n": huge}}, {**GOOD, "extra": deep},
            {**GOOD, "id": "ok"}]
    items = load_samples(rows, skip_invalid=True, name="rows")
    assert [type(i) for i in items] == [Sample, InvalidRow, InvalidRow, Sample]
    assert items[1].reason == f"'metadata' holds an integer of more than {MAX_DIGITS} digits"
    assert items[2].reason == f"'extra' is nested more than {MAX_DEPTH} levels deep"
    assert items[1].source == "rows:row 2"


def test_nesting_up_to_the_limit_is_kept() -> None:
    value: object = "leaf"
    for _ in range(MAX_DEPTH - 1):  # metadata itself is one level
        value = [value]
    (sample,) = load_samples([{**GOOD, "metadata": {"x": value}}])
    assert isinstance(sample, Sample) and sample.metadata["x"] == value
