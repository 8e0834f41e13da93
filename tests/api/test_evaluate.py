"""ragassay.evaluate / aevaluate: every input form, the result's views, and running
inside an event loop (a notebook) and on the caller's loop."""

from __future__ import annotations

import asyncio
import json
import re
from pathlib import Path

import pandas as pd
import pytest

import ragassay
from ragassay.dataset import DatasetError, demo_dataset_path
from ragassay.store import Store

ROWS = [
    {"id": "a", "question": "How many days of leave?", "answer": "27 days of leave.",
     "contexts": ["Employees get 27 days of leave."], "reference": "27 days."},
    {"id": "b", "question": "Who approves expenses?", "answer": "The manager approves them.",
     "contexts": ["Expenses are approved by the line manager."]},
]


@pytest.fixture
def db(tmp_path: Path) -> Path:
    return tmp_path / "runs.db"


def test_a_file_gives_one_row_per_sample_with_reasons_beside(db: Path) -> None:
    result = ragassay.evaluate(demo_dataset_path(), metrics="judge", store=db)
    frame = result.to_pandas()
    assert len(frame) == 24
    metrics = ["judge.context_relevance", "judge.answer_similarity", "judge.faithfulness",
               "judge.hallucination", "judge.overall"]
    assert result.metrics == metrics
    inputs = ["id", "strategy", "status", "error", "question", "answer", "contexts",
              "reference", "label.hallucination", "label.correct", "reasoning"]
    # the samples' metadata after every existing column, in the order the keys appear
    assert list(frame.columns) == inputs + [
        c for m in metrics for c in (m, m + "_reason", m + "_status")] + [
        "metadata.question_id", "metadata.topic", "metadata.note"]
    # unscored: <NA> with its reason, never NaN or 0; a reason only where unscored
    unscored = frame[frame["judge.overall"].isna()]
    assert len(unscored) >= 1
    assert unscored["judge.overall_reason"].map(lambda r: isinstance(r, str) and r != "").all()
    # the demo's abstaining answer: no value, and why (issue #30)
    abstained = frame.loc[frame["id"] == "q11-bm25-k3"].iloc[0]
    assert pd.isna(abstained["judge.overall"])
    assert abstained["judge.overall_reason"] == "abstained (correct)"
    assert frame.loc[frame["judge.overall"].notna(), "judge.overall_reason"].isna().all()
    with Store(db, readonly=True) as store:  # kept for the dashboard
        run = store.get_run(result.run_id)
        assert run.status == "complete" and run.dataset == str(demo_dataset_path())


def test_the_frame_is_ready_for_analysis(db: Path) -> None:
    """Issue #29 item 4: nullable numeric dtypes, the inputs, labels and the judge's
    reasoning in the frame, and a long format."""
    result = ragassay.evaluate(demo_dataset_path(), metrics="judge", store=db)
    frame = result.to_pandas()
    assert str(frame["judge.overall"].dtype) == "Float64"
    assert str(frame["judge.hallucination"].dtype) == "boolean"
    assert str(frame["label.hallucination"].dtype) == "boolean"
    assert str(frame["judge.overall_reason"].dtype) == "string"
    # arithmetic works without astype(float), unscored left out
    assert frame.groupby("strategy")["judge.overall"].mean().notna().all()
    assert frame["judge.hallucination"].mean() == pytest.approx(
        frame["judge.hallucination"].dropna().astype(int).mean())
    with Store(db, readonly=True) as store:
        samples = {s.id: s for s in store.iter_samples(result.run_id)}
    row = frame.iloc[0]
    sample = samples[row["id"]]
    assert (row["question"], row["answer"]) == (sample.question, sample.answer)
    assert row["contexts"] == list(sample.contexts) and row["reference"] == sample.reference
    assert row["label.hallucination"] == sample.labels["hallucination"]
    assert isinstance(row["reasoning"], str) and "claims supported" in row["reasoning"]
    long = result.to_pandas(long=True)
    assert len(long) == len(frame) * len(result.metrics)
    assert list(long.columns[-4:]) == ["metric", "value", "reason", "metric_status"]
    assert str(long["value"].dtype) == "Float64"
    first = long[long["id"] == row["id"]]
    assert first["metric"].tolist() == result.metrics  # sample order, then metric order
    assert first.set_index("metric")["value"].to_dict() == pytest.approx(
        {m: float(row[m]) for m in result.metrics})
    gone = long[long["value"].isna()]
    assert len(gone) >= 1 and gone["reason"].notna().all()
    assert long.loc[long["value"].notna(), "reason"].isna().all()


def test_the_metadata_is_a_column_per_key(db: Path) -> None:
    """A new-user trial: {"kind": ..., "domain": ...} on each row reached no output, and
    slicing by it meant joining against the input file. Now `metadata.<key>` columns,
    after the existing ones; a list or object as its JSON text, <NA> where absent."""
    rows = [{**ROWS[0], "metadata": {"kind": "paraphrase", "domain": "swimming pool"}},
            {**ROWS[1], "metadata": {"kind": "direct", "n": 3, "tags": ["x"]},
             "metadata.flag": True}]
    result = ragassay.evaluate(rows, metrics="judge", store=db)
    frame = result.to_pandas()
    columns = ["metadata.kind", "metadata.domain", "metadata.n", "metadata.tags",
               "metadata.flag"]
    assert list(frame.columns[-5:]) == columns
    assert list(frame.columns[:-5]) == list(ragassay.evaluate(ROWS, metrics="judge",
                                                              store=db).to_pandas().columns)
    a, b = (frame.iloc[i] for i in range(2))
    assert (a["metadata.kind"], a["metadata.domain"]) == ("paraphrase", "swimming pool")
    assert [pd.isna(a[c]) for c in columns[2:]] == [True, True, True]
    assert (b["metadata.kind"], b["metadata.n"], b["metadata.tags"], b["metadata.flag"]) == (
        "direct", 3, '["x"]', True)
    assert pd.isna(b["metadata.domain"])
    assert str(frame["metadata.kind"].dtype) == "string"
    assert frame.groupby("metadata.kind")["judge.faithfulness"].count().to_dict() == {
        "direct": 1, "paraphrase": 1}
    long = result.to_pandas(long=True)
    assert list(long.columns[-4:]) == ["metric", "value", "reason", "metric_status"]
    assert list(long.columns[-9:-4]) == columns
    assert (long["metadata.kind"] == "paraphrase").sum() == len(result.metrics)


def test_an_absent_metadata_or_label_cell_is_na_whatever_the_column_holds(db: Path) -> None:
    """A column of mixed types (an int and a string) or of nulls only stays `object`:
    its absent cells were Python None, not the <NA> the other columns and the docs give
    (`frame[c] is pd.NA` failed; `== None` filters behaved differently)."""
    rows = [{**ROWS[0], "metadata": {"mixed": 1, "none": None}, "labels": {"grade": 2}},
            {**ROWS[1], "metadata": {"mixed": "two"}, "labels": {"grade": "B"}},
            {**ROWS[1], "id": "c", "question": "Who signs contracts?"}]
    frame = ragassay.evaluate(rows, metrics="judge", store=db).to_pandas().set_index("id")
    for column in ("metadata.mixed", "label.grade"):
        assert frame[column].tolist()[:2] in ([1, "two"], [2, "B"])
        assert frame.loc["c", column] is pd.NA
    assert [v is pd.NA for v in frame["metadata.none"]] == [True, True, True]
    assert str(frame["metadata.mixed"].dtype) == "object"


def test_summary_and_report_agree_with_the_table(db: Path) -> None:
    result = ragassay.evaluate(ROWS, metrics=["judge"], store=db)
    summary = result.summary()
    frame = result.to_pandas()
    faith = summary.loc["judge.faithfulness"]
    assert faith["scored"] == 2 and faith["unscored"] == 0
    assert faith["mean"] == pytest.approx(frame["judge.faithfulness"].astype(float).mean(),
                                          abs=1e-6)
    # answer similarity needs a reference: one of the two rows has none
    assert summary.loc["judge.answer_similarity", "unscored"] == 1
    report = result.report()
    assert report.run.run_id == result.run_id
    assert {d.id for d in report.entries} == {"a", "b"}
    assert report.aggregate("judge.faithfulness").count == 2
    out = db.parent / "r.json"
    assert result.report("json", out=out).aggregate_metrics == report.aggregate_metrics
    assert json.loads(out.read_text())["evaluation_metadata"]["run_id"] == result.run_id
    assert result.report("html").lstrip().lower().startswith("<!doctype html")
    csv_text = result.report("csv", out=db.parent / "r.csv")
    assert (db.parent / "r.csv").read_text() == csv_text and "judge.faithfulness" in csv_text
    with pytest.raises(ValueError, match="json, html or csv"):
        result.report("xml")  # type: ignore[arg-type]


def test_dataframe_field_map_and_one_mapping(db: Path) -> None:
    frame = pd.DataFrame([{"question": r["question"], "generated": r["answer"],
                           "docs": r["contexts"]} for r in ROWS])
    result = ragassay.evaluate(frame, metrics="judge", store=db,
                               field_map={"answer": "generated", "contexts": "docs"},
                               dataset="my-frame")
    assert len(result.to_pandas()) == 2
    with Store(db, readonly=True) as store:
        assert store.get_run(result.run_id).config.field_map == {
            "answer": "generated", "contexts": "docs"}
        assert store.get_run(result.run_id).dataset == "my-frame"
    one = ragassay.evaluate(ROWS[0], metrics="ragas.faithfulness", store=db)
    assert one.to_pandas()["id"].tolist() == ["a"]
    assert one.metrics == ["ragas.faithfulness"]  # that metric alone (issue #29)


def test_unnamed_in_memory_data_is_named_by_kind_and_content(db: Path) -> None:
    """Every DataFrame run used to be named "python"; now the kind of data and 8 hex
    digits of its rows: equal rows the same name, other rows another."""
    def name(data: object) -> str:
        result = ragassay.evaluate(data, metrics="judge", store=db)
        with Store(db, readonly=True) as store:
            return store.get_run(result.run_id).dataset

    frame = pd.DataFrame(ROWS)
    first, again = name(frame), name(pd.DataFrame(ROWS))
    assert re.fullmatch(r"dataframe:[0-9a-f]{8}", first) and again == first
    assert name(pd.DataFrame(ROWS[:1])) not in (first, "python")
    assert re.fullmatch(r"rows:[0-9a-f]{8}", name(ROWS))


def test_mistakes_are_one_line_errors(db: Path) -> None:
    with pytest.raises(TypeError, match="unknown option 'concurency'.*concurrency"):
        ragassay.evaluate(ROWS, store=db, concurency=2)
    with pytest.raises(ValueError, match="unknown judge backend 'opneai'"):
        ragassay.evaluate(ROWS, judge="opneai:gpt-4o-mini", store=db)
    with pytest.raises(DatasetError, match="no row has an answer.*field_map answer="):
        ragassay.evaluate([{"question": "q", "generated": "x", "contexts": ["c"]}], store=db)
    with pytest.raises(DatasetError, match="row 2"):
        ragassay.evaluate([ROWS[0], {"answer": "no question"}], store=db)
    with pytest.raises(ValueError, match="ratings must be 'expected' or 'greedy'"):
        ragassay.evaluate(ROWS, store=db, ratings="mean")


@pytest.mark.parametrize(("options", "text"), [
    ({"engine": "spark"}, "engine must be 'local' or 'ray', not 'spark'"),
    ({"ray_address": "auto", "workers": 2}, "ray_address needs engine='ray'"),
    ({"workers": 0}, "workers must be a whole number from 1 to 4096, not 0"),
    ({"engine": "ray", "workers": 0}, "workers must be a whole number from 1 to 4096, not 0"),
    ({"engine": "ray", "workers": "2"}, "workers must be a whole number"),
    ({"engine": "ray", "workers": True}, "workers must be a whole number"),
    ({"engine": "ray", "ray_address": 6379}, "ray_address must be 'auto'"),
    ({"ray_writes": "workers"}, "ray_writes needs engine='ray'"),
    ({"engine": "ray", "ray_writes": "nodes"},
     "ray_writes must be 'driver' or 'workers', not 'nodes'"),
    ({"base_url": "http://u:secret@127.0.0.1:9/v1"},
     "base_url http://127.0.0.1:9/v1 carries credentials (user:password)"),
    ({"base_url": ["http://127.0.0.1:9/v1", "http://127.0.0.1:8/v1?api_key=sk-abc"]},
     "base_url http://127.0.0.1:8/v1 carries credentials (api_key)"),
    ({"base_url": 8080}, "base_url must be a URL or a list of URLs, not 8080"),
])
def test_engine_options_are_checked_before_ray_starts(db: Path, options: dict,
                                                      text: str) -> None:
    with pytest.raises(ValueError, match=re.escape(text)):
        ragassay.evaluate(ROWS, store=db, **options)


def test_engine_options_become_the_runners_ray_options(db: Path) -> None:
    from ragassay.api.run import plan
    from ragassay.runner import LocalEngine, RayOptions

    local, _ = plan(ROWS, "judge", None, db, {})
    assert local.request.engine == LocalEngine()
    two, _ = plan(ROWS, "judge", None, db, {"workers": 2})
    assert two.request.engine == LocalEngine(workers=2)
    ray, _ = plan(ROWS, "judge", None, db, {"engine": "ray", "ray_address": "auto",
                                             "workers": 3})
    assert ray.request.engine == RayOptions(address="auto", workers=3)
    writes, _ = plan(ROWS, "judge", None, db, {"engine": "ray", "ray_writes": "workers"})
    assert writes.request.engine == RayOptions(writes="workers")


def test_workers_writing_to_a_sqlite_file_is_refused_before_ray_starts(db: Path) -> None:
    from ragassay.runner import RayEngineError

    with pytest.raises(RayEngineError, match=re.escape(
            "--ray-writes workers needs a PostgreSQL store (--db postgresql://...)")):
        ragassay.evaluate(ROWS, store=db, engine="ray", ray_writes="workers")


def test_the_ratings_mode_is_stored_with_the_run(db: Path) -> None:
    result = ragassay.evaluate(ROWS, metrics="judge", store=db, ratings="greedy")
    with Store(db, readonly=True) as store:
        assert store.get_run(result.run_id).config.ratings == "greedy"


def test_skip_invalid_keeps_failed_rows_in_the_table(db: Path) -> None:
    result = ragassay.evaluate([ROWS[0], {"id": "bad", "answer": "no question"}],
                               metrics="judge", store=db, skip_invalid=True)
    frame = result.to_pandas().set_index("id")
    assert frame.loc["bad", "status"] == "failed" and "question" in frame.loc["bad", "error"]
    assert pd.isna(frame.loc["bad", "judge.overall"])
    assert pd.isna(frame.loc["bad", "question"]) and pd.isna(frame.loc["bad", "contexts"])
    assert frame.loc["bad", "judge.overall_reason"] == "failed row"


def test_evaluate_inside_a_running_loop_and_aevaluate_on_it(db: Path) -> None:
    async def notebook_cell() -> tuple[str, str, int]:
        loop = asyncio.get_running_loop()
        inner = ragassay.evaluate(ROWS, metrics="judge", store=db)  # Jupyter's situation
        awaited = await ragassay.aevaluate(ROWS, metrics="judge", store=db)
        assert asyncio.get_running_loop() is loop
        return inner.run_id, awaited.run_id, len(awaited.to_pandas())

    first, second, n = asyncio.run(notebook_cell())
    assert first != second and n == 2
    with Store(db, readonly=True) as store:
        assert {r.id for r in store.list_runs()} == {first, second}
        assert all(r.status == "complete" for r in store.list_runs())


def test_import_is_cheap_and_names_are_lazy() -> None:
    import subprocess
    import sys

    code = ("import sys, ragassay; assert 'ragassay.api' not in sys.modules; "
            "ragassay.evaluate; assert 'ragassay.api' in sys.modules; "
            "print(sorted(m for m in ('torch', 'sentence_transformers', 'streamlit') "
            "if m in sys.modules))")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                         check=True)
    assert json.loads(out.stdout.replace("'", '"')) == []


def test_a_notebook_without_ipywidgets_gets_no_warning(db: Path,
                                                       monkeypatch: pytest.MonkeyPatch) -> None:
    """Each notebook cell used to warn 'install "ipywidgets" for Jupyter support' (rich's
    live display in Jupyter needs them): without ipywidgets the bar is drawn as text."""
    import sys
    import warnings

    import rich.console

    monkeypatch.setattr(rich.console, "_is_jupyter", lambda: True)  # as in a notebook
    monkeypatch.setitem(sys.modules, "ipywidgets", None)
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        result = ragassay.evaluate(ROWS, metrics="judge", store=db, progress=True)
    assert result.to_pandas()["id"].tolist() == ["a", "b"]
    assert not [w for w in caught if "ipywidgets" in str(w.message)]


def test_import_labels_warns_of_a_repeated_sample_and_refuses_two_values(
        db: Path, tmp_path: Path) -> None:
    from ragassay.labels import LabelFileError

    result = ragassay.evaluate(ROWS, metrics="judge", store=db)
    same = tmp_path / "same.jsonl"
    same.write_text('{"id": "a", "hallucinated": true}\n{"id": "a", "hallucinated": true}\n')
    with pytest.warns(UserWarning, match=r"1 sample is given on more than one row"):
        assert result.import_labels(same) == 1
    clash = tmp_path / "clash.jsonl"
    clash.write_text('{"id": "b", "hallucinated": true}\n{"id": "b", "hallucinated": false}\n')
    with pytest.raises(LabelFileError, match=r"clash\.jsonl:2: id 'b' has label "
                                             r"'hallucinated' = False, but line 1 gave it True"):
        result.import_labels(clash)


def test_a_typo_in_a_label_name_is_a_warning_and_a_skipped_entry(db: Path) -> None:
    """Trial 50: `labels: {"halucinated": ...}` lost its labels without a word."""
    data = [{**row, "labels": {"halucinated": False}} for row in ROWS]
    with pytest.warns(UserWarning, match=r"label 'halucinated' \(on 2 rows\) is no label "
                      r"ragassay knows: did you mean 'hallucinated'\?"):
        result = ragassay.evaluate(data, metrics="judge", store=db)
    assert [n for n in result.notes if "halucinated" in n]
    skipped = [s for s in result.report().calibration.skipped if s.label == "halucinated"]
    assert [(s.metric, s.near_miss) for s in skipped] == [(None, "hallucinated")]
