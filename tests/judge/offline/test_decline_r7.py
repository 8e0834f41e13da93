"""Issue #38, session 7: declines in more grammar (each failed before). A lack stated with
an adjective ("any current information") or with a regret ("I don't have next week's
rota, I'm afraid"); what the speaker's information covers, "but nothing about" the
question; a verbless list item going on with it; whom to ask with a place after the role
("The staff at the front gate can ..."), "check", a pronoun ("they'll be glad to help"),
"worth asking", "the sort of thing to raise with", "Please ring ..." and "so keep an eye
out there". Claims beside them stay claims. Several domains, none of the probe batches'
wording."""

from __future__ import annotations

from collections.abc import Callable

import pytest

from ragassay.judge.offline import Analyzer
from ragassay.judge.offline.declines import is_noncommittal
from ragassay.judge.offline.referrals import is_referral
from ragassay.judge.offline.source_scope import is_source_scope
from tests.support.offline import evidence, flagged

DOMAINS = {
    "opticians": (("Eye tests are free for children under 16 and adults over 60.",
                   "Contact lens check-ups take 20 minutes."),
                  "Do you sell prescription swimming goggles?"),
    "climbing": (("The bouldering wall is open from 10am to 10pm on weekdays.",
                  "Shoe hire costs 4 pounds per visit."),
                 "Can I bring my own chalk ball?"),
    "roofing": (("We repair flat roofs and replace missing tiles.",
                 "Gutter clearing is priced per metre of guttering."),
                "Do you install solar tiles?"),
    "court": (("Fines can be paid online or by phone using the reference on your notice.",
               "Payment plans are available for fines over 200 pounds."),
              "Can I appeal a parking fine in person?"),
    "aquarium": (("Feeding talks take place at the shark tunnel at 11am and 3pm.",
                  "Set feeding times are posted on the website each morning."),
                 "When is the octopus enclosure reopening?"),
}


def _ev(an: Analyzer, domain: str, answer: str):  # type: ignore[no-untyped-def]
    ctx, q = DOMAINS[domain]
    return evidence(an, list(ctx), answer, q)


DECLINES = [
    ("opticians", "I don't have any current information about swimming goggles, sorry. The "
                  "staff in the shop can tell you whether we stock them."),
    ("climbing", "I don't have next week's route-setting rota, I'm afraid."),
    ("climbing", "Sorry, I don't have the chalk rules. The duty instructor can check that "
                 "for you."),
    ("roofing", "The information I have covers flat roof repairs and tile replacement, but "
                "nothing about solar tiles. A specialist installer would be the best person "
                "to ask."),
    ("roofing", "Our service details mention roof repairs and gutter clearing, but nothing "
                "about solar tiles, so I can't say whether we fit them."),
    ("court", "Our information covers paying fines online and payment plans, but I can't see "
              "anything about appeals. It's the sort of thing to raise with the court office."),
    ("court", "Sorry, I have no details on appeals; the documents only cover payments, plans "
              "and reminders. Please ring the court office and they'll be glad to help."),
    ("opticians", "The leaflets don't say whether we sell goggles. It's worth asking the "
                  "dispensing team in branch."),
]


@pytest.mark.parametrize(("domain", "answer"), DECLINES)
def test_a_decline_in_more_grammar_is_abstained_on(an: Analyzer, domain: str,
                                                   answer: str) -> None:
    ev = _ev(an, domain, answer)
    assert ev.abstains and not flagged(ev), ev


def test_a_supported_fact_with_a_pointer_keeps_its_support(an: Analyzer) -> None:
    """ "..., so keep an eye out there" sends the user on: no detail no context states."""
    ev = _ev(an, "aquarium", "I can't say when the octopus enclosure reopens. Set feeding "
                             "times are posted on the website each morning, so keep an eye "
                             "out there.")
    assert not flagged(ev), ev


@pytest.mark.parametrize(("domain", "answer"), [
    # a claim beside the decline's new grammar is still judged
    ("climbing", "I don't have the chalk rules, I'm afraid, but shoe hire costs 9 pounds."),
    ("roofing", "The information I have covers roof repairs, but nothing about solar tiles. "
                "We install solar tiles for 3000 pounds."),
])
def test_a_claim_beside_the_new_declines_is_still_judged(an: Analyzer, domain: str,
                                                          answer: str) -> None:
    ev = _ev(an, domain, answer)
    assert flagged(ev), ev


@pytest.mark.parametrize(("rule", "text", "expected"), [
    (is_noncommittal, "I don't have any up-to-date details about the cafe, sorry.", True),
    (is_noncommittal, "I'm afraid I don't have the timetable.", True),
    (is_noncommittal, "You don't have to book a test.", False),
    (is_noncommittal, "I don't have to tell you the rules twice.", False),
    (is_source_scope, "I'm sorry, the information I have covers fines and plans.", True),
    (is_referral, "The nurses on the ward will be able to help.", True),
    (is_referral, "The team at reception can check that for you.", True),
    (is_referral, "Please ring the box office.", True),
    (is_referral, "Phone support is available to Plus subscribers only.", False),
    (is_referral, "Ring sizes run from H to Z.", False),
    (is_referral, "Staff in the warehouse are paid weekly.", False),
])
def test_decline_grammar_r7(rule: Callable[[str], bool], text: str, expected: bool) -> None:
    assert rule(text) is expected


ROLES = ["Coaching enquiries are handled by our head coach, Priya Nair.",
         "Membership questions go to the club secretary, Dan Okoro."]


def test_a_referral_to_someone_the_contexts_name_is_checked(an: Analyzer) -> None:
    """ "get in touch with Dan Okoro" names whom the contexts put elsewhere: the answer
    says whom to ask, a claim to check, not a decline (abstained on before, so a wrong
    contact dropped out of every figure)."""
    q = "Who do I ask about coaching?"
    wrong = evidence(an, ROLES, "For coaching enquiries, get in touch with Dan Okoro.", q)
    right = evidence(an, ROLES, "For coaching enquiries, get in touch with Priya Nair.", q)
    assert not wrong.abstains and flagged(wrong), wrong
    assert not right.abstains and not flagged(right), right


def test_a_referral_to_no_one_the_contexts_name_still_declines(an: Analyzer) -> None:
    ev = evidence(an, ROLES, "Please contact the club office about that.",
                  "Can I hire the boathouse?")
    assert ev.abstains and not flagged(ev), ev
