"""Whom a benefit or a rule is for, named by a noun of people with a word before it that
picks some of them out ("Gold members get ...", "Premium subscribers can ...", "Returning
customers receive ..."): subject_scope.subject_widened reads the words after a subject's
noun ("members with ..."), this reads the word before it. A claim that keeps neither word
of the subject ("Returns are free on all orders") or its noun alone ("Members get free
returns ...") says of everyone, or of every member, what the unit says of those few.
"""

from __future__ import annotations

from .clauses import Part
from .lexical import STOPWORDS, stem

# nouns that name a class of people a benefit or a rule is for
_HOLDERS = frozenset(stem(w) for w in (
    "members", "customers", "subscribers", "passengers", "guests", "residents", "holders",
    "cardholders", "students", "clients", "tenants", "patients", "visitors", "travellers",
    "travelers", "shoppers", "buyers", "owners", "employees", "patrons", "riders", "diners",
    "users", "accounts", "applicants", "participants", "attendees", "volunteers"))


def premodified_dropped(p: Part, u: Part, lead: int, stems: list[str],
                        given: frozenset[str]) -> bool:
    """Whether the unit's subject opens at `lead` on a word (a content word, not the
    claim's nor the question's, `given`) just before a noun of people, and the claim
    keeps neither that word nor says it of that noun any narrower: "Gold members get free
    returns" for "Returns are free" or "Members get free returns"."""
    toks = u.info.tokens
    head = lead + 1
    if head >= len(toks) or toks[lead] in STOPWORDS or not toks[lead].isalpha():
        return False
    if (stems[head] not in _HOLDERS or stems[lead] in p.words or stems[lead] in given
            or stems[head] in p.quantified):
        return False  # ("All members get ...": scope.narrowed reads a quantified noun)
    return stems[head] not in p.words or p.first == stems[head]
