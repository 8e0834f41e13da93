"""Session 27 (k219), issue #38: negation flips read claim by claim.

- A unit's negation bears on the word the claim says by its antonym ("is not allowed" /
  "is forbidden" agree), as a claim's negation already did the other way round.
- "stopped collecting", "ceased offering": a finite verb that ends an act denies its
  "-ing" complement from now on, as "no longer" does.
- "refuses" / "accepts", "waives" / "charges": verbs of stance in the lexicon, in the
  forms that are no noun ("refuse" alone is rubbish).
- "offers free tours": a "free" after a verb of having or giving is the price of what is
  had, no privative of the verb ("dairy-free" still is).
- "carried" is "carry", as "carries" is (stem: "-ied" read "-y").
- A "while" clause joins a clause too short to be aligned alone ("You should not donate |
  while you have a cold").
- Withdrawn (held-out answers went wrong): "provided at/by" read as a participle, no
  condition (a strict xfail below).
Cases in words of our own, none from a probe batch."""

from __future__ import annotations

import pytest

from ragassay.judge.offline import Analyzer
from ragassay.judge.offline.lexical import stem
from tests.support.offline import judged

_KILNS = "Using the kilns unsupervised is not allowed in the pottery studio."
_BINS = "The district collects food waste every Tuesday."
_CLINIC = "The clinic accepts referrals from private physiotherapists."
_CARD = "The credit union charges a fee for replacement cards."
_GALLERY = "The gallery offers free sketching classes on Thursdays."
_BARGE = "The canal barge carries wheelchairs on every trip."
_SAUNA = "You should not use the sauna while you are pregnant; ask your midwife first."


@pytest.mark.parametrize(("contexts", "answer", "flags"), [
    # a denial restated by an antonym, either way round (flagged before)
    ([_KILNS], "Using the kilns unsupervised is forbidden in the pottery studio.", False),
    ([_KILNS], "Using the kilns unsupervised is allowed in the pottery studio.", True),
    (["Using the kilns unsupervised is forbidden."],
     "Using the kilns unsupervised is not allowed.", False),
    # an act ended against the act stated
    ([_BINS], "The district stopped collecting food waste.", True),
    ([_BINS], "The district collects food waste on Tuesdays.", False),
    (["The district has stopped collecting food waste."],
     "The district no longer collects food waste.", False),
    # verbs of stance
    ([_CLINIC], "The clinic refuses referrals from private physiotherapists.", True),
    ([_CLINIC], "Referrals from private physiotherapists are accepted by the clinic.", False),
    (["The clinic refuses referrals from private physiotherapists."],
     "The clinic does not accept referrals from private physiotherapists.", False),
    ([_CARD], "The credit union waives the fee for replacement cards.", True),
    (["The credit union waives the fee for replacement cards."],
     "Replacement cards carry no fee at the credit union.", False),
    # "free" after a verb of having
    ([_GALLERY], "The gallery no longer offers sketching classes on Thursdays.", True),
    ([_GALLERY], "On Thursdays the gallery offers sketching classes for free.", False),
    # "-ied" forms
    ([_BARGE], "Wheelchairs are not carried on the canal barge.", True),
    ([_BARGE], "Wheelchairs are carried on the canal barge.", False),
    # a "while" condition of a short clause
    ([_SAUNA], "You can use the sauna while you are pregnant.", True),
    ([_SAUNA], "You shouldn't use the sauna while you are pregnant.", False),
    # "while" contrasting two statements stays apart
    (["Adults pay 6 euros for the sauna, while children under 12 go free."],
     "Children under 12 use the sauna for free.", False),
])
def test_negation_flips(an: Analyzer, contexts: list[str], answer: str, flags: bool) -> None:
    assert judged(an, contexts, answer) is flags


def test_ied_stem_is_the_base() -> None:
    assert stem("carried") == stem("carry") == stem("carries")
    assert stem("tied") == "tied"  # (too short to undo)


# (the "provided" reading stays withdrawn (session 27); session 28 reads "no longer" as
# aspect, no content word (carried_negation.aspect_marker), so the claim aligns anyway)
def test_provided_before_a_preposition_is_no_condition(an: Analyzer) -> None:
    # "provided at" cut off as "provided (that) ...": the denial is read apart from the claim
    assert judged(an, ["Lunch is provided at the nursery for all children."],
                  "Lunch is no longer provided at the nursery.")
