"""The report leads with people's number (issue #38 item 5), through the real CLI: with
human labels in the run, `runs show`, the eval summary and the HTML report's summary open
with each linked metric's corrected estimate and interval, the judge's agreement measured
on this run's labels (AUROC and kappa with their intervals) beside it; without labels,
with the judge's own mean, its held-apart agreement and one line saying how many samples
to label (`ragassay annotate RUN`)."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest
from click.testing import CliRunner

from ragassay.cli import cli
from ragassay.store import Store
from tests.support.console_tables import headline_cell as _cell

EXAMPLE = Path(__file__).resolve().parents[2] / "examples" / "labels"
ENV = {"COLUMNS": "250"}


def run(*args: str) -> tuple[int, str]:
    result = CliRunner().invoke(cli, list(args), env=ENV)
    return result.exit_code, result.output


@pytest.fixture(scope="module")
def labelled(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, str, str]:
    """A judge run of the labels example (no labels in its rows), its eval output, then
    the example's 151 hallucination labels imported."""
    db = tmp_path_factory.mktemp("headline") / "r.db"
    code, out = run("eval", "-v", str(EXAMPLE / "data.jsonl"), "--metrics", "judge", "--db",
                    str(db))
    assert code == 0, out
    code, imported = run("labels", "import", str(EXAMPLE / "labels.jsonl"), "--db", str(db))
    assert code == 0, imported
    return db, out, Store(db, readonly=True).list_runs()[0].id


def _first_table(out: str) -> str:
    """The console's first table after the run line, with its lines' wrapping undone."""
    start = out.index("What people would say")
    return " ".join(out[start:].split("└", 1)[0].split())


def test_without_labels_the_judge_leads_and_a_line_says_how_many_to_label(labelled) -> None:
    _, out, run_id = labelled
    head = _first_table(out)
    assert out.index("What people would say") < out.index("aggregate metrics")
    assert "held apart: AUROC" in head and "no labels" in head
    said = " ".join(out.split())
    assert (f"next no human labels yet: label 30 samples (ragassay annotate {run_id}) to see "
            "what people would say about") in said


def test_with_labels_runs_show_leads_with_peoples_corrected_figure(labelled) -> None:
    db, _, run_id = labelled
    code, out = run("runs", "show", run_id, "--db", str(db))
    assert code == 0, out
    code, doc = run("report", run_id, "--db", str(db))
    report = json.loads(doc)
    est = next(e for e in report["corrected"]["estimates"]
               if e["metric"] == "judge.hallucination" and e["strategy"] is None)
    pair = next(p for p in report["calibration"]["pairs"]
                if p["metric"] == "judge.hallucination")
    head = _first_table(out)
    assert head.index("What people would say") < 5  # the first thing after the run line
    assert out.index("What people would say") < out.index("judge suite per strategy")
    people, row = _cell(out, "judge.hallucination", 2), _cell(out, "judge.hallucination")
    assert (f"hallucinated {est['estimate']:.3f} [{est['ci_low']:.3f}, {est['ci_high']:.3f}]"
            == people)
    agree = pair["verdicts"]["agree"]
    assert row.startswith(f"right on {agree} of {pair['n']} ({agree / pair['n']:.0%}): "), row
    assert row.endswith(f"; in this run: AUROC {pair['auroc']:.2f} [{pair['auroc_ci'][0]:.2f}, "
                        f"{pair['auroc_ci'][1]:.2f}], kappa {pair['kappa']:.2f} "
                        f"[{pair['kappa_ci'][0]:.2f}, {pair['kappa_ci'][1]:.2f}]; "
                        f"{pair['baseline']['text']}"), row  # the lexical baseline last
    assert "not measured" not in row


def test_the_html_report_opens_with_peoples_figure(labelled, tmp_path: Path) -> None:
    db, _, run_id = labelled
    page = tmp_path / "r.html"
    code, out = run("report", run_id, "--format", "html", "--out", str(page), "--db", str(db))
    assert code == 0, out
    html = page.read_text()
    body = html.split("</header>", 1)[1]
    assert body.startswith('<section id="headline"><h2>What people would say</h2>')
    assert body.index('id="headline"') < body.index('<section id="summary">')
    head = body.split("</section>", 1)[0]
    assert "<b>hallucinated 0." in head and "in this run: AUROC" in head
    summary = html.split('<section id="summary">', 1)[1].split("</section>", 1)[0]
    # the metric table says the agreement measured in this run, not "not measured"
    row = summary.split("<tr><td>judge.hallucination</td>", 1)[1].split("</tr>", 1)[0]
    assert "in this run: AUROC" in row and "not measured" not in row


def test_too_few_labels_say_how_many_there_are_and_how_many_are_needed(tmp_path: Path) -> None:
    """The demo's 24 labelled samples are fewer than a corrected figure needs: people's
    column says so ("24 labels, 30 needed") rather than "no labels" beside an agreement
    measured on 22 of those labels (one answer abstains, one is unscored: it said "22
    labels, 30 needed", 2 short of what the corrected figure counts)."""
    demo = Path(__file__).resolve().parents[2] / "src/ragassay/dataset/samples/demo.jsonl"
    code, out = run("eval", "-v", str(demo), "--metrics", "judge", "--db", str(tmp_path / "d.db"))
    assert code == 0, out
    head = _first_table(out)
    row = head.split("judge.hallucination", 1)[1].split("│ judge.", 1)[0]
    # trial 70: every sample labelled, people's own figure whatever the count
    assert "hallucination 0.250 [0.077, 0.423]" in row and "30 needed" not in row
    cell = _cell(out, "judge.hallucination")
    assert cell.startswith("right on 22 of 23 (96%): 1 of 1 answer the judge read as a decline, "
                           "21 of 22 (95%) scored answers: misses "), cell
    assert ("; 1 decline abstained, none marked hallucination by people; 1 unscored "
            "not counted; in this run: AUROC ") in cell and "held apart" not in cell, cell
    assert "no labels" in head.split("judge.context_relevance", 1)[1].split("│ judge.", 1)[0]


def test_agreement_says_why_it_counts_fewer_labels_than_peoples_figure(tmp_path: Path) -> None:
    """Trial 49: with every sample labelled, people's figure counted 92 labels and the
    agreement beside it 87, and nothing said why. An answer that declines has no judge
    value to compare with its label, while the corrected estimate counts the label; the
    cell now says so."""
    rows = []
    for i in range(32):
        ctx = f"Locker {i} on deck {i % 4 + 2} opens with the blue key card."
        wrong = i % 3 == 0
        answer = (f"Locker {i} was removed for repairs until spring." if wrong
                  else ctx)
        rows.append({"id": f"s{i}", "question": f"How does locker {i} open?",
                     "contexts": [ctx], "answer": answer,
                     "labels": {"hallucination": wrong}})
    for i in range(3):
        rows.append({"id": f"d{i}", "question": f"Who repaints locker {i}?",
                     "contexts": [f"Locker {i} on deck 2 opens with the blue key card."],
                     "answer": "I don't have information about that.",
                     "labels": {"hallucination": False}})
    data = tmp_path / "d.jsonl"
    data.write_text("".join(json.dumps(r) + "\n" for r in rows))
    code, out = run("eval", "-v", str(data), "--metrics", "judge", "--db", str(tmp_path / "d.db"))
    assert code == 0, out
    assert _cell(out, "judge.hallucination", 2).startswith("hallucination 0.")  # all 35
    assert _cell(out, "judge.hallucination").startswith(
        "right on 35 of 35 (100%): 3 of 3 answers the judge read as declines, 32 of 32 (100%) "
        "scored "
        "answers: misses "
        "0 of 11 people marked hallucination, flags 0 of "
        "21 they did not; 3 declines abstained, none marked hallucination by people; in "
        "this run: AUROC ")  # the data's name, as beside it
    assert ("(32 labels of 35: 3 abstained not counted, people marked 0 of them "
            "hallucination); ") in _cell(out, "judge.faithfulness")


# ---- wording that never contradicts itself (trial 50) ------------------------------------

def _said(out: str) -> str:
    return " ".join(out.replace("│", " ").split())


def _held_once(said: str, metric: str) -> bool:
    """The held-apart figure said under the tables, or, where the headline said it
    (session 25: said twice on one screen), the metric named as said there."""
    return (f"offline judge, {metric}: balanced accuracy " in said
            or bool(re.search(rf"offline judge, held apart: [\w., ]*{re.escape(metric)}"
                              r"[\w., ]* as the headline says above", said)))


def test_the_held_apart_line_says_so_and_spares_what_the_runs_labels_measure(labelled) -> None:
    """The console's "no measured agreement with people for judge.hallucination" stood a
    few lines below a headline showing its AUROC in this run: the line means held apart,
    and says so. Since trial 72 the verdict has a held-apart figure of its own (its
    balanced accuracy), said as the scores' are, before labels and after; the line of
    those without one names the rest."""
    db, out, run_id = labelled
    said = _said(out)  # no labels yet
    assert "no measured agreement" not in said
    assert ("offline judge: no held-apart agreement with people measured (on human-labelled "
            "sets it was not tuned on) for judge.overall") in said
    assert _held_once(said, "judge.hallucination")
    row = _first_table(out).split("judge.hallucination", 1)[1].split("│ judge.", 1)[0]
    assert "held apart: balanced accuracy " in row and "not measured" not in row
    code, shown = run("runs", "show", run_id, "--db", str(db))
    assert code == 0, shown
    said = _said(shown)
    assert "no measured agreement" not in said
    assert ("no held-apart agreement with people measured (on human-labelled sets it was "
            "not tuned on) for judge.overall") in said  # the one the run has without
    assert _held_once(said, "judge.hallucination")
    assert "measured in this run only" not in said  # every linked metric is held apart


def test_the_footnote_and_the_next_line_fit_the_run(tmp_path: Path) -> None:
    """Without labels the footnote said "agreement: how far the judge's scores rank the
    labels of this run"; it now says what each figure shown is. The "next" line put the
    relevance label (0 of 30) before the hallucination label 12 short: the nearest first."""
    db = tmp_path / "r.db"
    code, out = run("eval", "-v", str(EXAMPLE / "data.jsonl"), "--metrics", "judge", "--db",
                    str(db))
    assert code == 0, out
    said = _said(out)
    assert "labels of this run" not in said and "in this run: how well" not in said
    assert ("held apart: how well the judge's scores ranked people's labels on sets it was "
            "not tuned on") in said
    run_id = Store(db, readonly=True).list_runs()[0].id
    page = tmp_path / "r.html"
    code, _ = run("report", run_id, "--format", "html", "--out", str(page), "--db", str(db))
    head = page.read_text().split('<section id="headline">', 1)[1].split("</section>", 1)[0]
    assert "labels of this run" not in head and "held apart: how well" in head
    few = tmp_path / "few.jsonl"
    few.write_text("\n".join((EXAMPLE / "labels.jsonl").read_text().splitlines()[:18]) + "\n")
    code, imported = run("labels", "import", str(few), "--db", str(db))
    assert code == 0, imported
    code, shown = run("runs", "show", run_id, "--db", str(db))
    said = _said(shown)
    nxt = said.split(" next ", 1)[1]
    assert nxt.startswith("label 12 more samples for hallucinated"), nxt
    assert nxt.index("for hallucinated") < nxt.index("for relevance")
    assert "in this run: how well the judge's scores rank this run's labels" in said


def test_labels_off_their_scale_say_why_not_ask_for_more(tmp_path: Path) -> None:
    """40 `relevance` labels of 99 (a 0-3 grade) and `hallucinated: "maybe"` rows give no
    corrected figure whatever the count: people's column said "40 labels, 30 needed" and
    the next line "label 1 more sample for relevance (... 40 of the 30 a corrected figure
    needs)"; both now give the reason the corrected estimate was refused."""
    data = tmp_path / "d.jsonl"
    data.write_text("".join(json.dumps({
        "id": f"s{i}", "question": f"What does setting {i} do?",
        "contexts": [f"Setting {i} controls buffer {i}."], "answer": f"Buffer {i}.",
        "labels": {"relevance": 99 if i % 2 else 1,
                   "hallucinated": ["maybe", True, False][i % 3]}}) + "\n"
        for i in range(40)))
    code, out = run("eval", "-v", str(data), "--metrics", "judge", "--db", str(tmp_path / "r.db"))
    assert code == 0, out
    head = _first_table(out)
    row = head.split("judge.context_relevance", 1)[1].split("│ judge.", 1)[0]
    assert "label 'relevance': 99 is outside 0-3" in row and "needed" not in row
    text = " ".join(out.split())
    assert "of the 30 a corrected figure needs" not in text
    assert ("next no corrected figure of relevance via judge.context_relevance: label "
            "'relevance': 99 is outside 0-3; no corrected figure of hallucinated via "
            "judge.faithfulness, judge.hallucination: label 'hallucinated': 'maybe' is not "
            "true/false or 1/0") in text


def test_few_labels_off_their_scale_say_why_not_ask_for_more(tmp_path: Path) -> None:
    """12 `hallucinated: 5` rows (fewer than the 30 a corrected figure needs): the reason
    is the value off the scale, not "12 labelled samples, fewer than the 30" (labelling
    18 more of the same would give no figure either)."""
    data = tmp_path / "d.jsonl"
    data.write_text("".join(json.dumps({
        "id": f"s{i}", "question": f"What does setting {i} do?",
        "contexts": [f"Setting {i} controls buffer {i}."], "answer": f"Buffer {i}.",
        "labels": {"hallucinated": 5}}) + "\n" for i in range(12)))
    code, out = run("eval", "-v", str(data), "--metrics", "judge", "--db", str(tmp_path / "r.db"))
    assert code == 0, out
    text = " ".join(out.split())
    assert "fewer than the 30" not in text and "samples for hallucinated" not in text
    assert ("no corrected figure of hallucinated via judge.faithfulness, judge.hallucination: "
            "label 'hallucinated': 5 is not true/false or 1/0") in text


def test_a_verdicts_agreement_says_how_often_it_matches_people(tmp_path: Path) -> None:
    """A trial of 144 labelled rows: beside people's 0.556 the judge's own rate 0.519
    read as close agreement while the judge was wrong on 46 of 135, and nothing said why
    9 labels were not counted. The hallucination verdict's cell now says how often it is
    people's label, what it misses and flags, and what was left out and why; the 1-10
    faithfulness score keeps its ranking figures. The console and the HTML report say the
    same words."""
    from tests.support.verdicts import expected, labelled_rows, lead

    rows = labelled_rows()
    data = tmp_path / "d.jsonl"
    data.write_text("".join(json.dumps(r) + "\n" for r in rows))
    db = tmp_path / "d.db"
    code, out = run("eval", "-v", str(data), "--metrics", "judge", "--db", str(db))
    assert code == 0, out
    run_id = Store(db, readonly=True).list_runs()[0].id
    code, doc = run("report", run_id, "--db", str(db))
    values = {e["id"]: e["metrics"]["judge.hallucination"]
              for e in json.loads(doc)["detailed_results"]}
    want = expected(rows, values)
    assert want["left_out"] == 9 and want["n"] == 135  # the answers that abstain
    assert 0 < want["missed"] < want["positives"] and want["flagged"] > 0
    n = want["n"]
    said = (f"{lead(want)}: misses {want['missed']} of "
            f"{want['positives']} people marked hallucinated, flags {want['flagged']} of "
            f"{n - want['positives']} they did not; 9 declines abstained, none marked "
            "hallucinated by people")
    cell = _cell(out, "judge.hallucination")
    assert cell.startswith(f"{said}; in this run: AUROC"), cell
    faith = _cell(out, "judge.faithfulness")
    assert faith.startswith("in this run: AUROC") and "right on" not in faith, faith
    assert ("(135 labels of 144: 9 abstained not counted, people marked 0 of them "
            "hallucinated); ") in faith, faith  # then the lexical baseline
    assert "right on: how often the judge's yes/no verdict is people's label" in _said(out)
    page = tmp_path / "r.html"
    code, shown = run("report", run_id, "--format", "html", "--out", str(page), "--db", str(db))
    assert code == 0, shown
    head = page.read_text().split('<section id="headline">', 1)[1].split("</section>", 1)[0]
    assert f"<td>{said}; in this run: AUROC" in head and head.count("right on") == 2


def _written(tmp_path: Path, rows: list[dict[str, object]]) -> Path:
    data = tmp_path / "d.jsonl"
    data.write_text("".join(json.dumps(r) + "\n" for r in rows))
    return data


def test_labels_none_of_which_can_be_compared_are_not_called_none(tmp_path: Path) -> None:
    """Every labelled answer abstains (6 of 26): the headline said "no labels" and "no
    human labels yet: label 30 samples" although the run has 6 labels. It says they
    are there, with nothing to compare, and asks for the rest."""
    from tests.support.verdicts import labelled_rows

    rows = labelled_rows(answers=20, abstaining=6)
    for row in rows[:20]:
        del row["labels"]
    code, out = run("eval", "-v", str(_written(tmp_path, rows)), "--metrics", "judge", "--db",
                    str(tmp_path / "r.db"))
    assert code == 0, out
    assert _cell(out, "judge.faithfulness", 2) == (
        "6 labels, 30 needed (6 abstained: nothing to compare)")
    # a verdict counts the abstentions, correct declines: its agreement cell says them
    assert _cell(out, "judge.hallucination", 2) == "6 labels, 30 needed"
    assert _cell(out, "judge.hallucination").startswith(
        "right on 6 of 6 (100%), all 6 answers the judge read as declines")
    assert _cell(out, "judge.context_relevance", 2) == "no labels"  # no relevance labels
    said = _said(out)
    assert "no human labels yet" not in said
    assert "label 24 more samples for hallucinated" in said and "6 of the 30" in said


def test_a_few_faithful_labels_head_the_rows_they_are_compared_with(tmp_path: Path) -> None:
    """20 `faithful` labels and no `hallucinated` ones: judge.hallucination's row (linked
    to both) said "no labels" and "no human labels yet", looking for `hallucinated`. It
    counts the faithful labels and says the verdicts from the hallucinations' side."""
    from tests.support.verdicts import labelled_rows

    rows = labelled_rows(answers=20, abstaining=0, label="faithful")
    code, out = run("eval", "-v", str(_written(tmp_path, rows)), "--metrics", "judge", "--db",
                    str(tmp_path / "r.db"))
    assert code == 0, out
    for metric in ("judge.hallucination", "judge.faithfulness"):
        assert _cell(out, metric, 2) == "faithful 0.600 [0.385, 0.815]", metric  # all 20
    cell = _cell(out, "judge.hallucination")
    assert cell.startswith("right on ") and " of 20 (" in cell
    assert "people marked not faithful" in cell and "they marked faithful;" in cell
    said = _said(out)
    assert "no human labels yet" not in said
    # every one of the 20 samples is labelled: no "label 10 more samples" (trial 59)
    assert "faithful is on all 20 samples" in said and "more samples for faithful" not in said


def test_the_trials_headline_compares_like_with_like(tmp_path: Path) -> None:
    """Trial 54 (144 labelled rows, 13 correct declines): the judge's own rate over the 131
    rows it scored stood beside people's over all 144, under "people (corrected)" with
    nothing corrected, and the per-strategy table said "hallucination rate 0.54 ... n
    144". The console says the judge's n and people's rate on the same rows, what people
    marked the declines, "people (all labelled)", and each figure's own n."""
    from tests.support.verdicts import labelled_rows

    rows = labelled_rows(answers=60, abstaining=4)
    code, out = run("eval", "-v", str(_written(tmp_path, rows)), "--metrics", "judge", "--db",
                    str(tmp_path / "r.db"))
    assert code == 0, out
    table = out[out.index("What people would say"):].split("\n", 3)[2]
    assert "┃ people (all labelled) " in table, table
    scored = [r for r in rows[:60]]
    people = sum(r["labels"]["hallucinated"] for r in scored) / 60
    judge = _cell(out, "judge.hallucination", 4)
    assert judge.startswith("judge 0.") and (
        f" on the 60 it scored (people {people:.3f} on those 60; people's column: all 64); "
        "misses and false flags partly offset: a close rate is not agreement; rate "
    ) in judge, judge
    assert judge.endswith(" on 0-1 (60 of 64 scored)"), judge
    cell = _cell(out, "judge.hallucination")
    agree = int(cell.split(" ", 3)[2]) - 4  # of the 60 verdicts
    assert cell.startswith(f"right on {agree + 4} of 64 ({(agree + 4) / 64:.0%}): 4 of 4 "
                           f"answers the judge read as declines, {agree} of 60 "
                           f"({agree / 60:.0%}) scored answers: misses "), cell
    assert ("; 4 declines abstained, none marked hallucinated by people; in this run: "
            "AUROC ") in cell
    strategies = out[out.index("judge suite per strategy"):].split("└", 1)[0]
    lines = [line.split("│") for line in strategies.splitlines() if line.startswith("│")]
    assert lines[0][-3].strip() == "64"  # the strategy's n
    header = out[out.index("judge suite per strategy"):].splitlines()[2].split("┃")
    at = next(i for i, h in enumerate(header) if h.strip() == "hallucination rate")
    rate = " ".join(" ".join(line[at] for line in lines).split())  # its wrapped lines too
    assert rate.startswith("0.") and rate.endswith("] (n=60)"), strategies  # its own n
    relevance = next(i for i, h in enumerate(header) if h.strip() == "context relevance")
    assert "(n=" not in lines[0][relevance]  # every sample has one
    assert "(n=...): the samples a figure rests on, where fewer than the strategy's" in out
