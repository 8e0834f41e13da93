"""Session 25 (k199): a short faithful answer opening with a reply word, and a rule's
statement that reads like a decline.

- A reply word set off before the claim ("No, ...", "Nope, ...", "Unfortunately not -
  ...") answers the question; a "no" after it that is a determiner ("No, no deposit is
  needed", "Sadly no seats are left") is the claim's own negation
  (`sentences.lead_tokens`).
- "You don't have to X" and "X is not required" say the same stance in two shapes
  (`necessity.same_denied_need`); "You have to X" against it stays a flip.
- "No information is needed from you" states what a rule asks for: a claim, no decline.
Cases in words of our own."""

from __future__ import annotations

import pytest

from ragassay.judge.offline import Analyzer
from ragassay.judge.offline.sentences import sentence_info
from tests.support.offline import evidence, judged, known_limit

_FERRY = ["No deposit is needed to book a cabin on the night ferry."]
_FERRY_PAID = ["A deposit is needed to book a cabin on the night ferry."]
_QUIZ = ["Teams do not need a sign-up form for the pub quiz."]
_QUIZ_FORM = ["Teams need a sign-up form for the pub quiz."]
_SHOP = ["Engraving is not offered on watches bought elsewhere."]
_SHOP_YES = ["Engraving is offered on watches bought elsewhere."]
_ROWING = ["Bookings are not required for the rowing taster session."]
_ROWING_REQ = ["Bookings are required for the rowing taster session."]
_SEATS = ["Seats are not available for the late concert on 9 March."]
_SEATS_FREE = ["Seats are available for the late concert on 9 March."]


@pytest.mark.parametrize(("contexts", "answer", "flags"), [
    (_FERRY, "No, no deposit is needed to book a cabin on the night ferry.", False),
    (_FERRY_PAID, "No, no deposit is needed to book a cabin on the night ferry.", True),
    (_QUIZ, "Nope, no sign-up form is needed for the pub quiz.", False),
    (_QUIZ_FORM, "Nope, no sign-up form is needed for the pub quiz.", True),
    (_SHOP, "Unfortunately not - engraving isn't offered on watches bought elsewhere.", False),
    (_SHOP_YES, "Unfortunately not - engraving isn't offered on watches bought elsewhere.", True),
    (_SHOP, "Sadly not, engraving isn't offered on watches bought elsewhere.", False),
    (_ROWING, "No, you don't have to book for the rowing taster session.", False),
    (_ROWING, "You don't have to book the rowing taster session.", False),
    (_QUIZ, "Absolutely not - teams don't need a sign-up form for the pub quiz.", False),
    (_ROWING, "Nope, no need to book for the rowing taster session.", False),
    (_SEATS, "Unfortunately no seats are available for the late concert on 9 March.", False),
    (_SEATS_FREE, "Unfortunately no seats are available for the late concert on 9 March.", True),
])
def test_reply_word_before_the_claim(an: Analyzer, contexts: list[str], answer: str,
                                     flags: bool) -> None:
    assert judged(an, contexts, answer) is flags


@pytest.mark.parametrize(("text", "lead"), [
    ("No, no deposit is needed.", 1),
    ("Nope, no form is needed.", 1),
    ("Sadly no seats are left.", 1),
    ("No courtesy car is provided.", 0),
    ("No. Yes, it is.", 2),
    ("Unfortunately not - it is shut.", 2),
])
def test_lead_stops_at_a_determiner(text: str, lead: int) -> None:
    assert sentence_info(text).lead == lead


def test_no_information_needed_is_a_claim(an: Analyzer) -> None:
    ctx = ["No information is needed from you to reset the modem; hold the button for 10 seconds."]
    ev = evidence(an, ctx, "No information is needed from you - just hold the reset button "
                  "for 10 seconds.", "What do I need to reset the modem?")
    assert not ev.abstains
    assert not judged(an, ctx, "No information is needed from you to reset the modem.")


def test_lack_of_information_still_declines(an: Analyzer) -> None:
    ev = evidence(an, ["The modem has four ports."], "Sorry, no information on the warranty "
                  "is given in the documents.", "How long is the warranty?")
    assert ev.abstains


@known_limit("'book' against 'Bookings': the act and its noun are not read as one word, "
             "so the turned stance is missed (on main too)")
@pytest.mark.parametrize(("contexts", "answer"), [
    (_ROWING_REQ, "No, you don't have to book for the rowing taster session."),
    (_ROWING, "You have to book the rowing taster session."),
])
def test_turned_need_of_an_act(an: Analyzer, contexts: list[str], answer: str) -> None:
    assert judged(an, contexts, answer)
