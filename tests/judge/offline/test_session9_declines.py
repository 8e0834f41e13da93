"""Issue #38, session 9: a correct decline that also says what the documents do cover
(each faithful case failed at f73b4cf): the business's offer restated in other words
beside the decline ("Our wedding range includes ..."), "the information I have only
says X" inside the declining sentence (with an item added by "with ..."), the topic the
decline lacks named in its own words ("details about Bluetooth pairing"), and a referral
to an organisation no context names. The other side is still judged: a restatement with
a word no context has, a negation or a wrong figure, and a claim beside the decline.
Wording and domains none of the probe batches use. Review 9 (findings 3 and 4): a
summary's items must each be said by one context sentence, which restricts none of them,
and a declined topic with a clause, a time, a day or a figure of its own is a claim."""

from __future__ import annotations

import numpy as np
import pytest

from ragassay.judge.offline import Analyzer
from ragassay.judge.offline.declines import declined_topics
from ragassay.judge.offline.sentences import ContextIndex, sentence_info
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


def _contexts(*sentences: str) -> ContextIndex:
    return ContextIndex([sentence_info(s) for s in sentences], np.zeros((len(sentences), 2)))


def test_a_summary_must_use_the_contexts_words_and_figures() -> None:
    ctx = _contexts("We hire 9 vans and minibuses for day trips.")
    assert restates("vans and minibuses for trips", ctx)
    assert restates("9 vans", ctx)
    assert not restates("vans and coaches", ctx)
    assert not restates("vans but not minibuses", ctx)
    assert not restates("9 minibuses", ctx)  # the contexts' 9 counts vans
    assert not restates("vans and minibuses", None)  # no contexts: no summary of them


def test_each_item_of_a_summary_is_said_by_one_context_sentence() -> None:
    ctx = _contexts("The spa offers hot stone massages and seaweed wraps.",
                    "Facials take 45 minutes.", "Saunas are open to members only.",
                    "Yoga classes cost 8 pounds a session.", "Towels cost 2 pounds a day.",
                    "Pilates mats are not provided.")
    assert restates("hot stone massages, seaweed wraps", ctx)
    assert restates("yoga classes at 8 pounds a session", ctx)
    assert not restates("hot stone facials", ctx)  # each word somewhere, never together
    assert not restates("massages and saunas", ctx)  # saunas: members only
    assert restates("massages and saunas for members only", ctx)  # the restriction kept
    assert not restates("yoga classes at 2 pounds a day", ctx)  # 2 prices towels
    assert not restates("pilates mats", ctx)  # said not to be


# Review 9 (findings 3 and 4): unfaithful answers the summary reading and the declined
# topic let through (each scored faithful before the fix)
BIKES = ["Bikes can be hired for £15 a day.", "Helmets cost £3 a day."]
SURGERY = ["Dr Shah runs the asthma clinic on Mondays.", "Appointments can be booked online."]

REVIEWED = [
    # a coverage frame beside a decline, its words each somewhere in the contexts, but
    # not said together (or said the other way)
    (["Our menu includes vegan burgers and gluten-free pizza.",
      "Chicken wings are served on Fridays."], "Do you do vegan wings?",
     "I don't have details about that, but our menu includes vegan chicken wings."),
    (["Parking costs £5 a day.", "Entry to the gardens is free."], "Is parking free?",
     "I can't find that, sorry. The documents only say that parking is free."),
    (["Our courses cover French, Spanish and German.", "Italian lessons are for staff only."],
     "Do you teach Italian to the public?",
     "I'm not sure about that. Our course range covers French, Spanish, German and Italian."),
    (BIKES, "How much is a bike for a day?",
     "I don't know exactly, but our hire range covers bikes from £3 a day."),
    # a claim inside what the decline says it lacks
    (SURGERY, "Does Dr Evans run a clinic?",
     "I don't have details about Dr Evans's diabetes clinic that runs every Tuesday at the "
     "Leeds surgery."),
    (SURGERY, "Does Dr Evans run a clinic?",
     "I'm not sure whether Dr Evans has moved his clinic to Fridays now that the Leeds "
     "surgery has closed."),
]


@pytest.mark.parametrize(("contexts", "question", "answer"), REVIEWED)
def test_a_summary_or_topic_hiding_a_claim_is_flagged(
        an: Analyzer, contexts: list[str], question: str, answer: str) -> None:
    ev = evidence(an, contexts, answer, question)
    assert flagged(ev), ev


@pytest.mark.parametrize(("clause", "asserts"), [
    ("I'm not sure whether the pottery course which starts in spring is full.", True),
    ("I have no information about the choir's Thursday rehearsals.", True),
    ("I don't know if the kiln has been repaired since the flood.", True),
    ("I couldn't find anything about the 2 for 1 offer.", True),
    ("I'm not sure whether we sell gift vouchers.", False),
    ("I have no information about glaze recipes, sorry.", False),
])
def test_a_declined_topic_that_asserts_stays_a_claim(clause: str, asserts: bool) -> None:
    topics, rest = declined_topics(clause)
    assert (topics == "") is asserts, (topics, rest)
