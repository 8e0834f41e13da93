"""Review 16 (a helper reading session 16's offline-judge change, 57b8561..24bdc79:
parallel.py, whole_time.py, conditions._when, Units.calendar, hedged._ADVICE,
declines_by_scope): each finding as the behaviour it should have. Every judge case here
failed at 24bdc79 (H1-H6 were judged right at 57b8561: regressions; M1's context case and
the docs checks failed at both) and passes since the review's fixes."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.support.offline import evidence, flagged

# H1 parallel_swap: the "another sentence says it of the claim's entity" escape looks for
# ONE slot holding the claim's entity word and the predicate words; support split over a
# pronoun sentence or a "Both X" sentence is not found, so a faithful claim is an entity
# conflict.

@pytest.mark.parametrize(("contexts", "answer"), [
    (["The main pool is heated to 28 degrees and has a wave machine. The learner pool is "
      "heated to 32 degrees. It also has a wave machine on Saturdays."],
     "The learner pool has a wave machine on Saturdays."),
    (["The Kestrel tent sleeps two to three people and has a waterproof porch. The Osprey "
      "tent sleeps up to seven.", "Both tents come with a waterproof porch and a repair kit."],
     "The Osprey tent comes with a waterproof porch."),
])
def test_h1_support_split_over_sentences_is_no_parallel_swap(an, contexts, answer):
    assert not flagged(evidence(an, contexts, answer))


# H2 parallel_swap: a comparison that names the other slot in other words ("the other
# pool", "the 25-metre pool") and gives that slot's own figure is read as the swap
# (own_a is the other slot's subject run only).

@pytest.mark.parametrize(("contexts", "answer"), [
    (["The learner pool is heated to 32 degrees. The main pool is heated to 28 degrees."],
     "The learner pool is warmer than the other pool, which is kept at 28 degrees."),
    (["The main pool is 25 metres long and is heated to 28 degrees. The learner pool is "
      "heated to 32 degrees."],
     "The learner pool is warmer than the 25-metre pool, which is heated to 28 degrees."),
])
def test_h2_a_comparison_naming_the_other_slot_otherwise_passes(an, contexts, answer):
    assert not flagged(evidence(an, contexts, answer))


# H3 whole_time: "daily" is now "every day", and scope.time_bound reads the figure of
# "seven days a week" as a bound, so the commonest paraphrase is a quantifier conflict
# ("every day" was flagged there already before the change: pre-existing, now spread).

@pytest.mark.parametrize(("context", "answer"), [
    ("The helpline is open seven days a week, 8am to 8pm.",
     "The helpline is open daily, 8am to 8pm."),
    ("The helpline is open 7 days a week from 8am to 8pm.",
     "The helpline is open daily from 8am to 8pm."),
])
def test_h3_daily_for_seven_days_a_week_passes(an, context, answer):
    assert not flagged(evidence(an, [context], answer))


# H4 Units.calendar: a clause with a negation places no days, but "does not open until
# 9am" says the weekend IS open; the week is then short and "every day" is flagged.

@pytest.mark.parametrize("answer", [
    "The pool opens every day.",
    "The pool opens daily.",
])
def test_h4_a_denied_clause_that_still_opens_its_days_fills_the_week(an, answer):
    ctx = ["The pool opens at 7am Monday to Friday. At weekends it does not open until 9am."]
    assert not flagged(evidence(an, ctx, answer))


# H5 hedged._ADVICE with "'ll"/"'d": "we'll give you a ..." is now advice, so an invented
# promise beside a decline is set aside as a referral and the answer scores 1.0 (the
# uncontracted "we will give you a ..." was already hidden: pre-existing).

@pytest.mark.parametrize("answer", [
    "I can't find anything about electric bike motors in our information. If you book a "
    "service online, we'll give you a free chain clean.",
    "I'm not sure about motors. If we can't fix it, we'd give you a full refund.",
])
def test_h5_a_promise_with_a_contracted_modal_beside_a_decline_is_scored(an, answer):
    ctx = ["The bike workshop services road and hybrid bikes on weekdays from 9am to 5pm. A "
           "standard service costs £45 and includes gear and brake adjustment.",
           "Bikes left for more than 30 days after a service are sold to cover storage."]
    assert flagged(evidence(an, ctx, answer, "Do you repair electric bike motors?"))


# H6 declines_by_scope: any _SOURCE_NOUN ("plan", "details", "contract", ...) with a
# speaker group ("we have", "I have") now declines; "The Family plan we have covers ...,
# but not tablets" is the business's plan, a claim the contexts contradict.

@pytest.mark.parametrize(("contexts", "answer", "question"), [
    (["The Family plan covers four phones and two tablets, with 50GB of shared data."],
     "The Family plan we have covers four phones, but not tablets.",
     "Does the Family plan cover tablets?"),
    (["Your booking at the Harbour Hotel is for two nights and includes breakfast.",
      "Check-in is from 3pm."],
     "The booking details I have cover two nights, but not breakfast.",
     "Is breakfast included?"),
])
def test_h6_a_plan_or_booking_the_speaker_has_is_a_claim(an, contexts, answer, question):
    ev = evidence(an, contexts, answer, question)
    assert not ev.noncommittal and flagged(ev)


# M1 conditions._when joins a clause saying only "all year round" to the clause BEFORE
# it, even where it times the clause after it ("..., but all year round, the café ...").

def test_m1_a_time_only_clause_times_the_clause_it_opens(an):
    ctx = ["The terrace is open from May to September. The café serves breakfast all year "
           "round."]
    answer = ("The terrace is open from May to September, but all year round, the café "
              "serves breakfast.")
    assert not flagged(evidence(an, ctx, answer))


# ... and in a context it gives the terrace "all year round", so whole_time's new read
# misses the unfaithful claim (57b8561 passed it too: a gap of the new read, no flip).

def test_m1_the_same_join_in_a_context_hides_a_bounded_season(an):
    ctx = ["The terrace is open from May to September, but all year round, the café serves "
           "breakfast."]
    assert flagged(evidence(an, ctx, "The terrace is open all year round."))


# Faithful neighbours that pass now and must keep passing (guards for the fixes above).
@pytest.mark.parametrize(("contexts", "answer"), [
    (["The learner pool is heated to 32 degrees. The main pool is heated to 28 degrees."],
     "The learner pool is warmer than the main pool, at 32 degrees."),
    (["The main pool is heated. The learner pool is heated too, and is kept at 32 "
      "degrees."], "Like the main pool, the learner pool is heated."),
    (["Members get 10% off all classes, and members' guests get 5% off."],
     "Members' guests get 5% off."),
    (["The café is open Monday to Saturday, 8am to 6pm. On Sundays it opens from 10am to "
      "4pm but is closed for lunch from 1pm to 2pm."], "The café is open every day."),
    (["Long-term parking is available at the north car park all year."],
     "Long-term parking at the north car park is available all year."),
])
def test_faithful_neighbours_pass(an, contexts, answer):
    assert not flagged(evidence(an, contexts, answer))


# D1 docs: judges.md "Known limits" still says a closed day fills the week and that
# "all year round", "year-round" and "daily" are not read; architecture.md's module list
# names neither parallel.py nor whole_time.py.
_DOCS = Path(__file__).resolve().parents[3] / "docs"


def test_d1_known_limits_match_the_code():
    text = " ".join((_DOCS / "judges.md").read_text().split())
    assert '"It is closed on Sundays" or another subject' not in text
    assert '"year-round" and "daily" are not read' not in text


def test_d1_architecture_names_the_new_modules():
    text = (_DOCS / "architecture.md").read_text()
    assert "parallel.py" in text and "whole_time.py" in text
