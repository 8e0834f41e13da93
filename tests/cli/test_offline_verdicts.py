"""The default (offline) judge's verdicts a new user checks first, through `ragassay
eval` (issue #38 items 2-4, #43 item 9): a contradiction built from the contexts' own
words is a hallucination, a paraphrase and an answer beside an unrelated negation are
not, and a decline, however its apostrophe is typed, is an abstention."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from click.testing import CliRunner

from ragassay.cli import cli

CONTEXTS = ["Refund policy: monthly plans are not refundable. Annual plans can be refunded "
            "in full within 30 days of purchase.",
            "Plans: Solo syncs 2 devices and stores 5 TB. Studio syncs 8 devices and stores "
            "40 TB. Priority chat is offered to Studio accounts only.",
            "Perks: the travel allowance is paid to permanent employees. Interns are not "
            "eligible for the travel allowance of $200 a year. Returns must be requested "
            "within 14 days."]
QUESTION = "What are the refund and sync rules?"
ROWS = {
    # contradictions built from the contexts' own words
    "negation": "Yes, monthly plans can be refunded in full within 30 days.",
    "entity": "Priority chat is offered to Solo accounts only.",
    "number": "Solo syncs 5 devices.",
    "quantifier": "Priority chat is offered to all accounts.",
    # a universal claim's scope: narrowed by a modifier, denied in other words of a part
    # it includes, limited in time
    "scope": "The travel allowance is paid to all employees.",
    "denied": "All staff, interns included, receive the travel allowance of $200 a year.",
    "time_bound": "Returns can be requested at any time.",
    # faithful
    "paraphrase": "An annual plan can be refunded in full if you ask within 30 days of buying.",
    "beside_negation": "Annual plans can be refunded in full within 30 days of purchase.",
    "in_scope": "The travel allowance is paid to permanent employees.",
}
DECLINES = {
    "ascii": "I don't know based on the provided context.",
    "u2019": "I don\u2019t know based on the provided context.",
    "u02bc": "I don\u02bct know based on the provided context.",
    "fullwidth": "I don\uff07t know based on the provided context.",
    "no_information": "I don\u2019t have information about that.",
    "cant_help": "Unfortunately I can\u2019t help with that one. Please contact our support team.",
}


def _eval(tmp_path: Path) -> dict[str, dict[str, object]]:
    rows = [{"id": k, "question": QUESTION, "contexts": CONTEXTS, "answer": a}
            for k, a in ROWS.items()]
    rows += [{"id": k, "question": "Do you offer a student discount?", "contexts": CONTEXTS,
              "answer": a} for k, a in DECLINES.items()]
    data = tmp_path / "d.jsonl"
    data.write_text("".join(json.dumps(r) + "\n" for r in rows), encoding="utf-8")
    out = tmp_path / "r.json"
    result = CliRunner().invoke(cli, ["eval", str(data), "--metrics", "judge", "--db",
                                      str(tmp_path / "s.db"), "--out", str(out)],
                                env={"COLUMNS": "200"})
    assert result.exit_code == 0, result.output
    return {r["id"]: r for r in json.loads(out.read_text())["detailed_results"]}


@pytest.fixture(scope="module")
def results(tmp_path_factory: pytest.TempPathFactory) -> dict[str, dict[str, object]]:
    return _eval(tmp_path_factory.mktemp("verdicts"))


def _metrics(row: dict[str, object]) -> dict[str, object]:
    metrics = row["metrics"]
    assert isinstance(metrics, dict)
    return metrics


@pytest.mark.parametrize("name", ["negation", "entity", "number", "quantifier", "scope",
                                  "denied", "time_bound"])
def test_a_contradiction_from_the_contexts_words_is_a_hallucination(
    results: dict[str, dict[str, object]], name: str
) -> None:
    m = _metrics(results[name])
    assert m["judge.hallucination"] is True
    assert isinstance(m["judge.faithfulness"], float) and m["judge.faithfulness"] < 5.5


@pytest.mark.parametrize("name", ["paraphrase", "beside_negation", "in_scope"])
def test_a_faithful_answer_is_no_hallucination(
    results: dict[str, dict[str, object]], name: str
) -> None:
    m = _metrics(results[name])
    assert m["judge.hallucination"] is False
    assert isinstance(m["judge.faithfulness"], float) and m["judge.faithfulness"] >= 5.5


@pytest.mark.parametrize("name", list(DECLINES))
def test_a_decline_is_an_abstention_whatever_its_apostrophe(
    results: dict[str, dict[str, object]], name: str
) -> None:
    row = results[name]
    assert _metrics(row)["judge.hallucination"] is None  # abstained, not hallucinated
    abstained = row["abstained"]  # the typed outcome (MetricResult.abstention)
    assert isinstance(abstained, dict)
    assert abstained["judge.hallucination"] == "correct"
