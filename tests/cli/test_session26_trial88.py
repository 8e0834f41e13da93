"""Session 26 (k207), from trial 88's findings on labelled probes whose `metadata.kind`
groups each hold one label (every paraphrase faithful, every number change hallucinated),
through the real CLI on 20 rows of this file's own words:

1. `runs show --by kind` printed the per-metric block first and a long paragraph saying
   per-kind AUROC has no figure in any kind: the table by kind now leads, and where every
   kind holds one label one short line says so and what to read instead; the full lines
   come after the per-kind tables;
2. the reversed lexical baseline's sentence ("word overlap alone gets these labels the
   wrong way round") took two reads: it says plainly what was measured and what it means;
3. `make demo`'s pip steps flooded the terminal with the machine's pip-config warnings:
   pip's output goes to a log, a failing step still prints its error and stops;
4. `gate` on a `--judge-check` run: its first line says what its exit 1 means for CI."""

from __future__ import annotations

import json
import re
import subprocess
from pathlib import Path
from typing import Any

import pytest

import ragassay
from ragassay.stats.baseline import REVERSED_SAID, REVERSED_SHORT, against_baseline
from ragassay.store import Store
from tests.support.cli import cli_output

ROOT = Path(__file__).resolve().parents[2]
KINDS = ("paraphrase", "copied", "number_change", "invented")


def _rows(mixed: bool = False) -> list[dict[str, Any]]:
    """Bike-shop rows, 5 per kind, each kind all one label (`mixed`: one copied answer
    labelled hallucinated too, so that kind holds both)."""
    rows = []
    for i in range(5):
        ctx = f"The bike shop in town {i} opens at {i + 7} am and closes at {i + 5} pm."
        answers = {"paraphrase": (f"Doors open at {i + 7} in the morning.", False),
                   "copied": (ctx, mixed and i == 0),
                   "number_change": (ctx.replace(f"at {i + 7} am", f"at {i + 9} am"), True),
                   "invented": (f"The shop in town {i} also rents electric scooters.", True)}
        for kind, (answer, wrong) in answers.items():
            rows.append({"id": f"{kind[:2]}{i}", "question": f"When does the bike shop in "
                         f"town {i} open?", "contexts": [ctx], "answer": answer,
                         "labels": {"hallucination": wrong}, "metadata": {"kind": kind}})
    return rows


_run = cli_output


@pytest.fixture(scope="module")
def trial(tmp_path_factory: pytest.TempPathFactory) -> dict[str, str]:
    tmp = tmp_path_factory.mktemp("k207")
    data, db = tmp / "probes.jsonl", str(tmp / "r.db")
    data.write_text("".join(json.dumps(r) + "\n" for r in _rows()), encoding="utf-8")
    _run("eval", str(data), "--judge-check", "--by", "kind", "--db", db)
    with Store(db, readonly=True) as store:
        run = store.list_runs()[0].id
    return {"db": db, "run": run,
            "show": _run("runs", "show", run, "--by", "kind", "--db", db),
            "gate": _run("gate", run, "--db", db, code=1)}


def test_runs_show_by_kind_leads_with_the_table_by_kind(trial: dict[str, str]) -> None:
    out = trial["show"]
    lines = out.splitlines()
    assert lines[0].startswith(f"run {trial['run']}")
    table = out.index("judge vs people by kind")
    assert table < out.index("What people would say")  # the headline's block after it
    assert out.index("What people would say") < out.index("suite by kind")
    assert re.search(r"│ number_change\s+│ right on 5 of 5 \(100%\)", out), out[:3000]


def test_one_label_per_kind_is_one_short_line(trial: dict[str, str]) -> None:
    out = trial["show"]
    head = out[:out.index("What people would say")]
    short = ("every kind holds one label, so no AUROC per kind: read each kind's right on N "
             "of M above")
    assert [x for x in head.splitlines() if x.strip() == short], head  # one line, whole
    assert "no figure in any kind" not in head and "all one class" not in head
    # the full lines stay reachable: after the per-kind figure tables
    rest = " ".join(out[out.index("suite by kind"):].split())
    assert "judge.faithfulness vs people (hallucination)" in rest
    assert "no figure in any kind; paraphrase, copied: 5 labels, all one class (none " \
        "hallucination); number_change, invented: 5 labels, all one class (all " \
        "hallucination)" in rest, rest[-3000:]


def test_a_kind_holding_both_labels_keeps_the_full_line(tmp_path: Path) -> None:
    groups = ragassay.evaluate(_rows(mixed=True), "judge", store=tmp_path / "r.db",
                               progress=False).by("kind")
    assert not groups.one_label()  # copied holds both labels: AUROC there, no short line
    one = ragassay.evaluate(_rows(), "judge", store=tmp_path / "s.db", progress=False)
    assert one.by("kind").one_label()


def test_the_reversed_baseline_says_what_it_measured_and_means() -> None:
    for said in (REVERSED_SAID, REVERSED_SHORT):
        assert "wrong way round" not in said and "backwards" not in said
    # (trial 89: plainer still: what it means first; the short form a few words)
    assert "high overlap" in REVERSED_SAID and "problem" in REVERSED_SAID
    assert "reuse more of their passages' words" in REVERSED_SAID
    assert len(REVERSED_SAID) < 200  # one or two short clauses
    lexical = [0.9, 0.95, 1.0, 0.85, 0.3, 0.4, 0.35, 0.2]  # the flagged answers copy more
    truth = [True] * 4 + [False] * 4
    got = against_baseline("hallucinated", 0.75, (0.55, 0.9), lexical, truth, n_resamples=200)
    assert got is not None and got.text.endswith(f" - {REVERSED_SAID}")


def test_gates_first_line_says_what_exit_1_means_for_ci(trial: dict[str, str]) -> None:
    first = trial["gate"].splitlines()[0]
    assert first.startswith("judge check: "), first
    assert "in CI its exit 1 (NOT READY) means these answers miss their bars, not that " \
        "the judge failed" in first, first
    assert trial["gate"].splitlines()[-1] == "NOT READY"  # the verdict and code unchanged


def test_makefile_pip_steps_are_quiet_and_logged() -> None:
    make = (ROOT / "Makefile").read_text(encoding="utf-8")
    pip = [x for x in make.splitlines() if "$(BIN)/pip install" in x]
    assert len(pip) == 6 and all("$(QUIET) $(BIN)/pip install -q" in x for x in pip), pip
    assert "QUIET := sh scripts/quiet.sh $(PIP_LOG)" in make
    dry = subprocess.run(["make", "-n", "demo", "VENV=/nonexistent-k207"], cwd=ROOT,
                         capture_output=True, text=True, check=False)
    assert "sh scripts/quiet.sh /nonexistent-k207/pip-install.log /nonexistent-k207/bin/pip " \
        "install -q --no-compile -e" in dry.stdout, dry.stdout + dry.stderr


def test_a_quiet_step_hides_warnings_and_a_failing_one_says_its_error(tmp_path: Path) -> None:
    log = tmp_path / "pip.log"
    flood = "for i in 1 2 3; do echo 'WARNING: Location file:///x is ignored' >&2; done"
    ok = subprocess.run(["sh", "scripts/quiet.sh", str(log), "sh", "-c", f"{flood}; echo done"],
                        cwd=ROOT, capture_output=True, text=True, check=False)
    assert ok.returncode == 0 and ok.stdout == "" and ok.stderr == ""
    kept = log.read_text().splitlines()
    assert sum(x.startswith("WARNING: Location") for x in kept) == 3  # kept in the log
    bad = subprocess.run(["sh", "scripts/quiet.sh", str(log), "sh", "-c",
                          f"{flood}; echo 'ERROR: No matching distribution' >&2; exit 3"],
                         cwd=ROOT, capture_output=True, text=True, check=False)
    assert bad.returncode == 3
    assert "ERROR: No matching distribution" in bad.stderr and str(log) in bad.stderr
    said = bad.stderr.splitlines()
    assert not [x for x in said if x.startswith(("WARNING: Location", "done"))], said
