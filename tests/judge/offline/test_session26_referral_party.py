"""Session 26 (k208): a referral-only answer naming a party the contexts tie to a topic
is an answer, checked as a claim (referred_party.py), not a decline that escapes scoring:
supported where the contexts send the question's topic to that party, an entity swap
where they send it to another; a generic referral beside contexts silent on the topic
still declines."""

from __future__ import annotations

import numpy as np
import pytest

from ragassay.judge.offline import Analyzer
from ragassay.judge.offline.referred_party import SUPPORTED, SWAPPED, parties, party_verdict
from ragassay.judge.offline.sentences import ContextIndex, sentence_info
from tests.support.offline import evidence, flagged

MARINA = ["Berth transfers are approved by the Harbourmaster's Office.",
          "Fuel dock accounts are opened by Quayside Chandlery."]
ALLOTMENT = ["Plot waiting-list questions are answered by the Lettings Secretary.",
             "Shed permissions are granted by the Site Committee."]


@pytest.mark.parametrize(("ctx", "question", "answer"), [
    (MARINA, "Who approves a berth transfer?",
     "Contact Quayside Chandlery and they'll arrange it."),
    (MARINA, "Can I open a fuel dock account?", "The Harbourmaster's Office can help with that."),
    (ALLOTMENT, "Where do I ask about the plot waiting list?", "Please email the Site Committee."),
    (ALLOTMENT, "Can I put up a shed?", "Please send it to the Lettings Secretary."),
])
def test_a_referral_to_the_party_the_contexts_give_another_topic_is_flagged(
        an: Analyzer, ctx: list[str], question: str, answer: str) -> None:
    ev = evidence(an, ctx, answer, question)
    assert flagged(ev) and not ev.abstains and not ev.noncommittal, ev
    assert ev.contradicts == ["entity"], ev


@pytest.mark.parametrize(("ctx", "question", "answer"), [
    (MARINA, "Who approves a berth transfer?",
     "Contact the Harbourmaster's Office and they'll arrange it."),
    (MARINA, "Can I open a fuel dock account?", "Quayside Chandlery can help with that."),
    (ALLOTMENT, "Where do I ask about the plot waiting list?",
     "Please email the Lettings Secretary."),
    (ALLOTMENT, "Can I put up a shed?", "The Site Committee will be able to help."),
])
def test_a_referral_to_the_party_the_contexts_give_the_topic_is_supported(
        an: Analyzer, ctx: list[str], question: str, answer: str) -> None:
    ev = evidence(an, ctx, answer, question)
    assert not flagged(ev) and not ev.abstains and not ev.noncommittal, ev


@pytest.mark.parametrize(("question", "answer"), [
    ("Is there a laundrette at the marina?", "Please contact our office team."),
    ("Is there a laundrette at the marina?", "The front desk can help with that."),
    # the party the contexts name, but the contexts are silent on the topic
    ("Is there a laundrette at the marina?", "Please get in touch with Quayside Chandlery."),
])
def test_a_referral_beside_contexts_silent_on_the_topic_still_declines(
        an: Analyzer, question: str, answer: str) -> None:
    ev = evidence(an, MARINA, answer, question)
    assert ev.abstains and not flagged(ev), ev


def test_a_decline_with_a_referral_to_another_party_stays_a_decline(an: Analyzer) -> None:
    ev = evidence(an, MARINA, "I'm not sure, but Quayside Chandlery may know.",
                  "Who approves a berth transfer?")
    assert not flagged(ev), ev


def test_parties_are_told_apart_by_their_own_words() -> None:
    (desk,) = parties(sentence_info("Repairs are logged by the IT Service Desk."))
    assert "it" in desk  # an acronym identifies, though "it" is a stopword
    assert parties(sentence_info("Please contact our support team.")) == []
    (office,) = parties(sentence_info("Please ring the club office."))
    (secretary,) = parties(sentence_info("Fees are collected by the club secretary."))
    assert not (office <= secretary or secretary <= office)


def test_the_verdict_names_the_topic_sentence() -> None:
    infos = [sentence_info(s) for s in ALLOTMENT]
    ctx = ContextIndex(infos, np.zeros((2, 2)), [0, 1])
    q = "Can I put up a shed?"
    assert party_verdict("Ask the Site Committee.", q, ctx) == (SUPPORTED, 1)
    assert party_verdict("Ask the Lettings Secretary.", q, ctx) == (SWAPPED, 1)
    assert party_verdict("Ask the Lettings Secretary.", "Are dogs allowed?", ctx) is None
