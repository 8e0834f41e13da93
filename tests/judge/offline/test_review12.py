"""Review 12 of session 12's offline-judge change (cc526ac..090f132): each case failed at
8a111b2 and passed at cc526ac. "for everyone" against "for the public"; a noun phrase
read as a declined topic after the generic "doesn't provide"; the business's "we have"
and "we can't recommend" read as the assistant's decline or sources; a referral saying
only that the one it names will help read as a claim; "a good place for" read as a
referral; a condition set off by commas read as a participle aside; any word before
"I have" read as naming the sources. Wording and domains none of the probe batches use."""

from __future__ import annotations

import pytest

from ragassay.judge.offline import Analyzer
from ragassay.judge.offline.source_scope import names_source
from tests.support.offline import assert_judged, evidence, flagged


# H1: dropped._every_case -------------------------------------------------------------
@pytest.mark.parametrize("context", [
    "Admission to the gallery is free for members of the public.",
    "Admission to the gallery is free for the public.",
    "Admission to the gallery is free for people of all ages.",
])
def test_for_everyone_restates_a_phrase_that_names_everyone(an: Analyzer, context: str) -> None:
    assert_judged(an, [context, "The gallery closes at 5pm."],
                  "Admission to the gallery is free for everyone.", flags=False)


# H2: declines._TOPIC's noun phrase after any decline phrase ----------------------------
def test_what_a_plan_does_not_provide_is_a_claim_not_a_declined_topic(an: Analyzer) -> None:
    ev = evidence(an, ["The Basic plan provides cover for accidental damage to screens and "
                       "cases.", "It costs £5 a month."],
                  "The Basic plan doesn't provide any cover for accidental damage to screens "
                  "or cases.", "What does the Basic plan cover?")
    assert flagged(ev) and not ev.abstains, ev


# H3: "we have" is the business ---------------------------------------------------------
@pytest.mark.parametrize(("contexts", "answer", "question"), [
    (["Our spring sale takes 20% off every kettle, the Model X included.",
      "The sale ends on Sunday."],
     "The Model X isn't included in the sale we have on this week.",
     "Is the Model X in the sale?"),
    (["The Premium plan covers accidental damage and theft.",
      "The Basic plan covers breakdowns only."],
     "Accidental damage isn't covered by the plan we have for your phone.",
     "Does my phone plan cover accidental damage?"),
])
def test_what_the_business_says_it_has_is_no_decline(an: Analyzer, contexts: list[str],
                                                      answer: str, question: str) -> None:
    ev = evidence(an, contexts, answer, question)
    assert flagged(ev) and not ev.abstains, ev


def test_what_the_business_has_is_no_source_scope(an: Analyzer) -> None:
    ev = evidence(an, ["Every room rate includes breakfast for two.",
                       "Dinner is served from 6pm to 9pm and costs £25 a head."],
                  "I can't say whether there's a pool, but the rooms we have include dinner "
                  "for two.", "Is there a pool?")
    assert flagged(ev), ev


# H4: claims._says_of_named -------------------------------------------------------------
LABEL = ["Tom Ellery coordinates releases.", "Anna Webb handles press enquiries.",
         "Refunds take five working days."]


@pytest.mark.parametrize("referral", [
    "Please get in touch with Anna Webb, who will be happy to help.",
    "Please email Anna Webb, and she'll be glad to help.",
    "Please contact Anna Webb, who can help with that.",
])
def test_a_referral_saying_only_that_they_help_is_no_claim(an: Analyzer, referral: str) -> None:
    ev = evidence(an, LABEL, f"Anna Webb handles press enquiries. {referral}",
                  "Who should I talk to about a press pass?")
    assert not flagged(ev) and ev.asserts == [True, False], ev


# M1: REFERRAL's "good place for" ---------------------------------------------------------
BEACH = ["The north beach has strong currents and is popular with surfers.",
         "The south beach is patrolled by lifeguards and suits families."]


def test_a_good_place_for_families_is_a_claim_not_a_referral(an: Analyzer) -> None:
    ev = evidence(an, BEACH, "Lifeguards patrol the south beach. The north beach is a good "
                  "place for families.", "Which beach suits children?")
    assert flagged(ev), ev


def test_a_good_place_alone_is_no_decline(an: Analyzer) -> None:
    ev = evidence(an, ["Crabbing is not allowed from the harbour wall."],
                  "The harbour wall is a good place for crabbing.", "Where can we go crabbing?")
    assert not ev.abstains and ev.asserts == [True], ev


# M2: scope.participle_asides reads a condition ----------------------------------------
def test_a_condition_set_off_by_commas_is_a_case(an: Analyzer) -> None:
    assert_judged(an, ["Refunds are given in full, provided the item is unused, to every "
                       "customer.", "Exchanges are free."],
                  "All refunds are given in full.", flags=True, kind="quantifier")


# M3: "we can't recommend" is the business's advice ---------------------------------------
def test_the_business_not_recommending_is_a_claim(an: Analyzer) -> None:
    ev = evidence(an, ["Diluted bleach is safe on our quartz worktops.", "Wipe spills promptly."],
                  "We can't recommend diluted bleach on our quartz worktops.",
                  "Can I use bleach on the worktops?")
    assert not ev.abstains and ev.asserts == [True], ev


# L1: declines._NAMES_SOURCE: any word before "I have" -------------------------------------
@pytest.mark.parametrize("sentence", [
    "I can't say whether the pool has lifeguards, because I have no staffing details.",
    "I'm not sure whether parking is free, and I have nothing on it.",
])
def test_a_conjunction_before_i_have_names_no_source(sentence: str) -> None:
    assert not names_source(sentence)


def test_it_after_because_i_have_is_still_a_claim(an: Analyzer) -> None:
    ev = evidence(an, ["The spa is for adults only.", "The pool is open to children until 5pm."],
                  "I can't say whether the pool has lifeguards, because I have no staffing "
                  "details. It is for adults only.", "Does the pool have lifeguards?")
    assert ev.asserts[1], ev
