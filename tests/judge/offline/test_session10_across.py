"""Session 10 of issue #38: a claim that restates two context sentences at once
(paraphrase.restated_across).

A faithful answer often joins what two sentences (or two passages) say into one
sentence; read against either sentence alone, half of it is unsupported. Joined, the
checks of a one-sentence restatement apply, and more: each clause of the claim must draw
on one sentence with its own figures and names, so a figure or a name of one sentence
said of the other is still caught.
"""

from __future__ import annotations

import pytest

from ragassay.judge.offline import Analyzer
from ragassay.judge.offline.paraphrase import restated_across
from tests.support.offline import assert_judged

WORKSHOP = ["Pottery taster sessions run on Sundays from 9 am to 1 pm.",
            "Each session takes no more than 6 participants."]
STUDIO = ["A standard portrait sitting lasts about 40 minutes. If you want extra outfits, "
          "book an additional 20 minutes."]
PAYMENTS = ["The daily cash withdrawal limit is 300 GBP.",
            "Card purchases are capped at 1,500 GBP a day."]
ROUTES = ["The Red Route runs from the harbour to the castle every 20 minutes.",
          "The Yellow Route links the harbour with the museum."]
GATES = ["Boarding closes 30 minutes before departure.",
         "Cabin bags must fit the sizer at the gate."]
FEES = ["Hiring the hall costs £120 for an evening.",
        "Cleaning is charged at £35 on top of the hire."]


@pytest.mark.parametrize(("contexts", "answer"), [
    (WORKSHOP, "Taster sessions are on Sundays, 9 am to 1 pm, for up to 6 participants."),
    (STUDIO, "A normal sitting takes around 40 minutes, plus another 20 if you'd like more "
             "outfits."),
    (FEES, "The hall is £120 an evening, and cleaning adds £35."),
    (GATES, "Boarding closes half an hour before departure, and your cabin bag has to fit "
            "the sizer at the gate."),
])
def test_a_claim_joining_two_sentences_is_supported(an: Analyzer, contexts: list[str],
                                                    answer: str) -> None:
    assert_judged(an, contexts, answer, flags=False)


@pytest.mark.parametrize(("contexts", "answer"), [
    # the figure of the other sentence, in the words of the first
    (FEES, "Hiring the hall costs £35 for an evening."),
    # one named thing's route said of the other
    (ROUTES, "Take the Yellow Route from the harbour; buses to the castle run every 20 "
             "minutes."),
    # a relation turned ("after" for "before": stopwords, which content words do not show)
    (GATES, "Boarding closes 30 minutes after departure, and cabin bags must fit the sizer "
            "at the gate."),
    # an addition neither sentence has
    (FEES, "The hall is £120 an evening, cleaning adds £35, and parking is free for guests."),
])
def test_joining_does_not_lift_a_swap_or_an_addition(an: Analyzer, contexts: list[str],
                                                     answer: str) -> None:
    assert_judged(an, contexts, answer, flags=True)


def test_restated_across_needs_both_sentences(an: Analyzer) -> None:
    """A claim restating one of the two sentences only is the one-sentence check's,
    not this one's; a claim drawing on both is this one's."""
    from ragassay.types import Sample

    def across(contexts: list[str], answer: str) -> bool:
        p = an.prepare_many([Sample(id="t", question="Tell me.", contexts=tuple(contexts),
                                    answer=answer)])[0]
        return restated_across(p.answer_infos[0], p.answer_emb[0], p.ctx)

    assert across(WORKSHOP, "Taster sessions are on Sundays, 9 am to 1 pm, for up to 6 "
                            "participants.")
    assert not across(WORKSHOP, "Taster sessions are on Sundays, 9 am to 1 pm.")
    assert not across(PAYMENTS, "You can withdraw up to 1,500 GBP in cash a day.")


def test_a_figure_of_the_other_sentence_beside_this_ones_words(an: Analyzer) -> None:
    """(A known limit until "GBP a day" was read as a rate: its "a day" was read as a
    length of 24 hours, which no context states, and the claim was scored by that.)"""
    assert_judged(an, PAYMENTS, "You can withdraw up to 1,500 GBP in cash a day.", flags=True)
