"""Issue #38, session 8 (each failed at cc0b929): a claim asserting what a short context
sentence denies ("Pushchairs are not allowed" beside what the claim does restate), a
"non-" word against its base ("non-transferable" / "transferable"), and declines whose
follow-up advises how or whom to ask ("Maybe ask ...?", "they can tell you whether",
"... is the place to check", "you may need a specialist"), what the speaker only has,
a list item that closes the list, "Not in the documents, sorry." Faithful answers beside
unrelated denials, and claims beside declines, are still judged as before. Wording and
domains none of the probe batches use."""

from __future__ import annotations

import pytest

from ragassay.judge.offline import Analyzer
from ragassay.judge.offline.declines import is_noncommittal
from ragassay.judge.offline.hedged import is_advice
from ragassay.judge.offline.source_scope import is_source_scope
from tests.support.offline import evidence, flagged

DENIED = [
    (["Visitors may bring cameras into the gallery with a photography pass.",
      "Tripods are not permitted."], "Can I bring a tripod?",
     "Yes, you can bring a tripod into the gallery as long as you have a photography pass."),
    (["The parking meters accept contactless cards and coins.", "They do not accept banknotes."],
     "Can I pay with a 10 pound note?",
     "Yes, the parking meters take banknotes as well as cards and coins."),
    (["Season tickets are non-transferable but can be paused for up to a month."],
     "Can I give my season ticket to a friend?",
     "Yes, season tickets are transferable, and you can pause them for up to a month."),
]

KEPT = [  # a denial elsewhere that the claim does not speak of, or says in its own words
    (["The outdoor pool is not heated.", "The outdoor pool opens at 7am in summer."],
     "When does the pool open?", "The outdoor pool opens at 7am in summer."),
    (["Delivery is not charged on orders over 50 pounds.",
      "Orders usually arrive within 3 days."], "Is delivery free?",
     "You get free delivery on orders over 50 pounds, and orders usually arrive within 3 days."),
    (["Dogs are welcome in the beer garden.", "Dogs are not allowed in the dining room."],
     "Can I bring my dog?", "Dogs are welcome in the beer garden."),
]


LIBRARY = (["The mobile library visits the village hall every second Tuesday.",
            "Large-print books and audiobooks can be reserved online."],
           "Does the mobile library lend DVDs?")

DECLINES = [
    "I'm afraid I don't have anything on DVDs. Perhaps ask the driver on the next visit?",
    "The leaflets don't say whether DVDs are lent. If you phone the central library, "
    "they can tell you whether that's possible.",
    "Sorry, I don't have information about DVDs. The county council's website is the place "
    "to check.",
    "I can't find anything about DVDs. Someone at the village hall might be able to point "
    "you in the right direction.",
    "Unfortunately the documents don't mention DVDs; for film loans you may need to ask "
    "the central library.",
    "I can't help with that, sorry; I only have details about visit days, large-print books "
    "and audiobooks.",
    "Not in the documents, I'm afraid.",
    "Our information only covers visits, reservations, large-print books and audiobooks "
    "in the village, so I can't say whether DVDs are lent.",
    "That isn't something the library information mentions. I can tell you about visit days "
    "and reservations, but for DVDs it's best to email the library team.",
]


@pytest.mark.parametrize("answer", DECLINES)
def test_a_decline_with_advice_is_abstained_on(an: Analyzer, answer: str) -> None:
    ev = evidence(an, list(LIBRARY[0]), answer, LIBRARY[1])
    assert ev.abstains and not flagged(ev), ev


@pytest.mark.parametrize("answer", [
    # advice carrying a figure no context has, or a claim after the decline: judged
    "I don't have anything on DVDs. You may need to ask the driver, who charges 3 pounds "
    "a film.",
    "I don't have anything on DVDs, sorry. The mobile library visits every Monday.",
])
def test_a_claim_beside_a_decline_is_still_judged(an: Analyzer, answer: str) -> None:
    ev = evidence(an, list(LIBRARY[0]), answer, LIBRARY[1])
    assert flagged(ev), ev


@pytest.mark.parametrize(("text", "expected"), [
    ("Maybe ask at the front desk?", True),
    ("The staff there would know.", True),
    ("Your best bet is the council's helpline.", True),
    ("You may need a qualified electrician.", True),
    ("If you phone the office, they can tell you whether it's possible.", True),
    ("You may need to book two weeks ahead.", False),
    ("The pool opens at 7am.", False),
    ("Tickets can be bought online.", False),
    # advice with a claim in another clause is no advice (review 8, H1)
    ("The driver would know, and she lends DVDs on request.", False),
    ("Did you know the library also opens on Fridays?", False),
])
def test_advice(text: str, expected: bool) -> None:
    assert is_advice(text) is expected


def test_speaker_scope_and_documents_decline() -> None:
    assert is_source_scope("I only have details about opening hours and prices")
    assert is_noncommittal("I only have the winter timetable; nothing about summer.")
    assert is_noncommittal("Not in the documents, sorry.")
    assert not is_noncommittal("Not in the summer months: the pool closes in June.")


SCOPE = [  # a restriction of the contexts widened or dropped
    (["Lunch specials are served from 12 to 2 pm on weekdays."], "When are lunch specials?",
     "Lunch specials are served from 12 to 2 pm every day."),
    (["Residents on the permit scheme are cleared before 8 am on weekdays."], "When?",
     "Residents on the permit scheme are always cleared before 8 am."),
    (["Members can hire the electric bikes for up to three days."], "Can I hire a bike?",
     "Yes, anyone can hire the electric bikes for up to three days."),
    (["Pensioners swim free on Thursday mornings."], "Do pensioners swim free?",
     "Yes, pensioners swim free."),
]

SCOPE_KEPT = [  # the same restriction kept, or a dated event
    (["Lunch specials are served from 12 to 2 pm on weekdays."], "When are lunch specials?",
     "Lunch specials are served from 12 to 2 pm on weekdays."),
    (["Pensioners swim free on Thursday mornings."], "Do pensioners swim free?",
     "Yes, pensioners swim free on Thursday mornings."),
    (["The new wing opened in March 2019, after two years of building work."],
     "When did the wing open?", "The new wing opened in 2019."),
    (["In 2011 the town ranked second-most visited in the region after the city."],
     "How popular is the town?", "It is the second-most visited town in the region."),
]


def test_a_figure_of_a_coordinated_subject_is_its_own() -> None:
    """ "..., and social membership, with no rowing, is £60": the £60 is social
    membership's, not the first clause's subject's."""
    from ragassay.judge.offline.clauses import clause_parts
    from ragassay.judge.offline.subjects import taken
    parts = clause_parts("Adult membership is £180, and family membership, with no "
                         "racing, is £60.")
    assert "famil" in taken(parts, len(parts) - 1)
    assert "adult" not in taken(parts, len(parts) - 1)


def test_a_figure_bound_to_another_subject_is_a_number_change(an: Analyzer) -> None:
    ev = evidence(an, ["Adult membership is £180, and family membership, with no racing, "
                       "is £60."], "Adult membership is £60.", "How much is adult membership?")
    assert flagged(ev), ev


@pytest.mark.parametrize(("contexts", "question", "answer", "kind"), [
    *[(*case, "negation") for case in DENIED], *[(*case, "quantifier") for case in SCOPE]])
def test_a_conflict_is_flagged_with_its_kind(an: Analyzer, contexts: list[str], question: str,
                                             answer: str, kind: str) -> None:
    ev = evidence(an, contexts, answer, question)
    assert flagged(ev) and kind in ev.contradicts, ev


@pytest.mark.parametrize(("contexts", "question", "answer"), [*KEPT, *SCOPE_KEPT])
def test_no_conflict_where_the_claim_keeps_what_the_contexts_say(
        an: Analyzer, contexts: list[str], question: str, answer: str) -> None:
    """A denial elsewhere the claim does not speak of, or says in its own words; the
    restriction kept; a dated event (a month is no limit of a year)."""
    ev = evidence(an, contexts, answer, question)
    assert not flagged(ev), ev


SWAPS = [  # a name, a span or a figure of another clause
    (["Priya runs the evening pottery class.",
      "Glaze chemistry and kiln loading are taught by Marcus in the advanced class."],
     "Who teaches kiln loading?", "Kiln loading is taught by Priya in the advanced class."),
    (["Day passes give access during opening hours.",
      "Resident passes give 24-hour access and need a one-year lease."],
     "Which pass lets me in at night?", "Day passes give you 24-hour access."),
    (["Courts cost £12 an hour from Monday to Thursday and £18 an hour on Friday and "
      "Sunday."], "How much is a court on Sunday?", "On Sundays courts are £12 an hour."),
]


@pytest.mark.parametrize(("contexts", "question", "answer"), SWAPS)
def test_a_name_span_or_figure_of_another_clause_is_flagged(
        an: Analyzer, contexts: list[str], question: str, answer: str) -> None:
    ev = evidence(an, contexts, answer, question)
    assert flagged(ev) and ev.contradicts[0] in ("entity", "number"), ev


@pytest.mark.parametrize(("contexts", "question", "answer"), [
    # both names in one context sentence and the claim; a figure restated; a gapped
    # claim clause whose figure the contexts give in other words
    (["Forms: a CN22 up to 270 GBP, and a CN23 form above that value."], "Which form?",
     "Up to 270 GBP you fill in a CN22; above that value a CN23 is needed."),
    (["Courts cost £12 an hour from Monday to Thursday and £18 an hour on Friday and "
      "Sunday."], "How much is a court on Sunday?", "On Sundays courts are £18 an hour."),
    (["A lane costs £9 per game, shoe hire included. Children under 12 pay £6."],
     "How much is a game?", "A game is £9 including shoe hire, or £6 for under-12s."),
])
def test_names_and_figures_kept_in_their_clauses_are_supported(
        an: Analyzer, contexts: list[str], question: str, answer: str) -> None:
    ev = evidence(an, contexts, answer, question)
    assert not flagged(ev), ev


@pytest.mark.parametrize(("text", "expected"), [
    ("Keep at least three-quarters of the garden planted.", "75 percent of the garden"),
    ("Bins are emptied on an eight-weekly cycle.", "every 56 days"),
    ("Unclaimed items are kept for three months.", "90 days"),
    ("Service it every 5 months.", "every 5 months"),
])
def test_shares_and_months_are_written_one_way(text: str, expected: str) -> None:
    """ "three-quarters of the" is "75 percent of the"; "8-weekly" is every 56 days; a
    length of months is days ("3 months" for "90 days"), a rate of months stays."""
    from ragassay.judge.offline.normalise import normalise_text
    assert expected in normalise_text(text)


@pytest.mark.parametrize(("answer", "flags"), [
    # the doer of one clause with what the other clause says: flagged
    ("Nadia runs the pottery classes on Tuesdays and Thursdays.", True),
    ("Heavy snow is forecast for Leeds on Friday, while York should stay clear.", True),
    # each clause's own doer, both doers, or the list of one clause: supported
    ("Pottery classes are run by Oskar on Tuesdays and Thursdays.", False),
    ("Oskar runs pottery on Tuesdays and Thursdays, and Nadia teaches painting on Fridays.",
     False),
])
def test_a_name_moved_to_the_other_clause_is_flagged(an: Analyzer, answer: str,
                                                     flags: bool) -> None:
    contexts = ["Pottery classes are run by Oskar on Tuesdays and Thursdays, and painting "
                "classes are taught by Nadia on Fridays.",
                "Heavy snow is forecast for York on Friday, while Leeds should stay clear "
                "with sunny spells."]
    ev = evidence(an, contexts, answer, "Who teaches what?")
    assert flagged(ev) is flags, ev


def test_a_referral_the_contexts_check_is_answered_not_declined(an: Analyzer) -> None:
    """ "For coaching enquiries, get in touch with Priya Nair" is a claim the contexts
    check (session 7): it is no decline, so its answer relevance is not capped at a
    decline's (review 7, finding 7: 0.1 before); a plain referral still declines."""
    roles = ["Coaching enquiries are handled by our head coach, Priya Nair.",
             "Membership questions go to the club secretary, Dan Okoro."]
    q = "Who do I ask about coaching?"
    named = evidence(an, roles, "For coaching enquiries, get in touch with Priya Nair.", q)
    plain = evidence(an, roles, "Please contact the club office about that.", q)
    assert not named.noncommittal and named.answer_relevance is not None
    assert named.answer_relevance > 0.3, named
    assert plain.noncommittal and plain.abstains, plain
