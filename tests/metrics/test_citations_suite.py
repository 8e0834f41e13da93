"""The citations suite: the quote pass, the ALCE scoring rules, the offline judge over the
cited passages only, its specs, and `ragassay eval --metrics citations` on the example."""

import json
from pathlib import Path

from click.testing import CliRunner

from ragassay.cli import cli
from ragassay.metrics import all_specs, parse_metrics
from ragassay.metrics.citations import CitationsSuite, SentenceCheck, quotes, score_citations
from ragassay.text import numbering, parse_citations
from ragassay.types import Sample
from tests.support.suites import score

EXAMPLE = Path(__file__).resolve().parents[2] / "examples" / "citations" / "data.jsonl"
CTX = ("Refunds are issued to the original payment method within 30 days of approval.",
       "Shipping is free on orders over $50; smaller orders pay a flat $5 fee.",
       "Gift cards cannot be refunded or exchanged for cash.")


def by_name(out):
    return {r.name.split(".", 1)[1]: r for r in out.result.results}


def test_quote_pass_exact_near_and_flipped():
    passage = CTX[0]
    assert quotes("Refunds are issued to the original payment method.", passage)
    assert quotes("Refunds are issued to the original payment method within 30 days.", passage)
    # near-verbatim: a dropped word
    assert quotes("Refunds are issued to the payment method within 30 days of approval.",
                  passage)
    # a negation or a changed number is never a quote
    assert not quotes("Refunds are not issued to the original payment method within 30 days.",
                      passage)
    assert not quotes("Refunds are issued to the original payment method within 60 days.",
                      passage)
    assert not quotes("Refunds take long.", passage)  # too short to decide
    assert not quotes("Gift cards cannot be refunded.", passage)


def parsed(answer):
    nb, _ = numbering(CTX, {})
    return parse_citations(answer, nb)


def test_alce_rules_in_the_formulas():
    p = parsed("Alpha is red [1, 2]. Beta is blue [3]. Gamma is green. Delta is gold [9].")
    checks = [SentenceCheck("a", True, True, {0: True, 1: False}),
              SentenceCheck("b", True, False, {2: True}),  # unsupported: not relevant
              SentenceCheck("c", True, None),  # an uncited claim fails recall
              SentenceCheck("d", True, False)]
    res = {r.name.split(".")[1]: r for r in score_citations(p, checks)}
    assert res["recall"].value == 1 / 4
    assert res["precision"].value == 1 / 4  # 4 citations, the fabricated one included
    assert res["fabricated"].value == 1 / 4
    assert res["recall"].details["sentences"][0]["relevant"] == [1]
    # a sentence that needs no citation is out of recall
    res = {r.name.split(".")[1]: r for r in score_citations(
        parsed("Alpha is red [1]. Hope this helps."),
        [SentenceCheck("a", True, True, {0: True}), SentenceCheck("b", False, None)])}
    assert res["recall"].value == 1.0 and res["recall"].details["needing"] == 1


def test_offline_quotes_need_no_judge_and_wrong_passages_fail():
    out = score(CitationsSuite(), Sample(
        id="s", question="How long do refunds take?", contexts=CTX,
        answer="Refunds are issued to the original payment method within 30 days of "
               "approval [1]. You get your money back within a month [2]."))
    res = by_name(out)
    rows = res["recall"].details["sentences"]
    assert rows[0]["decided_by"] == "quote" and rows[0]["supported"] is True
    assert rows[1]["decided_by"] == "judge" and rows[1]["supported"] is False
    assert res["recall"].value == 0.5 and res["precision"].value == 0.5
    assert res["fabricated"].value == 0.0


def test_offline_support_reads_only_the_cited_passages():
    sample = Sample(id="s", question="Is shipping free?", contexts=CTX,
                    answer="Orders over $50 ship for free [2].")
    assert by_name(score(CitationsSuite(), sample))["recall"].value == 1.0
    wrong = sample.model_copy(update={"answer": "Orders over $50 ship for free [3]."})
    assert by_name(score(CitationsSuite(), wrong))["recall"].value == 0.0


def test_offline_irrelevant_extra_citation_lowers_precision_only():
    out = score(CitationsSuite(), Sample(
        id="s", question="Is shipping free?", contexts=CTX,
        answer="Orders over $50 ship for free [2, 3]."))
    res = by_name(out)
    assert res["recall"].value == 1.0
    assert res["precision"].value == 0.5
    assert res["precision"].details["sentences"][0]["relevant"] == [2]


def test_abstention_and_filler_need_no_citation():
    out = score(CitationsSuite(), Sample(
        id="s", question="Is shipping free?", contexts=CTX,
        answer="Orders over $50 ship for free [2]. I hope this helps!"))
    assert by_name(out)["recall"].details["needing"] == 1


def test_a_sources_section_is_no_uncited_sentence_and_new_styles_are_citations():
    """"Sources:\n[1] Refund policy\n[2] Shipping" ending an answer lists sources: it was
    read as a sentence that cites both contexts (or, unmarked, an uncited claim)."""
    for block in ("Sources:\n[1] Refund policy\n[2] Shipping", "References: Document 2"):
        res = by_name(score(CitationsSuite(), Sample(
            id="s", question="Is shipping free?", contexts=CTX,
            answer=f"Orders over $50 ship for free<sup>2</sup>.\n\n{block}")))
        rows = res["recall"].details["sentences"]
        assert [r["text"] for r in rows] == ["Orders over $50 ship for free."]
        assert res["recall"].value == 1.0 and res["precision"].value == 1.0
        assert res["recall"].details["needing"] == 1


def test_a_source_word_and_a_doc_label_cite_the_context():
    """ "Parking is free for visitors (source: doc 1)." over 2 contexts (trial 62): recall
    0.0 and fabricated 1.0, the label read as an unknown title."""
    ctx = ("Parking is free for visitors.", "The museum opens at 9.")
    for marker in ("(source: doc 1)", "(Source: Doc 1)", "(source: document 1)",
                   "(ref: doc 1)"):
        res = by_name(score(CitationsSuite(), Sample(
            id="s", question="Is parking free?", contexts=ctx,
            answer=f"Parking is free for visitors {marker}.")))
        assert res["recall"].value == 1.0 and res["fabricated"].value == 0.0, marker


def test_missing_inputs_and_bad_markers_are_reasons():
    res = by_name(score(CitationsSuite(), Sample(id="s", question="q", contexts=CTX, answer="")))
    assert {r.unscored_reason for r in res.values()} == {"empty answer"}
    res = by_name(score(CitationsSuite(), Sample(id="s", question="q", answer="A is B [1].")))
    assert res["recall"].unscored_reason == "no contexts"
    assert res["fabricated"].value == 1.0  # a citation with nothing retrieved points at nothing
    res = by_name(score(CitationsSuite(), Sample(id="s", question="q", contexts=CTX,
                                                 answer="Refunds take 30 days [1-.")))
    assert res["precision"].value is None
    assert "unclosed citation marker '[1-'" in res["precision"].unscored_reason
    assert res["recall"].details["marker_problems"] == ["unclosed citation marker '[1-'"]


def test_specs_targets_gates_and_rules():
    specs = all_specs(["citations"])
    assert list(specs) == ["citations.recall", "citations.precision", "citations.fabricated"]
    assert specs["citations.recall"].target
    assert specs["citations.recall"].gate == specs["citations.recall"].target.good == 0.9
    assert specs["citations.fabricated"].higher_is_better is False
    rules = {r.name: r for s in specs.values() for r in s.rules}
    assert rules["grounded_but_miscited"].metrics == ("citations.precision",
                                                      "ragas.faithfulness")
    assert CitationsSuite.declaration_problem("citations") is None
    assert "citations" not in parse_metrics("all")  # opt-in: only when named
    assert parse_metrics("citations") == ("citations",)


def test_cli_eval_scores_the_example(tmp_path):
    out = tmp_path / "r.json"
    result = CliRunner().invoke(cli, ["eval", str(EXAMPLE), "--metrics", "citations",
                                      "--db", str(tmp_path / "r.db"), "--out", str(out)])
    assert result.exit_code == 0, result.output
    assert "citations.precision" in result.output
    report = json.loads(out.read_text())
    rows = {r["id"]: r["metrics"] for r in report["detailed_results"]}
    assert rows["c01-correct"]["citations.precision"] == 1.0
    assert rows["c03-fabricated"]["citations.fabricated"] == 0.5
    assert rows["c07-malformed"]["citations.precision"] is None
