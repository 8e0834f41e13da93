"""Session 21: a decline after what the sources list ("The timetable lists yoga and
pilates, but says nothing about spin"), a negated need or light verb bearing on its
object ("do not need a GP referral" as "No referral is needed"), a word set aside by
"rather than" / "instead of" as a negation of it, "4 of whom" counting no word before it,
a clause of a verb of when ("and closes at 4:30 pm") taking its sentence's subject, and
"anyone under 16" as a restricted universal. Cases in words of our own, none from a
probe batch."""

from __future__ import annotations

import pytest

from ragassay.judge.offline import Analyzer
from ragassay.judge.offline.clauses import clause_parts, part
from ragassay.judge.offline.counts import figures
from ragassay.judge.offline.polarity import privative
from ragassay.judge.offline.sentences import token_view
from ragassay.judge.offline.subjects import taken
from ragassay.types import Sample
from tests.support.offline import flagged, judged, known_limit

_PRESCRIPTION = "You do not need a doctor's prescription for the flu jab."
_LOCKER = "You don't need a security deposit to hire a locker."


@pytest.mark.parametrize(("contexts", "answer", "flags"), [
    # the need denied either way round agrees (flagged before)
    ([_PRESCRIPTION], "No prescription is needed for the flu jab.", False),
    ([_LOCKER], "No deposit is required.", False),
    # ... and a need asserted against it still turns
    ([_PRESCRIPTION], "A prescription is needed for the flu jab.", True),
    ([_PRESCRIPTION.replace("do not", "don't")], "You need a prescription for the flu jab.",
     True),
    ([_LOCKER], "A security deposit is required to hire a locker.", True),
    # a light verb's object ("can't make the climb") against "unable to climb"
    (["Visitors unable to climb can watch a live feed from the bell chamber."],
     "If you can't make the climb, you can watch a live feed from the bell chamber.", False),
    (["Guests can take the shuttle to the airport for free."],
     "You can't take the shuttle to the airport.", True),
])
def test_a_negated_need_bears_on_its_object(an: Analyzer, contexts: list[str], answer: str,
                                            flags: bool) -> None:
    assert judged(an, contexts, answer) is flags


def test_the_reach_of_a_negated_need() -> None:
    assert part(_PRESCRIPTION).reaches == (frozenset({"docto", "presc"}),)
    assert part("You do not require a valid passport.").reaches == (
        frozenset({"need", "passp"}),)
    # no determiner, no noun phrase: the head alone
    assert part("Bookings do not need to be made in advance.").reaches[0] == frozenset(
        part("Bookings do not need to be made in advance.").negations)


_HELMETS = "We ask riders to wear a helmet; this is recommended rather than compulsory."


@pytest.mark.parametrize(("contexts", "answer", "flags"), [
    # the word "rather than" sets aside, denied by the claim (flagged before)
    ([_HELMETS], "Helmets are recommended but not compulsory.", False),
    (["Payment is by card rather than cash."], "Payment is taken by card, not cash.", False),
    (["Refunds are issued as store credit instead of cash."],
     "Refunds are given as store credit, not as cash.", False),
    # ... a claim denying the word the sentence keeps still turns
    (["Booking is required rather than optional."], "Booking is not required.", True),
])
def test_rather_than_as_a_negation(an: Analyzer, contexts: list[str], answer: str,
                                   flags: bool) -> None:
    assert judged(an, contexts, answer) is flags


def test_rather_than_only_cancels() -> None:
    assert privative(part(_HELMETS)) == frozenset({"need"})  # ("compulsory": a need)
    assert privative(part("Payment is by card rather than cash.")) == frozenset({"cash"})
    assert privative(part("Payment is by card.")) == frozenset()


def _figures(text: str) -> list[tuple[float, str | None]]:
    info = token_view(text)
    return figures(info.tokens, list(info.all_stems))


def test_a_part_of_a_count_counts_no_word_before_it() -> None:
    assert _figures("10 players registered, at least 4 of whom are women") == [
        (10.0, "playe"), (4.0, None)]
    assert _figures("12 rooms, 3 of which have a sea view")[1] == (3.0, None)
    assert _figures("You need 10 players, 4 or more of them women")[1] == (4.0, None)
    # "or more" alone is still read before it
    assert _figures("Groups of 6 or more get a discount") == [(6.0, "group")]


@pytest.mark.parametrize(("contexts", "answer", "flags"), [
    (["Each team needs at least 10 registered players, including a minimum of four women."],
     "You need at least ten players registered, four or more of whom must be women.", False),
    pytest.param(["The campsite has 40 pitches, 10 of which have electric hook-up."],
                 "The campsite has 10 pitches.", True, marks=known_limit(
                     "a part's figure given to the whole is not read (missed before too)")),
])
def test_a_part_of_a_count_in_a_claim(an: Analyzer, contexts: list[str], answer: str,
                                      flags: bool) -> None:
    assert judged(an, contexts, answer) is flags


_MUSEUM = "The museum opens at 09:00 and closes at 17:30."


def test_a_clause_of_a_verb_of_when_takes_the_subject() -> None:
    pieces = clause_parts(_MUSEUM)
    assert taken(pieces, 1) == frozenset({"museu"})
    # a day after the conjunction is no verb ("and weekends at 10 am")
    pieces = clause_parts("Open 9am on weekdays and weekends at 10am.")
    assert len(pieces) < 2 or taken(pieces, 1) == frozenset()
    # nor is a subject with its own verb ("and dogs on leads are allowed")
    pieces = clause_parts("The park opens at 8am and dogs on leads are allowed.")
    assert all(not taken(pieces, k) for k in range(1, len(pieces)))


@pytest.mark.parametrize(("answer", "flags"), [
    ("The museum shuts at 5:30 pm.", False),
    ("The museum closes at 5:30 pm.", False),
    ("The museum opens at 5:30 pm.", True),
    ("The museum closes at 9 am.", True),  # (passed before)
])
def test_times_of_two_verbs_of_when(an: Analyzer, answer: str, flags: bool) -> None:
    assert judged(an, [_MUSEUM], answer) is flags


def test_palm_house_hours_in_another_clock(an: Analyzer) -> None:
    """A 24-hour time said as a 12-hour one, in the closing clause (flagged before as a
    figure moved from the opening clause)."""
    assert not judged(an, ["The Palm House opens at 10:00 and closes at 16:30."],
                      "The Palm House shuts at 4:30 pm.")


@pytest.mark.parametrize(("contexts", "answer", "flags"), [
    (["Children aged 4 and over are welcome; under-16s must be accompanied by an adult."],
     "Kids aged 4+ can come along, with an adult accompanying anyone under 16.", False),
    (["Children under 16 must be accompanied by an adult."],
     "Everyone must be accompanied by an adult.", True),
    (["Children under 16 must be accompanied by an adult."],
     "Anyone under 18 must be accompanied by an adult.", True),
])
def test_anyone_bounded_is_restricted(an: Analyzer, contexts: list[str], answer: str,
                                      flags: bool) -> None:
    assert judged(an, contexts, answer) is flags


def test_restricted_pronouns() -> None:
    assert part("an adult accompanying anyone under 16").restricted
    assert part("Anyone between 95 and 100 kg must pass a check.").restricted
    assert not part("Anyone can join the club.").restricted


_GYM = ["Our timetable includes yoga on Mondays at 7pm and pilates on Wednesdays at 6pm. "
        "Classes last 50 minutes.", "Members can book classes up to 7 days ahead in the app."]
_SPIN = "Do you run spin classes?"


@pytest.mark.parametrize(("answer", "flags"), [
    # what the sources list, then what they lack (each flagged before)
    ("The timetable lists yoga and pilates, but says nothing about spin classes.", False),
    ("The timetable covers yoga and pilates, but it doesn't mention spin classes.", False),
    ("I can see yoga and pilates on the timetable, but nothing about spin.", False),
    ("The timetable lists yoga and pilates. It says nothing about spin classes.", False),
    # ... a listed item, a day or a length the contexts lack: the listing is a claim
    ("The timetable lists yoga, pilates and boxing, but says nothing about spin.", True),
    ("I can see yoga on Tuesdays and pilates on Wednesdays, but nothing about spin.", True),
    ("The timetable lists yoga and pilates, both 90 minutes long, but says nothing about "
     "spin.", True),
    ("The timetable lists yoga, pilates and spin, but doesn't say when spin runs.", True),
])
def test_a_decline_after_what_the_sources_list(an: Analyzer, answer: str, flags: bool) -> None:
    ev = an.analyze(Sample(id="t", question=_SPIN, contexts=tuple(_GYM), answer=answer))
    assert flagged(ev) is flags


def test_what_the_sources_say_they_cover_is_not_overridden(an: Analyzer) -> None:
    """A listing frame is read after what the sources say they cover (source_scope): "the
    information I have only mentions X" beside a decline stays set aside, though X is
    said in other words ("the free car park" for "Free car parking")."""
    ev = an.analyze(Sample(
        id="t", question="Is there coach parking?",
        contexts=("Free car parking is available for 120 cars outside the main entrance.",),
        answer="I don't know: the information I have only mentions the free car park for "
               "120 cars. For coach parking, please contact the park directly."))
    assert not flagged(ev)


@pytest.mark.parametrize(("contexts", "answer", "flags"), [
    # review 21's regressions of the first version, kept as guards: a light verb's object
    # turns nothing by itself (its passage denies it with another verb)
    (["Patients who cannot attend their appointment should call the surgery at least 24 "
      "hours beforehand to rebook."],
     "If you can't make the appointment, call the surgery at least 24 hours beforehand to "
     "rebook.", False),
    (["Learners who are unable to attend a session should tell their instructor by noon "
      "the day before."],
     "If you can't make the session, tell your instructor by noon the day before.", False),
    # ... and a set-aside under a choice excludes nothing
    (["Refunds are given in cash, although you can opt for store credit instead of cash if "
      "you prefer."], "Refunds are given as store credit, not cash.", True),
    (["Members may choose monthly rather than annual billing when they sign up."],
     "Billing is monthly, not annual.", True),
    (["Statements are sent by post; customers who prefer email instead of paper can switch "
      "in the app."], "Statements are sent by email, not paper.", True),
    pytest.param(["Of our 20 volunteers, 5 are first-aiders and 12 are drivers."],
                 "We have 20 volunteers, 12 of whom are first-aiders.", True,
                 marks=known_limit("a part's figure ('12 of whom') counts no word, and 12 is "
                                   "in the passage: moved between parts, it is not read")),
])
def test_review21_guards(an: Analyzer, contexts: list[str], answer: str, flags: bool) -> None:
    assert judged(an, contexts, answer) is flags


_MONDAYS = ["Monday classes: yoga at 7am and pilates at 6pm. Classes must be booked through "
            "the app at least 2 hours in advance."]


@pytest.mark.parametrize(("contexts", "question", "answer", "flags"), [
    # review 21b's regressions of the first version, kept as guards: "nothing about X"
    # where the contexts state X is a claim, the listing before "but" aside ...
    (_MONDAYS + ["Spin classes run on Thursday evenings at 7pm."], _SPIN,
     "The timetable lists yoga and pilates, but says nothing about spin classes.", True),
    (["Sessions run on Tuesday, Thursday and Friday from 6pm to 8pm in the church hall."],
     "Are there sessions on Fridays?",
     "The information lists Tuesday and Thursday sessions, but says nothing about Fridays.",
     True),
    # ... and so is the pronoun form ("they" may be people, not the sources)
    (["Our menu has stone-baked pizzas and fresh salads.",
      "Vegan options are available for every pizza on the menu."],
     "Do you have vegan options?",
     "The menu lists pizzas and salads. It says nothing about vegan options.", True),
    (["Our tutors work on grammar, vocabulary and pronunciation in every lesson."],
     "Do the tutors help with pronunciation?",
     "Our tutors cover grammar and vocabulary. They don't go into pronunciation.", True),
    # where an item was seen is no item ("on the timetable")
    (_MONDAYS, _SPIN, "I can see yoga and pilates on the timetable, but nothing about spin.",
     False),
])
def test_review21b_guards(an: Analyzer, contexts: list[str], question: str, answer: str,
                          flags: bool) -> None:
    ev = an.analyze(Sample(id="t", question=question, contexts=tuple(contexts), answer=answer))
    assert flagged(ev) is flags
