"""`gate --corrected` on cherry-picked labels (issue 43, item 15).

On 4f8feb9 the gate said READY on 30 labels of the run's best-scored answers, without
a word: a corrected interval assumes labels drawn at random (or by a plan). Now labels
without a plan whose samples' judge scores differ from the rest's (Mann-Whitney p <
0.01) carry a caution, which the gate, the console and the report say."""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
from click.testing import CliRunner

from ragassay.cli import cli
from ragassay.store import Store
from tests.support.annotated_run import AnnotatedRun, make_run

N = 160


def _labels(path: Path, run: AnnotatedRun, picked: list[int]) -> Path:
    path.write_text("".join(json.dumps({"id": run.samples[i].id,
                                        "hallucinated": bool(run.bad[i])}) + "\n"
                            for i in picked))
    return path


def _gate(db: Path, labels: Path) -> str:
    imported = CliRunner().invoke(cli, ["labels", "import", str(labels), "--db", str(db)])
    assert imported.exit_code == 0, imported.output
    gate = CliRunner().invoke(cli, ["gate", "--corrected", "--db", str(db)])
    assert gate.exit_code in (0, 1), gate.output
    return gate.output


def test_labels_of_the_best_answers_are_said_to_look_unlike_the_run(tmp_path: Path) -> None:
    db = tmp_path / "c.db"
    with Store(db) as store:
        run = make_run(store, N, seed=3)
        scores = {r.sample_id: r.results[1].value for r in store.iter_results(run.run_id)}
    ranked = sorted(range(N), key=lambda i: -float(scores[run.samples[i].id] or 0))
    best = ([i for i in ranked if not run.bad[i]][:25]  # the best-scored answers, and
            + [i for i in ranked if run.bad[i]][:5])  # the best of the bad ones
    assert len(best) == 30
    out = _gate(db, _labels(tmp_path / "best.jsonl", run, best))
    # the gate names the metric a caution is about (k38b: the gate gates what eval shows)
    assert "warning: judge.hallucination: people's hallucinated: " in out, out
    assert "the 30 labelled samples look unlike the run: their judge.faithfulness mean" in out
    assert "labels picked rather than drawn at random make this interval unreliable" in out


def test_labels_drawn_at_random_carry_no_such_caution(tmp_path: Path) -> None:
    db = tmp_path / "r.db"
    with Store(db) as store:
        run = make_run(store, N, seed=3)
    drawn = sorted(np.random.default_rng(7).choice(N, 40, replace=False).tolist())
    out = _gate(db, _labels(tmp_path / "random.jsonl", run, drawn))
    assert "people's hallucinated" in out and "look unlike the run" not in out, out
