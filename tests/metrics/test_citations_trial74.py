"""Trial 74's citation findings: a bare yes/no answer needs no citation; a "(see: X)"
marker is read by title or reported; a passage's leading label is its title when the
sample declares none."""

from __future__ import annotations

import pytest

from ragassay.metrics.citations import CitationsSuite, needs_citation
from ragassay.text import numbering, parse_citations
from ragassay.types import Sample
from tests.support.suites import score

CTX = ("Refunds are issued to the original payment method within 30 days of approval.",
       "Pets are not allowed in guest rooms.")


def _results(answer: str, contexts: tuple[str, ...] = CTX, **metadata: object) -> dict:
    out = score(CitationsSuite(), Sample(id="s", question="Can I?", contexts=contexts,
                                         answer=answer, metadata=metadata))
    return {r.name.split(".", 1)[1]: r for r in out.result.results}


@pytest.mark.parametrize("opener", ["Yes.", "No, you can't.", "Yes, you can.",
                                    "No, unfortunately not.", "No, they don't."])
def test_a_bare_yes_or_no_needs_no_citation(opener: str) -> None:
    res = _results(f"{opener} Pets are not allowed in guest rooms [2].")
    assert res["recall"].value == 1.0 and res["recall"].details["needing"] == 1, opener
    assert _results(opener)["recall"].unscored_reason == "no answer sentence needs a citation"


@pytest.mark.parametrize("opener", ["Yes, you can get a refund.", "No, it isn't free.",
                                    "No, you can't bring a pet."])
def test_a_yes_or_no_that_states_something_still_needs_one(opener: str) -> None:
    nb, _ = numbering(CTX, {})
    parsed = parse_citations(f"{opener} Pets are not allowed in guest rooms [2].", nb)
    assert needs_citation(parsed.sentences, "Can I?") == {"a": True, "b": True}


LABELLED = ("refund_policy.md: Refunds are issued to the original payment method within "
            "30 days of approval.",
            "[faq.html] Pets are not allowed in guest rooms.",
            "Title: Shipping times\nOrders ship within 5 working days.")


def _cites(answer: str, contexts: tuple[str, ...] = LABELLED, **metadata: object
           ) -> tuple[list[tuple[str, tuple[int, ...], tuple[str, ...]]], list[str]]:
    nb, problems = numbering(contexts, metadata)
    parsed = parse_citations(answer, nb)
    return [(s.text, s.cited, s.fabricated) for s in parsed.sentences], parsed.problems


@pytest.mark.parametrize(("marker", "cited"), [
    ("(Source: refund_policy.md)", 0), ("[refund_policy.md]", 0), ("[refund policy]", 0),
    ("[faq.html]", 1), ("(source: faq.html)", 1), ("[Source: Shipping times]", 2)])
def test_a_passages_leading_label_is_its_title(marker: str, cited: int) -> None:
    assert _cites(f"It says so {marker}.") == ([("It says so.", (cited,), ())], [])


def test_a_leading_label_in_the_suite_is_no_fabricated_citation() -> None:
    res = _results("Refunds reach the original payment method within 30 days of approval "
                   "(Source: refund_policy.md).", LABELLED)
    assert res["fabricated"].value == 0.0 and res["recall"].value == 1.0


def test_declared_titles_win_and_labels_make_nothing_else_fabricated() -> None:
    # titles declared: a label is no title (as before)
    assert _cites("It says so (Source: faq.html).", context_titles=["a", "b", "c"])[0] == [
        ("It says so.", (), ("faq.html",))]
    # a label never makes an id-style label fabricated: [doc2] is still context 2
    assert _cites("It says so [doc2].")[0] == [("It says so.", (1,), ())]
    # a label only where the passage starts: "Note:" after a sentence is none
    assert _cites("It says so [Note].", ("Refunds take 30 days. Note: weekends excluded.",)
                  ) == ([("It says so [Note].", (), ())], [])


@pytest.mark.parametrize(("marker", "cited"), [
    ("(see: Shipping times)", 2), ("(see Shipping times)", 2), ("[see: shipping times]", 2),
    ("(see also: faq.html)", 1), ("(cf. refund policy)", 0)])
def test_a_see_marker_cites_the_context_it_names(marker: str, cited: int) -> None:
    assert _cites(f"Orders ship in 5 days {marker}.") == (
        [("Orders ship in 5 days.", (cited,), ())], [])


def test_a_see_marker_declared_titles_name_cites_too() -> None:
    assert _cites("Orders ship in 5 days (see: Delivery).", CTX,
                  context_titles=["Refunds", "Delivery"])[0] == [
        ("Orders ship in 5 days.", (1,), ())]


@pytest.mark.parametrize("marker", ["(see: Returns)", "[see: Returns]", "(see Returns Page)",
                                    "(see: warranty.pdf)"])
def test_a_see_marker_naming_nothing_is_reported(marker: str) -> None:
    sentences, problems = _cites(f"Orders ship in 5 days {marker}.")
    assert sentences == [(f"Orders ship in 5 days {marker}.", (), ())]
    assert problems == [f"unread marker-like text {marker!r} in sentence a: read as words"]


@pytest.mark.parametrize("marker", ["(see below)", "(see above)", "(see Figure 2)",
                                    "(see the FAQ)"])
def test_prose_see_is_neither_read_nor_reported(marker: str) -> None:
    assert _cites(f"Orders ship in 5 days {marker}.") == (
        [(f"Orders ship in 5 days {marker}.", (), ())], [])
