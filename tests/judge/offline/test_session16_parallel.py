"""Issue #38, session 16: a claim that says what the contexts say of one of two parallel
things (two clauses of a sentence, or two sentences about entities of one kind) of the
other (`parallel.parallel_swap`). Each flagged case passed as supported before the
module; the faithful ones keep passing. Wording and domains none of the probe batches
use."""

from __future__ import annotations

import pytest

from ragassay.judge.offline import Analyzer
from tests.support.offline import assert_judged


@pytest.mark.parametrize(("contexts", "answer"), [
    # a figure of one clause given to the other clause's subject (a gapped verb)
    (["The upper reservoir is kept at 14 metres and the lower reservoir at 9 metres."],
     "The lower reservoir is the deepest, kept at 14 metres."),
    # two sentences about two things of one kind
    (["The Alder kiln fires at 1,280 degrees. The Birch kiln is cooler at 1,050 degrees "
      "with a slower ramp."], "The Birch kiln is the hottest, firing at 1,280 degrees."),
    # a "while" clause: the name of one clause's predicate given to the other's subject
    (["Heavy pallets are collected by Norrland Freight, while small boxes go through the "
      "regional courier network."], "Small boxes are collected by Norrland Freight."),
    # a subject given the other clause's predicate words
    (["Lavender is best grown in a dry gravel bed, while mint and parsley want a damp "
      "corner by the tap."], "Lavender is a good pick for a damp corner by the tap."),
    # two named things, one given the other's figure
    (["The Kestrel tent sleeps two to three people. The larger Osprey tent sleeps up "
      "to seven."], "For a group, the Kestrel tent is best, as it sleeps up to seven."),
])
def test_a_slot_given_the_other_slots_predicate_is_flagged(
        an: Analyzer, contexts: list[str], answer: str) -> None:
    assert_judged(an, contexts, answer, flags=True, kind="entity")


@pytest.mark.parametrize(("contexts", "answer"), [
    # each said of its own
    (["The upper reservoir is kept at 14 metres and the lower reservoir at 9 metres."],
     "The upper reservoir is the deepest, kept at 14 metres."),
    (["The Kestrel tent sleeps two to three people. The larger Osprey tent sleeps up "
      "to seven."], "For a group, the Osprey tent is best, as it sleeps up to seven."),
    (["Heavy pallets are collected by Norrland Freight, while small boxes go through the "
      "regional courier network."],
     "Small boxes go through the regional courier network."),
    # items of a list split into clauses are no slots
    (["The Rover Pass covers buses, trams and ferries, and gives free entry to 40 "
      "galleries."], "The Rover Pass gives free entry to 40 galleries."),
    # a clause saying the sentence's predicate of the claim's entity ("as is ...")
    (["The Harbour pool is heated to 29 degrees all winter, as is the Quayside pool."],
     "The Quayside pool is heated to 29 degrees all winter."),
    # (two passages are no parallel slots: on real pages such pairs cost more AUROC than
    # they gained; the case kept here until session 25, "Ask Ines Okoro, our treasurer;
    # she books pitches ..." against "Rafe Lindqvist, the fixtures secretary, books
    # pitches ...", is a swap that mixed.named_elsewhere now catches:
    # test_session25_handler)
    # another sentence says it of the claim's entity too
    (["The upper reservoir is kept at 14 metres and the lower reservoir at 9 metres. "
      "In a dry summer the lower reservoir is also kept at 14 metres."],
     "In a dry summer the lower reservoir is kept at 14 metres."),
])
def test_a_claim_said_of_its_own_slot_is_not_flagged(
        an: Analyzer, contexts: list[str], answer: str) -> None:
    assert_judged(an, contexts, answer, flags=False)
