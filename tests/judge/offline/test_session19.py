"""Session 19: a determiner "no" denies the last word of its noun phrase too
(clauses._reaches, polarity.polarity's `phrases`), and two short passages side by side are
parallel slots (parallel.SHORT_PASSAGE). Cases in words of our own, none from a probe
batch; review 19's regressions of the first version (every word of the phrase, and
"rather than" / "instead of" as negations, withdrawn) are kept as guards."""

from __future__ import annotations

import pytest

from ragassay.judge.offline import Analyzer
from ragassay.judge.offline.clauses import part
from ragassay.judge.offline.lexical import antonyms_in
from ragassay.judge.offline.polarity import polarity
from tests.support.offline import judged
from tests.support.offline import known_limit as _xf


def test_a_no_phrase_reaches_every_word_of_it() -> None:
    p = part("No boating licence is required to hire a boat.")
    assert p.negations == ("boati",)
    assert p.reaches == (frozenset({"boati", "licen"}),)


def test_a_verb_negation_reaches_its_head_only() -> None:
    p = part("You don't need a licence to hire a boat.")
    assert p.negations == ("licen",)
    assert p.reaches == (frozenset({"licen"}),)


@pytest.mark.parametrize(("context", "answer", "flags"), [
    # a "no" before a noun phrase and a claim naming its last word (flagged before)
    ("No boating licence is required to hire a boat.",
     "You don't need a licence to hire a boat.", False),
    ("No entry ticket is needed for the gardens.", "You don't need a ticket for the gardens.",
     False),
    ("No entry ticket is needed for the gardens.", "A ticket isn't needed for the gardens.",
     False),
    ("No booking fee is charged for the first visit.", "There is no fee for the first visit.",
     False),
    # ... and the flips, read now (passed before)
    ("No entry ticket is needed for the gardens.", "You need a ticket for the gardens.", True),
    ("No boating licence is required to hire a boat.",
     "You must have a licence to hire a boat.", True),
])
def test_a_no_phrase_is_denied_as_a_whole(an: Analyzer, context: str, answer: str,
                                          flags: bool) -> None:
    assert judged(an, [context], answer) is flags


def test_a_no_phrase_of_another_subject_turns_nothing() -> None:
    """The reach is read only against a unit restating the claim (`unit_flip`): read
    everywhere, the Gold card's "annual fee" turned the Classic card's "no yearly fee ...
    every pound" into an exception of its "every" (dev A092)."""
    claim = part("With the Classic card you pay no yearly fee")
    gold = part("The Gold card has an annual fee of £95")
    assert polarity(claim, gold) is None
    assert polarity(claim, gold, phrases=True) == "negation"


@pytest.mark.parametrize(("context", "answer", "flags"), [
    # review 19, part 1: a "no-" compound is one word; the phrase's inner words and a last
    # word the sentence states again are not denied
    ("A £20 fee is charged for no-show appointments at the clinic.",
     "The clinic charges a £20 fee if you miss one of your appointments.", False),
    ("Protecting your no-claims discount costs £30 a year.",
     "Discount protection costs £30 a year.", False),
    ("There is no late checkout on bank holidays, when checkout is at 10am.",
     "Checkout on bank holidays is at 10am.", False),
    ("There is no weekend group discount and tours are not refundable.",
     "Group tours are refundable.", True),
    ("No photo ID is needed to collect a parcel, only the collection code.",
     "You need ID to collect a parcel.", True),
])
def test_review19_no_phrase_guards(an: Analyzer, context: str, answer: str,
                                   flags: bool) -> None:
    assert judged(an, [context], answer) is flags


@pytest.mark.parametrize(("context", "answer"), [
    # review 19, part 2 (withdrawn): "rather than" / "instead of" read as a negation turned
    # these faithful answers (passed before and now)
    ("Prices are per room rather than per person.", "Prices are per room."),
    ("With Express, delivery takes 2 days instead of the standard 5 days.",
     "Standard delivery takes 5 days."),
    ("You can top up your card online or at any ticket machine.",
     "You can top up online rather than at a ticket machine."),
    ("Helmets are recommended rather than required on the trail.",
     "Helmets are recommended on the trail."),
])
def test_review19_rather_than_is_no_negation(an: Analyzer, context: str, answer: str) -> None:
    assert not judged(an, [context], answer)


@_xf("an exception inside a 'no' phrase ('No dogs except guide dogs') is not read")
def test_an_exception_inside_a_no_phrase(an: Analyzer) -> None:
    assert not judged(an, ["No dogs except guide dogs are allowed in the cabins."],
                      "Guide dogs are allowed in the cabins.")


# --- two short passages side by side are parallel slots (parallel._parallel, SHORT_PASSAGE):
# a claim giving one passage's thing what the next passage says of another is a swap
# (passed before: only sentences of one passage were paired)
WASH = ["Our basic wash costs £8 and includes a rinse, a hand dry and a tyre shine.",
        "Our premium valet costs £25 and includes a wax, an interior vacuum and a leather clean."]


@pytest.mark.parametrize(("answer", "flags"), [
    ("The basic wash includes an interior vacuum.", True),
    ("The premium valet includes an interior vacuum.", False),
    ("The basic wash includes a tyre shine.", False),
])
def test_two_short_passages_are_two_slots(an: Analyzer, answer: str, flags: bool) -> None:
    assert judged(an, WASH, answer) is flags


@_xf("a passage of more than SHORT_PASSAGE sentences pairs with no other passage (the dev "
     "sets' web text: long passages side by side are no two slots)")
def test_a_longer_passage_pairs_with_no_other(an: Analyzer) -> None:
    longer = [WASH[0] + " It takes about 15 minutes. You can book online.", WASH[1]]
    assert judged(an, longer, "The basic wash includes an interior vacuum.")


# --- a word's antonym by a negating prefix is read from the other side's whole tokens
# (lexical.antonyms_in): antonym_stems' 5-letter stems made "club" the "in-club" of
# "include" and "form" the "in-form" of "information" (a faithful claim flagged, and a
# real negation cancelled by the false antonym)
@pytest.mark.parametrize(("context", "answer", "flags"), [
    ("Taster sessions include the loan of a racket, balls and shoes.",
     "During the taster session the club lends you a racket, balls and shoes.", False),
    ("Taster sessions include a racket and balls.",
     "At the taster session the club provides a racket and balls.", False),
    ("The information pack covers your contact details and your medical history.",
     "The form covers your contact details and your medical history.", False),
    ("The taster session includes a racket.",
     "The club does not include a racket at the taster session.", True),
    # prefixed antonyms whole-word are still read
    ("Parking is limited for residents.", "Parking is unlimited for residents.", True),
    ("Tickets are unavailable online.", "Tickets are available online.", True),
    ("The route is inaccessible by wheelchair.", "The route is accessible by wheelchair.",
     True),
])
def test_a_prefixed_antonym_is_a_whole_word(an: Analyzer, context: str, answer: str,
                                            flags: bool) -> None:
    assert judged(an, [context], answer) is flags


def test_antonyms_in_needs_the_whole_prefixed_word() -> None:
    stems = frozenset({"inclu", "unlim", "limit"})
    assert antonyms_in("club", stems, ["include"]) == frozenset()
    assert antonyms_in("limited", stems, ["unlimited"]) == frozenset({"unlim"})
    assert antonyms_in("unlimited", stems, ["limited"]) == frozenset({"limit"})


@pytest.mark.parametrize(("context", "answer", "flags"), [
    # review 19b: the first antonyms_in took only exact prefixed tokens and lost these
    # flips; the other side's token less its prefix is compared by its root now
    ("Monthly SIM-only plans come with a 20GB data limit.",
     "Monthly SIM-only plans come with unlimited data.", True),
    ("Eligibility for free returns extends to customers outside the UK.",
     "Customers outside the UK are ineligible for free returns.", True),
    ("Parking is unavailable at the venue during home matches.",
     "Parking availability at the venue is guaranteed during home matches.", True),
    ("Items can be returned only if unopened.", "Items can be returned after opening.", True),
    # ... and review 19b's "no" phrases: the run ends before a participle, and a word the
    # sentence states twice (in another clause too) is not denied
    ("Walk-ins are welcome with no appointment required, but please bring photo ID.",
     "Photo ID is required for walk-ins.", False),
    ("Members pay no joining fee, and the monthly fee is £30.",
     "Members pay a monthly fee of £30.", False),
    ("No hotel shuttle service runs after midnight.", "A shuttle service runs after midnight.",
     True),
])
def test_review19b_guards(an: Analyzer, context: str, answer: str, flags: bool) -> None:
    assert judged(an, [context], answer) is flags


@pytest.mark.parametrize(("context", "answer", "flags"), [
    # review 19c: a unit's "no" phrase reaches its last word only against a claim that
    # says something exists, is had or is needed (polarity._has)
    ("There is no evening bus service, so the last bus leaves the park at 6pm.",
     "The bus service's last departure from the park is at 6pm.", False),
    ("There is no free parking at the station; the car park charges £5 a day.",
     "Parking at the station costs £5 a day.", False),
    ("Hotel guests get no late checkout on the Saver rate. Checkout is at 11am.",
     "Checkout on the Saver rate is at 11am.", False),
    ("We have no reserved seating at this venue; seats are first come, first served.",
     "Seating at this venue is first come, first served.", False),
    # ... and a prefixed antonym's root drops a final "e" ("guide" / "unguided")
    ("Every coastal walk is led by a qualified guide.", "The coastal walk is unguided.", True),
    ("The garage at the holiday cottage is unheated.",
     "The garage at the holiday cottage has a heater.", True),
    ("All prints in our online shop are sold unframed.",
     "All prints in our online shop are sold with a frame.", True),
])
def test_review19c_guards(an: Analyzer, context: str, answer: str, flags: bool) -> None:
    assert judged(an, [context], answer) is flags


@pytest.mark.parametrize(("context", "answer", "flags"), [
    # review 19d: a "no" phrase's last word another sentence of the passage states is not
    # denied (polarity._stated_apart) ...
    ("We offer no express delivery to Northern Ireland. Standard delivery to Northern "
     "Ireland takes 5 days.", "We offer delivery to Northern Ireland, which takes 5 days.",
     False),
    ("There is no hot breakfast on Sundays. A continental breakfast is served from 8am "
     "every day.", "There is breakfast on Sundays from 8am.", False),
    # ... and a prefixed antonym's root is read down to three letters ("undated" / "date")
    ("All receipts from the market stalls are undated.",
     "All receipts from the market stalls show a date.", True),
    ("The survey responses are stored unnamed.",
     "The survey responses are stored with a name.", True),
])
def test_review19d_guards(an: Analyzer, context: str, answer: str, flags: bool) -> None:
    assert judged(an, [context], answer) is flags
