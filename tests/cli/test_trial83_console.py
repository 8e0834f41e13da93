"""Trial 83's findings on the console: a warning's rate said with what it is of (the
scored answers, the declines set aside), the scales in one plain sentence, why
`judge.overall` is 0 on a flagged answer, and `eval --judge-check` for a run made only to
check the judge against people's labels."""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner

from ragassay.cli import cli

ANSWERING = 15
DECLINING = 3


def _rows() -> list[dict[str, Any]]:
    """Labelled rows in words of our own: pantry shelves described by their passage, every
    third answer adding a delivery the passage does not mention (labelled hallucinated),
    and declines whose passage does not answer (labelled not hallucinated)."""
    rows: list[dict[str, Any]] = []
    for i in range(ANSWERING):
        ctx = f"Shelf {i} in pantry {i % 3 + 1} holds the rye flour sacks."
        invents = i % 3 == 0
        answer = (f"Shelf {i} gets a fresh truck delivery every Monday at dawn." if invents
                  else ctx)
        rows.append({"id": f"p{i}", "question": f"What does shelf {i} hold?",
                     "contexts": [ctx], "answer": answer,
                     "labels": {"hallucination": invents}})
    for i in range(DECLINING):
        rows.append({"id": f"n{i}", "question": f"Who cleans the pantry {i} floor?",
                     "contexts": [f"Shelf {i} in pantry 1 holds the rye flour sacks."],
                     "answer": "I don't have information about that.",
                     "labels": {"hallucination": False}})
    return rows


@pytest.fixture(scope="module")
def runs(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Any]:
    tmp = tmp_path_factory.mktemp("trial83")
    data, db = tmp / "pantry.jsonl", tmp / "r.db"
    data.write_text("".join(json.dumps(r) + "\n" for r in _rows()))
    bare = tmp / "bare.jsonl"
    bare.write_text("".join(json.dumps({k: v for k, v in r.items() if k != "labels"}) + "\n"
                            for r in _rows()))
    runner = CliRunner(env={"COLUMNS": "200"})
    out: dict[str, Any] = {"db": str(db)}
    for name, args in (("plain", ["--out", str(tmp / "report.json")]),
                       ("check", ["--judge-check"]),
                       ("check_verbose", ["--judge-check", "--verbose"]),
                       ("verbose", ["--verbose"])):
        got = runner.invoke(cli, ["eval", str(data), "--db", str(db), "--metrics", "judge",
                                  *args])
        assert got.exit_code == 0, got.output
        out[name] = got.stdout
    got = runner.invoke(cli, ["eval", str(bare), "--db", str(db), "--metrics", "judge",
                              "--judge-check"])
    assert got.exit_code == 0, got.output
    out["bare"] = got.stdout
    out["report"] = json.loads((tmp / "report.json").read_text())
    return out


def _flat(text: str) -> str:
    return " ".join(text.split())


def _warnings(text: str) -> list[str]:
    return [x for x in text.splitlines() if x.startswith("warning ")]


def test_a_warning_says_how_many_scored_answers_its_rate_is_of(runs: dict[str, Any]) -> None:
    agg = runs["report"]["aggregate_metrics"]["metrics"]["judge.hallucination"]
    assert agg["abstained"] == DECLINING and agg["count"] == ANSWERING, agg
    for name in ("plain", "verbose"):  # the short summary and the full one
        said = _flat(runs[name])
        line = said[said.index("warning judge.hallucination "):]
        assert re.match(rf"warning judge\.hallucination rate {agg['mean']:.3g} of "
                        rf"{ANSWERING} scored answers; {DECLINING} read as declines set "
                        r"aside \(judge; people [^)]*\): above the warning line 0\.2 "
                        r"\(target <= 0\.1\)", line), line


def test_a_warning_with_no_decline_says_scored_samples() -> None:
    from ragassay.report.flag_base import base_text
    from ragassay.stats import Flag, MetricAggregate

    agg = MetricAggregate(mean=0.3, ci_low=0.2, ci_high=0.4, count=40, unscored=2)
    assert base_text(agg) == "of 40 scored samples; 2 unscored"
    one = agg.model_copy(update={"abstained": 1})
    assert base_text(one) == "of 40 scored answers; 1 read as a decline set aside; 2 unscored"
    flag = Flag(metric="m", scope="overall", value=0.3, level="warning",
                message="m mean 0.3: below the warning line 0.4 (target >= 0.5)")
    assert flag.beside("", base_text(agg)) == (
        "m mean 0.3 of 40 scored samples; 2 unscored: below the warning line 0.4 "
        "(target >= 0.5)")
    assert flag.beside("") == flag.message  # nothing to add: as it was


def test_the_scales_are_one_plain_sentence(runs: dict[str, Any]) -> None:
    lines = runs["plain"].splitlines()
    at = next(i for i, x in enumerate(lines) if x.startswith("Scales: "))
    end = next(i for i in range(at, len(lines)) if lines[i].rstrip().endswith("."))
    said = _flat(" ".join(lines[at:end + 1]))
    assert said == ("Scales: judge.context_relevance and judge.faithfulness run from 1 to "
                    "10, judge.overall from 0 to 10, and every other metric from 0 to 1; "
                    "higher is better, except for judge.hallucination."), said
    assert "scale 0-1, but" not in runs["plain"]  # the old shorthand


def test_the_scale_sentence_breaks_between_names_at_any_width(tmp_path: Path) -> None:
    data = tmp_path / "d.jsonl"
    data.write_text("".join(json.dumps(r) + "\n" for r in _rows()))
    out = CliRunner(env={"COLUMNS": "50"}).invoke(
        cli, ["eval", str(data), "--db", str(tmp_path / "r.db"), "--metrics", "judge"]).stdout
    lines = out.splitlines()
    at = next(i for i, x in enumerate(lines) if x.startswith("Scales: "))
    end = next(i for i in range(at, len(lines)) if lines[i].rstrip().endswith("."))
    said = lines[at:end + 1]
    assert len(said) > 1 and all(len(x) <= 50 for x in said), said
    words = _flat(" ".join(said)).split()
    for name in ("judge.context_relevance", "judge.faithfulness", "judge.overall"):
        assert any(w.strip(",;.") == name for w in words), (name, said)  # never split


def test_overall_is_zero_on_a_flagged_answer_and_the_console_says_why(
        runs: dict[str, Any]) -> None:
    flagged = [s for s in runs["report"]["detailed_results"]
               if s["metrics"].get("judge.hallucination") is True]
    assert flagged and all(s["metrics"]["judge.overall"] == 0 for s in flagged)
    kept = [s for s in runs["report"]["detailed_results"]
            if s["metrics"].get("judge.hallucination") is False]
    assert kept and all(s["metrics"]["judge.overall"] > 0 for s in kept)  # only flagged ones
    said = ("judge.overall = (0.3 CR + 0.4 AS + 0.3 F) x (1 - hallucination): 0 on every "
            "answer judge.hallucination flags, by design")
    assert said in _flat(runs["plain"])  # the short summary, under the scales
    assert said in _flat(runs["verbose"])  # runs show: under the judge suite's table


def test_judge_check_leaves_out_the_warnings_and_keeps_the_agreement(
        runs: dict[str, Any]) -> None:
    plain, check = runs["plain"], runs["check"]
    assert _warnings(plain)  # the set is bad on purpose: the system's rate warns
    assert _warnings(check) == [] and _warnings(runs["check_verbose"]) == []
    n = len([x for x in runs["report"]["interpretation"]
             if x["level"] == "warning" and x["scope"] == "overall"])
    for out in (check, runs["check_verbose"]):
        run = re.search(r"run (\d{8}-\d{6}-\w{4})", out)
        assert run is not None
        said = (f"judge check: {n} warning{'s' if n > 1 else ''} on the RAG system's own "
                f"figures left out (ragassay runs show {run[1]} --warnings lists them)")
        assert said in _flat(out), out
    run = re.search(r"run (\d{8}-\d{6}-\w{4})", check)
    assert run is not None
    # the agreement figures stay, word for word those of the plain summary
    first = re.search(r"run (\d{8}-\d{6}-\w{4})", plain)
    assert first is not None
    kept = [x.replace(first[1], run[1]) for x in plain.splitlines()
            if "right on" in x or x.startswith(("see ", "abstentions:", "next "))]
    assert len(kept) >= 3, plain
    for line in kept:
        assert line in check.splitlines(), line


def test_judge_check_without_labels_says_there_is_nothing_to_check(
        runs: dict[str, Any]) -> None:
    assert ("judge check: no people's labels in this data, so nothing to check the judge "
            "against") in _flat(runs["bare"])
