"""A key to the answer's own markers ending it, with no "Sources" heading (trial 80: a
closing "[1] Membership FAQ" line was judged as a claim): lines, or the last line's tail
after its sentences, each entry a label the answer used as a marker, then a short title.
Cases in words of our own."""

from __future__ import annotations

import pytest

from ragassay.text import numbering, parse_citations
from ragassay.text.sources import sources_start

CONTEXTS = ("Members can bring two guests per visit. Guest passes cost £8 each.",
            "The pool is open 6am to 10pm on weekdays.")
BODY = "You can bring two guests per visit, and a guest pass costs £8"


def parse(answer: str):
    nb, _ = numbering(CONTEXTS, {})
    return parse_citations(answer, nb)


@pytest.mark.parametrize("answer", [
    f"{BODY} [1].\n\n[1] Membership FAQ",
    f"{BODY} [1]. The pool opens at 6am [2].\n[1] = Guest policy; [2] = Opening hours",
    f"{BODY} (1).\n\n(1) Guest policy\n(2) Pool times",
    f"{BODY}.¹\n\n¹ Membership handbook, section 3.",
    f"{BODY} [doc1].\n- [doc1] Membership FAQ",
    f"{BODY} [1]. [1] Membership FAQ, updated March 2024",  # on the same line
    f"{BODY} [doc1]. Source: doc1 (Membership FAQ).",
])
def test_a_key_to_the_markers_is_no_claim(answer: str) -> None:
    parsed = parse(answer)
    assert parsed.listed
    assert "FAQ" not in parsed.text and "handbook" not in parsed.text
    assert parsed.text.startswith("You can bring two guests per visit")


@pytest.mark.parametrize("answer", [
    # a label the answer never used as a marker: a numbered point of its own
    f"{BODY}.\n\n[1] Guests must sign in at reception",
    # an entry too long to be a title: a sentence that claims
    f"{BODY} [1].\n\n[1] Guests must be over 18 and sign in at reception with photo "
    "ID before they swim",
    # one line of the block is no entry: the block is not a key
    f"{BODY} [1].\n\n[1] Membership FAQ\nGuests must sign in at reception.",
    # a sentence mid-line that only opens with a marker's label
    f"{BODY} [1]. Guests must sign in at reception.",
])
def test_what_is_no_key_stays_in_the_answer(answer: str) -> None:
    assert sources_start(answer) == len(answer)
    assert not parse(answer).listed


def test_the_judge_reads_the_body_only() -> None:
    from ragassay.judge.offline import Analyzer
    from tests.support.offline import judged
    an = Analyzer()
    assert not judged(an, list(CONTEXTS), f"{BODY} [1].\n\n[1] Membership FAQ")
    # the body is still read: a wrong figure above a key is flagged
    assert judged(an, list(CONTEXTS), f"{BODY.replace('£8', '£12')} [1].\n\n[1] Membership FAQ")
