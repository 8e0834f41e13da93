"""Trial 82's findings on the console: the unscored line names the metrics its values are
of, and `runs list` keeps every cell whole at 80 and 100 columns with one headline figure
per run, read from the report's headline."""

from __future__ import annotations

import json
import re
from typing import Any

import pytest
from click.testing import CliRunner

from ragassay.cli import cli

CONTEXTS = (
    ("The Harbor Street library opens at 9 am on weekdays and at 11 am on Saturdays.",
     "It is closed on Sundays and public holidays."),
    ("Members may borrow up to twelve books at a time.",
     "Loans last three weeks and can be renewed twice online."),
    ("Our repair shop replaces bicycle chains for 25 dollars, parts included.",
     "Wheel truing costs 15 dollars per wheel."),
    ("The ferry to Lind Island leaves the north pier every 40 minutes between 6 am and 10 pm.",
     "A return ticket costs 8 euros for adults and 4 euros for children."),
    ("We ship orders within two business days.",
     "Returns are accepted within 30 days if the item is unused."),
    ("The museum's west wing holds the textile collection.",
     "Guided tours start at the main desk at 2 pm on Thursdays."),
)
ROWS = (  # kind, contexts, question, answer, people's hallucination label
    ("faithful", 0, "When does the library open on Saturdays?",
     "On Saturdays the library opens at 11 am.", False),
    ("faithful", 1, "How many books can a member borrow?",
     "A member can borrow up to twelve books at once.", False),
    ("faithful", 2, "How much is a chain replacement?",
     "Replacing a chain costs 25 dollars including parts.", False),
    ("faithful", 3, "How often does the ferry leave?",
     "The ferry leaves every 40 minutes from the north pier.", False),
    ("faithful", 4, "How fast do you ship?",
     "Orders ship within two business days.", False),
    ("faithful", 5, "Where is the textile collection?",
     "It is in the west wing of the museum.", False),
    ("paraphrase", 0, "Is the library open Sunday?",
     "No, on Sundays and holidays it stays shut.", False),
    ("paraphrase", 1, "How long can I keep a book?",
     "You get the book for 21 days, and you may extend the loan two times online.", False),
    ("paraphrase", 3, "What does a child's return ferry ticket cost?",
     "Kids pay half the adult price: four euros for a round trip.", False),
    ("paraphrase", 4, "Can I send back an item?",
     "Yes, unused items can come back within a month.", False),
    ("numbers", 0, "When does the library open on weekdays?",
     "It opens at 8 am on weekdays.", True),
    ("numbers", 1, "How many books can I borrow?",
     "You can borrow up to twenty books at a time.", True),
    ("numbers", 2, "How much is wheel truing?",
     "Wheel truing costs 12 dollars per wheel.", True),
    ("numbers", 3, "How much is an adult return ticket?",
     "An adult return ticket costs 10 euros.", True),
    ("numbers", 4, "How long do I have to return items?",
     "Returns are accepted within 60 days.", True),
    ("entity", 5, "Where is the textile collection?",
     "The textile collection is in the east wing.", True),
    ("entity", 5, "Where do tours start?",
     "Guided tours start at the gift shop at 2 pm on Thursdays.", True),
    ("entity", 3, "Where does the ferry leave from?",
     "It leaves from the south pier.", True),
    ("scope", 2, "What does the shop do?",
     "The shop replaces chains for 25 dollars and also repairs e-bike motors.", True),
    ("scope", 4, "How fast do you ship?",
     "We ship within two business days, and express delivery arrives the next morning.", True),
    ("scope", 5, "When are tours?",
     "Tours start at 2 pm on Thursdays and are free for students.", True),
    ("entity_name", 4, "How fast do you ship?",
     "Northwind Goods ships orders within two business days.", False),
    ("decline", 0, "Does the library have a cafe?",
     "I'm sorry, the passages don't say whether there is a cafe.", False),
    ("decline", 3, "Can I pay by card on the ferry?",
     "I can't find anything about card payments in the information I have.", False),
    ("decline", 2, "Do you repair scooters?",
     "That isn't covered here, so I can't tell you.", False),
    ("decline", 5, "Is there parking at the museum?",
     "No idea, sorry - the documents are silent on parking.", False),
    ("unrelated", 0, "How late is the library open?",
     "Bananas are a good source of potassium.", True),
    ("unrelated", 1, "Can I renew a loan by phone?",
     "The ferry costs 8 euros.", True),
    ("unrelated", 2, "How much is a chain?",
     "Paris is the capital of France.", True),
    ("wrong", 0, "Is the library open on public holidays?",
     "Yes, it is open on public holidays from 9 am.", True),
    ("wrong", 1, "Can loans be renewed?",
     "No, loans cannot be renewed.", True),
)


def _rows() -> list[dict[str, Any]]:
    """31 labelled rows in words of our own (`labels.hallucination`, `metadata.kind`):
    faithful answers, paraphrases, wrong numbers and names, scope creep, a company name
    the passages do not hold, declines, unrelated and wrong answers."""
    return [{"id": f"r{i:02d}", "question": q, "contexts": list(CONTEXTS[c]), "answer": a,
             "labels": {"hallucination": hal}, "metadata": {"kind": kind}}
            for i, (kind, c, q, a, hal) in enumerate(ROWS)]


@pytest.fixture(scope="module")
def store(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Any]:
    tmp = tmp_path_factory.mktemp("trial82")
    data, db = tmp / "deep" / "folder" / "eval_input.jsonl", tmp / "r.db"
    data.parent.mkdir(parents=True)
    data.write_text("".join(json.dumps(r) + "\n" for r in _rows()))
    runner = CliRunner()
    runs = [runner.invoke(cli, ["eval", str(data), "--db", str(db), "--by", "kind"])
            for _ in range(2)]
    for r in runs:
        assert r.exit_code == 0, r.output
    return {"db": str(db), "eval": runs[0], "data": str(data)}


def test_the_unscored_line_names_the_metric(store: dict[str, Any]) -> None:
    line = [x for x in store["eval"].stderr.splitlines() if "unscored" in x]
    assert line == ["1 trace.completeness value unscored: no relevant context sentences (1)"]


@pytest.mark.parametrize("columns", ["80", "100"])
def test_runs_list_keeps_cells_whole_and_gives_a_headline(store: dict[str, Any],
                                                          columns: str) -> None:
    out = CliRunner(env={"COLUMNS": columns}).invoke(
        cli, ["runs", "list", "--db", store["db"]]).output
    assert max(len(x) for x in out.splitlines()) <= int(columns), out
    words = re.findall(r"[\w.]+", out)
    assert "eval_input.jsonl" in words and "folder" not in out, out  # the file, not the path
    for cut in ("eval_", "input.jsonl", "hallucinat", "complet", "offli"):
        assert cut not in words, (cut, out)  # no cell broken mid-word
    assert "headline" in out and "hallucination" in words and "0.516" in words, out
    assert "(people)" in out  # people's corrected rate: every sample labelled
    ids = [x.split()[0] for x in out.splitlines() if re.match(r"\s*\d{8}-", x)]
    assert len(ids) == 2 and all(len(i) == 20 for i in ids), out


def test_runs_show_gives_the_full_dataset_path(store: dict[str, Any]) -> None:
    out = CliRunner(env={"COLUMNS": "250"}).invoke(
        cli, ["runs", "show", "--db", store["db"]]).output
    assert store["data"] in out, out


def test_the_note_under_the_table_counts_independent_readings(store: dict[str, Any]) -> None:
    out = " ".join(store["eval"].output.split())
    assert ("5 metrics on hallucination labels in this table are 3 independent readings: "
            "trace.adherence "
            "repeats judge.hallucination's verdicts; ragas.faithfulness repeats "
            "trace.adherence_ratio's values: count each as that metric's measurement, not a "
            "second one") in out, out
    rows = [x for x in store["eval"].output.splitlines()
            if x.startswith(("trace.adherence ", "ragas.faithfulness "))]
    assert len(rows) == 2 and all("repeats " in x for x in rows), rows  # in the row itself


def test_runs_list_gives_figures_of_the_newest_runs_only(store: dict[str, Any],
                                                          monkeypatch: pytest.MonkeyPatch
                                                          ) -> None:
    import ragassay.cli.app as app

    monkeypatch.setattr(app, "HEADLINE_RUNS", 1)
    out = CliRunner(env={"COLUMNS": "100"}).invoke(
        cli, ["runs", "list", "--db", store["db"]]).output
    rows = [x.split() for x in out.splitlines() if re.match(r"\s*\d{8}-", x)]
    assert [r[-1] for r in rows] == ["(people)", "-"], out
    assert ("headline: figures of the newest 1 run (each is its report's, built for the "
            "list); another run's: ragassay runs show RUN") in out
