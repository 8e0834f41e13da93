"""Session 26 (k211): faithful paraphrases a rule capped with a wrong reason. A currency
code is the unit of a figure, no name a clause owns ("under 80 EUR" / "the 80 euro
limit"); a case the claim's own sentence states is no case it drops ("If you report it
before 9am, ... any home"); a list or a range the clause cutter split is read whole, each
item on its own ("needs rice, | lentils and tinned tomatoes"; "between Kessock | and
Avoch"). Each reading stays silent on the faithful answer and the twin is still caught."""

from __future__ import annotations

import pytest

from ragassay.judge.offline import Analyzer
from ragassay.judge.offline.list_items import list_items
from tests.support.offline import evidence, flagged

CASES = [
    # the case of a universal clause stated by the sentence's own condition
    (["Repairs reported before 9am Monday to Friday are visited the same day anywhere in "
      "the borough."],
     "If you report it before 9am, Monday to Friday, an engineer will visit any home in the "
     "borough that day.", False),
    (["Repairs reported before 9am Monday to Friday are visited the same day anywhere in "
      "the borough."],
     "An engineer will visit any home in the borough the same day.", True),
    # a list split by the clause cutter, read whole
    pytest.param(["The food bank is currently short of rice, lentils and tinned tomatoes."],
                 "These days the pantry is asking for rice, lentils and tinned tomatoes.",
                 False, marks=pytest.mark.xfail(strict=True, reason="list_items.statements "
                                                "was withdrawn in session 26 (a held-out "
                                                "answer went right to wrong)")),
    (["The food bank is currently short of rice, lentils and tinned tomatoes."],
     "These days the pantry is asking for rice, lentils and baby formula.", True),
]


@pytest.mark.parametrize(("contexts", "answer", "flags"), CASES)
def test_capped_paraphrases(an: Analyzer, contexts: list[str], answer: str,
                            flags: bool) -> None:
    ev = evidence(an, contexts, answer)
    assert flagged(ev) is flags, ev
    if not flags:
        assert not any(ev.contradicts) and not any(ev.unstated), ev


def test_list_items_end_items_cut_to_the_item() -> None:
    assert list_items("The kit holds a trowel, gloves and a seed tray") == [
        "trowel", "gloves", "a seed tray"]
    assert list_items("tents, stoves and a night guide are all included") == [
        "tents", "stoves", "a night guide"]
    assert list_items("The walk between Kessock and Avoch takes an hour") == []
    assert list_items("tea and coffee") == ["tea", "coffee"]


def test_invented_item_still_reported(an: Analyzer) -> None:
    ev = evidence(an, ["Setup, takedown and transport are included in the hire price for "
                       "venues within 20 miles of our Preston yard."],
                  "Yes - transport, setup and a lighting technician are all covered by the "
                  "hire as long as the venue is within 20 miles of our Preston yard.")
    assert flagged(ev), ev


def test_currency_code_is_no_name(an: Analyzer) -> None:
    """The contradiction is gone (its support, low for the rewording, may still flag it);
    a changed figure is still one."""
    ctx = ["Orders under 80 EUR are exempt from handling fees, though local VAT still applies."]
    ev = evidence(an, ctx, "No handling fee is charged, because the order is below the 80 "
                           "euro limit, but local VAT is still payable.")
    assert ev.contradicts == [None], ev
    ev = evidence(an, ctx, "No handling fee is charged, because the order is below the 120 "
                           "euro limit, but local VAT is still payable.")
    assert flagged(ev), ev
