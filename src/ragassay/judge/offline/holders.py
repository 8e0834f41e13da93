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


# a claim's subject said of everyone: a pronoun, or a universal word before a noun
_EVERYONE = frozenset({"everyone", "everybody", "anyone", "anybody"})
_ALL = frozenset({"all", "every", "any", "each"})
_OPENING = 3  # tokens at the claim's head where its subject may stand ("Yes, all ...")
_SUBJECT = 4  # tokens of the unit's subject, at most
_COMMON = 3  # content words the rest of the claim shares with the unit, at least


def everyone_swapped(p: Part, u: Part, given: frozenset[str]) -> bool:
    """Whether the claim opens on everyone ("everyone", "all/every/any" + a noun) where
    the unit's subject is a group picked out by words the claim keeps none of
    ("Frequent flyers get ..." / "All passengers get ..."), the rest of the claim in the
    unit's words (three at least). A bare noun of the people a rule is commonly for
    ("Visitors need a ticket" / "Everyone needs a ticket") picks no one out."""
    ct = p.info.tokens
    own: set[str] = set()
    for i, t in enumerate(ct[:_OPENING + 1]):
        if t in _EVERYONE:
            break
        if t in _ALL and i + 1 < len(ct) and ct[i + 1] not in STOPWORDS:
            own.add(stem(ct[i + 1]))
            break
    else:
        return False
    rest = p.words - own
    if len(rest) < _COMMON or not rest <= u.words:
        return False
    toks = u.info.tokens
    lead = u.info.lead
    end = next((j for j in range(lead, len(toks)) if stem(toks[j]) in rest), len(toks))
    span = [t for t in toks[lead:end] if t not in STOPWORDS]
    if not span or end - lead > _SUBJECT or set(toks[lead:end]) & (_ALL | _EVERYONE):
        return False
    words = {stem(t) for t in span}
    return not (words & (p.words | given) or len(span) == 1 and stem(span[0]) in _HOLDERS)
