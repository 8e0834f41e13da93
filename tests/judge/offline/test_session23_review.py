"""Session 23's reviews (issue #38): faithful answers the session's new rules flagged and
their mends. Review 23a: a claim that names the context's part in its own words or at its
end ("younger than five", "as long as they are on a lead") widens nothing
(otherwise._says_part); a sibling whose own sentence says it shares the fact ("at the same
rate", "too", "as well", "the same rule") is no swap (framed._shares). Review 23b:
"requires no X" is "X is not needed", and "not optional" is "required"
(necessity.need). Cases in words of our own, none from a probe batch."""

from __future__ import annotations

import pytest

from ragassay.judge.offline import Analyzer
from tests.support.offline import judged

_FARES = ["Children under five ride free on all our trams. Older children pay a half "
          "fare. Adults pay the fare shown at the stop."]
_GALLERY = ["Residents aged 65 and over get free entry to the gallery. Other residents "
            "pay £5."]
_TERRACE = ["Dogs on a lead are welcome on the terrace. Loose dogs must stay by the car "
            "park."]
_BOATS = ["Guided canoes leave the pier at 10am and 3pm. Solo canoes can be hired at any "
          "time from the hut."]



@pytest.mark.parametrize(("contexts", "answer", "flags"), [
    # 23a, otherwise: the claim names the part itself, in its own words or at its end
    (_FARES, "Children younger than five ride free on the trams.", False),
    (_GALLERY, "Residents who are 65 or older get into the gallery free.", False),
    (_TERRACE, "Dogs are welcome on the terrace as long as they are on a lead.", False),
    (_BOATS, "Canoes leave the pier at 10am and 3pm on guided trips.", False),
    # ... and the widening it was built for still flagged
    (_FARES, "Children ride free on the trams.", True),
    (_TERRACE, "Dogs are welcome on the terrace.", True),
    # 23a, framed: the sibling's own sentence says it shares the fact
    (["Bay A permits cost £60 per year. Bay B permits are charged at the same rate."],
     "Bay B permits cost £60 per year.", False),
    (["Bay A permits cost £60 per year. Bay B permits cost £60 too."],
     "Bay B permits cost £60 per year.", False),
    (["Room A has a grand piano. Room B has one as well, and a harp."],
     "Room B has a grand piano.", False),
    (["Bags left on coaches are held at the depot for 10 days. Bags left on ferries "
      "follow the same rule."], "Bags left on ferries are held at the depot for 10 days.",
     False),
    # 23b, necessity: "requires no X", "not optional"
    (["No special footwear is needed for the walk."],
     "The walk requires no special footwear.", False),
    (["Goggles are not optional in the workshop."],
     "Goggles are needed in the workshop at all times.", False),
    (["Goggles are required in the workshop."], "Goggles are optional in the workshop.",
     True),
])
def test_session23_review_mends(an: Analyzer, contexts: list[str], answer: str,
                                flags: bool) -> None:
    assert judged(an, contexts, answer) is flags


@pytest.mark.parametrize(("contexts", "answer", "flags"), [
    # asides.py reads an aside with its clause only where the clause goes on to a figure
    (["Adult passes cost £30 and junior passes (ages 8-16) cost £12."],
     "For juniors aged 8 to 16, a pass costs £12.", False),
    (["The bulky-item service (Team B) collects sofas on Thursdays. Garden waste goes "
      "out on Fridays."], "Sofas are collected on Thursdays.", False),
])
def test_asides_for_a_figure(an: Analyzer, contexts: list[str], answer: str,
                             flags: bool) -> None:
    assert judged(an, contexts, answer) is flags


def test_an_aside_is_dropped_only_before_a_figure() -> None:
    from ragassay.judge.offline.asides import unbracketed

    assert unbracketed("Child tickets (ages 4-15) cost £5.") == "Child tickets ages 4-15 cost £5."
    assert unbracketed("Sofas (Team B) are collected on Thursdays.") == (
        "Sofas (Team B) are collected on Thursdays.")
