"""Session 25 (k193), from a new user's findings on a labelled set checked with `eval
--judge-check`: `runs show --disagree` says each sample's `--by KEY` value (sorted by it)
or an excerpt of its question; `gate` on a judge-check run says first that its verdict is
on the answers, not the judge, names people's rate as what it is, and says a weak
metric's figure once (its row), not again in the warning; `runs show --by` says the
repeats and the held-apart figures once; `eval --by`'s short table gives the miss/flag
split; a comparison never opens a line (`(target <= 0.1)` whole)."""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner

from ragassay.cli import cli
from ragassay.console import figure_lines
from ragassay.store import Store

KINDS = ("made-up", "swapped", "faithful", "declined")


def _rows() -> list[dict[str, Any]]:
    """Garden-centre rows in our own words, a metadata kind each: answers adding a fact
    the passage lacks (labelled hallucination), answers copying the passage, and declines
    (labelled right and wrong)."""
    rows: list[dict[str, Any]] = []
    for i in range(32):
        kind = KINDS[i % 4]
        ctx = f"Greenhouse {i} keeps {i + 3} trays of basil seedlings under the north lamps."
        answer, wrong = ctx, False
        if kind == "made-up":
            answer = f"Greenhouse {i} is watered by a robot arm every night at ten."
            wrong = True
        elif kind == "swapped":
            wrong = i % 8 == 1  # half copied, half labelled wrong though copied
        elif kind == "declined":
            answer, wrong = "Sorry, I can't find that in what I was given.", i % 8 == 3
        rows.append({"id": f"g{i:02d}", "question": f"How many trays of basil seedlings does "
                     f"greenhouse {i} keep under its lamps?", "contexts": [ctx],
                     "answer": answer, "labels": {"hallucination": wrong},
                     "metadata": {"kind": kind}})
    return rows


def _run(*args: str, columns: str | None = "200") -> tuple[int, str, str]:
    got = CliRunner(env={"COLUMNS": columns}).invoke(cli, list(args))
    return got.exit_code, got.stdout, got.stderr


@pytest.fixture(scope="module")
def runs(tmp_path_factory: pytest.TempPathFactory) -> dict[str, str]:
    tmp = tmp_path_factory.mktemp("k193")
    data = tmp / "garden.jsonl"
    data.write_text("".join(json.dumps(r) + "\n" for r in _rows()))
    db = str(tmp / "r.db")
    out: dict[str, str] = {"db": db}
    for name, extra in (("plain", ()), ("check", ("--judge-check",))):
        code, said, err = _run("eval", str(data), "--db", db, "--metrics", "judge,trace",
                               "--by", "kind", *extra, columns="80")
        assert code == 0, said + err
        out[f"eval_{name}"] = said
        with Store(Path(db), readonly=True) as store:
            out[name] = store.list_runs()[0].id
    code, said, err = _run("eval", str(data), "--db", db, "--metrics", "judge", "--by",
                           "kind")  # a pipe: no COLUMNS
    assert code == 0, said + err
    out["eval_pipe"] = said
    return out


def _listed(text: str) -> list[str]:
    return [x for x in text.splitlines() if re.match(r"  g\d\d ", x)]


def test_disagree_by_kind_says_each_samples_kind_sorted_by_it(runs: dict[str, str]) -> None:
    code, out, err = _run("runs", "show", runs["check"], "--db", runs["db"], "--disagree",
                          "--by", "kind")
    assert code == 0, out + err
    rows = {r["id"]: r["metadata"]["kind"] for r in _rows()}
    listed = _listed(out)
    assert listed, out
    for line in listed:
        sample = line.split()[0]
        assert f"  kind={rows[sample]}  " in line, line
    section = out.split("missed (", 1)[1].split("flagged (", 1)[0]
    kinds = [x.split("kind=")[1].split()[0] for x in _listed(section)]
    assert kinds == sorted(kinds), kinds
    code, data, _ = _run("runs", "show", runs["check"], "--db", runs["db"], "--disagree",
                         "--by", "metadata.kind", "--json")
    assert code == 0
    values = json.loads(data)["by"]["values"]
    assert values and all(v == rows[k] for k, v in values.items()), values
    code, _, err = _run("runs", "show", runs["check"], "--db", runs["db"], "--disagree",
                        "--by", "kidn")
    assert code != 0 and "did you mean kind" in err, err


def test_disagree_without_by_shows_a_question_excerpt(runs: dict[str, str]) -> None:
    code, out, err = _run("runs", "show", runs["check"], "--db", runs["db"], "--disagree")
    assert code == 0, out + err
    listed = _listed(out)
    assert listed and all('  "How many trays of basil' in x for x in listed), listed
    assert all("kind=" not in x for x in listed), listed
    assert all("…\"" in x for x in listed)  # cut short, said so


def test_gate_on_a_judge_check_run_says_first_its_verdict_is_on_the_answers(
        runs: dict[str, str]) -> None:
    code, out, err = _run("gate", runs["check"], "--db", runs["db"])
    assert code == 1, out + err  # the answers were written wrong: NOT READY all the same
    first = out.splitlines()[0]
    assert first.startswith("judge check: ") and "not on the judge" in first, first
    assert "judge.hallucination right on " in first, first
    code, plain, _ = _run("gate", runs["plain"], "--db", runs["db"])
    assert "judge check" not in plain  # a run made without it: as before


def test_gate_says_a_weak_metrics_figure_once(runs: dict[str, str]) -> None:
    code, out, err = _run("gate", runs["check"], "--db", runs["db"])
    said = out + err
    # a judge check's rows: this run's figure; the unseen sets once, as context (trial 90)
    assert said.count("the lowest of 7 unseen sets (0.50-0.77)") == 0, said
    assert " ".join(said.split()).count("context, not this data:") == 1, said
    code, out, err = _run("gate", runs["check"], "--db", runs["db"], "--verbose")
    assert "warning: gating on judge.hallucination, whose " in err  # --verbose: in full


def test_gate_corrected_names_peoples_rate_apart_from_data_problems(
        runs: dict[str, str]) -> None:
    code, _, err = _run("gate", runs["check"], "--db", runs["db"], "--corrected")
    guide = err[err.index("what next:"):]
    people = next(x for x in guide.splitlines() if "people's hallucination (via" in x)
    assert people.startswith("  on people's labels (their own rate"), people
    assert "their rate 0." in people, people
    assert not any(x.startswith("  data problems: people") for x in guide.splitlines())
    assert "  data problems: none (no input missing)" in guide, guide


def test_runs_show_by_kind_says_repeats_and_held_apart_figures_once(
        runs: dict[str, str]) -> None:
    code, out, err = _run("runs", "show", runs["plain"], "--db", runs["db"], "--by", "kind",
                          columns="80")
    assert code == 0, out + err
    flat = " ".join(out.split())
    # the headline says trace.adherence repeats judge.hallucination's verdicts; the table
    # by kind does not say it again
    # (trial 88: the table by kind comes first, the headline after it)
    after = flat[flat.index("judge vs people by kind"):flat.index("What people would say")]
    after += flat[flat.index("suite per strategy"):]
    assert "same verdicts as judge.hallucination" not in after, after[:2000]
    # a held-apart figure the headline said is not said again under the tables
    headline = flat[flat.index("What people would say"):flat.index("suite per strategy")]
    held = re.findall(r"held apart: (Spearman [\d.]+ on 1 unseen)", headline)
    assert held, headline
    for figure in held:
        assert flat.count(figure) == 1, figure
    assert "as the headline says above" in after


def test_eval_by_kind_short_table_gives_misses_and_flags(runs: dict[str, str]) -> None:
    for name in ("eval_check", "eval_pipe"):
        out = runs[name]
        table = out[out.index("judge vs people by kind"):out.index("by kind, every")]
        assert re.search(r"swapped\s+\d+\s+right on \d+ of \d+ \(\d+%\); misses \d+ of \d+, "
                         r"flags \d+ of \d+", table), table
        # a kind people marked all one way says only the part it has
        assert re.search(r"made-up\s+\d+\s+right on \d+ of \d+ \(\d+%\); misses \d+ of \d+\s*\n",
                         table), table
        assert ("misses: people marked hallucination, the judge did not; flags: the "
                "reverse") in table, table
    lines = runs["eval_check"].splitlines()
    assert all(len(x) <= 80 for x in lines), [x for x in lines if len(x) > 80]


@pytest.mark.parametrize("width", range(20, 70))
def test_a_comparison_never_opens_a_line(width: int) -> None:
    text = ("warning judge.hallucination rate 0.318 of 22 scored answers: above the "
            "warning line 0.2 (target <= 0.1), and trace.adherence >= 0.8 is missed")
    lines = figure_lines(text, width, "  ", numbers=True)
    assert not any(re.match(r"\s*(<=|>=|<|>|=)\s", x) for x in lines), lines
    assert any("(target <= 0.1)" in x for x in lines), lines
    assert any("trace.adherence >= 0.8" in x for x in lines), lines


def test_short_cell_leaves_out_a_part_with_nothing_to_count() -> None:
    # a group people marked all hallucinated has misses to say, no flags (was "flags 0 of
    # 0"); one they marked all fine has flags only; a mixed group keeps both
    from ragassay.cli.groups_view import _short_cell
    from ragassay.stats.calibration import Verdicts
    from ragassay.stats.groups import GroupAgreement

    def cell(positives: int, missed: int, flagged: int) -> str:
        return _short_cell(GroupAgreement(
            label="hallucination", metric="judge.hallucination", n=16, positives=positives,
            verdicts=Verdicts(agree=16 - missed - flagged, missed=missed, flagged=flagged)))

    assert cell(16, 3, 0).endswith("; misses 3 of 16"), cell(16, 3, 0)
    assert cell(0, 0, 2).endswith("; flags 2 of 16"), cell(0, 0, 2)
    mixed = cell(6, 1, 0)
    assert mixed.endswith("; misses 1 of 6, flags 0 of 10"), mixed
