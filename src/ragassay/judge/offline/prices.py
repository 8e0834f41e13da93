"""A price the contexts give for nothing (issue #38: "A student ticket costs 12 EUR"
against "Students pay 9 EUR, and children under 12 enter free"). The missing-term rule
(`lexical.missing_terms`) finds a figure by its value alone, so a price whose value the
contexts state only as something else, an age, a group size, a count of minutes, passes
it though no context gives that price. A claim's money figure is read here against the
money figures of the contexts (and the question): where the contexts price things and
none of their prices (nor any figure of the question) has its value, the claim states a
price of its own, a key term no context has (`answer.missing_flags`)."""

from __future__ import annotations

from collections.abc import Iterable

from .clauses import part
from .dropped import MONEY

_MINOR = frozenset({"penc", "pence", "cent", "cents"})  # a hundredth ("60p": 0.60)
_MONEY = MONEY | _MINOR


def _prices(text: str) -> frozenset[float]:
    """The sentence's money figures, in the currency's whole units."""
    return frozenset(n / 100 if key in _MINOR else n for n, key in part(text).figures
                     if key in _MONEY)


def unpriced(sentence: str, contexts: Iterable[str], question_values: frozenset[float]
             ) -> bool:
    """Whether the sentence states a price that no context gives as a price, where the
    contexts give prices of their own (so that their money is keyed as the claim's is),
    its value no figure of the question either (`question_values`)."""
    mine = _prices(sentence) - question_values
    if not mine:
        return False
    theirs = frozenset().union(*(_prices(t) for t in contexts))
    return bool(theirs) and bool(mine - theirs)
