"""Issue #38, session 9 (each widened case failed at f73b4cf): a restriction of the
context dropped by the claim in shapes the scope rules did not read: a phrase after the
restated modifier ("... over 50 pounds | to addresses in Wales"), a participle not in
-ed ("boats taken out on the lake"), an ordinal ("before their first lesson" for "before
each lesson"), a range of days without "on" ("..., Tuesday to Friday"), a time of day
bounding a benefit ("before 11am"), "only if/only on" and its case, and a clause
without a subject of its own said under its sentence's times. The restriction kept, or
a claim that says no more than the context, is not flagged. Wording and domains none of
the probe batches use."""

from __future__ import annotations

import pytest

from ragassay.judge.offline import Analyzer
from tests.support.offline import evidence, flagged

WIDENED = [
    (["Free returns apply to orders over 50 pounds to addresses in Wales. Other "
      "returns cost 4 pounds."], "Are returns free?",
     "Yes, returns are free on all orders over 50 pounds."),
    (["Life jackets are provided free with boats taken out on the upper lake."],
     "Do I get a life jacket?", "Yes, life jackets are provided free with every boat."),
    (["A health form must be signed by every rider before their first lesson."],
     "Do I sign a form?", "Yes, a health form must be signed by every rider before each lesson."),
    (["Free parking is available for all diners who arrive after 6pm, Tuesday to Friday."],
     "Is parking free?", "Yes, free parking is available for all diners who arrive after 6pm."),
    (["Retired members get 10% off court hire before 11am with a valid card."],
     "Is there a discount for retired members?",
     "Yes, retired members get 10% off court hire with a valid card."),
    (["Nurses get 15% off gym time on weekdays with an NHS card."],
     "Do nurses get a discount?", "Yes, nurses get 15% off gym time with an NHS card."),
    (["The depot takes old paint only if the tins are sealed and labelled."],
     "Do you take old paint?", "Yes, the depot takes old paint."),
    (["Lost property can be collected only on Wednesdays from the station office."],
     "When can I collect lost property?",
     "Lost property can be collected from the station office."),
    (["Tickets for the quiz are sold at the bar during the Friday happy hour, 6-7pm, "
      "in cash or by card."], "Can I buy quiz tickets?",
     "Yes, you can buy quiz tickets at the bar at any time in cash or by card."),
]

KEPT = [
    (["Free returns apply to orders over 50 pounds to addresses in Wales."],
     "Are returns free?", "Yes, returns are free on orders over 50 pounds to addresses in Wales."),
    (["Free returns apply to orders over 50 pounds to any UK address."],
     "Are returns free?", "Yes, returns are free on all orders over 50 pounds."),
    (["A health form must be signed by every rider before their first lesson."],
     "Do I sign a form?", "Yes, every rider signs a health form before their first lesson."),
    (["Free parking is available for all diners who arrive after 6pm, Tuesday to Friday."],
     "Is parking free?",
     "Yes, from Tuesday to Friday parking is free for all diners who arrive after 6pm."),
    (["Retired members get 10% off court hire before 11am with a valid card."],
     "Is there a discount for retired members?",
     "Yes, retired members get 10% off court hire before 11am with a valid card."),
    (["The depot takes old paint only if the tins are sealed and labelled."],
     "Do you take old paint?", "Yes, as long as the tins are sealed and labelled."),
    (["The café serves breakfast for 8 pounds, from 7am."], "How much is breakfast?",
     "Breakfast costs 8 pounds."),
    (["Members get 10% off everything in the shop."], "Do members get a discount?",
     "Yes, members get 10% off everything in the shop."),
]


@pytest.mark.parametrize(("contexts", "question", "answer"), WIDENED)
def test_a_dropped_restriction_is_flagged(an: Analyzer, contexts: list[str], question: str,
                                          answer: str) -> None:
    ev = evidence(an, contexts, answer, question)
    assert flagged(ev) and "quantifier" in ev.contradicts, ev


@pytest.mark.parametrize(("contexts", "question", "answer"), KEPT)
def test_a_kept_restriction_is_not_flagged(an: Analyzer, contexts: list[str], question: str,
                                           answer: str) -> None:
    ev = evidence(an, contexts, answer, question)
    assert not any(ev.contradicts), ev
