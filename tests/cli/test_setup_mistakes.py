"""Setup mistakes fail loudly (issue 16, items 2, 3, 5-9 and 11): each test reproduces a
mistake that used to pass quietly and asserts one line, the right exit code, no
traceback, or the console line that now says what could not be done."""

from __future__ import annotations

import json
import re
import shutil
import sqlite3
from pathlib import Path

import pytest
from click.testing import CliRunner, Result

from ragassay.bench import load_config, load_questions
from ragassay.bench.questions import QuestionsError
from ragassay.cli import cli
from ragassay.corpus.documents import load_corpus
from ragassay.dataset import load_samples
from ragassay.store import Store
from ragassay.types import Sample

REPO = Path(__file__).resolve().parents[2]
HANDBOOK = REPO / "examples" / "handbook"


def invoke(*args: str, cwd: Path | None = None) -> Result:
    return CliRunner().invoke(cli, [str(a) for a in args])


def one_line_error(result: Result, start: str) -> str:
    assert result.exit_code == 2, result.output
    assert "Traceback" not in result.output and result.exception is None or isinstance(
        result.exception, SystemExit)
    assert result.output.count("\n") == 1, result.output
    assert result.output.startswith(f"error: {start}"), result.output
    return result.output


def rows(path: Path, items: list[dict]) -> Path:
    path.write_text("".join(json.dumps(r) + "\n" for r in items), encoding="utf-8")
    return path


def good(i: int, **extra: object) -> dict:
    return {"id": f"g{i}", "question": f"What is fact {i}?", "contexts": [f"Fact {i} is {i}."],
            "answer": f"Fact {i} is {i}.", "reference": f"{i}", **extra}


# -- 2: unknown judge backend, bad spec -------------------------------------------------


@pytest.mark.parametrize(("spec", "why"), [
    ("gpt-4o-mini", "unknown judge backend 'gpt-4o-mini'"),
    ("anthropic:claude", "unknown judge backend 'anthropic'"),
    ("offline:x", "the offline judge's only mode is offline:accurate"),
    ("openai:", "no model after 'openai:'"),
])
def test_a_bad_judge_spec_lists_the_backends_and_the_syntax(tmp_path: Path, spec: str,
                                                            why: str) -> None:
    data = rows(tmp_path / "d.jsonl", [good(1)])
    for command in (["eval", data], ["meta-eval", data],
                    ["bench", HANDBOOK / "bench.toml", "--judge"]):
        args = [*command, "--judge", spec] if command[0] != "bench" else [*command, spec]
        out = one_line_error(invoke(*args, "--db", tmp_path / "r.db"), f"--judge {spec!r}: ")
        assert why in out
        assert ("use offline (or offline:accurate), or BACKEND:MODEL with a known backend "
                    "(litellm, llamacpp, openai)"
                in out)
    assert not (tmp_path / "r.db").exists()


def test_a_provider_name_as_backend_points_at_litellm(tmp_path: Path) -> None:
    data = rows(tmp_path / "d.jsonl", [good(1)])
    out = one_line_error(invoke("eval", data, "--judge", "anthropic:claude-3-5-haiku-latest",
                                "--db", tmp_path / "r.db"), "--judge ")
    assert "did you mean litellm:anthropic/claude-3-5-haiku-latest?" in out


# -- 3: unrecognised columns, --map, rows lacking an input -------------------------------


def _foreign(path: Path) -> Path:
    return rows(path, [{"id": f"f{i}", "question": f"What is fact {i}?",
                        "generated_answer": f"Fact {i} is {i}.",
                        "retrieved_docs": [f"Fact {i} is {i}."], "gold": f"{i}"}
                       for i in range(4)])


def test_unknown_columns_stop_with_the_accepted_names(tmp_path: Path) -> None:
    data = _foreign(tmp_path / "d.jsonl")
    out = one_line_error(invoke("eval", data, "--db", tmp_path / "r.db", "-q"),
                         "d.jsonl: no row has an answer, and none has contexts or a reference")
    assert "unknown columns: generated_answer, retrieved_docs, gold" in out
    assert "answer: answer, response" in out and "contexts: contexts, retrieved_contexts" in out
    assert out.rstrip().endswith("--map answer=generated_answer --map contexts=retrieved_docs")
    assert not (tmp_path / "r.db").exists()  # nothing judged, nothing stored


@pytest.mark.parametrize("columns, hint", [
    # the new-user trial: retrieved_docs came first and was offered as the answer
    (["retrieved_docs", "generated_answer"],
     "--map answer=generated_answer --map contexts=retrieved_docs"),
    (["gold_answer", "model_output"], "--map answer=model_output --map reference=gold_answer"),
    (["passages", "x"], "--map answer=x --map contexts=passages"),
    (["foo"], "--map answer=foo"),
])
def test_the_map_hint_names_the_column_that_fits_each_field(tmp_path: Path, columns: list[str],
                                                            hint: str) -> None:
    data = rows(tmp_path / "d.jsonl", [{"question": "q?", **{c: "v" for c in columns}}])
    out = one_line_error(invoke("eval", data, "--db", tmp_path / "r.db", "-q"),
                         "d.jsonl: no row has an answer")
    assert out.rstrip().endswith(f"map a column with {hint}")


def test_a_blank_column_name_is_quoted(tmp_path: Path) -> None:
    # found by the random-JSONL property test: a column named " " gave a hint ending in
    # "--map answer= ", whose blank the terminal line lost
    data = rows(tmp_path / "d.jsonl", [{"question": "q?", " ": None}])
    out = one_line_error(invoke("eval", data, "--db", tmp_path / "r.db", "-q"),
                         "d.jsonl: no row has an answer")
    assert "unknown columns: ' '" in out and out.rstrip().endswith("--map answer=' '")


@pytest.mark.parametrize("name", ["0\r0", "a\nb", "x\u2028y", "\x1b[2J"])
def test_a_column_name_with_a_line_break_or_control_is_quoted(tmp_path: Path,
                                                              name: str) -> None:
    # found by `make fuzz`: a column named "0\r0" was printed as "0 0" (the one-line
    # rule splits at the carriage return), a hint the user could not type
    data = rows(tmp_path / "d.jsonl", [{"question": "q?", name: None}])
    out = one_line_error(invoke("eval", data, "--db", tmp_path / "r.db", "-q"),
                         "d.jsonl: no row has an answer")
    assert f"unknown columns: {name!r}" in out and out.rstrip().endswith(f"--map answer={name!r}")


def test_map_reads_fields_from_other_columns(tmp_path: Path) -> None:
    data, db, out = _foreign(tmp_path / "d.jsonl"), tmp_path / "r.db", tmp_path / "r.json"
    result = invoke("eval", data, "--db", db, "-q", "--metrics", "judge", "--out", out,
                    "--map", "answer=generated_answer", "--map", "contexts=retrieved_docs",
                    "--map", "reference=gold")
    assert result.exit_code == 0, result.output
    assert result.output == ""  # nothing lacks an input
    report = json.loads(out.read_text(encoding="utf-8"))
    assert all(v is not None for e in report["detailed_results"] for v in e["metrics"].values())
    with Store(db, readonly=True) as store:
        run = store.latest_run()
        assert run is not None
        assert run.config.field_map == {"answer": "generated_answer",
                                        "contexts": "retrieved_docs", "reference": "gold"}
    # a resume reuses the stored map, and refuses another one
    assert invoke("eval", data, "--db", db, "-q", "--resume", run.id).exit_code == 0
    one_line_error(invoke("eval", data, "--db", db, "-q", "--resume", run.id,
                          "--map", "answer=gold"), f"run {run.id} was evaluated with --map ")
    one_line_error(invoke("eval", data, "--db", db, "--map", "answr=generated_answer"),
                   "--map: unknown field 'answr' (fields: id, question, contexts, answer")
    one_line_error(invoke("eval", data, "--db", db, "--map", "answer"), "--map 'answer': "
                   "expected FIELD=COLUMN")


def test_map_in_the_python_api_and_for_csv_list_cells(tmp_path: Path) -> None:
    mapping = {"answer": "generated_answer", "contexts": "retrieved_docs", "reference": "gold"}
    (first, *_) = load_samples(_foreign(tmp_path / "d.jsonl"), field_map=mapping)
    assert isinstance(first, Sample)
    assert (first.answer, first.contexts, first.reference) == ("Fact 0 is 0.",
                                                               ("Fact 0 is 0.",), "0")
    csv_path = tmp_path / "d.csv"
    csv_path.write_text('question,generated_answer,retrieved_docs\nQ?,A.,"[""c1"", ""c2""]"\n',
                        encoding="utf-8")
    (row,) = load_samples(csv_path, field_map={"answer": "generated_answer",
                                               "contexts": "retrieved_docs"})
    assert isinstance(row, Sample) and row.contexts == ("c1", "c2") and row.answer == "A."
    (frame_row,) = load_samples([{"question": "Q?", "resp": "A."}], field_map={"answer": "resp"})
    assert isinstance(frame_row, Sample) and frame_row.answer == "A."


def test_map_in_the_bench_config(tmp_path: Path) -> None:
    questions = tmp_path / "questions.jsonl"
    with (HANDBOOK / "questions.jsonl").open(encoding="utf-8") as fh:
        first = json.loads(fh.readline())
    first["expected"] = first.pop("reference")
    questions.write_text(json.dumps(first) + "\n", encoding="utf-8")
    docs = load_corpus(HANDBOOK / "corpus")
    with pytest.raises(QuestionsError, match=r"questions.jsonl:1: unknown field 'expected' "
                                             r"\(fields: id, question, reference"):
        load_questions(questions, docs)
    config = tmp_path / "bench.toml"
    config.write_text((HANDBOOK / "bench.toml").read_text(encoding="utf-8")
                      .replace('corpus = "corpus"', f'corpus = "{HANDBOOK / "corpus"}"')
                      .replace('seed = 0', 'seed = 0\nmap = { reference = "expected" }'),
                      encoding="utf-8")
    loaded = load_config(config)
    assert loaded.bench.field_map == {"reference": "expected"}
    (q,) = load_questions(questions, docs, loaded.bench.field_map)
    assert q.reference and q.reference.startswith("Full-time employees get 27 days")
    config.write_text(config.read_text(encoding="utf-8").replace(
        'map = { reference = "expected" }', 'map = { answr = "expected" }'), encoding="utf-8")
    out = one_line_error(invoke("bench", config, "--db", tmp_path / "r.db"), "bench.toml: ")
    assert "unknown question field 'answr'" in out


def test_rows_lacking_an_input_are_scored_for_the_rest_and_counted(tmp_path: Path) -> None:
    data, db, out = tmp_path / "d.jsonl", tmp_path / "r.db", tmp_path / "r.json"
    no_ctx = {k: v for k, v in good(2).items() if k != "contexts"}
    no_answer = {k: v for k, v in good(3).items() if k != "answer"}
    no_ref = {k: v for k, v in good(4).items() if k != "reference"}
    rows(data, [good(1), no_ctx, no_answer, no_ref])
    result = invoke("eval", data, "--db", db, "-q", "--metrics", "judge", "--out", out)
    assert result.exit_code == 0, result.output
    report = json.loads(out.read_text(encoding="utf-8"))
    lacking = [e for e in report["detailed_results"] if e["id"] in ("g2", "g3", "g4")]
    unscored = sum(v is None for e in lacking for v in e["metrics"].values())
    assert all(v is not None for e in report["detailed_results"] if e["id"] == "g1"
               for v in e["metrics"].values())
    assert any(v is not None for e in lacking for v in e["metrics"].values())  # the others
    assert result.output.splitlines()[0] == (
        "3 samples lack an input some metrics need (no contexts: 1, no answer: 1, "
        f"no reference: 1): {unscored} of their metric values are unscored for the missing "
        "input")
    # judge.overall, unscored for want of its parts' input, says which input
    assert re.match(rf"{unscored} values unscored, \S+ \(\d+\) and \S+ \(\d+\)"
                    r"( of \d+ metrics)?: no contexts \(4\); empty answer \(4\)",
                    result.output.splitlines()[1]), result.output


def test_the_missing_input_line_names_only_inputs_a_chosen_metric_needs(tmp_path: Path) -> None:
    """Found by a new-user trial: under --metrics trace the line counted rows without a
    reference ("no reference: 4"), though no trace metric needs one."""
    data, db = tmp_path / "d.jsonl", tmp_path / "r.db"
    no_ref = [{k: v for k, v in good(i).items() if k != "reference"} for i in (2, 3)]
    no_answer = {k: v for k, v in good(4).items() if k != "answer"}
    rows(data, [good(1), *no_ref, no_answer])
    result = invoke("eval", data, "--db", db, "-q", "--metrics", "trace")
    assert result.exit_code == 0, result.output
    line = result.output.splitlines()[0]
    assert line.startswith("1 sample lacks an input some metrics need (no answer: 1): ")
    assert "reference" not in line
    result = invoke("eval", data, "--db", db, "-q", "--metrics", "judge")
    assert result.output.splitlines()[0].startswith(
        "3 samples lack an input some metrics need (no answer: 1, no reference: 2): ")


# -- 5: --skip-invalid says what it skipped ----------------------------------------------


def test_skip_invalid_prints_the_count_and_the_first_reasons(tmp_path: Path) -> None:
    data = tmp_path / "d.jsonl"
    bad = ['{"question": 7}', '{"answer": "a"}', "not json", '{"question": "q", "contexts": 1}',
           '{"question": ""}']
    data.write_text("\n".join([json.dumps(good(1)), *bad, json.dumps(good(2))]) + "\n",
                    encoding="utf-8")
    for quiet in ((), ("-q",)):
        result = invoke("eval", data, "--db", tmp_path / "r.db", "--metrics", "judge",
                        "--skip-invalid", *quiet)
        assert result.exit_code == 0, result.output
        (line,) = [x for x in result.output.splitlines() if x.startswith("skipped")]
        assert line == (
            "skipped 5 invalid rows of 7 (--skip-invalid; listed in the report's invalid_rows): "
            "d.jsonl:2: 'question' must be a string, got int; d.jsonl:3: 'question' is "
            "required (accepted names: 'question', 'user_input'); d.jsonl:4: invalid JSON: "
            "Expecting value (column 1); and 2 more")


# -- 6: compare labels its intervals and refuses an empty pairing --------------------------


def test_compare_labels_intervals_and_refuses_runs_with_no_pairs(tmp_path: Path) -> None:
    db = tmp_path / "r.db"
    a = rows(tmp_path / "a.jsonl", [good(i) for i in range(6)])
    b = rows(tmp_path / "b.jsonl", [good(i, id=f"other{i}") for i in range(6)])
    for data in (a, b, a):
        assert invoke("eval", data, "--db", db, "-q", "--metrics", "judge").exit_code == 0
    with Store(db, readonly=True) as store:
        run_a2, run_b, run_a = [r.id for r in store.list_runs()]
    out = one_line_error(invoke("compare", run_a, run_b, "--db", db),
                         f"runs {run_a} ({a}) and {run_b} ({b}) share no sample: no paired "
                         "samples")
    assert "nothing can be compared" in out
    table = invoke("compare", run_a, run_a2, "--db", db)
    assert table.exit_code == 0, table.output
    assert "(unadjusted)" in table.output and "Holm-adjusted" in table.output
    assert "the intervals are not adjusted for multiple metrics" in table.output
    as_json = json.loads(invoke("compare", run_a, run_a2, "--db", db, "--json").output)
    assert as_json["p_adjustment"] == "holm" and "not adjusted" in as_json["intervals"]
    mixed = rows(tmp_path / "m.jsonl", [good(1, strategy="x"),
                                        good(2, strategy="y", question="Another question?")])
    assert invoke("eval", mixed, "--db", db, "-q", "--metrics", "judge").exit_code == 0
    with Store(db, readonly=True) as store:
        run_m = store.list_runs()[0].id
    one_line_error(invoke("compare", run_m, "--strategy", "x", "--strategy", "y", "--db", db),
                   f"strategies 'x' and 'y' of run {run_m} answer no common question")


# -- 7: trend by content identity, changed data marked, metric names checked -------------


def test_trend_groups_by_content_and_marks_a_changed_dataset(tmp_path: Path,
                                                             monkeypatch) -> None:
    monkeypatch.chdir(tmp_path)
    db = tmp_path / "r.db"
    rows(tmp_path / "own.jsonl", [good(i) for i in range(5)])
    (tmp_path / "v2dir").mkdir()
    shutil.copy(tmp_path / "own.jsonl", tmp_path / "v2dir" / "own.jsonl")
    for typed in ("own.jsonl", str(tmp_path / "own.jsonl"), "v2dir/own.jsonl"):
        assert invoke("eval", typed, "--db", db, "-q", "--metrics", "judge").exit_code == 0
    result = invoke("trend", "own.jsonl", "--metric", "judge.overall", "--json", "--db", db)
    points = json.loads(result.output)["judge.overall"]
    assert len(points) == 3 and not any(p["dataset_changed"] for p in points)
    # the file changes: its next run joins the trend, marked
    rows(tmp_path / "own.jsonl", [good(i) for i in range(6)])
    assert invoke("eval", "own.jsonl", "--db", db, "-q", "--metrics", "judge").exit_code == 0
    points = json.loads(invoke("trend", "own.jsonl", "--metric", "judge.overall", "--json",
                               "--db", db).output)["judge.overall"]
    assert [p["dataset_changed"] for p in points] == [False, False, False, True]
    assert points[-1]["count"] == 6
    table = invoke("trend", "own.jsonl", "--db", db)
    assert table.exit_code == 0, table.output
    assert "the dataset changed at 1 point(s), marked 'changed'" in table.output
    assert table.output.count(" changed") >= 5  # one marked point in each metric's table


def test_an_unknown_metric_name_is_refused_everywhere(tmp_path: Path) -> None:
    db = tmp_path / "r.db"
    data = rows(tmp_path / "d.jsonl", [good(i) for i in range(4)])
    assert invoke("eval", data, "--db", db, "-q", "--metrics", "judge").exit_code == 0
    out = one_line_error(invoke("trend", data, "--metric", "judge.faithfulnes", "--db", db),
                         "--metric: unknown metric 'judge.faithfulnes' (did you mean "
                         "judge.faithfulness?); known metrics: judge.context_relevance")
    assert "judge.overall" in out
    gate = tmp_path / "gate.toml"
    gate.write_text('[thresholds]\n"judge.faithfulnes" = 5\n', encoding="utf-8")
    one_line_error(invoke("gate", "--config", gate, "--db", db),
                   f"{gate} [thresholds]: unknown metric 'judge.faithfulnes' (did you mean "
                   "judge.faithfulness?)")
    bench = tmp_path / "bench.toml"
    bench.write_text((HANDBOOK / "bench.toml").read_text(encoding="utf-8").replace(
        'rank_by = "judge.overall"', 'rank_by = "judge.overal"'), encoding="utf-8")
    one_line_error(invoke("bench", bench, "--db", db),
                   "bench.toml: bench.rank_by: unknown metric 'judge.overal' (did you mean "
                   "judge.overall?)")


@pytest.mark.parametrize(("line", "shown"), [
    ('"judge.faithfulness" = 0.8', "judge.faithfulness = 0.8 is outside the metric's range 1-10"),
    ('"ragas.faithfulness" = 9', "ragas.faithfulness = 9 is outside the metric's range 0-1"),
])
def test_a_threshold_outside_the_metrics_range_is_refused(
    tmp_path: Path, line: str, shown: str
) -> None:
    """A 0-1 threshold for a 1-10 metric always passes (and a 1-10 one for a 0-1 metric
    always fails): the gate refuses it in one line instead."""
    db = tmp_path / "r.db"
    data = rows(tmp_path / "d.jsonl", [good(i) for i in range(4)])
    assert invoke("eval", data, "--db", db, "-q", "--metrics", "judge,ragas").exit_code == 0
    gate = tmp_path / "gate.toml"
    gate.write_text(f"[thresholds]\n{line}\n", encoding="utf-8")
    one_line_error(invoke("gate", "--config", gate, "--db", db), f"{gate} [thresholds]: {shown}")


# -- 8: gate says which thresholds it applied -------------------------------------------


def test_gate_says_which_thresholds_it_applied_and_where_from(tmp_path: Path,
                                                              monkeypatch) -> None:
    monkeypatch.chdir(tmp_path)
    db = tmp_path / "r.db"
    data = rows(tmp_path / "d.jsonl", [good(i) for i in range(4)])
    assert invoke("eval", data, "--db", db, "-q", "--metrics", "ragas").exit_code == 0
    result = CliRunner().invoke(cli, ["gate", "--db", str(db)])
    assert result.exit_code in (0, 1), result.output
    assert result.stderr.splitlines()[0] == (
        "no --config and no ./ragassay.toml: applying every metric's default threshold, the "
        "target the report shows: ragas.faithfulness >= 0.5, ragas.answer_relevancy >= 0.5, "
        "ragas.context_precision >= 0.5, ragas.context_recall >= 0.5; set your own in a "
        "[thresholds] table")  # then a warning per metric whose judge is unmeasured
    # why they are the offline judge's own lines (trial 65)
    assert result.stderr.splitlines()[1].startswith(
        "note: the offline judge's scores are soft (a mean of its probabilities), so the "
        "default bar of each score is the judge's own line")
    Path("ragassay.toml").write_text('[thresholds]\n"ragas.faithfulness" = 0.1\n',
                                     encoding="utf-8")
    result = CliRunner().invoke(cli, ["gate", "--db", str(db)])
    assert result.stderr.splitlines()[0] == (
        "thresholds from ragassay.toml (found in the current folder)")
    result = CliRunner().invoke(cli, ["gate", "--db", str(db), "--config", "ragassay.toml"])
    assert result.stderr.splitlines()[0] == "thresholds from ragassay.toml (--config)"


# -- 9: pandas-written CSV ----------------------------------------------------------------


def test_a_pandas_written_csv_with_python_list_cells_is_accepted(tmp_path: Path) -> None:
    pd = pytest.importorskip("pandas")
    path = tmp_path / "pandas.csv"
    pd.DataFrame({"question": ["What is fact 1?", "What is fact 2?"],
                  "contexts": [["Fact 1 is 1.", "It's documented."], ["Fact 2 is 2."]],
                  "answer": ["Fact 1 is 1.", "Fact 2 is 2."],
                  "reference": [["1", "one"], "2"]}).to_csv(path, index=False)
    assert "['Fact 2 is 2.']" in path.read_text(encoding="utf-8")  # Python's repr, not JSON
    first, second = load_samples(path)
    assert isinstance(first, Sample) and isinstance(second, Sample)
    assert first.contexts == ("Fact 1 is 1.", "It's documented.")
    assert first.reference == ("1", "one") and second.reference == "2"
    result = invoke("eval", path, "--db", tmp_path / "r.db", "-q", "--metrics", "judge")
    assert result.exit_code == 0, result.output


@pytest.mark.parametrize("cell", [
    "[__import__('os').system('touch PWNED')]",
    "[open('PWNED', 'w')]",
    "['ok', f'{1+1}']",
    "['ok', 1]",
    "[" * 5000 + "]" * 5000,
])
def test_python_list_cells_are_parsed_never_evaluated(tmp_path: Path, monkeypatch,
                                                      cell: str) -> None:
    monkeypatch.chdir(tmp_path)
    path = tmp_path / "d.csv"
    path.write_text('question,contexts,answer\nQ?,"' + cell.replace('"', '""') + '",A.\n',
                    encoding="utf-8")
    result = invoke("eval", path, "--db", tmp_path / "r.db", "-q")
    one_line_error(result, "d.csv:2: 'contexts' ")
    assert not (tmp_path / "PWNED").exists()


# -- 11: the README's bench config example is a working config ---------------------------


def test_the_readme_bench_config_example_loads(tmp_path: Path) -> None:
    readme = (REPO / "README.md").read_text(encoding="utf-8")
    match = re.search(r"<!-- bench-config-example -->\s*```toml\n(.*?)```", readme, re.S)
    assert match, "README.md has a minimal bench config example"
    config = tmp_path / "bench.toml"
    config.write_text(match.group(1), encoding="utf-8")
    for name in ("corpus", "questions.jsonl"):
        src = HANDBOOK / name
        (shutil.copytree if src.is_dir() else shutil.copy)(src, tmp_path / name)
    loaded = load_config(config)
    assert loaded.strategies
    questions = load_questions(loaded.path(loaded.bench.questions),
                               load_corpus(loaded.path(loaded.bench.corpus)))
    assert questions and any(q.has_gold for q in questions)


def test_store_records_where_the_dataset_was(tmp_path: Path) -> None:
    data, db = rows(tmp_path / "d.jsonl", [good(1)]), tmp_path / "r.db"
    assert invoke("eval", data, "--db", db, "-q").exit_code == 0
    with sqlite3.connect(db) as conn:
        (meta,) = conn.execute("SELECT meta FROM runs").fetchone()
    assert json.loads(meta)["dataset_path"] == str(data.resolve())


def test_a_one_sample_interval_is_said_so_in_the_terminal(tmp_path: Path) -> None:
    data = rows(tmp_path / "d.jsonl", [good(1)])
    result = invoke("eval", data, "--db", tmp_path / "r.db", "--metrics", "judge")
    assert result.exit_code == 0, result.output
    assert "n=1, no interval" in result.output
    assert not re.search(r"\[(\d+\.\d+), \1\]", result.output)  # no [x, x]


def test_one_value_lacking_an_input_reads_in_good_english(tmp_path: Path) -> None:
    data, db = tmp_path / "d.jsonl", tmp_path / "r.db"
    rows(data, [good(1), {k: v for k, v in good(2).items() if k != "reference"}])
    result = invoke("eval", data, "--db", db, "-q", "--metrics", "judge.answer_similarity")
    assert result.exit_code == 0, result.output
    assert result.output.splitlines()[0] == (
        "1 sample lacks an input some metrics need (no reference: 1): 1 of its metric values "
        "is unscored for the missing input")


def test_data_without_any_reference_is_said_plainly(tmp_path: Path) -> None:
    """Found by trial 57: with no reference in any row the line read like a problem with
    the rows ("144 samples lack an input some metrics need (no reference: 144)"); it
    now says the data has none and what that leaves unscored."""
    data, db = tmp_path / "d.jsonl", tmp_path / "r.db"
    rows(data, [{k: v for k, v in good(i).items() if k != "reference"} for i in (1, 2, 3)])
    result = invoke("eval", data, "--db", db, "-q", "--metrics", "judge")
    assert result.exit_code == 0, result.output
    line = result.output.splitlines()[0]
    assert line.startswith("no sample has a reference: 3 metric values that need one are "
                           "unscored"), line
    # one row without it among others is still a row that lacks it
    rows(data, [good(1), {k: v for k, v in good(2).items() if k != "reference"}])
    again = invoke("eval", data, "--db", tmp_path / "r2.db", "-q", "--metrics", "judge")
    assert again.output.splitlines()[0].startswith(
        "1 sample lacks an input some metrics need (no reference: 1)"), again.output
