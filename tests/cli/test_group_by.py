"""A new user's trial (144 probe rows, each with `metadata.kind` and `domain`, most with
a `hallucinated` label), through the real CLI:

1. the headline's judge column put a 0-1 rate beside a 1-10 mean without saying which
   was which (judge.hallucination, trace.adherence and ragas.faithfulness are all linked
   to `hallucinated`): each row now says its figure and range, in the console, the HTML
   report and (for the corrected estimates' `judge_mean`) the JSON;
2. right/total per `kind` needed pandas: `--by kind` (on `eval`, `runs show`, `report`)
   breaks the run down per value, each group's figures equal to the per-sample rows'."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest
from click.testing import CliRunner

from ragassay.cli import cli
from ragassay.store import Store
from tests.support.console_tables import headline_cell
from tests.support.grouped import by_kind, probe_rows, write_probe

ENV = {"COLUMNS": "250"}


def run(*args: str) -> tuple[int, str]:
    result = CliRunner().invoke(cli, list(args), env=ENV)
    return result.exit_code, result.output


def _eval(tmp: Path, metrics: str, *extra: str) -> dict:
    data, db, out = write_probe(tmp / "probe.jsonl"), tmp / "r.db", tmp / "r.json"
    code, printed = run("eval", "-v", str(data), "--metrics", metrics, *extra, "--db", str(db),
                        "--out", str(out))
    assert code == 0, printed
    with Store(db, readonly=True) as store:
        run_id = store.list_runs()[0].id
    return {"tmp": tmp, "db": db, "out": printed, "report": json.loads(out.read_text()),
            "run": run_id}


@pytest.fixture(scope="module")
def trial(tmp_path_factory: pytest.TempPathFactory) -> dict:
    """The trial's run: every suite, as the user ran it."""
    return _eval(tmp_path_factory.mktemp("trial"), "judge,trace,ragas")


@pytest.fixture(scope="module")
def grouped(tmp_path_factory: pytest.TempPathFactory) -> dict:
    """The same probe set with `--by kind` (the judge suite)."""
    return _eval(tmp_path_factory.mktemp("groupby"), "judge", "--by", "kind")


SCALES = {"judge.faithfulness": ("mean", "1-10"), "judge.hallucination": ("rate", "0-1"),
          "trace.adherence": ("rate", "0-1"), "ragas.faithfulness": ("mean", "0-1")}


AT_LINE = (r"hallucinated rate 0\.\d{3} at its line \(a score below [\d.]+ read as hallucinated\) "
           r"on the \d+(?: labelled)? it scored \(people 0\.\d{3} on those \d+"
           r"(?:; people's column: all \d+)?\); ")  # (trial 73: the column's base named)


def test_each_headline_row_says_what_its_judge_figure_is(trial: dict, tmp_path: Path) -> None:
    report = trial["report"]
    for metric, (figure, scale) in SCALES.items():
        agg = report["aggregate_metrics"]["metrics"][metric]
        want = (f"{figure} {agg['mean']:.3f} [{agg['ci_low']:.3f}, {agg['ci_high']:.3f}] "
                f"on {scale}")
        # an inverted link's figure in the label's direction (trial 67, finding 7)
        if metric == "trace.adherence":
            want = (f"rate {1 - agg['mean']:.3f} [{1 - agg['ci_high']:.3f}, "
                    f"{1 - agg['ci_low']:.3f}] on 0-1 (hallucinated rate: 1 - {metric}'s "
                    f"{agg['mean']:.3f})")
        pattern = re.escape(want)
        if metric not in ("trace.adherence", "judge.hallucination"):
            # a score: its hallucinated rate at its line first, beside people's (trial 72)
            pattern = AT_LINE + re.escape(f"{want} (inverted: high is not hallucinated)")
        # (a verdict whose misses and false flags offset says so after its figure)
        cell = headline_cell(trial["out"], metric, 4)
        assert re.fullmatch(f"{pattern}(; misses and false flags.*)?", cell), cell
    assert "judge's own: a score's mean on its scale, a yes/no verdict's rate" in " ".join(
        trial["out"].split())
    page = tmp_path / "r.html"
    code, out = run("report", trial["run"], "--format", "html", "--out", str(page),
                    "--db", str(trial["db"]))
    assert code == 0, out
    head = page.read_text().split('<section id="headline">', 1)[1].split("</section>", 1)[0]
    inverted = r" \(inverted: high is not hallucinated\)"
    assert re.search(rf"<td[^>]*>hallucinated rate 0\.\d{{3}} at its line [^<]*; mean 7\.\d{{3}} "
                     rf"\[[\d., ]+\] on 1-10{inverted}</td>", head), head
    assert re.search(r"<td[^>]*>rate 0\.\d{3} \[[\d., ]+\] on 0-1(?:</td>|; misses)", head), head
    # the corrected estimates' judge_mean says its figure and range (not the label's)
    whole = {e["metric"]: e for e in report["corrected"]["estimates"] if e["strategy"] is None}
    for metric, (figure, scale) in SCALES.items():
        low, high = (float(x) for x in scale.split("-"))
        assert whole[metric]["judge_scale"] == {"figure": figure, "low": low, "high": high}
        assert whole[metric]["scale"]["kind"] == "bool"  # the label's, unchanged


def _group_rows(out: str, title: str) -> dict[str, list[str]]:
    """The rows of a console table by their first cell, wrapped lines joined."""
    table = out[out.index(title):].split("└", 1)[0]
    rows: dict[str, list[str]] = {}
    last = None
    for line in table.splitlines():
        parts = [c.strip() for c in line.split("│")[1:-1]]
        if not parts:
            continue
        if parts[0]:
            last = parts[0]
            rows[last] = parts[1:]
        elif last is not None:
            rows[last] = [f"{a} {b}".strip() for a, b in zip(rows[last], parts[1:],
                                                               strict=True)]
    return rows


def test_eval_by_kind_prints_each_groups_figures_and_agreement(grouped: dict) -> None:
    entries = grouped["report"]["detailed_results"]
    want = by_kind(entries, "judge.hallucination")
    assert set(want) == {"lookup", "howto", "policy", "pricing", "(none)"}
    figures = _group_rows(grouped["out"], "judge suite by kind")
    agreement = _group_rows(grouped["out"], "judge vs people by kind")
    for kind, g in want.items():
        assert figures[kind][0] == str(g["n"])
        assert f"{g['mean']:.2f} [" in " ".join(figures[kind]), figures[kind]
        cell = next(c for c in agreement[kind] if c.startswith("right on"))
        assert cell.startswith(f"right on {g['right']} of {g['total']} ("), (kind, cell)
    # the JSON report holds the same groups
    groups = {g["value"]: g for g in grouped["report"]["groups"]["groups"]}
    for kind, g in want.items():
        assert groups[kind]["n"] == g["n"]
        assert groups[kind]["metrics"]["judge.hallucination"]["mean"] == pytest.approx(
            g["mean"], abs=1e-6)
        verdicts = next(a for a in groups[kind]["agreement"]
                        if a["metric"] == "judge.hallucination")
        assert (verdicts["verdicts"]["agree"], verdicts["n"]) == (g["right"], g["total"])
    assert grouped["report"]["groups"]["scales"]["judge.faithfulness"] == {
        "figure": "mean", "low": 1.0, "high": 10.0}
    version = grouped["report"]["evaluation_metadata"]["report_version"]
    assert tuple(map(int, version.split("."))) >= (2, 8, 0)  # groups came with 2.8.0


def test_runs_show_and_report_take_the_key_as_users_write_it(grouped: dict) -> None:
    code, shown = run("runs", "show", grouped["run"], "--by", "metadata.kind", "--db",
                      str(grouped["db"]))
    assert code == 0, shown
    assert _group_rows(shown, "judge suite by kind") == _group_rows(grouped["out"],
                                                                    "judge suite by kind")
    code, doc = run("report", grouped["run"], "--by", "domain", "--db", str(grouped["db"]))
    assert code == 0, doc
    groups = json.loads(doc)["groups"]
    assert groups["key"] == "domain"
    assert {g["value"]: g["n"] for g in groups["groups"]} == {"billing": 96, "security": 48}
    code, plain = run("report", grouped["run"], "--db", str(grouped["db"]))
    assert code == 0 and "groups" not in json.loads(plain)  # only when asked


def test_an_unknown_key_is_one_line_naming_the_keys(grouped: dict) -> None:
    code, out = run("report", grouped["run"], "--by", "knd", "--db", str(grouped["db"]))
    assert code == 2
    assert out.strip() == (f"error: group by knd: no sample of run {grouped['run']} has "
                           "metadata key 'knd' (did you mean kind?); its keys: domain, kind")
    code, out = run("report", grouped["run"], "--by", "kind", "--format", "csv", "--db",
                    str(grouped["db"]))
    assert code == 2 and out.startswith("error: --by kind breaks the JSON or HTML report")


def test_eval_with_an_unknown_key_keeps_the_run_and_says_how_to_show_it(grouped: dict
                                                                       ) -> None:
    data, db = write_probe(grouped["tmp"] / "small.jsonl", 8), grouped["tmp"] / "small.db"
    code, out = run("eval", "-v", str(data), "--metrics", "judge", "--by", "topic", "--db",
                    str(db))
    assert code == 2
    assert "aggregate metrics" in out  # the summary was printed
    with Store(db, readonly=True) as store:
        run_id = store.list_runs()[0].id
    last = out.strip().splitlines()[-1]
    assert last == (f"error: group by topic: no sample of run {run_id} has metadata key "
                    f"'topic'; its keys: domain, kind (the run is stored: ragassay runs show "
                    f"{run_id} --by KEY)")


def test_rows_without_the_key_are_their_own_group(grouped: dict) -> None:
    missing = sum("kind" not in r["metadata"] for r in probe_rows())
    groups = {g["value"]: g for g in grouped["report"]["groups"]["groups"]}
    assert missing == 9 and groups["(none)"]["n"] == missing
    assert [g["value"] for g in grouped["report"]["groups"]["groups"]][-1] == "(none)"


LIBRARY = ["The library opens at 9am on weekdays and at 10am on Saturdays. It is closed on "
           "Sundays."]


def _library_rows() -> list[dict]:
    """A `decline` group of five: three answers that decline, two that make a claim
    the context does not hold; an `answer` group of five that answer."""
    declined = "I'm sorry, the information I have doesn't say. Please ask the front desk."
    rows = [{"id": f"d{i}", "question": q, "contexts": LIBRARY, "answer": declined,
             "metadata": {"kind": "decline"}}
            for i, q in enumerate(["Can I print in colour?", "Is there a cafe?",
                                   "Do you lend laptops?"])]
    rows += [{"id": f"c{i}", "question": "Is there wifi?", "contexts": LIBRARY,
              "answer": "Yes, free wifi is available on every floor.",
              "metadata": {"kind": "decline"}} for i in range(2)]
    rows += [{"id": f"a{i}", "question": "When does the library open on Saturdays?",
              "contexts": LIBRARY, "answer": "It opens at 10am on Saturdays.",
              "metadata": {"kind": "answer"}} for i in range(5)]
    return rows


def test_a_groups_figure_says_the_samples_it_rests_on(tmp_path: Path) -> None:
    """Trial 55: the decline row read "n 16 ... hallucination rate 1.00 [1.00, 1.00]", a
    rate over the 7 answers that did not decline, and the 9 that did were not said: each
    figure resting on fewer samples than its group's says how many (console, `runs show`,
    the JSON's `abstained`)."""
    data, db = tmp_path / "lib.jsonl", tmp_path / "r.db"
    data.write_text("".join(json.dumps(r) + "\n" for r in _library_rows()))
    code, out = run("eval", "-v", str(data), "--metrics", "judge", "--by", "kind", "--db", str(db),
                    "--out", str(tmp_path / "r.json"))
    assert code == 0, out
    with Store(db, readonly=True) as store:
        run_id = store.list_runs()[0].id
    code, shown = run("runs", "show", run_id, "--by", "kind", "--db", str(db))
    assert code == 0, shown
    for printed in (out, shown):
        (decline,) = [line for line in printed.splitlines() if line.startswith("│ decline")]
        cells = [c.strip() for c in decline.strip("│").split("│")]
        assert cells[1] == "5" and cells[2].endswith("]")  # context relevance: all five
        # most of the five abstained: their counts lead, the figure over 2 follows
        assert all(c.startswith("3 abstained; 2 scored: ") for c in cells[3:]), cells
        (answer,) = [line for line in printed.splitlines() if line.startswith("│ answer")]
        assert "scored" not in answer and "abstained" not in answer
    groups = json.loads((tmp_path / "r.json").read_text())["groups"]["groups"]
    figure = next(g for g in groups if g["value"] == "decline")["metrics"]["judge.hallucination"]
    assert (figure["count"], figure["missing"], figure["abstained"]) == (2, 3, 3)
