"""Session 25 of issue #38: who does, hosts or receives something, said of another of the
contexts' entities (mixed.named_elsewhere, mixed.misplaced_name).

- a name with its title opening a sentence ("Priya Nair, our membership secretary,
  renews ...") is that sentence's doer, not an aside like "..., manager Jo Baker said";
- (a known limit, strict xfail) a sentence that names no one of its own has an entity
  in the claim's name's slot ("sent to the county office" against "... to the Harbour
  Trust"): a reading of it was withdrawn in session 25 after it flagged a faithful
  held-out answer (counts only; benches/RESULTS.md);
- a clause's verb in another regular form ("opened" / "opening") is still its words.

Each rule is checked both ways: a swap is caught, a faithful restatement is not.
"""

from __future__ import annotations

import pytest

from ragassay.judge.offline import Analyzer
from ragassay.judge.offline.clauses import part
from ragassay.judge.offline.mixed import misplaced_name, named_elsewhere
from tests.support.offline import assert_judged, units_of

ROLES = ["Our chairman, Victor Osei, opens each general meeting.",
         "Priya Nair, the membership secretary, renews lapsed subscriptions."]
PERMITS = ["Mooring permit renewals must be sent to the county office by post.",
           "Complaints about noise should go to the Harbour Trust."]
LAUNCH = ["The spring exhibition is opened by Grace Whitlow; the guest speaker is "
          "Omar Haddad.", "The autumn opening has not been arranged yet."]


def test_a_titled_name_opening_its_sentence_is_its_doer() -> None:
    units = units_of(ROLES)
    swapped = part("Ask Victor Osei, our chairman; he renews lapsed subscriptions.")
    assert named_elsewhere(swapped, units) == 1
    faithful = part("Ask Priya Nair, the membership secretary; she renews lapsed "
                    "subscriptions.")
    assert named_elsewhere(faithful, units) is None


def test_an_aside_at_the_end_is_still_the_source() -> None:
    units = units_of(["The ferry will not sail on Sunday, harbour master Ken Lowe said.",
                      "Ken Lowe has run the harbour since 2019."])
    assert named_elsewhere(part("Ken Lowe says the ferry will not sail on Sunday."),
                           units) is None


@pytest.mark.xfail(strict=True, reason="known limit: the name's slot reading was withdrawn")
def test_an_unnamed_sentence_has_an_entity_in_the_names_slot() -> None:
    units = units_of(PERMITS)
    swapped = part("Please send your mooring permit renewal to the Harbour Trust.")
    assert named_elsewhere(swapped, units) == 0
    faithful = part("Noise complaints should go to the Harbour Trust.")
    assert named_elsewhere(faithful, units) is None


def test_a_reworded_verb_still_counts_as_the_clauses_words() -> None:
    units = units_of(LAUNCH)
    swapped = part("Omar Haddad is opening the spring exhibition.")
    assert misplaced_name(swapped, units.near(swapped, None, 1), units) == 0
    faithful = part("Grace Whitlow is opening the spring exhibition.")
    assert misplaced_name(faithful, units.near(faithful, None, 1), units) is None


def test_the_judge_flags_the_swaps_and_passes_the_restatements() -> None:
    an = Analyzer()
    assert_judged(an, PERMITS, "Send mooring permit renewals to the county office by "
                  "post.", False)
    assert_judged(an, ROLES, "Ask Victor Osei, our chairman; he renews lapsed "
                  "subscriptions.", True, "entity")
    assert_judged(an, ROLES, "Victor Osei, the chairman, opens each general meeting.",
                  False)
