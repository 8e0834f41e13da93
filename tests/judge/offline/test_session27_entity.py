"""Session 27 (k220): the question's thing given another unit's answer
(answered_elsewhere.py), both ways: the swap flagged, the same fact in other words and
a second fact added beside it left alone."""

from __future__ import annotations

import pytest

from ragassay.judge.offline import Analyzer
from tests.support.offline import assert_judged

_DESKS = ["Boiler breakdowns are handled by our heating team on 0113 496 0001.",
          "Questions about your bill go to the customer accounts desk on 0113 496 0002."]
_APPEALS = ["Parking appeals must be sent to the Traffic Enforcement Centre.",
            "Complaints about wardens should go to the council's standards office."]
_MARKET = ["On Tuesdays the market is held in Victoria Square.",
           "On Fridays the stalls move to the Corn Exchange car park."]
_WARDS = ["Maternity is on Ward 7. The children's ward is Ward 12."]
_REPAIRS = ["To return a faulty heater, phone our repairs line on 0800 123 4567.",
            "For delivery queries, email our logistics team at ship@warmly.example."]


@pytest.mark.parametrize(("contexts", "question", "answer"), [
    (_DESKS, "Who do I call about a broken boiler?",
     "For a broken boiler, ring the customer accounts desk on 0113 496 0002."),
    (_APPEALS, "Where do I send a parking appeal?",
     "Send your parking appeal to the council's standards office."),
    (_MARKET, "Where is the Tuesday market held?",
     "The Tuesday market sets up in the Corn Exchange car park."),
    (_WARDS, "Which ward is maternity on?", "Maternity is on Ward 12."),
    (_REPAIRS, "How do I return a faulty heater?",
     "To return a faulty heater, email the logistics team at ship@warmly.example."),
])
def test_answer_taken_from_another_unit_is_flagged(an: Analyzer, contexts: list[str],
                                                   question: str, answer: str) -> None:
    assert_judged(an, contexts, answer, True, question=question)


@pytest.mark.parametrize(("contexts", "question", "answer"), [
    (_DESKS, "Who do I call about a broken boiler?",
     "Boiler breakdowns are dealt with by the heating team, on 0113 496 0001."),
    (_APPEALS, "Where do I send a parking appeal?",
     "Appeals against a parking ticket go to the Traffic Enforcement Centre."),
    (_MARKET, "Where is the Tuesday market held?",
     "Every Tuesday you'll find the market in Victoria Square."),
    (_WARDS, "Which ward is maternity on?", "You'll find maternity on Ward 7."),
    (_REPAIRS, "How do I return a faulty heater?",
     "To return a faulty heater, phone the repairs line on 0800 123 4567."),
    # a second fact beside the first, in a clause of its own: added, not moved
    (["To change a delivery, message our dispatch team through the app.",
      "The dispatch team replies within two hours."], "Who do I contact to change my delivery?",
     "To change your delivery, message the dispatch team in the app; they reply within"
     " two hours."),
    (["The Aria kettle comes with a 2-year warranty.",
      "Warranty claims are handled by our returns team."],
     "How long is the warranty on the Aria kettle?",
     "The Aria kettle has a 2-year warranty, and claims are handled by the returns team."),
])
def test_same_fact_or_added_fact_is_left_alone(an: Analyzer, contexts: list[str],
                                               question: str, answer: str) -> None:
    assert_judged(an, contexts, answer, False, question=question)
