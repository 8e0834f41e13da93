"""Session 20: a claim asserting of one item what a context sentence denies of its list
(listed.listed_denial), a sentence opening "It" / "They" reading the subject of the one
before it (units.Units._referred), and a unit stating the whole claim with its polarity
turned outweighing one that leaves a word of it unstated (alignment.judge_part). Cases in
words of our own, none from a probe batch."""

from __future__ import annotations

import pytest

from ragassay.judge.offline import Analyzer
from ragassay.judge.offline.clauses import clause_parts, part
from ragassay.judge.offline.listed import _denial, _item
from tests.support.offline import judged

_KENNELS = "We cannot take puppies, unvaccinated dogs, cats or rabbits."
_RETURNS = ("Sale items and gift cards cannot be exchanged unless they arrive damaged.")


@pytest.mark.parametrize(("contexts", "answer", "flags"), [
    # one item of a denied list of objects, asserted (passed before)
    ([_KENNELS, "Every stay includes two walks a day."],
     "Yes, we can take puppies, and every stay includes two walks a day.", True),
    # one item of a denied list of subjects, asserted beside a general rule (passed before)
    (["You can exchange most items within 28 days.", _RETURNS],
     "Sale items can be exchanged within 28 days.", True),
    # ... the item denied, or the exception's words said: no conflict
    ([_KENNELS], "No, we can't take rabbits.", False),
    (["You can exchange most items within 28 days.", _RETURNS],
     "Sale items can be exchanged if they arrive damaged.", False),
    # ... a subject of its own, not the denial's "we"
    ([_KENNELS + " Our partner cattery can take cats."], "Our partner cattery can take cats.",
     False),
    # review 20's regressions of the first version, kept as guards: a phrase closing the
    # list bounds every item; a word of the claim's subject is no verb of it
    (["We don't sell tickets, programmes or merchandise at the gate. Tickets are sold "
      "through our website until midnight before each match."],
     "Yes, we sell tickets through our website until midnight before the match.", False),
    (["Our standard home policy does not cover flood, subsidence or storm damage. Flood "
      "cover can be added to the standard home policy for £4 a month."],
     "Yes, flood cover can be added to the standard home policy for £4 a month.", False),
    # ... and the bound said: the flip is read
    (["We don't sell tickets, programmes or merchandise at the gate."],
     "You can buy programmes at the gate, and we sell tickets at the gate too.", True),
    # items told apart by a figure only are no items ("Courts 5 and 6")
    (["Courts 1 to 4 have floodlights. Courts 5 and 6 are not floodlit."],
     "Courts 1 to 4 have floodlights.", False),
])
def test_a_denied_list_item(an: Analyzer, contexts: list[str], answer: str,
                            flags: bool) -> None:
    assert judged(an, contexts, answer) is flags


@pytest.mark.parametrize(("contexts", "answer", "flags"), [
    # "It" stands for the previous sentence's subject (passed before)
    (["The starter kit costs £40 and includes a mat and two blocks. It does not include "
      "a strap."], "Yes, the starter kit includes a strap, along with a mat and two blocks.",
     True),
    (["The starter kit costs £40 and includes a mat and two blocks. It does not include "
      "a strap."], "The starter kit includes a mat and two blocks but no strap.", False),
    # an expletive "It is" takes nothing
    (["The starter kit costs £40. It is best to order it a week ahead."],
     "The starter kit costs £40.", False),
])
def test_a_pronoun_sentence_reads_its_referent(an: Analyzer, contexts: list[str],
                                               answer: str, flags: bool) -> None:
    assert judged(an, contexts, answer) is flags


@pytest.mark.parametrize(("contexts", "answer", "flags"), [
    # the whole claim turned outweighs a unit that leaves "Trail" unstated (passed before)
    (["Our Road bike is light and suitable for commuting. The Trail bike is heavy and is "
      "not suitable for commuting."], "The Trail bike is suitable for commuting.", True),
    (["Our Road bike is light and suitable for commuting. The Trail bike is heavy and is "
      "not suitable for commuting."], "The Road bike is suitable for commuting.", False),
    # a unit stating the whole claim agrees: it is not outweighed
    (["Dogs are not allowed inside the restaurant. Dogs are allowed on the terrace."],
     "Dogs are allowed on the terrace.", False),
])
def test_a_whole_claim_turned_outweighs_a_partial_agreement(
        an: Analyzer, contexts: list[str], answer: str, flags: bool) -> None:
    assert judged(an, contexts, answer) is flags


def test_a_denial_of_a_list_is_read_once_per_sentence() -> None:
    """`listed._denial`: the main part cut before its exception, the denied verb, each
    side's items, and a phrase closing a list of objects cut from its last item."""
    d = _denial("We don't sell tickets, programmes or merchandise at the gate.")
    assert d is not None
    assert (d.verb, d.subjects, d.objects, d.bound) == (
        "sell", ("We ",), (" tickets", "programmes", "merchandise"), " at the gate")
    d = _denial(_RETURNS)
    assert d is not None and d.verb == "exchanged" and d.rest == frozenset({"arriv", "damag"})
    assert d.subjects == ("Sale items", "gift cards ") and d.bound is None
    assert _denial("You can exchange most items within 28 days.") is None  # no negation


@pytest.mark.parametrize(("claim", "one"), [
    ("We can take puppies.", True),
    ("We can take puppies and cats.", False),  # two items named: left to other checks
    ("We can take dogs.", False),  # a word of an item only
])
def test_one_item_named(claim: str, one: bool) -> None:
    items = ("puppies", "unvaccinated dogs", "cats", "rabbits")
    assert _item(items, part(claim).words) is one


def test_a_single_is_one() -> None:
    """"fail a single X" denies what "fail one X" does: its head is X, not "single" (the
    two heads differed, and a faithful claim was a flip, dev Q022)."""
    assert part("If you fail a single module you can resit it once.").negations == ("modul",)
    assert part("Students who fail one module may resit it once.").negations == ("modul",)


@pytest.mark.parametrize(("context", "answer"), [
    ("Students who fail one module may resit it once within a month.",
     "If you fail a single module, you can resit it once within a month."),
])
def test_a_single_restates_one(an: Analyzer, context: str, answer: str) -> None:
    assert judged(an, [context], answer) is False


@pytest.mark.parametrize(("text", "pieces"), [
    # a verbless "No ..." opening a list stays with its verb (cut before: "No card
    # details" | "phone numbers or home addresses are stored")
    ("No card details, phone numbers or home addresses are stored on the app.", 1),
    ("No pets, smoking or parties are allowed in the cottage.", 1),
    # a "No" with a verb of its own, or cut by a dash, is a clause
    ("No, you cannot bring pets, and smoking is banned.", 2),
])
def test_a_verbless_no_opens_a_list(text: str, pieces: int) -> None:
    assert len(clause_parts(text)) == pieces


@pytest.mark.parametrize(("answer", "flags"), [
    # the rival slot's subject with the home's figure (passed before: "tickets cost" is
    # the home's too)
    ("Tickets for children under 10 cost 14 EUR.", True),
    # ... the home's own subject, or both slots said: no move
    ("Adult tickets cost 14 EUR.", False),
    ("Adults pay 14 EUR and children under 10 pay 7 EUR.", False),
])
def test_a_figure_moved_to_the_other_subject(an: Analyzer, answer: str, flags: bool) -> None:
    context = "Children under 10 pay 7 EUR; adult tickets cost 14 EUR."
    assert judged(an, [context], answer) is flags


@pytest.mark.parametrize(("context", "answer", "flags"), [
    # review 20b's regressions of the first version, kept as guards: "single" as a kind
    # of room is no "one"
    ("Room 4 is not a single; it sleeps two guests in a double bed.",
     "Yes, room 4 isn't a single room - it sleeps two guests in a double bed.", False),
    # ... and an answer's "No" or "I'm afraid" is no word of the topic: a claim, false
    ("The rental price includes insurance, unlimited mileage and a second driver.",
     "A second driver isn't included, I'm afraid.", True),
    ("The course fee covers all materials and the exam.", "No, the exam isn't covered.", True),
])
def test_review20b_guards(an: Analyzer, context: str, answer: str, flags: bool) -> None:
    assert judged(an, [context], answer) is flags
