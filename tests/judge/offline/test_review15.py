"""Review 15 (a helper reading session 15's offline-judge change, af6f9a9..f6ff42b): each
finding as the behaviour it should have. Every case here failed at f6ff42b. The
regressions (af6f9a9 judged them right; H1-H5, M1) pass since the review's fixes; GAP marks
the cases af6f9a9 judged wrong too, which the change's rules do not reach in ordinary
wording (strict-xfail limits, docs/judges.md "Known limits")."""

from __future__ import annotations

import pytest

from ragassay.judge.offline import Analyzer
from tests.support.offline import evidence, flagged

GAP = pytest.mark.xfail(strict=True, reason="known limit: session 15's rule does not reach "
                        "it (wrong at af6f9a9 too)")


def judged(an: Analyzer, contexts: list[str], answer: str, q: str = "Tell me.") -> bool:
    return flagged(evidence(an, contexts, answer, q))


# H1: mixed.initial_names reads "Parking is", "Delivery is", "Gift cards make" as names;
# a passage that goes on with "It ..." / "They ..." then flags the faithful answer (entity)
@pytest.mark.parametrize(("contexts", "answer"), [
    (["Parking is free for blue badge holders. It is available behind Mill Lane library."],
     "Parking is available behind the library."),
    (["Delivery is free on orders over £40. It usually takes 3 days with Royal Mail."],
     "Delivery usually takes 3 days."),
    (["Entry is free for under-fives. It costs £6 for adults at Castle Lodge."],
     "Entry costs £6 for adults."),
    (["Bus passes cost £2 a day. They are sold at Westgate station."],
     "Bus passes are sold at the station."),
    (["Gift cards make great presents. They can be used at any Hilltop site."],
     "Gift cards can be used at any site."),
])
def test_h1_a_pronoun_after_a_capitalised_noun_is_no_name_swap(an, contexts, answer):
    assert not judged(an, contexts, answer)


# H2: "except on/in/at/for ..." is a negation now, "except X" and "apart from X" are not:
# the same exception in the other form is flagged (negation)
@pytest.mark.parametrize(("context", "answer"), [
    ("The museum is open daily except on Sundays.", "The museum is open daily except Sundays."),
    ("Refunds are given for all tickets except for gift tickets.",
     "Refunds are given for all tickets except gift tickets."),
    ("Dogs are welcome everywhere except in the café.",
     "Dogs are welcome everywhere apart from the café."),
    ("The pool is open to the public except at the times of school lessons.",
     "The pool is open to the public except during school lessons."),
])
def test_h2_an_exception_restated_in_the_other_form(an, context, answer):
    assert not judged(an, [context], answer)


# H3: the calendar was one context's (ctx.docs), not the passage's: the rest of the week
# or year in the next retrieved context is not read, and the faithful answer is flagged
@pytest.mark.parametrize(("contexts", "answer"), [
    (["The surgery is open Monday to Friday, 8am to 6pm.",
      "At weekends the surgery opens 9am to noon."], "The surgery is open every day."),
    (["The pharmacy is open Monday to Saturday, 9am to 6pm.",
      "On Sundays the pharmacy opens from 10am to 2pm."], "The pharmacy is open every day."),
    (["The lido is open from May to September.",
      "From October to April it opens at weekends for winter swimmers."],
     "The lido is open all year."),
])
def test_h3_the_week_or_year_filled_by_the_next_context(an, contexts, answer):
    assert not judged(an, contexts, answer)


# H4: a participle after the subject narrows it even where the claim keeps the limit in
# other words ("who pays", "in Zone A")
@pytest.mark.parametrize(("context", "answer"), [
    ("Customers paying by direct debit get 5% off.",
     "Every customer who pays by direct debit gets 5% off."),
    ("Residents living in Zone A get a free permit.",
     "All residents in Zone A get a free permit."),
])
def test_h4_a_participle_restated_narrows_nothing(an, context, answer):
    assert not judged(an, [context], answer)


# H5: an "all year" unit read against its own range of months (the unit says "the whole
# year" itself)
def test_h5_all_year_said_by_the_unit_itself(an):
    assert not judged(an, ["Outdoor classes run from May to September and are free for all "
                           "members the whole year."],
                      "Outdoor classes are free for members all year.")


# M1: hedged._ADVICE's new forms set aside a whole clause beside a decline, its claim too
Q_POOL = "Do you run aqua aerobics?"
POOL = ["The pool is open from 6am to 9pm on weekdays.", "A swim costs £4.50 for adults."]


@pytest.mark.parametrize(("contexts", "answer", "question"), [
    (POOL, "I don't have details on aqua aerobics. It's worth asking about the free swims "
           "for under-fives.", Q_POOL),
    (POOL, "I don't have details on aqua aerobics. It may be best to ask at reception, "
           "where children swim free.", Q_POOL),
    (["Check-in is from 3pm and check-out is by 11am.",
      "Breakfast is served from 7am to 10am in the conservatory."],
     "I don't have any information about parking. You can ring room service at any hour "
     "for a free breakfast.", "Is there parking at the hotel?"),
])
def test_m1_a_claim_inside_advice_is_still_scored(an, contexts, answer, question):
    assert judged(an, contexts, answer, question)


# M2: the calendar took every day and month the document names, whatever is said of it:
# a closure or another subject filled the week or year, and "every day"/"all year" passed.
# A day or month denied or closed fills nothing since session 16 (Units.calendar reads
# clause by clause); another subject's days still do (GAP).
@pytest.mark.parametrize(("contexts", "answer"), [
    (["The library is open Monday to Saturday, 9am to 5pm. It is closed on Sundays."],
     "The library is open every day."),
    (["The ferry runs from March to October. It does not run from November to February."],
     "The ferry runs all year."),
    (["The lido is open from May to September. It is closed from October to April."],
     "The lido is open all year."),
])
def test_m2_days_closed_fill_nothing(an, contexts, answer):
    assert judged(an, contexts, answer)


@GAP
@pytest.mark.parametrize(("contexts", "answer"), [
    (["The gym is open Monday to Friday, 6am to 10pm. The swimming pool is open on "
      "Saturdays and Sundays."], "The gym is open every day."),
    (["The campsite is open April to October. The shop sells gas from November to March."],
     "The campsite is open all year."),
])
def test_m2_days_of_another_subject_fill_nothing(an, contexts, answer):
    assert judged(an, contexts, answer)


# M3: the commonest forms of "every day" / "all year" were not read (read since session
# 16: judge/offline/whole_time.py)
@pytest.mark.parametrize(("context", "answer"), [
    ("The outdoor lido at Ashford Park is open from May to September.",
     "The outdoor lido at Ashford Park is open to swimmers all year round."),
    ("The ferry runs from March to October.", "The ferry runs throughout the year."),
    ("The ferry runs from March to October.", "The ferry runs year-round."),
    ("The cafe is open Monday to Friday from 8am to 5pm.", "The cafe opens daily at 8am."),
])
def test_m3_other_forms_of_every_day_and_all_year(an, context, answer):
    assert judged(an, [context], answer)


# L1: scope._named_part, the commit's own example wording, with a short predicate
@GAP
@pytest.mark.parametrize(("context", "answer"), [
    ("All players in the Premier Division must register by 1 August.",
     "Every player in the league must register by 1 August."),
    ("All seats in the Dress Circle have a clear view.",
     "Every seat in the theatre has a clear view."),
])
def test_l1_a_named_part_with_a_short_predicate(an, context, answer):
    assert judged(an, [context], answer)
