"""Session 11 of issue #38: negation flips in the context's own words the offline judge
missed.

- "not gluten-free" against "gluten-free": the negation is of the same word, a flip
  ("-free" alone is a privative, as "non-slip" is);
- a unit that restates the claim with its polarity turned outweighs a fragment the
  claim merely contains ("Opened jars" of "Opened jars and bottles cannot be returned");
- an opening "Unfortunately," is the speaker's attitude, no word of the claim;
- a day of the week is no name a later clause is about ("We open Monday to Friday and
  we also open on Sundays");
- "between 9 and 11am" is one range, not two clauses.
Each in other words and domains than the probes."""

from __future__ import annotations

import pytest

from ragassay.judge.offline import Analyzer
from ragassay.judge.offline.clauses import clause_parts, part
from tests.support.offline import assert_judged


@pytest.mark.parametrize(("contexts", "answer", "flags"), [
    (["Our pastries are not gluten-free: we bake with wheat flour in the same oven."],
     "Yes, our pastries are gluten-free.", True),
    (["Our pastries are gluten-free."], "Yes, our pastries are gluten-free.", False),
    (["The decking is slip-resistant."], "The decking is non-slip.", False),
])
def test_a_negated_privative_is_a_flip(an: Analyzer, contexts: list[str], answer: str,
                                      flags: bool) -> None:
    assert_judged(an, contexts, answer, flags=flags)


def test_a_turned_restatement_outweighs_a_contained_fragment(an: Analyzer) -> None:
    contexts = ["Opened paint tins and used brushes cannot be returned for safety "
                "reasons. Unopened tins can be returned within 14 days."]
    assert_judged(an, contexts, "Yes, opened paint tins can be returned within 14 days.",
                  flags=True)
    assert_judged(an, contexts, "Unopened tins can be returned within 14 days.",
                  flags=False)


@pytest.mark.parametrize("opener", ["Unfortunately", "Sadly", "Luckily"])
def test_an_attitude_opener_is_no_word_of_the_claim(opener: str) -> None:
    assert not part(f"{opener}, the studio is not step-free.").words & {
        "unfor", "sadly", "lucki"}


def test_a_flip_after_an_attitude_opener_is_flagged(an: Analyzer) -> None:
    contexts = ["The gallery is on one level and is fully step-free."]
    assert_judged(an, contexts, "Unfortunately the gallery is not step-free.", flags=True)


def test_days_are_no_names_a_later_clause_is_about(an: Analyzer) -> None:
    contexts = ["The bakery opens Monday to Friday. It does not open on Sundays."]
    assert_judged(an, contexts,
                  "Yes, the bakery opens Monday to Friday and it also opens on Sundays.",
                  flags=True)


def test_between_two_figures_is_one_range() -> None:
    texts = [p.text for p in clause_parts("Drop in between 2 and 4pm for a fitting, which "
                                          "costs £5.")]
    assert any("between 2 and 4" in t for t in texts), texts


@pytest.mark.parametrize(("contexts", "answer"), [
    # a negation and an antonym: the same fact
    (["The pool is closed on Mondays and bank holidays."],
     "On Mondays and bank holidays the pool does not open."),
    (["The museum is open on Sundays."], "The museum is not closed on Sundays."),
])
def test_a_negated_antonym_agrees(an: Analyzer, contexts: list[str], answer: str) -> None:
    assert_judged(an, contexts, answer, flags=False)


@pytest.mark.parametrize(("contexts", "answer"), [
    # too loose to restate the claim, but its subject and predicate, turned
    (["Dogs are allowed in the downstairs bar for a £5 cleaning fee."],
     "Dogs are not allowed in the pub's bar."),
    (["The deposit is refundable in full if you cancel before the first fitting."],
     "No, the deposit is non-refundable, even if you cancel before the first fitting."),
    (["Our engineers can service electric boilers using a specialist meter."],
     "Electric boilers can't be serviced by our engineers, I'm afraid."),
])
def test_a_turned_loose_restatement_is_a_flip(an: Analyzer, contexts: list[str],
                                              answer: str) -> None:
    assert_judged(an, contexts, answer, flags=True, kind="negation")


@pytest.mark.parametrize(("contexts", "answer"), [
    # a unit as close says it the claim's way
    (["Dogs are not allowed in the restaurant. Dogs are allowed in the downstairs bar."],
     "Dogs are not allowed in the restaurant."),
    # a condition: "if" against "unless" says the same
    (["Deposits are not refunded unless the booking is cancelled a week ahead."],
     "Deposits are refunded if the booking is cancelled a week ahead."),
    # a negation of no verb ("costs nothing") is not set against a unit by it alone
    (["Delivery is free for orders over £20; below that a £2.50 fee applies."],
     "Delivery costs nothing on orders above £20."),
])
def test_a_claim_with_its_unit_polarity_is_not_flagged(
        an: Analyzer, contexts: list[str], answer: str) -> None:
    assert_judged(an, contexts, answer, flags=False)


@pytest.mark.parametrize(("contexts", "answer", "flags"), [
    # "even if C" against the unit's exception "unless C": the exception denied
    (["Late returns are fined 50p a day, unless you have a medical certificate."],
     "Late returns are fined 50p a day, even if you have a medical certificate.", True),
    # "not X even with C" against "X if C": the condition's outcome turned
    (["Guests may bring their own wine if they pay a corkage fee."],
     "Guests may not bring their own wine, even if they pay a corkage fee.", True),
    # "X even if C" against "X if C": no conflict
    (["Guests may bring their own wine if they pay a corkage fee."],
     "Guests may bring their own wine, even if they pay a corkage fee.", False),
    # the unit says "even" too
    (["Late returns are fined 50p a day, even if you have a medical certificate."],
     "Late returns are fined 50p a day, even if you have a medical certificate.", False),
])
def test_even_if_is_read_against_the_units_exception(
        an: Analyzer, contexts: list[str], answer: str, flags: bool) -> None:
    assert_judged(an, contexts, answer, flags=flags)
