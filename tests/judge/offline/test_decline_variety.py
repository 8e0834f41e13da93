"""Issue #38 item 4, round 4: declines in more words. A statement that the sources lack
something (passive, contractions, "nothing here"), a pure referral as the whole answer,
and a statement of what the sources or the assistant cover all decline: the judge
abstains. A claim about the world, a referral carrying a figure no context has, or a
statement about a service stays a claim and is judged as one. Several domains."""

from __future__ import annotations

from collections.abc import Callable

import pytest

from ragassay.judge.offline import Analyzer, Evidence
from ragassay.judge.offline.declines import is_noncommittal
from ragassay.judge.offline.referrals import is_referral
from ragassay.judge.offline.source_scope import declines_by_scope, is_source_scope
from tests.support.offline import evidence, flagged

DOMAINS = {
    "clinic": (("The clinic is open from 8 am to 6 pm, Monday to Friday.",
                "Repeat prescriptions take two working days."),
               "Do you offer travel vaccinations?"),
    "hotel": (("Check-in is from 3 pm and check-out is by 11 am.",
               "Breakfast is served in the lobby restaurant until 10.30 am."),
              "Is there a gym at the hotel?"),
    "bank": (("Transfers between your own accounts are instant.",
              "The daily card withdrawal limit is 500 EUR."),
             "Can I open a joint account online?"),
    "hr": (("Employees accrue 25 days of annual leave per year.",
            "Expense claims must be filed within 30 days."),
           "What is the parental leave policy?"),
    "software": (("The CLI reads its settings from config.toml in the project root.",
                  "Logs are written to the logs folder and rotated daily."),
                 "Does it support Windows ARM?"),
}


def _ev(an: Analyzer, domain: str, answer: str) -> Evidence:
    ctx, q = DOMAINS[domain]
    return evidence(an, list(ctx), answer, q)


ABSENCE = [  # absence stated about the sources
    ("clinic", "That information isn't available in the documents provided."),
    ("hotel", "Gym facilities aren't mentioned in the material I was given."),
    ("bank", "Joint accounts are not covered anywhere in these sources."),
    ("hr", "Parental leave isn't specified in the context."),
    ("software", "Windows ARM support isn't listed in the docs."),
    ("clinic", "The provided passages don't say anything about vaccinations."),
    ("hotel", "None of the documents mention a gym."),
    ("bank", "Nothing in the texts addresses joint accounts."),
    ("hr", "Sorry, nothing here covers parental leave."),
    ("software", "Hmm, not sure - nothing here covers it."),
    ("clinic", "Not sure, I'm afraid; that isn't covered here."),
    ("hotel", "The excerpts I have don't go into leisure facilities."),
    ("bank", "That detail isn't provided in the excerpts."),
    ("hr", "It's not included in the documentation I can see."),
]
REFERRAL_ONLY = [  # a pure referral: the whole answer, no claim
    ("clinic", "Please contact the reception team for help with that."),
    ("hotel", "You'll need to reach out to the front desk."),
    ("bank", "Our customer service team can help with that."),
    ("hr", "You will have to ask your HR business partner."),
    ("software", "The support desk will be happy to assist."),
    ("hotel", "The concierge would be glad to help you with that."),
    ("bank", "You should get in touch with your branch."),
    ("clinic", "Your GP can advise on that."),
]
SCOPE = [  # what the sources or the assistant cover
    ("clinic", "The documents only cover opening hours and repeat prescriptions, not "
               "vaccinations."),
    ("hotel", "The passages I have are only about check-in times and breakfast."),
    ("bank", "Sorry, I can only answer questions about transfers and card limits."),
    ("hr", "I'm only able to help with queries on annual leave and expenses."),
    ("software", "The docs mainly cover configuration and logging."),
    ("hr", "Unfortunately I can only answer questions related to leave and expenses."),
]
FIRST_PERSON = [  # first-person and "no mention" declines (kept from round 3, more words)
    ("clinic", "I'm not able to find that in the documents I have."),
    ("hotel", "I couldn't find anything about a gym."),
    ("bank", "There's no mention of joint accounts."),
    ("hr", "I'm afraid I don't know."),
    ("software", "No details on that are given."),
    ("clinic", "Unfortunately, that's not something I can answer from these documents."),
    ("bank", "I don't have access to that information."),
]


@pytest.mark.parametrize(("domain", "answer"), ABSENCE + REFERRAL_ONLY + SCOPE + FIRST_PERSON)
def test_a_decline_in_other_words_is_abstained_on(an: Analyzer, domain: str,
                                                  answer: str) -> None:
    ev = _ev(an, domain, answer)
    assert ev.abstains and not flagged(ev), ev


@pytest.mark.parametrize(("domain", "answer"), [
    # claims about the world, not about the sources
    ("hotel", "The warranty does not cover water damage."),
    ("bank", "Joint accounts are not available to customers under 18."),
    ("hr", "Parental leave isn't included in the annual leave allowance."),
    ("clinic", "Travel vaccinations aren't provided at weekends."),
    # a referral carrying a figure no context has
    ("hotel", "Contact the front desk to get a late check-out for 25 EUR."),
    ("bank", "Our support team can help you open one for a 10 EUR fee."),
    ("clinic", "Please call the nurse line on 0161 555 0134 for vaccinations."),
    # a referral carrying a condition or a reason advises: a claim
    ("clinic", "Please ask the nurse before your visit if you are pregnant, because "
               "some travel vaccines are not given in pregnancy."),
    ("software", "Check with your IT admin before upgrading, since ARM builds break the "
                 "plugin loader."),
    # a statement about a service, a policy or a plan
    ("software", "Support is available 24/7."),
    ("hr", "The policy only covers employees with 12 months of service."),
    ("bank", "The Premier plan only covers travel insurance, not phone insurance."),
])
def test_a_claim_near_a_decline_is_still_judged(an: Analyzer, domain: str,
                                                answer: str) -> None:
    ev = _ev(an, domain, answer)
    assert not ev.abstains and flagged(ev), ev


@pytest.mark.parametrize(("rule", "text", "expected"), [
    # scope declines name the sources or the assistant
    (declines_by_scope, "The sources only cover pricing, not delivery.", True),
    (declines_by_scope, "We can only answer questions about your booking.", True),
    (declines_by_scope, "The Gold plan only covers dental care.", False),
    (declines_by_scope, "We only deliver to UK addresses.", False),
    (declines_by_scope, "We can only help customers who booked directly.", False),
    # what the sources cover is told from a claim (round 3)
    (is_source_scope, "They only cover flights, not hotels.", True),
    (is_source_scope, "The handbook I have is about payroll.", True),
    (is_source_scope, "These guidelines mostly relate to dosing in adults.", True),
    # a plain statement about a policy, a plan or a product is a claim
    (is_source_scope, "The policy covers theft and fire.", False),
    (is_source_scope, "It covers theft and fire.", False),
    (is_source_scope, "The Gold plan only covers dental care.", False),
    # referral grammar
    (is_referral, "Our support team can help with that.", True),
    (is_referral, "The help desk should be able to assist.", True),
    (is_referral, "You'll need to reach out to the front desk.", True),
    (is_referral, "Support is available 24/7.", False),
    (is_referral, "The team launched the app in 2021.", False),
    # referrals in more forms (round 3)
    (is_referral, "I'd check the club's noticeboard.", True),
    (is_referral, "Your pharmacist would be the best person to ask.", True),
    (is_referral, "You'd be better off asking the registrar.", True),
])
def test_decline_grammar(rule: Callable[[str], bool], text: str, expected: bool) -> None:
    assert rule(text) is expected


def test_the_warranty_sentence_is_not_noncommittal() -> None:
    assert not is_noncommittal("The warranty does not cover water damage.")
    assert not is_noncommittal("Breakfast isn't included in the room rate.")


EXPLAINED = [  # a decline that names the sources, then what they cover and whom to ask
    ("hotel", "I couldn't find anything about a gym in the information I have. The "
              "documents cover check-in times and breakfast; the front desk should be able "
              "to tell you about other facilities."),
    ("bank", "I'm afraid the information I have doesn't mention joint accounts. It covers "
             "transfers between your own accounts and card withdrawal limits. For account "
             "opening, please contact your branch directly."),
    ("hr", "That's not something I can find in the documents I have; they cover annual "
           "leave and expense claims. Your HR partner will be able to tell you."),
    ("software", "Hmm, I can't see anything about Windows ARM in the docs, sorry! I can help "
                 "with configuration and logging, or you can give the support team a shout."),
    ("clinic", "Good question! Unfortunately, vaccinations aren't covered in the information "
               "I have. Please pop into the surgery or call us and the nurses can advise."),
    ("clinic", "I can't find anything on vaccinations in the clinic's documents; they cover "
               "opening hours and repeat prescriptions. The reception team will know."),
]


@pytest.mark.parametrize(("domain", "answer"), EXPLAINED)
def test_a_decline_that_explains_what_the_sources_cover_is_abstained_on(
        an: Analyzer, domain: str, answer: str) -> None:
    """Session 6 (trial 52's declines, in other words): "It covers ..." / "they cover
    ..." / "The documents cover ..." after a decline that names the sources is about
    them; "For X, please contact ...", "give the team a ring", "pop into", "... will
    know" send the user elsewhere; "Good question!" is filler."""
    ev = _ev(an, domain, answer)
    assert ev.abstains and not flagged(ev), ev


@pytest.mark.parametrize(("domain", "answer"), [
    # "it" after a decline that names no source is what the answer is about: a claim
    ("hotel", "I'm not sure about the gym. It covers the whole top floor and opens at 5 am."),
    # a figure no context has stays a claim beside a decline that names the sources
    ("bank", "The documents don't mention joint accounts. It covers fraud protection for "
             "3 EUR a month."),
    # a referral that offers something the contexts lack
    ("software", "Please pop into our office for a free 30-minute demo."),
])
def test_a_claim_beside_an_explained_decline_is_still_judged(
        an: Analyzer, domain: str, answer: str) -> None:
    ev = _ev(an, domain, answer)
    assert not ev.abstains and flagged(ev), ev


@pytest.mark.parametrize(("text", "beside", "expected"), [
    ("It covers theft and fire.", False, False),
    ("It covers theft and fire.", True, True),
    ("They cover pricing and delivery.", True, True),
    ("The documents cover pricing and delivery.", True, True),
    ("The policy covers theft and fire.", True, False),
    ("The Gold plan covers dental care.", True, False),
])
def test_scope_beside_a_decline(text: str, beside: bool, expected: bool) -> None:
    assert is_source_scope(text, beside=beside) is expected


@pytest.mark.parametrize(("text", "expected"), [
    ("For joint accounts, please contact your branch.", True),
    ("Please pop into the branch.", True),
    ("You can give the support team a ring.", True),
    ("Drop us a line any time.", True),
    ("The reception team will know.", True),
    ("For breakfast, the lobby restaurant serves until 10.30 am.", False),
])
def test_referral_forms(text: str, expected: bool) -> None:
    assert is_referral(text) is expected
