"""Review 9 of session 9's judge changes (/work/notes/review-9.md): each case failed on
351c474 and was judged the right way at the session's base (f73b4cf). Faithful
answers flagged by drops_only (the restriction kept in the claim's own next clause or
sentence), tail_days (a last ", Monday to Saturday" read into every clause) and
attributed.py ("..., as is the York branch"); unfaithful answers let through by
summary.py (a coverage frame after a decline reads any bag of context stems as a
summary), declines.declined_topics (a claim inside the topic a decline says it lacks)
and normalise._BAND ("under 2s" read as an age band, losing its seconds)."""

from __future__ import annotations

import pytest

from ragassay.judge.offline import Analyzer
from tests.judge.offline.test_probes import known_limit
from tests.support.offline import evidence, flagged

MATTRESS = ["We accept mattresses only if they are still sealed."]

SUPPORTED = [  # faithful: supported at f73b4cf, flagged on HEAD
    # drops_only: the case is kept in the claim's own sentence, in other words
    (MATTRESS, "Do you take mattresses?",
     "We accept mattresses, as long as they are still sealed."),
    (MATTRESS, "Do you take mattresses?",
     "Yes, we accept mattresses, but they have to be sealed."),
    (["Parking is free only for blue badge holders."], "Is parking free?",
     "Parking is free, but only with a blue badge."),
    # tail_days: the sentence's last piece is its last clause's, not every clause's
    (["All tickets include a free drink, and the bar is open from 6pm to 11pm, Monday to "
      "Saturday."], "Is a drink included?", "Every ticket includes a free drink."),
    # attributed.py: the sentence says it of the claim's entity too ("as is ...")
    (["The Leeds branch is open on Sundays from 10am to 4pm for collections and returns, "
      "as is the York branch."], "Is the York branch open on Sundays?",
     "The York branch is open on Sundays from 10am to 4pm."),
]

FLAGGED = [  # unfaithful: flagged at f73b4cf, scored faithful on 351c474 (findings 3-4,
    # on summary.py and declines.declined_topics: test_session9_declines.py)
    # normalise._BAND: "under 2s" (seconds) read as the band "under 2"
    (["Pages load in under 2s on the Pro plan."], "How fast are pages?",
     "On the Pro plan pages load in under 2 minutes."),
]


@known_limit("a restriction kept in the answer's next sentence: each sentence is aligned "
             "on its own (drops_time had the same limit at f73b4cf)")
def test_limit_a_case_kept_in_the_next_sentence(an: Analyzer) -> None:
    ev = evidence(an, MATTRESS, "We accept mattresses. They must still be sealed in their "
                  "packaging.", "Do you take mattresses?")
    assert not flagged(ev), ev


@pytest.mark.parametrize(("contexts", "question", "answer"), SUPPORTED)
def test_a_faithful_answer_is_not_flagged(
        an: Analyzer, contexts: list[str], question: str, answer: str) -> None:
    ev = evidence(an, contexts, answer, question)
    assert not flagged(ev), ev


@pytest.mark.parametrize(("contexts", "question", "answer"), FLAGGED)
def test_an_unfaithful_answer_is_flagged(
        an: Analyzer, contexts: list[str], question: str, answer: str) -> None:
    ev = evidence(an, contexts, answer, question)
    assert flagged(ev), ev
