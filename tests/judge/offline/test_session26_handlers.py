"""Session 26: a thing's handler given to another thing, in our own words. k212's
handlers.py read it (the party after "by", "with", "through", "at", "contact", ...) and
was withdrawn in session 26: it lowered the leave-one-dataset-out figures on SummEdits by
about 0.01 (false flags on faithful summaries). Its swaps stay strict xfails; the
faithful answers stay unflagged."""

from __future__ import annotations

import pytest

from ragassay.judge.offline import Analyzer
from tests.support.offline import judged

KEYS = ["Spare office keys are issued by the facilities team.",
        "Expense claims go to the finance office."]
PLOTS = ["Burial plots are reserved through the cemetery registrar.",
         "Memorial benches are arranged with the parks department."]
WITHDRAWN = pytest.mark.xfail(strict=True, reason="handlers.py withdrawn in session 26 "
                              "(SummEdits LOO lower)")


@pytest.fixture(scope="module")
def an() -> Analyzer:
    return Analyzer()


@pytest.mark.parametrize(("contexts", "answer"), [
    pytest.param(KEYS, "You can get a spare office key from the finance office.",
                 marks=WITHDRAWN),
    (PLOTS, "Burial plots are booked with the parks department."),  # (another rule)
])
def test_other_party_flagged(an: Analyzer, contexts: list[str], answer: str) -> None:
    assert judged(an, contexts, answer)


@pytest.mark.parametrize("answer", [
    "Spare office keys come from the facilities team.",
    "The facilities team hands out spare office keys, and expense claims go to finance.",
    "Expense claims are sent to the finance office.",
])
def test_right_party_kept(an: Analyzer, answer: str) -> None:
    assert not judged(an, KEYS, answer)


def test_a_figure_unit_is_no_thing(an: Analyzer) -> None:
    assert not judged(an, ["Parcels up to £40 can be sent back by post.",
                           "Bigger parcels are picked up by courier."],
                      "You can return parcels over £40 by courier.")


def test_a_claim_about_another_sentence_is_no_handler_swap(an: Analyzer) -> None:
    ctx = ["Calendar sync is available on the Team plan. Pinecal works with Google "
           "Calendar, Outlook and iCloud as calendar providers.",
           "Sync jobs pull events automatically from your calendar provider.",
           "Basic plan customers get chat support with a reply within 2 days."]
    assert not judged(an, ctx, "Calendar sync is available only on the Team plan, with "
                               "Google Calendar, Outlook and iCloud as supported calendar "
                               "providers.")
