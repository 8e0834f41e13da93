"""Session 27 (k224): paraphrases that restate a figure in words, a denial held in one
word, and a looser rewording anchored on the sentence's subject and figures.

Sentences are our own; each rule is checked both ways: it lifts the faithful restatement
and stays silent where one fact is changed.
"""

from __future__ import annotations

import pytest

from ragassay.judge.offline import Analyzer
from ragassay.judge.offline.clauses import part
from ragassay.judge.offline.clock_spans import span_lengths
from ragassay.judge.offline.normalise import normalise_text, written_values
from ragassay.judge.offline.paraphrase import anchored
from ragassay.judge.offline.privative import balanced_by_privatives, privatives
from tests.support.offline import judged


@pytest.mark.parametrize(("text", "normal"), [
    ("The gate shuts at midnight.", "The gate shuts at 12 am."),
    ("Doors open at a quarter to eight in the morning.", "Doors open at 7:45 am"),
    ("Service ends at quarter to 1.", "Service ends at 12:45 pm."),  # (12:xx reads pm)
])
def test_clock_times_in_words_read_as_figures(text: str, normal: str) -> None:
    assert normalise_text(text) == normal


def test_quarter_to_before_a_count_is_no_clock() -> None:
    assert normalise_text("a quarter to 10 guests") == "a quarter to 10 guests"


def test_a_clock_span_offers_its_length() -> None:
    assert {90.0, 1.5} <= span_lengths(normalise_text("Rehearsals run from 18:30 to 20:00."))
    assert 480.0 in written_values("The night porter works 11 pm to 7 am.")
    assert 8.0 not in written_values("The night porter works 11 pm to 7 am.")  # a clock
    assert not span_lengths(normalise_text("The shop is open 9 until 5."))  # either half


def test_span_length_lifts_a_duration_restated(an: Analyzer) -> None:
    ctx = ["Evening pottery classes run from 18:30 to 20:00 every Tuesday."]
    assert not judged(an, ctx, "The Tuesday pottery class lasts an hour and a half, "
                               "starting at 6:30 pm.")
    assert judged(an, ctx, "The Tuesday pottery class lasts two hours, starting at 6:30 pm.")


def test_clock_in_words_faithful_and_changed(an: Analyzer) -> None:
    ctx = ["The recycling centre opens at 7:45 am."]
    assert not judged(an, ctx, "The recycling centre opens at a quarter to eight in the morning.")
    assert judged(an, ["The recycling centre opens at 8:15 am."],
                  "The recycling centre opens at a quarter to eight in the morning.")


def test_midnight_faithful_and_changed(an: Analyzer) -> None:
    answer = "You can vote online until midnight on 3 May."
    assert not judged(an, ["Online voting closes at 00:00 on 3 May."], answer)
    assert judged(an, ["Online voting closes at 18:00 on 3 May."], answer)


def test_a_predicative_privative_balances_a_spelled_out_denial() -> None:
    claim = part("No packaging levy is charged on parcels under 40 GBP.")
    sentence = part("Parcels under 40 GBP are exempt from the packaging levy.")
    assert privatives(sentence, claim) == 1
    assert balanced_by_privatives(claim, sentence, 1, 0)


def test_a_modifier_privative_or_a_shared_one_counts_nothing() -> None:
    claim = part("Leftover study budget does not carry over.")
    sentence = part("Unused study budget carries over to next year.")
    assert privatives(sentence, claim) == 0  # "unused budget": a noun's modifier
    both = part("Unused study budget is not carried over.")
    assert privatives(both, sentence) == 0


def test_exempt_restated_as_no_charge(an: Analyzer) -> None:
    ctx = ["Orders under 40 GBP are exempt from the packaging surcharge."]
    assert not judged(an, ctx, "No packaging surcharge is charged on orders under 40 GBP.")
    assert judged(an, ctx, "No packaging surcharge is charged on orders under 60 GBP.")


def test_anchored_needs_the_subject_and_each_figure_of_that_sentence() -> None:
    sentence = part("The choir rehearses for 2 hours every Wednesday evening.")
    assert anchored(part("The choir practises 2 hours on Wednesday evenings."), sentence)
    assert not anchored(part("The choir practises 3 hours on Wednesday evenings."), sentence)
    assert not anchored(part("The orchestra practises 2 hours on Wednesday evenings."),
                        sentence)
    assert not anchored(part("Allow 2 hours on Wednesday evenings."), sentence)  # no subject


def test_a_figure_of_another_subject_stays_flagged(an: Analyzer) -> None:
    ctx = ["The choir rehearses for 2 hours every Wednesday evening. The orchestra "
           "rehearses for 3 hours."]
    assert judged(an, ctx, "Choir practice takes 3 hours on Wednesday evenings.")
    assert not judged(an, ctx, "Choir practice takes 2 hours on Wednesday evenings.")


def test_anchored_needs_more_than_the_subject_and_its_figure(an: Analyzer) -> None:
    # what the claim says of the subject must share a word with the sentence: an invented
    # predicate about the same numbered thing is no rewording (the lead, session 27)
    sentence = part("Kiln 14 in studio 3 fires stoneware at night.")
    assert not anchored(part("Kiln 14 was sold to a school last year."), sentence)
    assert anchored(part("Kiln 14 fires stoneware overnight."), sentence)
    ctx = ["Locker 48 on deck 2 opens with the blue key card."]
    assert judged(an, ctx, "Locker 48 was removed for repairs until spring.")
    assert not judged(an, ctx, "Locker 48 opens with the blue key card.")
