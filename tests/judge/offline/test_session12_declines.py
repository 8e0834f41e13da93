"""Issue #38, session 12: declines in forms no pattern read before (each faithful case
failed at cc526ac): "I don't have a <thing> for <topic>" opening the answer, with no
regret beside it; the thing lacked named as a noun phrase ("a contact number for the
caretaker"), not as "about X"; "isn't listed in the <noun> I have" (whatever the speaker
says it was given, not only the texts' own nouns); "the <noun> I have only covers X, so
I can't say ..."; a relative clause on what the speaker has ("..., which lists ...");
"I can't recommend / suggest ..."; "X would be good people to ask". The other side: the
business's "we don't have ..." is a claim, and "..., which covers ..." is about the
sources only beside a decline naming them. Wording and domains none of the probe
batches use."""

from __future__ import annotations

import pytest

from ragassay.judge.offline import Analyzer
from ragassay.judge.offline.declines import is_noncommittal
from ragassay.judge.offline.referrals import is_referral
from ragassay.judge.offline.source_scope import is_source_scope
from tests.support.offline import evidence, flagged

CHOIR = (["Rehearsals are on Thursdays from 7pm to 9pm in the school hall.",
          "Membership is £40 a term."], "Can I get the caretaker's phone number?")
FERRY = (["The summer timetable runs from May to September with six sailings a day.",
          "Cars must check in 30 minutes before departure."],
         "Is there a Sunday bus to the ferry terminal?")
GARAGE = (["Our MOT tests cost £54.85 and take about an hour.",
           "We service all makes of car."], "Which brand of tyres should I buy?")
POTTERY = (["The taster class covers hand-building and glazing.",
            "Classes run on Saturday mornings."], "Do you sell kilns?")

DECLINES = [
    (CHOIR, "I don't have a direct line for the site manager. Please ask the choir "
            "secretary."),
    (CHOIR, "Unfortunately I don't have a mobile number for the school's site team."),
    (FERRY, "That isn't listed in the ferry timetable I have. The bus company would be "
            "the people to ask."),
    (FERRY, "The timetable I have only covers the ferry sailings, so I can't tell you "
            "whether a Sunday bus runs."),
    (GARAGE, "I can't recommend a particular tyre brand from the information here; the "
             "workshop staff would be good people to ask."),
    (POTTERY, "I can't see kilns in the class details I have, which cover the taster "
              "class and the Saturday sessions. Please ask at the studio."),
]


@pytest.mark.parametrize(("case", "answer"), DECLINES)
def test_a_decline_in_these_forms_abstains(an: Analyzer, case: tuple[list[str], str],
                                           answer: str) -> None:
    ctx, q = case
    ev = evidence(an, ctx, answer, q)
    assert ev.abstains and not flagged(ev), ev


@pytest.mark.parametrize("sentence", [
    "We don't have a car park for visitors.",  # the business: a claim
    "We don't have a lift to the first floor, so the studio is up one flight of stairs.",
    "You don't have a choice of seats for the matinee.",
])
def test_what_the_business_lacks_is_no_decline(sentence: str) -> None:
    assert not is_noncommittal(sentence)


def test_which_covers_is_the_sources_only_beside_a_decline_naming_them() -> None:
    clause = "which only covers entry, not the rides"
    assert not is_source_scope(clause)  # "The day ticket costs £12, which only covers ..."
    assert is_source_scope("which cover the taster class and the Saturday sessions",
                           beside=True)


def test_a_claim_beside_the_new_decline_forms_is_still_judged(an: Analyzer) -> None:
    ctx, q = CHOIR
    ev = evidence(an, ctx, "I don't have a contact number for the caretaker, but "
                  "rehearsals are on Mondays from 6pm in the church hall.", q)
    assert flagged(ev), ev


@pytest.mark.parametrize(("sentence", "refers"), [
    ("The east lawn is the safest place for picnics.", False),  # a claim (review 12, L4)
    ("The lower slope is the best place for beginners.", False),
    ("The box office is the best place for questions about refunds.", True),
    ("Your vet is the right person for advice on diet.", True),
    ("The warden would be the best person to ask.", True),
])
def test_the_best_place_for_refers_only_with_what_is_asked(sentence: str, refers: bool) -> None:
    """"... the best place for X" sends the user elsewhere only when X is what they ask
    (advice, questions, information): "the safest place for picnics" is a claim."""
    assert is_referral(sentence) is refers
