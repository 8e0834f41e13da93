"""Id-style citation markers through `ragassay eval` (issue #38 item 1, trial 50): an
answer citing `[doc1]`, `[doc-1]`, `[S1]`, `(doc1)`, `(1)`, `¹` or `(see [1])` scores the
same in every suite as without them (no ids in the sample: the number is the context's
position), the citations suite reads them (an id the sample does not name is
fabricated), no LLM prompt carries them, and brackets that are text stay in the claims."""

from __future__ import annotations

import json
from pathlib import Path

from tests.support.cli import eval_results, llm_user_prompts

CONTEXTS = ["Students with a valid card pay 9 EUR for admission.",
            "The museum is closed on Mondays."]
QUESTION = "How much do students pay, and when is the museum closed?"
PLAIN = "Students with a valid card pay 9 EUR for admission. The museum is closed on Mondays."
CITED = {  # the styles trial 50 saw scored as claims, and the "see" wrapper
    "doc": "Students with a valid card pay 9 EUR for admission [doc1]. The museum is closed "
           "on Mondays [doc2].",
    "doc-dash": "Students with a valid card pay 9 EUR for admission [doc-1]. The museum is "
                "closed on Mondays [doc-2].",
    "ref": "Students with a valid card pay 9 EUR for admission [ref_1]. The museum is "
           "closed on Mondays [ref_2].",
    "paren": "Students with a valid card pay 9 EUR for admission (doc1). The museum is "
             "closed on Mondays (doc2).",
    "s": "Students with a valid card pay 9 EUR for admission [S1]. The museum is closed on "
         "Mondays [S2].",
    "dagger": "Students with a valid card pay 9 EUR for admission [†1]. The museum is closed "
              "on Mondays [†2].",
    "number": "Students with a valid card pay 9 EUR for admission (1). The museum is closed "
              "on Mondays (2).",
    "superscript": "Students with a valid card pay 9 EUR for admission¹. The museum is closed "
                   "on Mondays².",
    "caret": "Students with a valid card pay 9 EUR for admission^1. The museum is closed "
             "on Mondays^2.",
    "see": "Students with a valid card pay 9 EUR for admission (see [1]). The museum is "
           "closed on Mondays (cf. [2]).",
    "glued": "Students with a valid card pay 9 EUR for admission.[doc1] The museum is closed "
             "on Mondays.[doc2]",
}


def _write(path: Path, answers: dict[str, str], metadata: dict | None = None) -> Path:
    rows = [{"id": name, "question": QUESTION, "contexts": CONTEXTS, "answer": answer,
             **({"metadata": metadata} if metadata else {})} for name, answer in answers.items()]
    path.write_text("".join(json.dumps(r) + "\n" for r in rows))
    return path




def test_id_style_markers_change_no_score_of_any_suite(tmp_path: Path) -> None:
    rows = eval_results(tmp_path, _write(tmp_path / "d.jsonl", {"plain": PLAIN, **CITED}),
                 "--metrics", "judge,trace,ragas")
    plain = rows["plain"]["metrics"]
    assert plain["judge.faithfulness"] >= 9 and plain["judge.hallucination"] is False
    claims = [c["claim"] for c in rows["plain"]["details"]["ragas.faithfulness"]["claims"]]
    for name in CITED:
        assert rows[name]["metrics"] == plain, name
        got = [c["claim"] for c in rows[name]["details"]["ragas.faithfulness"]["claims"]]
        assert got == claims, name  # no "[doc-1]", no "(see )" left in a claim


def test_the_citations_suite_reads_id_style_markers(tmp_path: Path) -> None:
    answers = {**CITED, "past": "Students with a valid card pay 9 EUR for admission [doc7]."}
    rows = eval_results(tmp_path, _write(tmp_path / "d.jsonl", answers), "--metrics", "citations")
    for name in CITED:
        assert rows[name]["metrics"]["citations.fabricated"] == 0.0, name
        cites = [s["cites"] for s in rows[name]["details"]["citations.recall"]["sentences"]]
        assert cites == [[1], [2]], name
    assert rows["past"]["metrics"]["citations.fabricated"] == 1.0  # no context 7


def test_an_id_the_sample_does_not_name_is_fabricated(tmp_path: Path) -> None:
    data = _write(tmp_path / "d.jsonl", {"doc": CITED["doc"]},
                  metadata={"context_ids": ["kb-17", "kb-42"]})
    row = eval_results(tmp_path, data, "--metrics", "citations")["doc"]
    assert row["metrics"]["citations.fabricated"] == 1.0  # not "the answer cites nothing"
    sentences = row["details"]["citations.recall"]["sentences"]
    assert [s["fabricated"] for s in sentences] == [["doc1"], ["doc2"]]


def test_brackets_that_are_text_stay_in_the_claims(tmp_path: Path) -> None:
    answers = {"text": "Masks were required (COVID-19) and the lab is certified (ISO 9001). "
                       "You can (1) buy a ticket online, or (2) pay at the desk [sic]."}
    row = eval_results(tmp_path, _write(tmp_path / "d.jsonl", answers),
                "--metrics", "ragas.faithfulness")["text"]
    claims = " ".join(c["claim"] for c in row["details"]["ragas.faithfulness"]["claims"])
    for kept in ("(COVID-19)", "(ISO 9001)", "(1) buy", "(2) pay", "[sic]"):
        assert kept in claims, kept


def test_no_llm_prompt_carries_an_id_style_marker(tmp_path: Path) -> None:
    data = _write(tmp_path / "d.jsonl", CITED)
    prompts = llm_user_prompts(tmp_path, data, "judge,trace,ragas")
    assert any("pay 9 EUR for admission" in p for p in prompts)
    for marker in ("[doc1]", "[doc-1]", "[ref_1]", "(doc1)", "[S1]", "[†1]", "(1)", "¹",
                   "(see", "(cf.", "Mondays²", "^1", "^2"):
        assert not any(marker in p for p in prompts), marker
