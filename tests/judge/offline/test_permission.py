"""Issue #38, session 7 (after trial 55's report): "not allowed to take" negates "take",
so "members can take it home" ("can" is a stopword) contradicts "Members are not allowed
to take it home", and "members can't take it home" agrees with it (both read the other
way before). Without a "to" after it the permission word is what is negated ("not
allowed during the race" against "are allowed")."""

from __future__ import annotations

import pytest

from ragassay.judge.offline import Analyzer
from tests.support.offline import assert_judged

RULES = ["Members are not allowed to take club boats off the lake.",
         "Headphones are allowed, but runners must keep the volume low."]


@pytest.mark.parametrize(("answer", "flags"), [
    ("Yes, members can take club boats off the lake.", True),
    ("No, members can't take club boats off the lake.", False),
    ("Members are not allowed to take club boats off the lake.", False),
    ("Headphones are not allowed during the race.", True),
    ("Headphones are allowed, but runners must keep the volume low.", False),
])
def test_a_permission_is_read_with_what_it_permits(an: Analyzer, answer: str,
                                                   flags: bool) -> None:
    assert_judged(an, RULES, answer, flags=flags)
