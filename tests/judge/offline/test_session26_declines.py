"""Session 26 (k206): correct declines read as declines, and a decline that still
answers read as a claim. Own sentences and domains."""

from __future__ import annotations

import pytest

from ragassay.judge.offline import Analyzer
from ragassay.judge.offline.declines import is_noncommittal
from ragassay.judge.offline.silent import unnamed
from tests.support.offline import judged

KILN = ["The glass studio's kiln fires every Friday.",
        "Fused-glass workshops cost £55 and last three hours."]
KENNEL = ["The kennels take dogs for stays of up to four weeks.",
          "Each dog gets two walks a day."]


@pytest.fixture(scope="module")
def an() -> Analyzer:
    return Analyzer()


@pytest.mark.parametrize("answer", [
    "I'm unsure about group bookings for the workshop.",
    "I can't be certain about that, sorry.",
    "I'd rather not guess how long a commission takes.",
    "I wouldn't want to speculate about that.",
    "I don't want to give you the wrong answer on pricing for schools.",
    "I'd hate to mislead you about the parking.",
    "I'm not in a position to answer that one.",
])
def test_own_uncertainty_declines(an: Analyzer, answer: str) -> None:
    assert is_noncommittal(answer)
    assert not judged(an, KILN, answer)


@pytest.mark.parametrize("answer", [
    "If you're unsure, the workshops cost £55.",  # the user's doubt: a claim follows
    "Workshops cost £55, so you won't be misled by the price.",
])
def test_user_uncertainty_is_no_decline(answer: str) -> None:
    assert not is_noncommittal(answer)


def test_where_the_speaker_looked_names_no_world_fact(an: Analyzer) -> None:
    assert "FAQ" not in unnamed("Gift vouchers aren't in the FAQ.")
    assert not judged(an, KENNEL, "Cat boarding isn't in the FAQ.")
    assert not judged(an, KENNEL, "There's nothing about grooming in the FAQ.")
    # ... the figure in a source phrase is still read
    assert "2019" in unnamed("It isn't in the 2019 handbook.")


# (k206's withdrawn contrasted.py; read since session 27 by
# beside_decline_conflict.adds_unstated)
def test_contrast_after_a_decline_is_a_claim(an: Analyzer) -> None:
    assert judged(an, KENNEL, "I can't confirm that, but cats stay free.")
    assert judged(an, KENNEL, "I'm not sure, although puppies get extra walks.")
    # ... faithful: the statement against the decline is what the contexts say
    assert not judged(an, KENNEL, "I can't confirm about cats, but each dog gets two walks a day.")



def test_passive_stated_at_clause_end_declines(an: Analyzer) -> None:
    assert not judged(an, KENNEL, "The drop-off time isn't stated; the passages only say "
                                  "each dog gets two walks a day.")
    # ... "included" stays a claim of the world when the contexts state the topic
    assert judged(an, KENNEL, "Walks aren't included.")


def test_the_guide_the_speaker_has(an: Analyzer) -> None:
    assert not judged(an, KILN, "The leaflet I have only covers firing days and workshop prices.")
    assert is_noncommittal("The leaflet I was given only covers firing days.")
    # ... not a guide of the world: a person, or the business's ("we have")
    assert not is_noncommittal("Our guide only covers the north trail.")
    assert not is_noncommittal("The guide we have only covers the north trail.")
