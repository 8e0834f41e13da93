"""Issue #38, session 12: a name said of what another sentence says, in a clause of its
own ("Get in touch with Tom Ellery, who coordinates releases" where Priya Shah
coordinates them; "That's the Duo Pass - it covers ..." where the Family Pass does):
the referral passed at cc526ac (set aside as whom to ask, not read as a claim; the
second case is a guard). A referral that names the right person,
or no one the contexts name, stays unflagged. Wording and domains none of the probe
batches use."""

from __future__ import annotations

import pytest

from ragassay.judge.offline import Analyzer
from ragassay.judge.offline.claims import set_aside_reasons
from ragassay.types import Sample
from tests.support.offline import assert_judged, evidence, flagged

HALL = ["Venue hire enquiries go to our bookings manager, Ruth Akers. Questions about "
        "catering should go to Sam Okoye."]
PASSES = ["The Duo Pass covers two adults for one day. The Family Pass covers two adults "
          "and up to three children for two days."]


@pytest.mark.parametrize(("contexts", "answer"), [
    (HALL, "Please contact Sam Okoye, who handles venue hire enquiries."),
    (PASSES, "That's the Duo Pass, which covers two adults and up to three children for "
             "two days."),
])
def test_a_name_said_of_another_sentences_words_is_an_entity_swap(
        an: Analyzer, contexts: list[str], answer: str) -> None:
    assert_judged(an, contexts, answer, flags=True, kind="entity")


@pytest.mark.parametrize("answer", [
    "Please contact Ruth Akers, our bookings manager.",
    "Please contact the venue for more details.",
])
def test_a_referral_to_the_right_person_is_not_flagged(an: Analyzer, answer: str) -> None:
    ev = evidence(an, HALL, answer, "Who do I talk to about hiring the hall?")
    assert not flagged(ev), ev


@pytest.mark.parametrize(("answer", "claim"), [
    ("Ruth Akers handles venue hire. Please get in touch with our office.", False),
    ("Ruth Akers handles venue hire. Please get in touch with Sam Okoye, who runs "
     "the catering.", True),
])
def test_a_referral_is_a_claim_only_when_it_says_more_of_a_named_one(
        an: Analyzer, answer: str, claim: bool) -> None:
    p = an.prepare_many([Sample(id="t", question="Can I hire the hall?", contexts=tuple(HALL),
                                answer=answer)])[0]
    reasons = set_aside_reasons(p.answer_keyed, p.answer_infos, p.ctx.pool, p.given, p.ctx)
    assert (reasons[-1] is None) is claim, reasons  # (set aside: a referral, or abstains)


@pytest.mark.parametrize(("contexts", "answer"), [
    (["Morning walks start at Hollow Bridge; evening walks leave from Fern Gate, where the "
      "path is flat enough for pushchairs."],
     "In the evening you'll be walking from Hollow Bridge, where the path is flat enough "
     "for pushchairs."),
    (["Day-trippers moor at Kelp Quay; overnight boats use Heron Basin, where the water is "
      "calmer for sleeping."],
     "If you're staying overnight, moor at Kelp Quay, where the water is calmer for "
     "sleeping."),
])
def test_a_place_of_one_clause_said_with_the_others_words(
        an: Analyzer, contexts: list[str], answer: str) -> None:
    """The name taken is no doer of its clause ("start at Hollow Bridge"): it counts when
    the claim says three or more of the other clause's own words, its relative clause's
    included (both passed at 090f132)."""
    assert_judged(an, contexts, answer, flags=True, kind="entity")


def test_the_place_with_its_own_clauses_words_is_not_flagged(an: Analyzer) -> None:
    assert_judged(an, ["Morning walks start at Hollow Bridge; evening walks leave from Fern "
                       "Gate, where the path is flat enough for pushchairs."],
                  "In the evening you'll be walking from Fern Gate, where the path is flat "
                  "enough for pushchairs.", flags=False)


def test_an_acronym_of_the_claims_name_is_no_other_entity(an: Analyzer) -> None:
    """WiCE dev02304 in other words (read as the misplaced place name before this check):
    the sentence's "the LTA" is the claim's "Local Traders Alliance", no other entity. (The
    claim's names no context has are still unsupported: only the contradiction is read.)"""
    ev = evidence(an, ["Formed by 20 Harbour Street shops and 12 market stalls, the LTA "
                       "will run events that bring visitors to the old town."],
                  "In May 2021, the Harbour Street shops set up the Local Traders Alliance, "
                  "which runs events that bring visitors to the old town.", "Tell me.")
    assert ev.contradicts == [None], ev
