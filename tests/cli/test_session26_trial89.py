"""Session 26 (k215), from trial 89's findings on labelled probes whose `metadata.kind`
groups each hold one label, run with `eval --judge-check`, through the real CLI on 30
rows of this file's own words (one kind of answers copied from the passage but labelled
hallucinated, so that word overlap points the wrong way and the judge misses them):

1. the reversed lexical baseline's sentence was said several times in `runs show` and
   `gate`: said once per command's output, plainer ("word overlap points the wrong way
   here: ..."), later places a few words, the note of what it means without its reason;
2. `gate` on a `--judge-check` run led to "7 failed checks and many notes": its first
   line says what it gates and where the judge's verdict is; the notes on the judge go,
   its guidance is one line; the exit code is unchanged;
3. the decline row of `runs show --by kind` ("14 of 14 answers the judge read as
   declines, 0 of 2 scored answers") reads plainly: `4 read as declines (right); of 1
   scored as an answer, 1 right`;
4. a missed answer's "supported by 0a" now says what to check there."""

from __future__ import annotations

import json
from typing import Any

import pytest

from ragassay.stats.baseline import REVERSED_SAID, REVERSED_SHORT, SaidOnce
from ragassay.stats.verdicts import declines_split
from ragassay.store import Store
from tests.support.cli import cli_output

WHY = "(it points the wrong way: answers people marked"


def _rows() -> list[dict[str, Any]]:
    """Bike-shop rows, 5 per kind, each kind one label; 4 of the 5 declines abstain."""
    rows = []
    names = ["Anna", "Ben", "Carla", "Dev", "Eli", "Fay"]
    for i in range(5):
        a, b = names[i], names[i + 1]
        ctx = [f"The bike shop in town {i} opens at {i + 7} am and closes at {i + 5} pm.",
               f"{a} manages the repair desk and {b} manages the rental desk."]
        answers = {
            "paraphrase": (f"Doors open at {i + 7} in the morning.", False),
            "copied": (ctx[0].replace(" and closes", ", closing"), True),
            "number_change": (ctx[0].replace(f"at {i + 7} am", f"at {i + 9} am"), True),
            "entity": (f"{b} manages the repair desk.", True),
            "invented": (f"The bike shop in town {i} opens at {i + 7} am and also rents "
                         "electric scooters.", True),
            "declines": ("I'm sorry, I can't help with that question." if i < 4
                         else f"The shop opens at {i + 7} am.", False)}
        for kind, (answer, wrong) in answers.items():
            rows.append({"id": f"{kind[:2]}{i}", "question": f"When does the bike shop in "
                         f"town {i} open and who runs repairs?", "contexts": ctx,
                         "answer": answer, "labels": {"hallucination": wrong},
                         "metadata": {"kind": kind}})
    return rows


_run = cli_output


@pytest.fixture(scope="module")
def trial(tmp_path_factory: pytest.TempPathFactory) -> dict[str, str]:
    tmp = tmp_path_factory.mktemp("k215")
    data, db, plain_db = tmp / "probes.jsonl", str(tmp / "r.db"), str(tmp / "p.db")
    data.write_text("".join(json.dumps(r) + "\n" for r in _rows()), encoding="utf-8")
    _run("eval", str(data), "--judge-check", "--db", db)
    _run("eval", str(data), "--db", plain_db)
    runs = {}
    for name, path in (("run", db), ("plain", plain_db)):
        with Store(path, readonly=True) as store:
            runs[name] = store.list_runs()[0].id
    run = runs["run"]
    return {"run": run,
            "show": _run("runs", "show", run, "--by", "kind", "--db", db),
            "disagree": _run("runs", "show", run, "--disagree", "--db", db),
            "json": _run("runs", "show", run, "--disagree", "--json", "--db", db),
            "gate": _run("gate", run, "--db", db, code=1),
            "plain_gate": _run("gate", runs["plain"], "--db", plain_db, code=1)}


def _flat(text: str) -> str:
    return " ".join(text.split())


def test_the_reversed_baseline_is_said_once_per_output_and_plainly(
        trial: dict[str, str]) -> None:
    assert REVERSED_SAID.startswith("word overlap points the wrong way here: ")
    assert "as said above" not in REVERSED_SHORT and len(REVERSED_SHORT) < 60
    for out in (trial["show"], trial["plain_gate"]):
        flat = _flat(out)
        assert flat.count(REVERSED_SAID) == 1, flat  # in full once
        assert flat.count(REVERSED_SHORT) >= 1  # later places: a few words
        assert "as said above" not in flat
        # the meaning's note no longer says its reason a second time
        assert WHY not in flat, flat
        assert "word overlap alone tells people's labels apart" in flat


def test_a_meaning_said_first_keeps_its_reason_and_later_lines_are_short() -> None:
    once = SaidOnce()
    meaning = ("hallucination: word overlap alone tells people's labels apart 0.85 of the "
               f"time here {WHY} hallucination reuse more of their passages' words than the "
               "rest), so read the judge's agreement against that, not against 0.5")
    assert once(meaning) == meaning
    assert once(f"x - {REVERSED_SAID}") == f"x - {REVERSED_SHORT}"
    assert WHY not in once(meaning)


def test_gate_on_a_judge_check_leads_with_what_it_gates(trial: dict[str, str]) -> None:
    out, run = trial["gate"], trial["run"]
    first = out.splitlines()[0]
    assert first.startswith("judge check: this gate is on the answers' own rates, not on "
                           "the judge"), first
    assert "written wrong on purpose" in first
    assert "The judge's verdict is its agreement with your labels: judge.hallucination right on" \
        in first
    assert f"ragassay runs show {run}" in first
    flat = _flat(out)
    assert "lexical baseline" not in flat  # runs show says it
    assert "to set your own bars" not in flat
    nexts = [x for x in out.splitlines() if x.startswith("what next")]
    assert len(nexts) == 1 and "written wrong on purpose" in nexts[0], nexts
    assert "judge.hallucination" in out and "FAIL" in out  # the per-check list stays
    assert out.rstrip().endswith("NOT READY")
    # a run made without --judge-check: as before
    plain = trial["plain_gate"]
    assert not plain.startswith("judge check") and "to set your own bars" in plain


def test_the_decline_row_by_kind_reads_plainly(trial: dict[str, str]) -> None:
    table = _flat(trial["show"][:trial["show"].index("right on N of M")].replace("│", " "))
    assert "right on 5 of 5 (100%): 4 read as declines (right)" in table, table
    assert "of 1 scored as an answer, 1 right (flags 0 of 1 people did not mark " \
        "hallucination)" in table, table
    assert "answers the judge read as declines" not in table


class _Group:
    """A group's counts, as `Counted` has them."""

    def __init__(self, **kw: Any) -> None:
        self.__dict__.update(kw)


def test_declines_split_says_wrong_declines_and_none_scored() -> None:
    from ragassay.stats.calibration import Verdicts

    v = Verdicts(agree=0, missed=0, flagged=2, problem=True)
    got = declines_split(_Group(verdicts=v, abstained=14, abstained_positives=0,
                                abstained_false=None, n=2), "hallucinated")
    assert got == "14 read as declines (right); of 2 scored as answers, 0 right"
    some = declines_split(_Group(verdicts=v, abstained=3, abstained_positives=1,
                                 abstained_false=None, n=0), "hallucinated")
    assert some == "3 read as declines (2 right, 1 marked hallucinated by people)"


def test_a_miss_says_what_to_check(trial: dict[str, str]) -> None:
    missed = [x for x in trial["disagree"].splitlines() if x.startswith("  co")]
    assert len(missed) == 5, trial["disagree"]
    for line in missed:
        assert "supported by 0a" in line
        assert line.endswith("; the judge found it restated by 0a: compare the figures "
                             "and names there"), line
    data = json.loads(trial["json"])
    (v,) = [v for v in data["verdicts"] if v["metric"] == "judge.hallucination"]
    assert {d["check"] for d in v["missed"]} == {
        "the judge found it restated by 0a: compare the figures and names there"}
