"""Hostile label files and stores (issue 43, items 5, 6, 13 and the label-CSV part of 15).

5: 60 labels `overall: +-1e308` were stored, then `labels import` failed with `ValueError:
cannot convert float NaN to integer`, and so did `runs show`, `report`, `gate
--corrected` and every new eval of the same samples (labels are stored by content, and
no command deleted one). 6: labels exported from run A and imported into run B (same ids,
other answers) were attached to B. 13: `labels export --out x.csv` wrote `=`/`@` cells
unescaped. 15: a label CSV with a UTF-8 BOM was refused, a column named twice was
last-wins, a cell over 128 KB was refused.
"""

from __future__ import annotations

import csv
import json
from pathlib import Path

import pytest
from click.testing import CliRunner, Result

from ragassay.cli import cli
from ragassay.store import Store
from ragassay.types import HumanLabel

N = 60


def _invoke(*args: object) -> Result:
    return CliRunner().invoke(cli, [str(a) for a in args])


def _rows(path: Path, answer: str = "Fact {i} is {i}.", wrong: str = "Fact {i} is {j}."
          ) -> Path:
    path.write_text("".join(json.dumps({
        "id": f"s{i}", "question": f"What is fact {i}?",
        "contexts": [f"Fact {i} is {i}.", "Other facts are elsewhere."],
        "answer": answer.format(i=i) if i % 3 else wrong.format(i=i, j=i + 1)}) + "\n"
        for i in range(N)))
    return path


def _run_id(db: Path) -> str:
    with Store(db, readonly=True) as store:
        return store.latest_run().id  # type: ignore[union-attr]


@pytest.fixture(scope="module")
def made(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, Path, str]:
    tmp = tmp_path_factory.mktemp("labels-hostile")
    data, db = _rows(tmp / "d.jsonl"), tmp / "r.db"
    done = _invoke("eval", data, "--metrics", "judge", "--db", db, "-q")
    assert done.exit_code == 0, done.output
    return data, db, _run_id(db)


@pytest.fixture
def db(made: tuple[Path, Path, str], tmp_path: Path) -> Path:
    copy = tmp_path / "r.db"
    with Store(made[1]) as src, Store(copy) as dst:
        src.conn.backup(dst.conn)
    return copy


def _one_line(result: Result, start: str) -> str:
    assert result.exit_code == 2, result.output
    assert result.exception is None or isinstance(result.exception, SystemExit), \
        result.exception
    assert result.output.count("\n") == 1, result.output
    assert result.output.startswith(f"error: {start}"), result.output
    return result.output


def _keys(db: Path, run_id: str) -> list[str]:
    with Store(db, readonly=True) as store:
        return [s.content_key for s in store.iter_samples(run_id)]


def _stored(db: Path) -> list[HumanLabel]:
    with Store(db, readonly=True) as store:
        return list(store.iter_labels())


# -- 5: extreme values --------------------------------------------------------------------


def test_extreme_label_values_are_refused_on_import(db: Path, tmp_path: Path) -> None:
    path = tmp_path / "extreme.jsonl"
    path.write_text("".join(json.dumps({"id": f"s{i}", "labels": {
        "overall": 1e308 if i % 2 else -1e308}}) + "\n" for i in range(N)))
    _one_line(_invoke("labels", "import", path, "--db", db),
              "extreme.jsonl:1: label 'overall': -1e+308 is beyond +-1,000,000")
    assert not _stored(db)
    path.write_text("".join(json.dumps({"id": f"s{i}", "relevance": 7}) + "\n"
                            for i in range(3)))  # a vocabulary grade: its own scale
    _one_line(_invoke("labels", "import", path, "--db", db),
              "extreme.jsonl:1: label 'relevance': 7 is outside 0-3")


def test_extreme_labels_already_stored_break_no_command(db: Path, made: tuple[Path, Path, str]
                                                        ) -> None:
    """Labels a store already holds (an older version's import, `Store.set_labels` from
    Python) are read by every statistic without an exception: the links they cannot
    enter are skipped with the reason."""
    data, _, run_id = made
    with Store(db) as store:
        store.set_labels([HumanLabel(content_key=key, name="overall",
                                     value=1e308 if i % 2 else -1e308)
                          for i, key in enumerate(_keys(db, run_id))]
                         + [HumanLabel(content_key=key, name="hallucinated", value=i % 3 == 0)
                            for i, key in enumerate(_keys(db, run_id))])
    shown = _invoke("runs", "show", run_id, "--db", db)
    assert shown.exit_code == 0, shown.output
    report = _invoke("report", run_id, "--db", db)
    assert report.exit_code == 0, report.output
    skipped = json.loads(report.output)["corrected"]["skipped"]
    assert any(s["label"] == "overall" and "beyond +-1,000,000" in s["reason"]
               for s in skipped), skipped
    gate = _invoke("gate", run_id, "--corrected", "--db", db)
    assert gate.exception is None or isinstance(gate.exception, SystemExit), gate.exception
    assert gate.exit_code in (0, 1), gate.output  # gated on the label it can read
    assert "hallucinated" in gate.output
    extreme = db.with_name("extreme.jsonl")
    extreme.write_text("".join(json.dumps({"id": f"s{i}", "overall": 1e308 - i}) + "\n"
                               for i in range(N)))
    calibrated = _invoke("calibrate", run_id, "--db", db, "--labels", extreme)
    assert calibrated.exit_code == 0, calibrated.output
    assert "skipped judge.overall vs people (overall): label 'overall': 1e+308 is beyond " \
        "+-1,000,000" in calibrated.output
    again = _invoke("eval", data, "--metrics", "judge", "--db", db, "-q")
    assert again.exit_code == 0, again.output


def test_labels_delete_by_run_sample_label_and_annotator(db: Path,
                                                         made: tuple[Path, Path, str]) -> None:
    run_id = made[2]
    keys = _keys(db, run_id)
    with Store(db) as store:
        store.set_labels([HumanLabel(content_key=k, name="overall", value=1e308,
                                     annotator="bot") for k in keys[:10]]
                         + [HumanLabel(content_key=k, name="hallucinated", value=False,
                                       annotator="ana") for k in keys[:20]])
    _one_line(_invoke("labels", "delete", "--db", db), "say which labels to delete")
    _one_line(_invoke("labels", "delete", "--db", db, "--sample", "s999"),
              f"run {run_id} has no sample 's999'")
    done = _invoke("labels", "delete", "--db", db, "--sample", "s0", "--sample", "s1",
                   "--label", "hallucination")  # an alias: the vocabulary's name deleted
    assert done.exit_code == 0, done.output
    assert f"deleted 2 labels (hallucinated 2) of run {run_id}'s samples" in done.output
    done = _invoke("labels", "delete", "--db", db, "--run", run_id, "--annotator", "bot")
    assert "deleted 10 labels (overall 10)" in done.output, done.output
    assert {(lab.name, lab.annotator) for lab in _stored(db)} == {("hallucinated", "ana")}
    done = _invoke("labels", "delete", "--db", db, "--all")
    assert "deleted 18 labels (hallucinated 18)" in done.output, done.output
    assert not _stored(db)
    done = _invoke("labels", "delete", "--db", db, "--all")
    assert done.exit_code == 0 and "nothing deleted" in done.output


# -- 6: an export of one run imported into another -----------------------------------------


def test_labels_of_other_answers_are_not_attached_by_id(db: Path, made: tuple[Path, Path, str],
                                                        tmp_path: Path) -> None:
    data, _, run_a = made
    with Store(db) as store:
        store.set_labels([HumanLabel(content_key=k, name="hallucinated", value=i % 2 == 0)
                          for i, k in enumerate(_keys(db, run_a))])
    exported = tmp_path / "a.jsonl"
    done = _invoke("labels", "export", "--db", db, "--run", run_a, "--out", exported)
    assert done.exit_code == 0, done.output
    other = _rows(tmp_path / "b.jsonl", answer="Something else about {i}.",
                  wrong="Nothing about {i}.")
    done = _invoke("eval", other, "--metrics", "judge", "--db", db, "-q")
    assert done.exit_code == 0, done.output
    run_b = _run_id(db)
    keys_b = set(_keys(db, run_b)) - set(_keys(db, run_a))  # B's own answers
    refused = _invoke("labels", "import", exported, "--db", db, "--run", run_b)
    _one_line(refused, f"a.jsonl: {N} rows name samples of run {run_b} by id whose "
                       "content is not what the labels were given for")
    assert not keys_b & {lab.content_key for lab in _stored(db)}
    mixed = tmp_path / "mixed.jsonl"  # rows of B's own content too: those are imported
    rows = [json.loads(line) for line in exported.read_text().splitlines()]
    with Store(db, readonly=True) as store:
        own = next(s for s in store.iter_samples(run_b) if s.content_key in keys_b)
    rows.append({"id": own.id, "content_key": own.content_key, "label": "hallucinated",
                 "value": True})
    mixed.write_text("".join(json.dumps(r) + "\n" for r in rows))
    done = _invoke("labels", "import", mixed, "--db", db, "--run", run_b)
    assert done.exit_code == 0, done.output
    assert f"warning: mixed.jsonl: {N} rows name samples of run {run_b}" in done.output
    assert keys_b & {lab.content_key for lab in _stored(db)} == {own.content_key}


# -- 13 and 15: label CSVs ---------------------------------------------------------------


def test_labels_export_csv_defuses_formulas_and_reads_back(db: Path, made: tuple[Path, Path,
                                                                                 str],
                                                          tmp_path: Path) -> None:
    run_id = made[2]
    keys = _keys(db, run_id)
    with Store(db) as store:
        store.set_labels([HumanLabel(content_key=keys[0], name="hallucinated", value=True,
                                     annotator="@evil", note='=HYPERLINK("http://x","y")'),
                          HumanLabel(content_key=keys[1], name="hallucinated", value=False,
                                     annotator=" +cmd", note="\t-2+3")])
    out = tmp_path / "labels.csv"
    done = _invoke("labels", "export", "--db", db, "--out", out)
    assert done.exit_code == 0, done.output
    with out.open(newline="", encoding="utf-8") as fh:
        cells = [c for row in csv.reader(fh) for c in row]
    assert not [c for c in cells if c.lstrip(" \t\r\n").startswith(("=", "+", "-", "@"))]
    assert "'@evil" in cells and "'=HYPERLINK(\"http://x\",\"y\")" in cells
    with Store(db) as store:
        store.delete_labels(keys)
    back = _invoke("labels", "import", out, "--db", db)
    assert back.exit_code == 0, back.output
    got = {lab.annotator: lab.note for lab in _stored(db)}
    assert got == {"@evil": '=HYPERLINK("http://x","y")', " +cmd": "\t-2+3"}


def test_label_csvs_as_spreadsheets_write_them(db: Path, tmp_path: Path) -> None:
    bom = tmp_path / "excel.csv"
    bom.write_bytes(b"\xef\xbb\xbfid,hallucinated\r\ns0,true\r\ns1,false\r\n")
    done = _invoke("labels", "import", bom, "--db", db)
    assert done.exit_code == 0, done.output
    assert "imported 2 labels (hallucinated 2)" in done.output
    twice = tmp_path / "twice.csv"
    twice.write_text("id,hallucinated,hallucinated\ns0,true,false\n")
    _one_line(_invoke("labels", "import", twice, "--db", db),
              "twice.csv:1: column 'hallucinated' is named twice")
    long_note = tmp_path / "long.csv"
    note = "n" * 200_000
    long_note.write_text(f"id,hallucinated,note\ns2,true,{note}\n")
    done = _invoke("labels", "import", long_note, "--db", db)
    assert done.exit_code == 0, done.output
    assert any(lab.note == note for lab in _stored(db))
