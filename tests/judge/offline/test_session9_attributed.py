"""Issue #38, session 9 (each swap failed at f73b4cf): what the contexts say of one of
their entities, said of another of theirs (attributed.py): a branch, a package, a dive
site, a person, a plan. The entity's own statement, a synonym of it, a list that names
both, or a claim that a unit says of the claim's own entity, is not flagged. Wording
and domains none of the probe batches use."""

from __future__ import annotations

import pytest

from ragassay.judge.offline import Analyzer
from tests.support.offline import evidence, flagged

SWAPPED = [
    (["Our harbour depot is open 24 hours a day.",
      "The station depot is open from 07:00 to 19:00."],
     "Which depot is open all night?", "The station depot is open 24 hours a day."),
    (["The basic tuning package costs £60 and covers a pitch check.",
      "The concert tuning package costs £140 and includes a voicing adjustment."],
     "Which package includes voicing?", "The basic tuning package includes a voicing adjustment."),
    (["Kestrel Bay is sheltered and ideal for first-time snorkellers.",
      "The Pinnacle drops to 30 metres and is for advanced snorkellers only."],
     "Where should beginners snorkel?",
     "The Pinnacle is sheltered and ideal for first-time snorkellers."),
    (["The Lite plan costs 3 EUR a month and includes cloud backup.",
      "The Max plan costs 9 EUR a month and includes priority support."],
     "What does the Lite plan include?",
     "The Lite plan costs 3 EUR a month and includes priority support."),
]

KEPT = [
    (["Our harbour depot is open 24 hours a day.",
      "The station depot is open from 07:00 to 19:00."],
     "Which depot is open all night?",
     "The harbour depot is open around the clock, 24 hours a day."),
    (["The Lite plan costs 3 EUR a month and includes cloud backup.",
      "The Max plan costs 9 EUR a month and includes priority support."],
     "What does the Lite plan include?", "The Lite plan includes cloud backup."),
    (["Our head baker, Ana Ruiz, bakes the sourdough every morning.",
      "Ana Ruiz also runs the Sunday brunch."], "Who bakes the bread?",
     "Ana Ruiz bakes the sourdough every morning."),
    (["The library stocks novels in French, German, Polish and Urdu."],
     "Do you have Polish books?", "Yes, the library stocks novels in Polish."),
    (["Glazing is done by our studio potter.", "Firing takes two days in the main kiln."],
     "Who glazes the pots?", "Our studio potter does the glazing."),
]


@pytest.mark.parametrize(("contexts", "question", "answer"), SWAPPED)
def test_a_statement_given_to_another_entity_is_flagged(
        an: Analyzer, contexts: list[str], question: str, answer: str) -> None:
    ev = evidence(an, contexts, answer, question)
    assert flagged(ev) and "entity" in ev.contradicts, ev


@pytest.mark.parametrize(("contexts", "question", "answer"), KEPT)
def test_the_entitys_own_statement_is_not_flagged(
        an: Analyzer, contexts: list[str], question: str, answer: str) -> None:
    ev = evidence(an, contexts, answer, question)
    assert "entity" not in ev.contradicts, ev


def test_a_name_swapped_in_apposition(an: Analyzer) -> None:
    """(A known limit of session 9: "by our senior farrier, Gwen Tallis" has no word
    beside the name that the claim's name has, so attributed.py sees no same slot;
    session 10's mixed.named_elsewhere reads the name as another sentence's.)"""
    ev = evidence(an, ["Home visits are made by our senior farrier, Gwen Tallis. Our "
                       "apprentice, Rhys Moran, works in the forge."],
                  "Home visits are made by Rhys Moran, our senior farrier.",
                  "Who makes home visits?")
    assert flagged(ev) and "entity" in ev.contradicts, ev
