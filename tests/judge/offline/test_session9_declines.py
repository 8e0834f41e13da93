"""Issue #38, session 9: a correct decline that also says what the documents do cover
(each faithful case failed at f73b4cf): the business's offer restated in other words
beside the decline ("Our wedding range includes ..."), "the information I have only
says X" inside the declining sentence (with an item added by "with ..."), the topic the
decline lacks named in its own words ("details about Bluetooth pairing"), and a referral
to an organisation no context names. The other side is still judged: a restatement with
a word no context has, a negation or a wrong figure, and a claim beside the decline.
Wording and domains none of the probe batches use."""

from __future__ import annotations

import pytest

from ragassay.judge.offline import Analyzer
from ragassay.judge.offline.counts import figures
from ragassay.judge.offline.declines import declined_topics
from ragassay.judge.offline.lexical import TermPool
from ragassay.judge.offline.sentences import sentence_info
from ragassay.judge.offline.summary import frame_end, restates
from tests.support.offline import evidence, flagged

FLORIST = (["We make bridal bouquets, buttonholes and table centrepieces for weddings.",
            "Orders need two weeks' notice."], "Do you do funeral wreaths?")
LIBRARY = (["Members can borrow up to 12 books at a time.", "Loans last 3 weeks."],
           "Can I borrow an e-reader?")
HEADPHONES = (["Our headphones come with a 2-year warranty and a carry case."],
              "How do I pair them with my laptop?")
CAFE = (["Our kitchen serves breakfast, sandwiches and homemade soup until 3pm."],
        "Do you cater for office parties?")

FAITHFUL = [
    (FLORIST, "Sorry, I couldn't find anything about funeral wreaths. Our wedding range "
              "includes bridal bouquets, buttonholes and table centrepieces - please ring "
              "the shop about anything else."),
    (CAFE, "I'm afraid I have no information on office catering. Our menu features "
           "breakfast, sandwiches and homemade soup, and the counter staff can help with "
           "anything else."),
    (LIBRARY, "I'm not sure whether e-readers can be borrowed; the information I have only "
              "says members can borrow up to 12 books at a time, with loans of 3 weeks."),
    (HEADPHONES, "I don't have any details about Bluetooth pairing, sorry. Please email "
                 "the helpdesk."),
    (LIBRARY, "I'm not sure whether you can borrow an e-reader, and the notes I have just "
              "state that members can borrow 12 books. The County Archive Service will be "
              "able to confirm."),
]


@pytest.mark.parametrize(("case", "answer"), FAITHFUL)
def test_a_decline_saying_what_the_documents_cover_is_no_hallucination(
        an: Analyzer, case: tuple[list[str], str], answer: str) -> None:
    ctx, q = case
    ev = evidence(an, ctx, answer, q)
    assert ev.abstains and not flagged(ev), ev


CLAIMS = [
    # the restatement names what no context offers (the very thing asked, or another)
    (FLORIST, "Sorry, I couldn't find anything about that. Our wedding range includes "
              "bridal bouquets, buttonholes and funeral wreaths."),
    (CAFE, "I have no information on office catering. Our menu features breakfast, "
           "pastries and homemade soup."),
    # ... or a figure no context has, one that counts another thing there, or a clause
    # of its own with a wrong fact
    (LIBRARY, "I'm not sure whether e-readers can be borrowed. The information I have "
              "only says members can borrow up to 3 books at a time."),
    (LIBRARY, "I'm not sure whether e-readers can be borrowed; the information I have only "
              "says members can borrow up to 20 books at a time."),
    (LIBRARY, "I'm not sure whether e-readers can be borrowed, but loans last 6 weeks."),
    # a figure in the topic the decline lacks is claimed all the same
    (HEADPHONES, "I don't have any details about the 15 pound pairing fee, sorry."),
]


@pytest.mark.parametrize(("case", "answer"), CLAIMS)
def test_a_claim_beside_the_decline_is_still_judged(
        an: Analyzer, case: tuple[list[str], str], answer: str) -> None:
    ctx, q = case
    assert flagged(evidence(an, ctx, answer, q))


def test_the_topic_a_decline_lacks_is_split_off() -> None:
    topics, rest = declined_topics("I don't have details about Zumba classes, sorry.")
    assert topics.strip() == "about Zumba classes" and "Zumba" not in rest
    topics, rest = declined_topics("I'm not sure whether we open late but we close at 9")
    assert "close at 9" in rest and "close" not in topics


@pytest.mark.parametrize(("clause", "framed"), [
    ("Our hire range covers vans and minibuses", True),
    ("so the menu includes soups", True),
    ("the leaflets only say members get a discount", True),
    ("The policy covers theft", False),  # a policy's cover is a claim about the world
    ("the documents say members get a discount", False),  # no limit: an answer
])
def test_coverage_frames(clause: str, framed: bool) -> None:
    assert bool(frame_end(clause)) is framed


def test_a_summary_must_use_the_contexts_words_and_figures() -> None:
    info = sentence_info("We hire 9 vans and minibuses for day trips.")
    pool = TermPool(info.stem_set, info.values,
                    frozenset(figures(info.tokens, info.all_stems)))
    assert restates("vans and minibuses for trips", pool)
    assert restates("9 vans", pool)
    assert not restates("vans and coaches", pool)
    assert not restates("vans but not minibuses", pool)
    assert not restates("9 minibuses", pool)  # the contexts' 9 counts vans
