"""Hostile and large trace files (issue 43, items 4 and 12).

Item 4: on 4f8feb9 reading a trace file was quadratic (the line of each value was
counted from the file's start: 10k spans one per line 8.8 s, 40k 183 s) and `eval`
parsed the file twice (its check, then the run). Now lines are counted on from the
last value, and the run takes the spans its check parsed.

Item 12: `Infinity`/`NaN` timestamps and attributes nested ~980 deep ended in a
traceback (OverflowError, RecursionError); a NaN error named no file, line or span.
"""

from __future__ import annotations

import json
import time
from pathlib import Path

from click.testing import CliRunner, Result

from ragassay.cli import cli
from tests.support.traces import docs, openinference_trace, request, span


def _traces(path: Path, n_spans: int) -> Path:
    """`n_spans` spans, one per line (as a batching exporter flushing each span writes
    them): traces of a question, one retrieval and an answer."""
    lines = []
    for t in range(n_spans // 3):
        tid, root = f"{t:032x}", f"{3 * t + 1:016x}"
        lines += [json.dumps(request([s])) for s in (
            span(root, "rag", {"openinference.span.kind": "CHAIN",
                               "input.value": f"What is {t}?"}, trace=tid, end=10),
            span(f"{3 * t + 2:016x}", "retrieve", {
                "openinference.span.kind": "RETRIEVER",
                **docs("retrieval.documents", [("d", f"{t} is a number.")])},
                parent=root, trace=tid, start=1, end=2),
            span(f"{3 * t + 3:016x}", "generate", {"openinference.span.kind": "LLM",
                                                   "output.value": f"It is {t}."},
                 parent=root, trace=tid, start=3, end=4))]
    path.write_text("\n".join(lines) + "\n")
    return path


def _read_bytes() -> int:
    """Bytes this process has read so far (read(2) and friends: /proc/self/io rchar)."""
    for line in Path("/proc/self/io").read_text().splitlines():
        if line.startswith("rchar:"):
            return int(line.split()[1])
    raise AssertionError("no rchar in /proc/self/io")


def _dry_run(path: Path, tmp: Path) -> tuple[Result, float, int]:
    """`eval --dry-run` in this process: (result, CPU seconds, bytes read)."""
    cpu, read = time.process_time(), _read_bytes()
    result = CliRunner().invoke(cli, ["eval", str(path), "--metrics", "judge", "--db",
                                      str(tmp / "x.db"), "--dry-run"])
    return result, time.process_time() - cpu, _read_bytes() - read


def test_a_trace_file_is_read_in_linear_time_and_parsed_once(tmp_path: Path) -> None:
    _dry_run(_traces(tmp_path / "warm.jsonl", 30), tmp_path)  # imports, tables: loaded
    small = _traces(tmp_path / "small.jsonl", 1_800)
    large = _traces(tmp_path / "large.jsonl", 16 * 1_800)
    done, small_cpu, _ = _dry_run(small, tmp_path)
    assert done.exit_code == 0, done.output
    done, large_cpu, large_read = _dry_run(large, tmp_path)
    assert done.exit_code == 0, done.output
    assert "dry run: 9600 samples" in done.output
    # 16 times the spans: linear work is about 16 times the CPU; the old per-value count
    # from the file's start made it several hundred times (a size ratio, not a timing)
    assert large_cpu / small_cpu < 40, (small_cpu, large_cpu)
    # the check and the estimate share one parse: the file's bytes are read by that
    # parse and the format sniff (its first MiB) only, not once per pass (twice its size)
    size = large.stat().st_size
    assert size > 16 << 20
    assert large_read < 1.4 * size, (large_read, size)


def _one_trace(**changes: object) -> dict[str, object]:
    """The two-hop OpenInference trace as one OTLP export, its root span changed."""
    spans = openinference_trace()
    spans[0].update(changes)
    return request(spans)


def _error(result: Result) -> str:
    assert result.exit_code == 2, result.output
    assert result.exception is None or isinstance(result.exception, SystemExit), \
        result.exception
    assert result.output.count("\n") == 1, result.output
    return result.output


def _eval(path: Path, tmp: Path, *extra: str) -> Result:
    return CliRunner().invoke(cli, ["eval", str(path), "--metrics", "trace", "--db",
                                    str(tmp / "t.db"), "-q", *extra])


def test_a_time_that_is_no_time_names_the_file_line_and_span(tmp_path: Path) -> None:
    cases = {  # json.dumps writes Infinity and NaN as the JavaScript literals
        "inf.jsonl": json.dumps(_one_trace(startTimeUnixNano=float("inf"))),
        "nan.jsonl": json.dumps(_one_trace(endTimeUnixNano=float("nan"))),
        "text.jsonl": json.dumps(_one_trace(startTimeUnixNano="-Infinity")),
        "far.jsonl": json.dumps(_one_trace(startTimeUnixNano=1e300)),
        "sdk.jsonl": json.dumps({"name": "rag", "context": {"trace_id": "0x" + "1" * 32,
                                                          "span_id": "0x" + "2" * 16},
                                 "start_time": float("inf"), "end_time": None,
                                 "attributes": {"input.value": "Why?"}}),
    }
    for name, line in cases.items():
        path = tmp_path / name
        path.write_text("\n" + line + "\n")  # on the file's second line
        out = _error(_eval(path, tmp_path))
        assert out.startswith(f"error: {name}:2: span 'rag': a start or end time that is "
                              "no time ("), out


def test_attributes_nested_past_the_stack_are_one_line(tmp_path: Path) -> None:
    for depth in (200, 975, 5000):
        deep = '{"k": ' * depth + '"x"' + "}" * depth  # past the stack when read back
        path = tmp_path / f"deep{depth}.jsonl"
        path.write_text('{"name": "rag", "context": {"trace_id": "0x' + "1" * 32 + '", '
                        '"span_id": "0x' + "2" * 16 + '"}, "attributes": {"input.value": '
                        '"Why?", "deep": ' + deep + "}}\n")
        out = _error(_eval(path, tmp_path))
        assert out.startswith(f"error: deep{depth}.jsonl:1: "), out
        assert "nested more than 64 levels deep" in out, out


def test_skip_invalid_skips_a_bad_line_of_a_trace_file(tmp_path: Path) -> None:
    """Issue 43, item 15: one bad or truncated line stopped a whole trace file, even
    with --skip-invalid. Now each is an invalid row (`file:line: reason`), a trace that
    lost a span to it is one too, and every other trace is scored."""
    good = _traces(tmp_path / "good.jsonl", 30).read_text().splitlines()
    broken_span = json.loads(good[4])  # the second trace's retrieval, its id broken
    broken_span["resourceSpans"][0]["scopeSpans"][0]["spans"][0]["spanId"] = "zz"
    lines = [json.dumps(_one_trace(startTimeUnixNano=float("inf"))), *good[:4],
             json.dumps(broken_span), *good[5:10], '{"resourceSpans": [{"scopeSp',
             *good[10:]]
    path = tmp_path / "mixed.jsonl"
    path.write_text("\n".join(lines) + "\n")
    out = _error(_eval(path, tmp_path))
    assert out.startswith("error: mixed.jsonl:1: span 'rag': a start or end time"), out
    done = _eval(path, tmp_path, "--skip-invalid")
    assert done.exit_code == 0, done.output
    assert "skipped 4 invalid rows of 13" in done.output
    report = json.loads(CliRunner().invoke(cli, ["report", "--db",
                                                 str(tmp_path / "t.db")]).output)
    invalid = {row["source"]: row["reason"] for row in report["invalid_rows"]}
    assert invalid["mixed.jsonl:1"].startswith("span 'rag': a start or end time")
    assert invalid["mixed.jsonl:6"] == "span 'retrieve': 'spanId' is not a trace or span id"
    assert invalid["mixed.jsonl:12"].startswith("invalid JSON")
    trace = f"mixed.jsonl: trace {1:032x}"
    assert invalid[trace].startswith("incomplete: a span of it at mixed.jsonl:6 could not")
    assert report["evaluation_metadata"]["scored_samples"] == 9  # the other traces


def test_rows_whose_metadata_carries_otel_ids_are_rows(tmp_path: Path) -> None:
    """Issue 43, item 15: a row dataset whose metadata carries OpenTelemetry ids (a
    `trace_id`, a `span_id`, a `context` object) was taken for a trace file, with no way
    to say otherwise. Now the keys of the first object decide, and `--format rows` /
    `--format traces` say it outright (stored with the run: a resume reads alike)."""
    ids = {"trace_id": "ab" * 16, "span_id": "cd" * 8}
    rows = [{"id": f"r{i}", "question": f"What is {i}?", "contexts": [f"{i} is a number."],
             "answer": f"It is {i}.", "metadata": {**ids, "context": ids}} for i in range(3)]
    lines = tmp_path / "rows.jsonl"
    lines.write_text("".join(json.dumps(r) + "\n" for r in rows))
    listed = tmp_path / "rows.json"
    listed.write_text(json.dumps(rows, indent=2))
    for path in (lines, listed):
        done = _eval(path, tmp_path)
        assert done.exit_code == 0, done.output
    forced = _error(_eval(lines, tmp_path, "--format", "traces"))
    assert forced.startswith("error: rows.jsonl:1: span ''"), forced
    traces = tmp_path / "t.jsonl"
    traces.write_text(json.dumps(_one_trace()) + "\n")
    as_rows = _error(_eval(traces, tmp_path, "--format", "rows"))
    assert as_rows.startswith("error: t.jsonl:1: 'question' is required"), as_rows
    db = tmp_path / "r.db"
    started = CliRunner().invoke(cli, ["eval", str(lines), "--metrics", "trace", "--db",
                                       str(db), "-q", "--format", "rows"])
    assert started.exit_code == 0, started.output
    run = json.loads(CliRunner().invoke(cli, ["runs", "list", "--db", str(db), "--format",
                                              "json"]).output)[0]["id"]
    again = CliRunner().invoke(cli, ["eval", str(lines), "--db", str(db), "-q", "--resume",
                                     run, "--format", "traces"])
    assert _error(again).startswith(f"error: run {run} was evaluated with --format rows")
