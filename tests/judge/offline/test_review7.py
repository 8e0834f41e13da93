"""Review 7 of session 7's judge changes (/work/notes/review-7.md): each answer was judged
as here before the session (15ca80b) and the other way after its first rules (cff9957).
Claims about the world that the new decline grammar swallowed, an invented detail after a
referral verb, a changed word lifted by "each clause restated", an invented alternative
after "or over", faithful scope read as narrowed, coreference read as a swap, a referral
to an organisation without a topic, counts read as clock times, "every 6 months of
service"."""

from __future__ import annotations

import pytest

from ragassay.judge.offline import Analyzer
from tests.support.offline import evidence, flagged

FLAGGED = [  # unfaithful: flagged before the session, passed after its first rules
    (["The Lite model records heart rate data and sleep data."],
     "Does the Lite track heart rate?", "The Lite model doesn't have heart rate data."),
    (["The home insurance policy covers theft, fire and flood damage."],
     "Does my policy cover flood damage?",
     "The policy covers theft and fire, but nothing about flood damage."),
    (["The summer fair takes place in Victoria Park on Saturday 12 July from 10am to 6pm, "
      "with food stalls, a dog show and live music on the bandstand."], "When is the fair?",
     "The summer fair is in Victoria Park on Saturday 12 July from 10am to 6pm with food "
     "stalls and live music, so keep an eye out for the celebrity chef."),
    (["Gates open 60 minutes before the advertised kick-off time.",
      "The pre-match show usually begins 20 minutes after the gates open."], "When?",
     "Gates open 60 minutes before the advertised kick-off time [1], and the pre-match show "
     "usually ends 20 minutes after that [2]."),
    (["Tickets for the summer concert series can be bought at the box office in the town "
      "hall."], "Where can I buy tickets?",
     "Tickets for the summer concert series can be bought at the box office in the town hall "
     "or over the phone via our booking hotline."),
]

SUPPORTED = [  # faithful: supported before the session, flagged after its first rules
    (["Security staff check bags at the entrance."], "Are bags checked?",
     "Security staff check all bags."),
    (["Cots are provided for babies on request."], "Do you have cots?",
     "Cots are provided for all babies."),
    (["Our head chef is Marco.", "The head chef trains all new kitchen staff."],
     "Who trains new staff?", "Marco trains all new kitchen staff."),
    (["Staff earn one extra day of leave for every 6 months of service."], "Leave?",
     "Staff earn an extra day of leave for each six months of service."),
]


@pytest.mark.parametrize(("contexts", "question", "answer"), FLAGGED)
def test_an_unfaithful_answer_is_flagged(an: Analyzer, contexts: list[str], question: str,
                                         answer: str) -> None:
    ev = evidence(an, contexts, answer, question)
    assert flagged(ev) and not ev.abstains, ev


@pytest.mark.parametrize(("contexts", "question", "answer"), SUPPORTED)
def test_a_faithful_answer_is_supported(an: Analyzer, contexts: list[str], question: str,
                                        answer: str) -> None:
    ev = evidence(an, contexts, answer, question)
    assert not flagged(ev), ev


def test_a_referral_to_an_organisation_without_a_topic_still_declines(an: Analyzer) -> None:
    ctx = ["Acme Bank charges no fee for standard transfers.",
           "Acme Bank savings accounts pay 2% interest."]
    ev = evidence(an, ctx, "Please get in touch with Acme Bank about that.",
                  "Can I get a mortgage holiday?")
    assert ev.abstains and not flagged(ev), ev


def test_counts_in_a_morning_session_are_no_clock_times() -> None:
    from ragassay.judge.offline.measures import canonical_measures

    assert "am" not in canonical_measures("We had 9 in the morning session.").split()
    assert canonical_measures("It opens at 7 in the morning.").startswith("It opens at 7 am")
