"""Review 14: findings on session 14's offline-judge change (61c14ab, ac1a13e) as tests.

Each test asserts the right behaviour; each finding failed at ac1a13e and passes since the
review's fixes. Two gains of the change were withdrawn instead of mended ("an hour" read
as the figure 1; "every day" / "all year" against a range of days or months, which needs
the other sentences of the passage): their cases are strict-xfail limits (LIMIT); the
second is read since session 15, with the passage's other sentences, and its case a test."""

from __future__ import annotations

import pytest

from ragassay.judge.offline import Analyzer
from ragassay.judge.offline.measures import canonical_measures
from ragassay.judge.offline.paraphrase import restated_in_other_words
from ragassay.judge.offline.referrals import is_referral
from ragassay.judge.offline.sentences import sentence_info
from ragassay.judge.offline.words import static_table
from tests.support.offline import evidence, flagged

LIMIT = pytest.mark.xfail(strict=True, reason="known limit (a gain of ac1a13e withdrawn "
                          "after review 14): 'an hour' is no figure (ranges of days and months "
                          "against 'every day' / 'all year' are read since session 15, "
                          "with the whole passage's days and months)")


@pytest.fixture(scope="module")
def an() -> Analyzer:
    return Analyzer()


def _judged(an: Analyzer, contexts: list[str], answer: str, flags: bool,
            question: str = "Tell me.") -> None:
    ev = evidence(an, contexts, answer, question)
    assert flagged(ev) is flags, ev


# --- 1. hedged: any "and ..." / "or ..." clause after a decline clause is dropped ------
# (the rule is meant for a verbless item going on with the declined topic; _goes_on
# returns True for every clause opening with and/or/plus/not/nor, verb and figures too)

@pytest.mark.parametrize(("contexts", "question", "answer"), [
    (["Bike lockers at the station cost £2 per day."],
     "Is there secure parking at the ferry terminal?",
     "I'm not sure about the ferry terminal, and the bike lockers at the station are free."),
    (["Bike lockers at the station cost £2 per day."],
     "Is there secure parking at the ferry terminal?",
     "I don't have details about the ferry terminal, or the bike lockers at the station are "
     "free."),
    (["Hollybank Stables offers 45-minute group lessons for £28.",
      "Riders must wear a hat that meets PAS 015; hats can be borrowed free."],
     "Can I bring my own pony for a lesson?",
     "I don't see anything about own ponies, and group lessons are free for new riders."),
])
def test_a_claim_after_and_or_beside_a_decline_is_scored(
        an: Analyzer, contexts: list[str], question: str, answer: str) -> None:
    ev = evidence(an, contexts, answer, question)
    assert not ev.abstains and flagged(ev), ev


def test_a_verbless_item_after_a_decline_still_goes_on_with_it(an: Analyzer) -> None:
    ev = evidence(an, ["Hollybank Stables offers 45-minute group lessons for £28."],
                  "I don't have details about the livery yard or winter grazing paddocks, "
                  "sorry.", "Can I keep my horse there?")
    assert ev.abstains and not flagged(ev), ev


# --- 2. polarity.antonym_pool: "last" + a digit is read as the verb ----------------------

@pytest.mark.parametrize(("context", "answer"), [
    ("The last 10 minutes of each public swim session are reserved for lane clearing.",
     "The first 10 minutes of each public swim session are reserved for lane clearing."),
    ("The last two sessions of the course are held online.",
     "The first two sessions of the course are held online."),
    ("The last 3 rows of the theatre have restricted views.",
     "The first 3 rows of the theatre have restricted views."),
])
def test_first_for_the_last_n_is_still_an_antonym(an: Analyzer, context: str,
                                                  answer: str) -> None:
    _judged(an, [context], answer, flags=True)


def test_lasts_as_a_verb_is_no_antonym(an: Analyzer) -> None:
    _judged(an, ["Batteries last 10 hours on a full charge."],
            "On its first full charge the battery lasts 10 hours.", flags=False)


# --- 3. measures: "an hour" as "1 hour" puts a figure the context need not have ---------

@pytest.mark.parametrize(("context", "answer"), [
    ("Parking is 50p per hour.", "Parking is 50p an hour."),
    ("The chairlift carries 900 people per hour.", "The chairlift carries 900 people an hour."),
    ("Bike hire is a pound per hour.", "Bike hire is a pound an hour."),
    ("Court hire costs £8 per hour.", "Court hire costs £8 for an hour."),
    ("Parking is free for the first hour.", "You can park for free for an hour."),
    ("We aim to reply within the hour.", "We aim to reply within an hour."),
    ("The guided walk takes 75 minutes.", "The guided walk takes an hour and a quarter."),
])
def test_an_hour_said_for_the_context_is_supported(an: Analyzer, context: str,
                                                   answer: str) -> None:
    _judged(an, [context], answer, flags=False)


@pytest.mark.parametrize(("context", "answer", "flags"), [
    ("Each lesson lasts one hour.", "Each lesson lasts an hour.", False),
    # (mended in session 24: a context's "an hour" states 1 hour, 60 minutes, as evidence
    # only: `normalise.written_values`)
    ("Each lesson lasts an hour.", "Each lesson lasts 60 minutes.", False),
    pytest.param("Check-in closes 45 minutes before departure.",
                 "Check-in closes an hour before departure.", True, marks=LIMIT),
])
def test_an_hour_as_a_length(an: Analyzer, context: str, answer: str, flags: bool) -> None:
    _judged(an, [context], answer, flags=flags)


# --- 4. measures: "per/each fortnight" rewritten even as a rate's period ----------------

@pytest.mark.parametrize(("context", "answer"), [
    ("Carers are paid £150 a fortnight.", "Carers are paid £150 each fortnight."),
    ("Allotment holders pay £20 a fortnight for water.",
     "Allotment holders pay £20 per fortnight for water."),
    ("Cleaners visit twice a fortnight.", "Cleaners visit twice per fortnight."),
])
def test_a_rate_per_fortnight_is_a_fortnight(an: Analyzer, context: str, answer: str) -> None:
    _judged(an, [context], answer, flags=False)


def test_per_fortnight_is_every_two_weeks(an: Analyzer) -> None:
    _judged(an, ["Garden waste is collected every two weeks."],
            "Garden waste is collected once per fortnight.", flags=False)


def test_centimetres_read_whole() -> None:
    # the \d{3,} of _CENTIMETRES starts inside a decimal
    assert canonical_measures("a 12.125 cm gap") in ("a 12.125 centimetres gap",
                                                      "a 0.12125 metres gap")


# --- 5. polarity.free_price: any "free" on the other side cancels a price's negation ---

@pytest.mark.parametrize(("context", "answer"), [
    ("The sauna is free for members and guests pay a small fee.",
     "Guests pay no fee for the sauna."),
    ("Wi-Fi is not free; it costs £5 per day.", "There is no cost for Wi-Fi."),
])
def test_a_price_denied_against_free_for_others_is_a_flip(an: Analyzer, context: str,
                                                          answer: str) -> None:
    _judged(an, [context], answer, flags=True)


@pytest.mark.parametrize(("context", "answer"), [
    ("Wi-Fi is free throughout the hotel.", "There's no charge for Wi-Fi anywhere in the hotel."),
    ("There is no charge for Wi-Fi in the hotel.", "Wi-Fi is free in the hotel."),
])
def test_no_charge_is_free(an: Analyzer, context: str, answer: str) -> None:
    _judged(an, [context], answer, flags=False)


# --- 6. scope._ranged: the other days in the next sentence ------------------------------

@pytest.mark.parametrize("contexts", [
    ["The shop is open Monday to Saturday, 9am to 5pm. On Sundays it opens from 10am to 4pm."],
    ["Reception is staffed Monday to Friday, 8am to 6pm. At weekends it is staffed from 9am "
     "to 1pm."],
])
def test_every_day_with_the_weekend_in_the_next_sentence(an: Analyzer,
                                                         contexts: list[str]) -> None:
    answer = ("The shop is open every day." if "shop" in contexts[0]
              else "Reception is staffed every day.")
    _judged(an, contexts, answer, flags=False)


@pytest.mark.parametrize(("context", "answer", "flags"), [
    ("The helpline is open Monday to Sunday, 8am to 8pm.",
     "The helpline is open every day from 8am to 8pm.", False),
    ("The lido is open from May to September.", "The lido is open all year.", True),
    # the passage's other sentence fills out the year (since session 15)
    ("The lido is open from May to September. From October to April it opens at weekends "
     "for winter swimmers.", "The lido is open all year.", False),
    ("The festival runs from June to August each year.", "The festival is held every year.",
     False),
])
def test_every_day_and_all_year_against_ranges(an: Analyzer, context: str, answer: str,
                                               flags: bool) -> None:
    _judged(an, [context], answer, flags=flags)


# --- 7. declines: a business's own "we don't see anything wrong" read as a decline -----

def test_we_dont_see_anything_wrong_is_no_decline(an: Analyzer) -> None:
    ev = evidence(an, ["Using a third-party charger voids the warranty."],
                  "We don't see anything wrong with that.",
                  "Can I use a third-party charger?")
    assert not ev.abstains and flagged(ev), ev


def test_give_the_doorbell_a_ring_is_no_referral() -> None:
    assert not is_referral("It's best to give the doorbell a ring.")


def test_best_to_give_a_business_a_call_is_a_referral() -> None:
    assert is_referral("It's best to give Whiskers Lodge a call.")


# --- 8. paraphrase: "per" anywhere distributes, "limited to" anywhere restricts --------

def _restated(claim: str, sentence: str) -> bool:
    e = static_table().embed([claim, sentence])
    return restated_in_other_words(sentence_info(claim), sentence_info(sentence),
                                   float(e[0] @ e[1]))


@pytest.mark.parametrize(("claim", "sentence"), [
    ("All classes cost £8 per session.", "Evening classes cost £8 per session."),
    ("Every member can bring two guests per visit.",
     "Members can bring two guests per visit at weekends."),
    ("Parking is limited to 2 hours.", "Only residents can park here, for up to 2 hours."),
])
def test_a_widened_or_unrestricted_claim_restates_nothing(claim: str, sentence: str) -> None:
    assert not _restated(claim, sentence)
