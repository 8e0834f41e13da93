"""Session 28: a universal that ranges over what the sentence's subject already covers
(ranged.py: "the whole kit" said as "all", "anything you scan" for "scanned pages"), and
a need said in one word ("optional" for "not required": necessity.py), read both ways."""

import pytest

from ragassay.judge.offline import Analyzer
from ragassay.judge.offline.clauses import part
from ragassay.judge.offline.necessity import needless_in_one_word
from ragassay.judge.offline.paraphrase import negations_of
from ragassay.judge.offline.ranged import ranges_as_said
from tests.support.offline import judged


def _ranges(claim: str, sentence: str) -> bool:
    return ranges_as_said(part(claim), part(sentence))


def test_totality_word_said_as_all() -> None:
    assert _ranges("The repair kit holds all 9 spanners.",
                   "The repair kit holds the whole set of 9 spanners.")
    assert _ranges("If the tour is cancelled you get all your money back.",
                   "If the tour is cancelled you receive a full refund.")


def test_totality_does_not_cover_a_widened_subject() -> None:
    assert not _ranges("All bookings get a full refund.",
                       "Bookings made a week ahead get a full refund.")
    assert not _ranges("All tenants get a full refund.",
                       "Senior tenants get a full refund.")


def test_restricted_universal_as_the_subject_is() -> None:
    assert _ranges("Anything you scan stays in the Inbox for 60 days.",
                   "Scanned pages stay in the Inbox for 60 days.")
    assert _ranges("Any tokens you don't spend within 6 months vanish.",
                   "Tokens that are not spent within 6 months vanish.")
    assert _ranges("At closing, anyone still skating is asked to leave the rink.",
                   "At closing, skaters still on the ice are asked to leave the rink.")


def test_unrestricted_universal_is_not_read_so() -> None:
    assert not _ranges("Everyone can borrow the kayaks.", "Club members can borrow the kayaks.")
    assert not _ranges("Anything you print is free.", "Colour posters you print are free.")


def test_one_word_need_balances_a_spelled_out_one() -> None:
    p, u = part("Gloves are optional at the pottery wheel."), part(
        "Gloves are not required at the pottery wheel.")
    assert needless_in_one_word(p, u, negations_of(p, u), negations_of(u, p))
    q = part("Gloves are required at the pottery wheel.")
    assert not needless_in_one_word(p, q, negations_of(p, q), negations_of(q, p))


def test_unused_counts_as_the_spelled_out_denial() -> None:
    p, u = part("Any vouchers you don't use expire in March."), part(
        "Unused vouchers expire in March.")
    assert negations_of(p, u) == negations_of(u, p) == 1


@pytest.fixture(scope="module")
def analyzer() -> Analyzer:
    return Analyzer()


def test_judged_both_ways(analyzer: Analyzer) -> None:
    # a flip of need with the same figure on both sides is still a flip
    assert judged(analyzer, ["Life jackets are required on the 12 km river trip."],
                  "Life jackets are optional on the 12 km river trip.")
    assert not judged(analyzer, ["At 6pm, visitors still inside the gardens are shown out "
                                 "through the north gate."],
                      "At 6pm, everyone still inside the gardens is shown out through the "
                      "north gate.")
    assert judged(analyzer, ["Premium members get free entry to the 3 winter lectures."],
                  "All members get free entry to the 3 winter lectures.")
