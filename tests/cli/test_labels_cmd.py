"""`ragassay labels import|export` on the shipped example: 240 answers, 150 labelled by a
person, and the corrected estimates the import prints; bad files in one line each."""

from __future__ import annotations

import csv
import json
from pathlib import Path

import pytest
from click.testing import CliRunner

from ragassay.cli import cli
from ragassay.stats.corrected import Corrected
from ragassay.store import Store

EXAMPLE = Path(__file__).resolve().parents[2] / "examples" / "labels"


def run(*args: str) -> tuple[int, str]:
    result = CliRunner().invoke(cli, list(args), env={"COLUMNS": "250"})  # a note a line
    return result.exit_code, result.output


@pytest.fixture(scope="module")
def example_run(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, str]:
    db = tmp_path_factory.mktemp("labels") / "r.db"
    code, out = run("eval", "-v", str(EXAMPLE / "data.jsonl"), "--metrics", "judge", "--db",
                    str(db))
    assert code == 0, out
    with Store(db) as store:
        run_id = store.latest_run().id  # type: ignore[union-attr]
    return db, run_id


@pytest.fixture
def db(example_run: tuple[Path, str], tmp_path: Path) -> Path:
    copy = tmp_path / "r.db"
    with Store(example_run[0]) as src, Store(copy) as dst:
        src.conn.backup(dst.conn)
    return copy


def test_import_stores_labels_and_prints_corrected_estimates(db: Path) -> None:
    code, out = run("labels", "import", str(EXAMPLE / "labels.jsonl"), "--db", str(db))
    assert code == 0, out
    assert "imported 150 labels (hallucinated 150)" in out
    assert "corrected estimates" in out and "judge.faithfulness" in out
    with Store(db) as store:
        labels = list(store.iter_labels("hallucinated"))
    assert len({lab.content_key for lab in labels}) <= 150 and labels[0].annotator == "support-lead"
    assert labels[0].source == "import:labels.jsonl"


def _keys(db: Path) -> set[str]:
    with Store(db) as store:
        return {lab.content_key for lab in store.iter_labels()}


def test_export_round_trips_through_import(db: Path, tmp_path: Path) -> None:
    run("labels", "import", str(EXAMPLE / "labels.jsonl"), "--db", str(db))
    out_csv = tmp_path / "labels.csv"
    code, out = run("labels", "export", "--out", str(out_csv), "--db", str(db))
    assert code == 0, out
    rows = list(csv.DictReader(out_csv.open()))
    # one row per sample: a few of the 240 answers are the same interaction (one label)
    assert len(rows) >= 150 and {r["label"] for r in rows} == {"hallucinated"}
    assert {r["content_key"] for r in rows} == _keys(db)
    assert {r["value"] for r in rows} == {"True", "False"}  # as pandas would write them
    with Store(db) as store:
        for lab in list(store.iter_labels()):
            store.delete_label(lab.content_key, lab.name, lab.annotator)
    code, out = run("labels", "import", str(out_csv), "--db", str(db))
    assert code == 0 and f"imported {len(rows)} labels" in out, out
    code, text = run("labels", "export", "--db", str(db))
    assert len([json.loads(line) for line in text.splitlines()]) == len(rows)


def test_pandas_written_csv_with_a_dict_cell(db: Path, tmp_path: Path) -> None:
    path = tmp_path / "pandas.csv"
    path.write_text("id,labels\na000,\"{'hallucinated': False}\"\n"
                    "a001,\"{'hallucinated': True}\"\n")
    code, out = run("labels", "import", str(path), "--db", str(db))
    assert code == 0 and "imported 2 labels" in out, out
    assert "fewer than the 30" in out  # too few labels: said, not a NaN


def test_labels_matched_by_content_without_ids(db: Path, tmp_path: Path) -> None:
    first = json.loads((EXAMPLE / "data.jsonl").read_text().splitlines()[0])
    row = {k: first[k] for k in ("question", "contexts", "answer")} | {"hallucinated": False}
    path = tmp_path / "by_content.jsonl"
    path.write_text(json.dumps(row) + "\n")
    code, out = run("labels", "import", str(path), "--db", str(db))
    # one label, one sample: singular (trial 50 saw "1 documents" on a hop)
    assert code == 0 and "imported 1 label (hallucinated 1) for 1 sample of run" in out, out


@pytest.mark.parametrize("content, expected", [
    ('{"id": "a000", "hallucinated": 2}\n',
     "bad.jsonl:1: label 'hallucinated': 2 is not true/false or 1/0"),
    ('{"id": "a000", "relevance": 7}\n', "bad.jsonl:1: label 'relevance': 7 is outside 0-3"),
    ('{"id": "a000", "tone": "nice"}\n',
     "bad.jsonl:1: label 'tone': 'nice' is not true/false or a number"),
    ('{"id": "nope", "hallucinated": true}\n',
     "no row of bad.jsonl matches a sample of run"),
    ('{"hallucinated": true}\n', "bad.jsonl:1: each row needs an 'id'"),
    ("{not json\n", "bad.jsonl:1: invalid JSON"),
    ("", "bad.jsonl: no rows"),
])
def test_bad_label_files_fail_in_one_line(db: Path, tmp_path: Path, content: str,
                                          expected: str) -> None:
    path = tmp_path / "bad.jsonl"
    path.write_text(content)
    code, out = run("labels", "import", str(path), "--db", str(db))
    assert code == 2, out
    assert expected in out and "Traceback" not in out
    assert len(out.strip().splitlines()) == 1


def test_unknown_samples_and_unlinked_labels_are_said_once(db: Path, tmp_path: Path) -> None:
    path = tmp_path / "mixed.jsonl"
    path.write_text('{"id": "a000", "tone": 1}\n{"id": "zz9", "hallucinated": true}\n')
    code, out = run("labels", "import", str(path), "--db", str(db))
    assert code == 0, out
    assert "1 row matches no sample of run" in out and "id 'zz9'" in out
    assert "label 'tone' links to no metric of run" in out


def test_calibrate_json_gives_each_pair_its_corrected_estimate(db: Path) -> None:
    import json

    with Store(db) as store:
        run_id = store.latest_run().id  # type: ignore[union-attr]
    code, out = run("calibrate", run_id, "--labels", str(EXAMPLE / "labels.jsonl"), "--json",
                    "--db", str(db))
    assert code == 0, out
    doc = json.loads(out[out.index("{"):])
    by = {(p["label"], p["metric"]): p for p in doc["pairs"]}
    faith = by[("hallucinated", "judge.faithfulness")]["corrected"]
    assert faith["n_labelled"] >= 150 and faith["ci_low"] <= faith["estimate"] <= faith["ci_high"]
    assert faith["labels_only"]["ci_low"] <= faith["labels_only"]["estimate"]


def test_a_label_shared_by_duplicated_interactions_is_counted(db: Path) -> None:
    code, out = run("labels", "import", str(EXAMPLE / "labels.jsonl"), "--db", str(db))
    assert code == 0, out
    assert ("imported 150 labels (hallucinated 150) for 151 samples (1 label shared by "
            "duplicated interactions)") in out


def test_a_typod_label_name_is_refused_unless_allowed(db: Path, tmp_path: Path) -> None:
    path = tmp_path / "typo.csv"
    path.write_text("id,halucinated\na001,true\na002,false\n")
    code, out = run("labels", "import", str(path), "--db", str(db))
    assert code == 2, out
    assert ("label 'halucinated' is not in the vocabulary: did you mean 'hallucinated'?"
            in out) and not _keys(db)
    code, out = run("labels", "import", str(path), "--allow-new-label", "--db", str(db))
    assert code == 0, out
    with Store(db) as store:
        assert {lab.name for lab in store.iter_labels()} == {"halucinated"}
    own = tmp_path / "own.csv"
    own.write_text("id,tone\na001,1\n")
    code, out = run("labels", "import", str(own), "--db", str(db))
    assert code == 0 and "label 'tone' links to no metric" in out, out


def test_a_pandas_csv_with_its_index_and_yes_no_cells(db: Path, tmp_path: Path) -> None:
    path = tmp_path / "pandas.csv"
    path.write_text(",id,hallucinated\n0,a001,yes\n1,a002,No\n")
    code, out = run("labels", "import", str(path), "--db", str(db))
    assert code == 0, out
    assert "imported 2 labels (hallucinated 2)" in out
    with Store(db) as store:
        assert sorted(lab.value for lab in store.iter_labels()) == [False, True]
        assert {lab.name for lab in store.iter_labels()} == {"hallucinated"}


def test_a_sample_given_twice_with_the_same_labels_is_stored_once_and_said(
        db: Path, tmp_path: Path) -> None:
    """Trial finding: a file holding one id twice silently kept the last row. The same
    values twice: one warning line with the count; rows of one id with different labels
    (the long form) are no repeat."""
    path = tmp_path / "twice.jsonl"
    path.write_text('{"id": "a000", "hallucinated": true}\n{"id": "a001", "hallucinated": false}\n'
                    '{"id": "a000", "hallucinated": "yes"}\n{"id": "a001", "hallucinated": 0}\n'
                    '{"id": "a001", "correct": true}\n')
    result = CliRunner().invoke(cli, ["labels", "import", str(path), "--db", str(db)])
    assert result.exit_code == 0, result.output
    assert "imported 3 labels (hallucinated 2, correct 1)" in result.stdout
    warned = [x for x in result.stderr.splitlines() if x.startswith("warning:")]
    assert warned == ["warning: twice.jsonl: 2 samples are given on more than one row with "
                      "the same labels (first: id 'a000'); each label stored once"]
    once = tmp_path / "once.jsonl"
    once.write_text('{"id": "a000", "hallucinated": true}\n{"id": "a000", "correct": true}\n')
    code, out = run("labels", "import", str(once), "--db", str(db))
    assert code == 0 and "more than one row" not in out, out


def test_a_sample_given_two_values_of_one_label_is_refused(db: Path, tmp_path: Path) -> None:
    path = tmp_path / "clash.csv"
    path.write_text("id,hallucinated\na000,true\na001,false\na001,true\na000,false\n")
    code, out = run("labels", "import", str(path), "--db", str(db))
    assert code == 2, out
    assert out.strip() == ("error: clash.csv:4: id 'a001' has label 'hallucinated' = True, "
                           "but line 3 gave it False; keep one value per sample and label")
    assert not _keys(db)  # nothing stored
    code, out = run("calibrate", "--labels", str(path), "--db", str(db),
                    _run_id(db))
    assert code == 2 and len(out.strip().splitlines()) == 1, out
    assert "id 'a001' has label 'hallucinated' = True, but line 3 gave it False" in out


def _run_id(db: Path) -> str:
    with Store(db) as store:
        return store.latest_run().id  # type: ignore[union-attr]


def test_an_id_repeated_under_two_strategies_is_two_samples(tmp_path: Path) -> None:
    """A row's strategy picks its sample when the run has the id under two strategies
    (the later one stored as STRATEGY::ID): no false repeat, each label where it belongs."""
    rows = [{"id": f"q{i}", "question": f"What is fact {i}?", "answer": f"{s} says {i}.",
             "contexts": [f"Fact {i} is {i}."], "strategy": s}
            for s in ("bm25", "dense") for i in range(2)]
    data = tmp_path / "d.jsonl"
    data.write_text("".join(json.dumps(r) + "\n" for r in rows))
    db = tmp_path / "r.db"
    code, out = run("eval", "-v", str(data), "--metrics", "judge", "-q", "--db", str(db))
    assert code == 0, out
    path = tmp_path / "labels.csv"
    path.write_text("id,strategy,hallucinated\nq0,bm25,true\nq0,dense,false\n")
    code, out = run("labels", "import", str(path), "--db", str(db))
    assert code == 0 and "imported 2 labels" in out and "more than one row" not in out, out
    with Store(db) as store:
        by_key = {s.content_key: (s.strategy, s.id) for s in store.iter_samples(_run_id(db))}
        got = {by_key[lab.content_key]: lab.value for lab in store.iter_labels()}
    assert got == {("bm25", "q0"): True, ("dense", "dense::q0"): False}


def _narrowing(output: str) -> list[str]:
    return [x for x in output.splitlines() if " via judge." in x and "narrow" in x]


def _labelled(tmp_path: Path, n_labels: int) -> tuple[Path, str, Corrected]:
    """A stored run of 120 samples, its first `n_labels` labelled hallucinated or not,
    and its corrected estimates."""
    from ragassay.report import corrected_for
    from ragassay.types import HumanLabel
    from tests.support.annotated_run import make_run

    db = tmp_path / "m.db"
    with Store(db) as store:
        r = make_run(store, 120)
        store.set_labels([HumanLabel(content_key=r.key(i), name="hallucinated",
                                     value=bool(r.bad[i])) for i in range(n_labels)])
        return db, r.run_id, corrected_for(store, r.run_id)


def test_a_run_labelled_throughout_says_so_not_what_all_labels_would_do(
        tmp_path: Path) -> None:
    """Trial 53: with every one of 144 samples labelled, the summary said "even with all
    144 samples labelled the interval would not narrow to 0.1 wide", a hypothetical about
    what is already so. Every sample labelled now says that, and that only more samples
    would narrow it; a run partly labelled still says what all its samples would do."""
    db, run_id, cor = _labelled(tmp_path, 120)
    verdict = cor.overall("judge.hallucination")
    assert verdict is not None and verdict.n_labelled == verdict.n_total == 120
    assert verdict.width > 0.1
    code, out = run("runs", "show", run_id, "--db", str(db))
    assert code == 0, out
    lines = out.splitlines()
    assert ("all 120 samples are labelled: people's rate is exact for this data and nothing "
            "is corrected, whichever metric the label is linked to (its 95% interval is of "
            "the population the samples come from)") in lines
    assert lines.count("hallucinated: only more samples would narrow the interval to 0.1 "
                       f"wide (now {verdict.width:.3f})") == 1  # once, not per metric
    assert "even with all" not in out


def test_runs_show_says_what_more_labels_would_do_as_eval_does(tmp_path: Path) -> None:
    """Trial finding: the summary's "about N more labels" line under the corrected
    estimates, said after eval, was missing from `runs show` where the run cannot reach
    the target. Every whole-run estimate short of its 0.1-wide target now gets its line,
    from one place (CorrectedEstimate.narrowing), after eval and in runs show alike."""
    db, run_id, cor = _labelled(tmp_path, 40)
    faith = cor.overall("judge.faithfulness")
    verdict = cor.overall("judge.hallucination")
    assert faith is not None and faith.more_labels and verdict is not None
    assert verdict.more_labels is None  # 120 samples cannot reach 0.1 wide through it
    code, out = run("runs", "show", run_id, "--db", str(db))
    assert code == 0, out
    assert _narrowing(out) == [
        "hallucinated via judge.hallucination: even with all 120 samples labelled the "
        f"interval would not narrow to 0.1 wide (now {verdict.width:.3f})",
        f"hallucinated via judge.faithfulness: about {faith.more_labels} more labels narrow "
        f"the interval to 0.1 wide (now {faith.width:.3f})"]
    # a run whose data carries the labels: eval's summary and runs show say the same
    labels = {json.loads(x)["id"]: json.loads(x)["hallucinated"]
              for x in (EXAMPLE / "labels.jsonl").read_text().splitlines()}
    rows = [json.loads(x) for x in (EXAMPLE / "data.jsonl").read_text().splitlines()]
    data = tmp_path / "labelled.jsonl"
    data.write_text("".join(json.dumps({**row, "labels": {"hallucinated": labels[row["id"]]}}
                                       if row["id"] in labels else row) + "\n"
                            for row in rows))
    code, evaluated = run("eval", "-v", str(data), "--metrics", "judge", "--db", str(db))
    assert code == 0, evaluated
    said = _narrowing(evaluated)
    assert len(said) == 2 and all("even with all 240 samples labelled" in x for x in said)
    code, shown = run("runs", "show", _run_id(db), "--db", str(db))
    assert code == 0 and _narrowing(shown) == said, shown


def test_calibrate_says_agreement_between_people_needs_a_second_annotator(
        db: Path, tmp_path: Path) -> None:
    """New-user trial 56: after "144 of 144 samples have labels", calibrate said "no labels
    from people in the store: agreement between people not measurable", which read as if
    the labels were not people's; it is about agreement between annotators."""
    with Store(db) as store:
        run_id = store.latest_run().id  # type: ignore[union-attr]
    code, out = run("calibrate", run_id, "--labels", str(EXAMPLE / "labels.jsonl"),
                    "--db", str(db))
    assert code == 0, out
    text = " ".join(out.split())
    assert "no labels from people" not in text
    assert ("agreement between people: not measurable (one label per sample, from the data "
            "or a labels file; two annotators labelling the same samples, with ragassay "
            f"annotate {run_id} --annotator NAME, measure it)") in text
