"""Issue #38, session 13: a claim in other words that no figure anchors. Wording and
domains none of the probe batches use; each faithful case was flagged at 7060f25.

- A clause of a longer claim is no invented detail when one context sentence or clause
  says it in other words (static sentence embeddings 0.6 close) and every figure of it
  is that unit's (`stated.said_otherwise`).
- A claim with no figure restating a sentence in other words stays unsupported: a first
  version lifted it, and with it one-word swaps (review 13, test_review13.py R4)."""

from __future__ import annotations

import pytest

from ragassay.judge.offline import Analyzer
from tests.support.offline import assert_judged, evidence


def test_a_clause_said_in_other_words_is_no_invented_detail(an: Analyzer) -> None:
    ev = assert_judged(
        an, ["Each quiz team has between four and six members. Three members answer in "
             "every round."],
        "A quiz team has four to six members, and three of them take part in each round.",
        flags=False)
    assert ev.unstated == [None]


def test_a_clause_with_a_figure_no_unit_has_is_still_invented(an: Analyzer) -> None:
    ev = assert_judged(
        an, ["Knives can be sent to us by post."],
        "Yes, you can post your knives to us, and we'll return them within 5 working days.",
        flags=True)
    assert ev.unstated == ["and we'll return them within 5 working days"]


@pytest.mark.xfail(strict=True, reason="known limit: a paraphrase with no figure to check "
                   "it by is unsupported (docs/judges.md, Known limits)")
def test_limit_a_claim_with_no_figure_in_other_words_is_supported(an: Analyzer) -> None:
    assert_judged(
        an, ["Guests are welcome to swim in the sheltered cove on the west side of the "
             "island.", "The harbour is reserved for fishing boats."],
        "Sure, feel free to swim in the sheltered bay on the island's western side. The "
        "harbour is kept for fishing boats.", flags=False)


def test_a_claim_with_no_figure_that_widens_or_adds_stays_flagged(an: Analyzer) -> None:
    # "open to everyone" for "reserved for members"; the sentence's figure dropped
    assert_judged(an, ["Every booking includes a towel and a locker.",
                       "The sauna is reserved for members."],
                  "Each booking comes with a locker and a towel. The sauna is open to "
                  "everyone.", flags=True)
    ev = evidence(an, ["Certificates are given to the top three finishers in each race."],
                  "Every runner gets a certificate for each race.")
    assert ev.faithfulness is not None and ev.faithfulness < 0.5
