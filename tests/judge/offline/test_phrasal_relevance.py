"""Issue #38 item 8: question-context relevance reads an acronym as its expansion and
a common phrasal verb as its one-word equal ("How do I turn on 2FA?" against "2FA can
be enabled ..." read 0.03 before), while an unrelated question stays low."""

from __future__ import annotations

import pytest

from ragassay.judge.offline import Analyzer
from ragassay.judge.offline.phrasal import phrasal_verbs, plain_verbs
from ragassay.types import Sample


def _relevance(an: Analyzer, question: str, doc: str) -> float:
    ev = an.analyze(Sample(id="r", question=question, contexts=(doc,), answer="?"))
    return max(ev.relevance)


RELATED = [
    ("How do I turn on 2FA?", "2FA can be enabled under Settings > Security."),
    ("How do I turn on 2FA?", "Two-factor authentication can be enabled under Settings > "
                              "Security."),
    ("How do I enable two-factor authentication?", "2FA can be turned on from the "
                                                   "Security page."),
    ("How do I set up MFA for my team?", "Multi-factor authentication is configured for "
                                         "a team in the admin console."),
    ("Where do I set up SSO?", "Single sign-on is configured by an administrator under "
                               "Settings."),
    ("How do I sign up for the newsletter?", "You can register for the newsletter on the "
                                             "home page."),
    ("How do I switch off notifications?", "Notifications can be disabled in your "
                                           "profile."),
    ("Can I turn on dark mode?", "Dark mode can be enabled in the Appearance settings."),
    ("How much PTO do I get?", "Full-time staff receive 25 days of paid time off per year."),
]
UNRELATED = [
    ("How do I turn on 2FA?", "The cafeteria serves lunch from noon until 2 pm."),
    ("How do I set up MFA for my team?", "Invoices are emailed on the first day of each "
                                         "month."),
    ("How do I sign up for the newsletter?", "Parking permits are issued by the council."),
]


@pytest.mark.parametrize(("question", "doc"), RELATED)
def test_an_acronym_or_a_phrasal_verb_still_finds_its_passage(
        an: Analyzer, question: str, doc: str) -> None:
    assert _relevance(an, question, doc) > 0.5


def test_related_pairs_stand_well_above_unrelated_ones(an: Analyzer) -> None:
    low = max(_relevance(an, q, d) for q, d in UNRELATED)
    assert low < 0.1
    assert min(_relevance(an, q, d) for q, d in RELATED) > low + 0.4


def test_phrasal_verbs_are_read_as_one_word() -> None:
    assert plain_verbs("How do I turn on 2FA?") == "How do I enable 2FA?"
    assert plain_verbs("Switch it off, then set up the printer.") == (
        "disable, then configure the printer.")
    assert phrasal_verbs("2FA can be turned on under Settings.") == (("turn", "enable"),)
    # a noun in a compound stays ("sign-on"), a verb without its particle too, and "in"
    # or "on" before a name or a number is a preposition
    for text in ("Single sign-on; turn left.", "Which treaty was signed in March 1918?",
                 "She logged on the 3rd of May."):
        assert plain_verbs(text) == text
