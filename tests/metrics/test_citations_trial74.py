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
