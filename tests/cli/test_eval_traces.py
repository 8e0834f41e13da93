"""`ragassay eval` of a trace file: --trace-map, its one-line mistakes, resume, .gz,
and the Python API's trace_map."""

from __future__ import annotations

import gzip
from pathlib import Path

import pytest
from click.testing import CliRunner

import ragassay
from ragassay.cli import cli
from ragassay.dataset import DatasetError
from ragassay.store import Store
from tests.support.traces import TRACE, openinference_trace, write_otlp


def _traces(tmp_path: Path) -> Path:
    spans = openinference_trace()
    spans[0]["attributes"].append({"key": "app.user_query",
                                   "value": {"stringValue": "Who built the tower?"}})
    return write_otlp(tmp_path / "traces.jsonl", [spans])


def test_trace_map_reads_another_question_and_resume_keeps_it(tmp_path: Path) -> None:
    data, db = _traces(tmp_path), tmp_path / "t.db"
    out = CliRunner().invoke(cli, ["eval", str(data), "--metrics", "trace", "--db", str(db),
                                   "--trace-map", "question=app.user_query", "-q"])
    assert out.exit_code == 0, out.output
    with Store(db) as store:
        [run] = store.list_runs()
        assert run.config.trace_map == {"question": ["app.user_query"]}
        [sample] = list(store.iter_samples(run.id))
        assert sample.question == "Who built the tower?"
    again = CliRunner().invoke(cli, ["eval", str(data), "--db", str(db), "--resume", run.id,
                                     "-q"])
    assert again.exit_code == 0, again.output
    with Store(db) as store:
        [sample] = list(store.iter_samples(run.id))
        assert sample.question == "Who built the tower?"  # the stored map, read again


@pytest.mark.parametrize(("args", "message"), [
    (["--trace-map", "questoin=x"], "--trace-map: unknown trace role 'questoin' (roles: kind, "
                                    "question, answer, query, documents, strategy, reference)"),
    (["--trace-map", "question"], "--trace-map 'question': expected ROLE=ATTR[,ATTR...]"),
    (["--map", "answer=x"], "traces.jsonl: --map applies to rows, not traces: use --trace-map"),
])
def test_mapping_mistakes_are_one_line(tmp_path: Path, args: list[str], message: str) -> None:
    out = CliRunner().invoke(cli, ["eval", str(_traces(tmp_path)), "--db",
                                   str(tmp_path / "t.db"), *args])
    assert out.exit_code == 2
    assert message in out.output and len(out.output.strip().splitlines()) == 1


def test_a_trace_without_a_question_stops_with_the_span_named(tmp_path: Path) -> None:
    data = write_otlp(tmp_path / "bad.jsonl", [openinference_trace(question=None)])
    out = CliRunner().invoke(cli, ["eval", str(data), "--db", str(tmp_path / "t.db")])
    assert out.exit_code == 2
    assert (f"bad.jsonl: trace {TRACE}: no question: root span 'rag' (a000000000000001) has "
            "none of input.value") in out.output


def test_gzipped_traces_and_the_api_trace_map(tmp_path: Path) -> None:
    plain = _traces(tmp_path)
    data = tmp_path / "traces.json.gz"
    data.write_bytes(gzip.compress(plain.read_bytes()))
    result = ragassay.evaluate(data, "trace", store=tmp_path / "a.db", progress=False,
                               trace_map={"question": ["app.user_query"]})
    [entry] = result.report().entries
    assert entry.question == "Who built the tower?" and entry.trace is not None
    with pytest.raises(DatasetError, match="unknown trace role 'x'"):
        ragassay.evaluate(data, "trace", store=tmp_path / "a.db", progress=False,
                          trace_map={"x": ["y"]})
