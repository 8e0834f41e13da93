"""`metadata.trace` holds the trace a sample was read from (`SampleTrace`, what the trace
loader writes there): a user's own value under that key (a trace id, a CSV column named
`trace`) is refused at load time in one line naming the row. Before, a string crashed
`ragassay report` (pydantic `json_invalid` in the hops section) and an object stopped
the run ("stopped by an error (ValidationError)") after loading."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from click.testing import CliRunner

import ragassay
from ragassay.cli import cli
from ragassay.dataset import DatasetError, load_samples
from ragassay.dataset.traces import SampleTrace
from ragassay.types import Sample

ROW = {"id": "a", "question": "How deep is the pool?", "answer": "It is 2 m deep.",
       "contexts": ["The swimming pool is 2 m deep."]}
WHY = ("metadata 'trace' is kept for the trace a sample was read from (a trace file's "
       "spans), and this row's ({}) is not one: rename the key, e.g. 'trace_id'")


@pytest.mark.parametrize(("trace", "kind"), [
    ("t-123", "string"), ({"id": "x1", "spans": 3}, "object"), (7, "int")])
def test_a_users_trace_key_is_refused_in_one_line_naming_the_row(
        tmp_path: Path, trace: object, kind: str) -> None:
    data = tmp_path / "d.jsonl"
    rows = [ROW, {**ROW, "id": "b", "metadata": {"trace": trace, "user": "u1"}}]
    data.write_text("".join(json.dumps(r) + "\n" for r in rows))
    out = CliRunner().invoke(cli, ["eval", str(data), "--metrics", "judge", "--db",
                                   str(tmp_path / "r.db"), "-q"])
    assert out.exit_code == 2, out.output
    assert out.output.strip() == "error: d.jsonl:2: " + WHY.format(kind)


def test_a_csv_column_named_trace_is_refused_too(tmp_path: Path) -> None:
    data = tmp_path / "d.csv"  # any column no field reads is kept in metadata
    data.write_text("question,answer,trace\nHow deep is the pool?,2 m.,t-123\n")
    with pytest.raises(DatasetError, match=r"^d\.csv:2: metadata 'trace' is kept for"):
        load_samples(data)


def test_samples_given_in_python_are_held_to_it(tmp_path: Path) -> None:
    sample = Sample(id="a", question="How deep is the pool?", metadata={"trace": "t-123"})
    with pytest.raises(DatasetError) as caught:
        ragassay.evaluate([sample], "judge", store=tmp_path / "r.db", progress=False)
    assert str(caught.value) == "samples:row 1: " + WHY.format("string")


def test_a_trace_under_the_key_is_still_read_as_one(tmp_path: Path) -> None:
    trace = SampleTrace(trace_id="t-1", span_id="s-1").model_dump(mode="json")
    [sample] = load_samples([{**ROW, "metadata": {"trace": trace, "user": "u1"}}])
    assert isinstance(sample, Sample) and SampleTrace.of(sample) is not None
