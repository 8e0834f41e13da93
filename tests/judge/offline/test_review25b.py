"""Review 25b: a sentence set aside beside a decline (a referral, a sign-off, a list of
what the sources hold) or a declining sentence's other clause that still says something
of the world in common words the contexts lack (beside_claims.py): something said to be
free, a relative clause stating a fact of whom or what it names, the business's own
thing the contexts never name. Each is checked both ways, in words of our own. The first
two readings were withdrawn in session 25 (each turned a correct held-out answer wrong):
their cases are strict xfails, known limits."""

from __future__ import annotations

import pytest

from ragassay.judge.offline import Analyzer
from ragassay.judge.offline.beside_claims import says_more
from ragassay.judge.offline.lexical import TermPool
from tests.support.offline import judged

_WITHDRAWN = pytest.mark.xfail(strict=True, reason="known limit: the reading was withdrawn "
                               "after a held-out answer went wrong (session 25)")

SALON = ["A cut and blow-dry costs £38 with a senior stylist.",
         "The salon opens at 9am Tuesday to Saturday."]
MUSEUM = ["Entry to the permanent galleries is free.",
          "Guided tours run at 11am and 2pm and cost £6."]
DECLINE = "I don't have anything on hair colouring."


@pytest.fixture(scope="module")
def an() -> Analyzer:
    return Analyzer()


@pytest.mark.parametrize("answer", [
    # a referral carrying a relative clause of fact or a price stance
    pytest.param(f"{DECLINE} You could try the front desk, which stays open late on Fridays.",
                 marks=_WITHDRAWN),
    pytest.param(f"{DECLINE} I'd suggest checking the booking page, where colour "
                 "consultations are free.",
                 marks=_WITHDRAWN),
    pytest.param(f"{DECLINE} Our senior stylists can give you a complimentary patch test.",
                 marks=_WITHDRAWN),
    # a sign-off saying something is free, or naming a thing of the salon's
    pytest.param(f"{DECLINE} Let me know if you have other questions about the free consultation.",
                 marks=_WITHDRAWN),
    f"{DECLINE} Enjoy your visit to our nail bar!",
    # the other clause of a declining sentence
    pytest.param("Nothing I have access to mentions hair colouring, but it is free on Tuesdays.",
                 marks=_WITHDRAWN),
])
def test_a_set_aside_sentence_saying_more_is_a_claim(an: Analyzer, answer: str) -> None:
    assert judged(an, SALON, answer)


@pytest.mark.parametrize(("contexts", "answer"), [
    (SALON, f"{DECLINE} Please ask at the front desk, who can help."),
    (SALON, f"{DECLINE} Enjoy your visit to our salon!"),
    (SALON, f"{DECLINE} Let me know if you have any other questions."),
    (SALON, f"{DECLINE} Our team can talk you through the options."),
    # "free" the contexts say themselves
    ([*SALON, "Fringe trims are free between appointments."],
     f"{DECLINE} Let me know if you have other questions about the free fringe trims."),
    (MUSEUM, "I don't have anything on the cafe. Please ask the front desk, which is by "
             "the galleries."),
])
def test_a_referral_or_sign_off_saying_no_more_stays_aside(
        an: Analyzer, contexts: list[str], answer: str) -> None:
    assert not judged(an, contexts, answer)


def test_says_more_reads_the_contexts_words() -> None:
    pool = TermPool.of(" ".join(MUSEUM))
    assert not says_more("Try the ticket desk, who will know.", pool)
    assert says_more("Enjoy your visit to our rooftop cafe!", pool)
    assert not says_more("Our pages only talk about tours.", pool)  # no sign-off
    assert not says_more("Enjoy your visit to our galleries!", pool)
