"""referrals.py: a decline followed by a referral to a generic party ("You may want to
contact ...", trial 75) is no claim; a referral carrying a specific fact the contexts lack
(a phone number, a fee, an email or web address) is one. At 62aff3c three of the four
declines were flagged (not "You may want to contact the site secretary") and the email
and web addresses passed; the rest are guards. Wording and domains of their own (k148)."""

from __future__ import annotations

import pytest

from ragassay.judge.offline import Analyzer
from ragassay.judge.offline.lexical import TermPool
from ragassay.judge.offline.referrals import invented_detail, is_referral
from tests.support.offline import assert_judged

ALLOTMENT = ["Allotment plots are let by the year from 1 April and cost £48 for a half plot.",
             "Bonfires are only allowed between October and March."]
BEES = "Can I keep bees on my allotment?"
SALON = ["Paws & Suds grooms dogs of all sizes from Tuesday to Saturday.",
         "A full groom for a small dog costs £35 and takes about two hours.",
         "Call 01632 960 555 to book."]
CATS = "Do you groom cats?"


@pytest.mark.parametrize(("contexts", "question", "answer"), [
    (ALLOTMENT, BEES, "I don't know whether hives are allowed. Your local beekeeping "
                      "association would be a good place to ask."),
    (ALLOTMENT, BEES, "I'm not sure about bees. You may want to contact the site secretary."),
    (SALON, CATS, "I couldn't find anything about cats in the information I have. You might "
                  "want to give the salon a call."),
    (SALON, CATS, "Nothing here says whether cats are groomed. It's best to ring the salon "
                  "on 01632 960 555."),
])
def test_a_decline_then_a_generic_referral_abstains(an: Analyzer, contexts: list[str],
                                                    question: str, answer: str) -> None:
    ev = assert_judged(an, contexts, answer, flags=False, question=question)
    assert ev.abstains


@pytest.mark.parametrize(("contexts", "question", "answer"), [
    (ALLOTMENT, BEES, "That isn't covered here. Please email "
                      "secretary@greenlane-allotments.org.uk for details."),
    (SALON, CATS, "There's nothing here about cats. Please reach out to our support team at "
                  "help@pawsandsuds.co.uk."),
    (SALON, CATS, "Cats aren't covered in the documents. Please visit "
                  "www.pawsandsuds.co.uk/cats for details."),
    (SALON, CATS, "Nothing here says whether cats are groomed. It's best to ring the salon on "
                  "01632 960 777."),
    (ALLOTMENT, BEES, "I'm not sure about bees. You may want to call the site secretary on "
                      "01632 960 123."),
    (SALON, CATS, "I don't know if they groom cats. You may want to contact the salon, which "
                  "charges £20 for cat grooming."),
])
def test_a_referral_with_an_invented_detail_is_flagged(an: Analyzer, contexts: list[str],
                                                       question: str, answer: str) -> None:
    assert_judged(an, contexts, answer, flags=True, question=question)


def test_invented_detail() -> None:
    pool = TermPool.of(" ".join(SALON))
    assert invented_detail("Please email help@pawsandsuds.co.uk.", pool, CATS)
    assert invented_detail("Ring them on 01632 960 777.", pool, CATS)
    assert not invented_detail("Ring them on 01632 960 555.", pool, CATS)
    assert not invented_detail("It's best to check with your vet.", pool, CATS)


@pytest.mark.parametrize("sentence", [
    "Email support is included in the Starter plan.",
    "Call charges are 8p a minute from a mobile.",
    "Contact lenses can be collected after two days.",
])
def test_a_noun_is_no_imperative(sentence: str) -> None:
    """A referral's verb read as a noun ("Email support is included", "Call charges
    are"): the whole answer was taken for a referral and scored as an abstention before
    (session 20)."""
    assert not is_referral(sentence)


@pytest.mark.parametrize("sentence", [
    "Email the bursar and she will reply within a day.",
    "Call reception for a late check-out.",
    "Contact the warden if you lose your key.",
])
def test_an_imperative_stays_a_referral(sentence: str) -> None:
    assert is_referral(sentence)
