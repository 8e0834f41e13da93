"""Citation markers are citations, not claims (issue #38 item 1; #43 items 7, 8), through
`ragassay eval`: an answer scores the same in every suite with or without its markers,
offline and through an LLM judge whose prompts never carry them; code keeps its `[0]`;
a hostile answer of half-open markers is read in linear time."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from tests.support.cli import eval_results, llm_user_prompts

CONTEXTS = ["Refunds can be requested within 30 days of purchase. Monthly plans renew "
            "automatically.", "Shipping is free on orders over $50.",
            "Gift cards cannot be exchanged for cash."]
QUESTION = "How long do I have to request a refund, and is shipping free?"
PLAIN = "You can request a refund within 30 days of purchase. Shipping is free over $50."
CITED = {  # every form the citations suite reads
    "brackets": "You can request a refund within 30 days of purchase [1]. Shipping is free "
                "over $50 [2].",
    "list": "You can request a refund within 30 days of purchase [1, 3]. Shipping is free "
            "over $50 [1-2].",
    "footnote": "You can request a refund within 30 days of purchase[^1]. Shipping is free "
                "over $50[^2].",
    "source": "You can request a refund within 30 days of purchase (Source 1). Shipping is "
              "free over $50 (Sources 2 and 3).",
    "lenticular": "You can request a refund within 30 days of purchase【1】. Shipping is free "
                  "over $50【2:0†source】.",
    "ids": "You can request a refund within 30 days of purchase [refunds]. Shipping is free "
           "over $50 (Source: Shipping policy).",
    "leading": "You can request a refund within 30 days of purchase. [1] Shipping is free "
               "over $50. [2]",
}
META = {"context_ids": ["refunds", "shipping", "cards"],
        "context_titles": ["Refund policy", "Shipping policy", "Gift cards"]}
SUITES = "judge,trace,ragas"


def _rows(path: Path) -> Path:
    rows = [{"id": "plain", "question": QUESTION, "contexts": CONTEXTS, "answer": PLAIN,
             "reference": PLAIN, "metadata": META}]
    rows += [{"id": name, "question": QUESTION, "contexts": CONTEXTS, "answer": answer,
              "reference": PLAIN, "metadata": META} for name, answer in CITED.items()]
    path.write_text("".join(json.dumps(r) + "\n" for r in rows))
    return path




def test_markers_change_no_score_of_any_suite_offline(tmp_path: Path) -> None:
    rows = eval_results(tmp_path, _rows(tmp_path / "d.jsonl"), "--metrics", SUITES)
    plain = rows["plain"]["metrics"]
    assert plain["judge.faithfulness"] >= 8  # the grounded answer is grounded
    for name in CITED:
        assert rows[name]["metrics"] == plain, name


def test_no_llm_prompt_carries_a_marker(tmp_path: Path) -> None:
    data = _rows(tmp_path / "d.jsonl")
    prompts = llm_user_prompts(tmp_path, data, SUITES)
    answers = [p for p in prompts if "within 30 days of purchase" in p and "over $50" in p]
    assert answers, "no prompt showed the answer"
    for marker in ("purchase [1]", "purchase[^1]", "(Source 1)", "【1】", "[refunds]",
                   "(Source: Shipping policy)", "$50 [2]", "purchase [1, 3]"):
        assert not any(marker in p for p in prompts), marker


CODE_CONTEXTS = ["Use items[0] to read the first element of a list.",
                 "Lists are zero-indexed in Python."]


@pytest.mark.parametrize("answer", [
    "Read the first element with `items[0]` [1]. Python lists are zero-indexed [2].",
    "Read the first element like this [1]:\n\n```python\nfirst = items[0]\n```\n\n"
    "Python lists are zero-indexed [2].",
])
def test_a_zero_in_code_leaves_the_answer_one_based(tmp_path: Path, answer: str) -> None:
    data = tmp_path / "d.jsonl"
    data.write_text(json.dumps({"id": "c", "question": "How do I get the first item?",
                                "contexts": CODE_CONTEXTS, "answer": answer}) + "\n")
    row = eval_results(tmp_path, data, "--metrics", "citations")["c"]
    assert row["metrics"]["citations.fabricated"] == 0.0
    cites = [s["cites"] for s in row["details"]["citations.recall"]["sentences"]]
    assert [c for c in cites if c] == [[1], [2]]  # shown 1-based, as written


def test_a_hostile_answer_of_half_open_markers_is_read(tmp_path: Path) -> None:
    data = tmp_path / "d.jsonl"
    data.write_text(json.dumps({"id": "h", "question": "Refunds?", "contexts": CONTEXTS,
                                "answer": "[1] [1 x " * 40000}) + "\n")
    row = eval_results(tmp_path, data, "--metrics", "citations")["h"]
    problems = row["details"]["citations.recall"]["marker_problems"]
    assert problems == ["unclosed citation marker '[1'"]
