"""Session 6: words of necessity read as one word for claim alignment ("essential",
"required", "needed", "mandatory", "compulsory", ...), so that a negation of one is set
against another ("Booking is essential" / "booking isn't needed" was supported, 7.9 of
10, in trial 52). In other words than the probe batches."""

from __future__ import annotations

import pytest

from ragassay.judge.offline import Analyzer
from tests.support.offline import assert_judged

TASTING = ["Reservations are essential for the tasting menu."]
LUNCH = ["A reservation is not required for lunch."]
HELMETS = ["Helmets are mandatory on all rides."]


@pytest.mark.parametrize(("contexts", "answer", "flags"), [
    # a negation of another word of necessity contradicts
    (TASTING, "No, reservations aren't needed for the tasting menu.", True),
    (LUNCH, "A reservation is necessary for lunch.", True),
    (HELMETS, "Helmets are not compulsory on all rides.", True),
    # the same polarity in another word restates
    (TASTING, "Reservations are required for the tasting menu.", False),
    (LUNCH, "Reservations aren't needed for lunch.", False),
    (HELMETS, "Helmets are compulsory on all rides.", False),
])
def test_a_word_of_necessity_is_read_with_its_polarity(
        an: Analyzer, contexts: list[str], answer: str, flags: bool) -> None:
    assert_judged(an, contexts, answer, flags=flags, kind="negation" if flags else None)
