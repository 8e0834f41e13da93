"""Session 26 (k205): faithful answers in other words, as support bots write them.

Three evidence readings: a numbered or bulleted list's markers are layout, not claims
(text.sentences); a claim
that denies with a verb of its own what the unit denies of its word says the same "not"
(one_denial.py). Each is checked both ways. A rate put in another period read as a
figure changed ("twice a month" for "twice a year", k205's rates.py) was withdrawn: with
it two held-out answers went right to wrong; its case stays a strict xfail."""

from __future__ import annotations

import pytest

from ragassay.judge.offline import Analyzer
from ragassay.text import split_sentences
from tests.support.offline import judged

KILN = ["To enter the raffle, buy a ticket at the front desk, write your name on the stub "
        "and drop it in the box. The draw takes place on 3 June."]


@pytest.mark.xfail(strict=True, reason="list items cut into sentences (text.sentences) "
                   "was withdrawn in session 26: it lowered SummEdits' LOO figures")
def test_list_markers_start_sentences_and_are_dropped() -> None:
    text = "Here you go:\n1. Open Settings.\n2. Tap Privacy\n- Turn off tracking."
    assert split_sentences(text) == ["Here you go:", "Open Settings.", "Tap Privacy",
                                     "Turn off tracking."]


def test_mid_line_numbers_are_no_list() -> None:
    assert split_sentences("We stock 2. Sizes vary.") == ["We stock 2.", "Sizes vary."]


@pytest.mark.xfail(strict=True, reason="list items cut into sentences (text.sentences) "
                   "was withdrawn in session 26: it lowered SummEdits' LOO figures")
def test_numbered_steps_answer_is_faithful(an: Analyzer) -> None:
    answer = ("Sure - here's how:\n1. Buy a ticket at the front desk.\n2. Write your name "
              "on the stub.\n3. Drop it in the box.\nThe draw is on 3 June [1].")
    assert not judged(an, KILN, answer)


def test_numbered_steps_with_a_changed_date_is_flagged(an: Analyzer) -> None:
    answer = ("Sure - here's how:\n1. Buy a ticket at the front desk.\n2. Write your name "
              "on the stub.\n3. Drop it in the box.\nThe draw is on 5 June [1].")
    assert judged(an, KILN, answer)


SKIPS = ["Each household can book a bulky waste collection twice a year.",
         "Collections are free for residents over 70."]


def test_rate_in_another_period_is_flagged(an: Analyzer) -> None:
    answer = ("Each household can book a bulky waste collection twice a month [1]. "
              "It's free if you're over 70 [2].")
    assert judged(an, SKIPS, answer)


def test_rate_in_the_same_period_other_words_is_faithful(an: Analyzer) -> None:
    answer = ("Your household can book a bulky waste collection two times a year [1]. "
              "It's free if you're over 70 [2].")
    assert not judged(an, SKIPS, answer)


def test_one_denial_with_two_verbs_is_faithful(an: Analyzer) -> None:
    assert not judged(an, ["Garden waste cannot be collected on bank holidays."],
                      "Garden waste isn't picked up for collection on bank holidays [1].")
    assert not judged(an, ["Gift cards cannot be refunded."],
                      "Gift cards aren't eligible for a refund.")


def test_a_denial_turned_to_a_grant_is_flagged(an: Analyzer) -> None:
    assert judged(an, ["Gift cards cannot be refunded."], "Gift cards are eligible for a refund.")
    assert judged(an, ["Garden waste cannot be collected on bank holidays."],
                  "Garden waste is picked up for collection on bank holidays [1].")


PERMIT = ["To renew a parking permit, log in to your account, upload a recent utility bill "
          "and pay the £40 fee. Permits are posted within five working days."]


def test_a_colon_lead_in_before_bullets_is_no_claim(an: Analyzer) -> None:
    answer = ("To renew, you'll want to:\n- Log in to your account\n- Upload a recent "
              "utility bill\n- Pay the £40 fee\nYour permit is posted within five working days.")
    assert not judged(an, PERMIT, answer)


def test_a_bullet_with_a_changed_fee_is_flagged(an: Analyzer) -> None:
    answer = ("To renew, you'll want to:\n- Log in to your account\n- Upload a recent "
              "utility bill\n- Pay the £60 fee\nYour permit is posted within five working days.")
    assert judged(an, PERMIT, answer)

