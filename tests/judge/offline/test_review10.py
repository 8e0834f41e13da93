"""Review 10 of session 10's judge round (0754fba..5c8cf94, /work/notes/review-10.md):
cases in new words, each of which failed at 5c8cf94 and all but one passed at 0754fba
(the round brought them in). The fixes: a relation turned only with the same things on
the same side, and not "over"/"under" or "more"/"less" (other senses); the policy
antonym pairs taken out again (a negated "allowed" restates "banned"); a name of another
sentence not where the sentence's own name stands in an aside; a clause of a figure alone
drawn on a sentence only where a clock time meets a clock time; a claim's bound only
right after its subject."""

from __future__ import annotations

import pytest

from ragassay.judge.offline import Analyzer
from tests.support.offline import assert_judged

# --- H1 relations.relation_turned: a converse restatement is read as a turned relation (new)


@pytest.mark.parametrize(("contexts", "answer"), [
    (["The welcome drinks take place before the gala dinner."],
     "The gala dinner takes place after the welcome drinks."),
    (["The Premium plan costs less than the Business plan."],
     "The Business plan costs more than the Premium plan."),
    (["The spa is on the floor above the restaurant."],
     "The restaurant is on the floor below the spa."),
])
def test_converse_relation_is_not_a_contradiction(an: Analyzer, contexts: list[str],
                                                  answer: str) -> None:
    """Both sides of the relation swap with its word: the same fact."""
    assert_judged(an, contexts, answer, flags=False)


# --- H2 policy antonyms: "not allowed" for "banned" is flagged an antonym conflict (new)


@pytest.mark.parametrize(("contexts", "answer"), [
    (["Dogs are banned from the dining room."], "Dogs are not allowed in the dining room."),
    (["Smoking is prohibited in all rooms."], "Smoking is not permitted in any of the rooms."),
])
def test_negated_policy_word_restates_its_antonym(an: Analyzer, contexts: list[str],
                                                  answer: str) -> None:
    assert_judged(an, contexts, answer, flags=False)


# --- M1 mixed.named_elsewhere: the passage's topic named in its other sentence (new)


@pytest.mark.parametrize(("contexts", "answer"), [
    (["The pool opens at 7 am, manager Jo Baker said. Riverside Leisure Centre has a "
      "25-metre pool."], "The pool at Riverside Leisure Centre opens at 7 am."),
    (["Guided tours leave from the main gate at 10 am, run by Heritage Walks. Blackmoor "
      "Castle is open daily."], "Guided tours of Blackmoor Castle leave from the main gate "
                                "at 10 am."),
])
def test_topic_named_in_the_other_sentence_is_no_swap(an: Analyzer, contexts: list[str],
                                                      answer: str) -> None:
    assert_judged(an, contexts, answer, flags=False)


# --- M2 paraphrase.restated_across: a figure-only clause matched by value alone (new)


def test_a_figure_only_clause_is_matched_with_its_unit(an: Analyzer) -> None:
    """"finishing at 6 pm" shares no word with either sentence; its 6 is the other
    sentence's 6 participants, so the clause "draws on" it and the claim is lifted."""
    contexts = ["Pottery taster sessions run on Sundays from 9 am to 1 pm.",
                "Each session takes no more than 6 participants."]
    assert_judged(an, contexts, "Taster sessions are on Sundays from 9 am, finishing at "
                                "6 pm, for up to 6 participants.", flags=True)


# --- M3 clauses._part: "N or more" after the verb read as the subject's bound (new)


def test_a_bound_after_the_verb_restricts_no_subject(an: Analyzer) -> None:
    assert_judged(an, ["Deliveries take 3 or more days."], "All deliveries take 3 or more "
                                                           "days.", flags=False)


# --- M4 relation_turned: stopwords of other senses (new)


@pytest.mark.parametrize(("contexts", "answer"), [
    # "over the phone" is no "over" of "under 12"
    (["Bookings for children under 12 can be changed free of charge by phone."],
     "Bookings for children below 12 can be changed free of charge over the phone."),
    # "less than 3" entails "no more than 3"
    (["Delivery takes less than 3 days."], "Delivery takes no more than 3 days."),
])
def test_a_relation_word_of_another_sense_is_not_turned(an: Analyzer, contexts: list[str],
                                                        answer: str) -> None:
    assert_judged(an, contexts, answer, flags=False)
