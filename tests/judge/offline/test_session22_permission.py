"""Session 22, issue #38: a claim that something is allowed where its passage forbids it
in other words ("welcome" / "not permitted", "can park in" / "must not use", "can pay
by" / "no longer accept", "banned", "forbidden") is a negation conflict; a permission
restated, kept under its condition, granted in another place, or of the exception the
passage makes, is not. Cases in words of our own, none from a probe batch."""

from __future__ import annotations

import pytest

from ragassay.judge.offline import Analyzer
from ragassay.judge.offline.clauses import part
from ragassay.judge.offline.deontic import FORBIDDEN, PERMITTED, stance
from tests.support.offline import judged, known_limit

_KAYAKS = "Kayaks are not permitted in the harbour, except during the regatta."
_LIBRARY = "Readers must not use the rare books room. The main reading room is open to all."
_CARDS = "The box office no longer accepts cash. You can pay by card or phone."
_VAPING = "Vaping is banned across the campus, including car parks."
_GLASS = "Glass jars are forbidden in the recycling bin. Cardboard is fine."
_GUESTS = "Courts can be reserved by members only; visitors book at the desk."
_REFUNDS = "Refunds are not given within 7 days of the event. Earlier refunds are free."
_PHOTOS = "Filming is prohibited during the concert. You may film in the lobby."
_PETS = "Pets are not allowed in the cabins, except guide dogs."


@pytest.mark.parametrize(("contexts", "answer", "flags"), [
    # a permission against a ban in other words (missed before)
    ([_PETS], "Pets are welcome in the cabins.", True),
    ([_LIBRARY], "You can study in the rare books room.", True),
    ([_CARDS], "Yes, you can pay cash at the box office.", True),
    pytest.param([_CARDS], "You can pay with cash.", True, marks=known_limit(
        "'You can pay by card' restates it with one word swapped, and that swap is not "
        "read: the restatement outweighs the ban (missed before too)")),
    ([_VAPING], "You may vape in the car parks.", True),
    ([_GLASS], "Yes, glass jars are fine in the recycling bin.", True),
    # ... and the other way round
    (["Cyclists are welcome on the towpath."], "Cyclists are banned from the towpath.", True),
    # near-misses: restated, a condition kept, another place, the exception, a ban agreed
    ([_GUESTS], "Members can reserve courts.", False),
    ([_REFUNDS], "You can get a refund up to 7 days before the event.", False),
    ([_PHOTOS], "You can film in the lobby.", False),
    ([_PETS], "Only guide dogs are welcome in the cabins.", False),
    ([_PETS], "Guide dogs are permitted in the cabins.", False),
    pytest.param([_PETS], "Guide dogs are allowed in the cabins.", False, marks=known_limit(
        "the same word negated is read as a flip before the exception is (flagged before "
        "too)")),
    ([_KAYAKS], "Kayaks are allowed in the harbour during the regatta.", False),
    ([_VAPING], "Vaping is not allowed on campus.", False),
    ([_LIBRARY], "You can't use the rare books room.", False),
    ([_CARDS], "You can pay by card at the box office.", False),
    ([_GLASS], "Cardboard can go in the recycling bin.", False),
    # an unrelated negation in the passage
    (["The pool does not open on Mondays. Swimmers may use the sauna."],
     "Swimmers can use the sauna.", False),
    # ("no longer" read as a negation since session 26: both stances forbid)
    ([_CARDS], "Cash isn't accepted at the box office any more.", False),
    pytest.param([_PHOTOS], "You're allowed to film during the concert.", True,
                 marks=known_limit("the ban is in other words ('filming ... during the "
                                   "concert'), and the grant in the lobby restates more of "
                                   "the claim: a place swapped is not read")),
])
def test_a_permission_against_a_ban(an: Analyzer, contexts: list[str], answer: str,
                                    flags: bool) -> None:
    assert judged(an, contexts, answer) is flags


@pytest.mark.parametrize(("text", "want"), [
    ("You can park here.", PERMITTED),
    ("Dogs are welcome.", PERMITTED),
    ("Plastic is fine.", PERMITTED),
    ("Dogs are not permitted.", FORBIDDEN),
    ("We no longer accept cheques.", FORBIDDEN),
    ("Visitors must not park here.", FORBIDDEN),
    ("You may not park here.", FORBIDDEN),
    ("Smoking is banned.", FORBIDDEN),
    ("Smoking is not banned.", None),
    ("The museum opens at ten.", None),
    ("You can park here but may not stay overnight.", None),
])
def test_the_stance_of_a_clause(text: str, want: str | None) -> None:
    assert stance(part(text)) == want
