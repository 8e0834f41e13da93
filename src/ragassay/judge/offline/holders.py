"""Whom a benefit or a rule is for, named by a noun of people with a word before it that
picks some of them out ("Gold members get ...", "Premium subscribers can ...", "Returning
customers receive ..."): subject_scope.subject_widened reads the words after a subject's
noun ("members with ..."), this reads the word before it. A claim that keeps neither word
of the subject ("Returns are free on all orders") or its noun alone ("Members get free
returns ...") says of everyone, or of every member, what the unit says of those few.
"""

from __future__ import annotations

from .clauses import UNIVERSAL, Part
from .lexical import STOPWORDS, stem

# nouns that name a class of people a benefit or a rule is for
_HOLDERS = frozenset(stem(w) for w in (
    "members", "customers", "subscribers", "passengers", "guests", "residents", "holders",
    "cardholders", "students", "clients", "tenants", "patients", "visitors", "travellers",
    "travelers", "shoppers", "buyers", "owners", "employees", "patrons", "riders", "diners",
    "users", "accounts", "applicants", "participants", "attendees", "volunteers"))


_MODIFIERS = 2  # words before a noun of people that pick some of them out, at most


def premodified_dropped(p: Part, u: Part, lead: int, stems: list[str],
                        given: frozenset[str]) -> bool:
    """Whether the unit's subject opens at `lead` on a word or two (content words, not
    the claim's nor the question's, `given`) just before a noun of people, and the claim
    keeps none of those words nor says it of that noun any narrower: "Gold members get
    free returns" or "Business account holders get ..." for "Returns are free" or
    "Members get free returns"."""
    toks = u.info.tokens
    head = next((k for k in range(lead + 1, min(len(toks), lead + _MODIFIERS + 1))
                 if stems[k] in _HOLDERS), None)
    if head is None or any(toks[k] in STOPWORDS or not toks[k].isalpha()
                           for k in range(lead, head)):
        return False
    mods = set(stems[lead:head])
    if mods & p.words or mods & given or stems[head] in p.quantified:
        return False  # ("All members get ...": scope.narrowed reads a quantified noun)
    return stems[head] not in p.words or p.first == stems[head]


def own_words(p: Part, u: Part) -> frozenset[str]:
    """The claim's words less its subject, when that subject is a noun of people of its
    own, bare or quantified, that the unit lacks ("All passengers can use the lounge"
    for "Gold cardholders can use the lounge"): it names whom in another word, and what
    it says of them is the rest; otherwise all its words."""
    toks, s = p.info.tokens, p.first
    at = p.info.lead
    if at < len(toks) and toks[at] in UNIVERSAL:
        at += 1
    if (s is None or s not in _HOLDERS or s in u.words or at >= len(toks)
            or stem(toks[at]) != s):
        return p.words
    return p.words - {s}


_AGE_BOUNDS = frozenset({"over", "under"})  # before a figure opening a sentence: an age group


def age_group_dropped(p: Part, u: Part, rules: frozenset[str],
                      given: frozenset[str]) -> bool:
    """Whether the unit's subject is an age group, "over" or "under" and a figure
    ("Over-18s can hire ...", "Under 5s travel free"), in a rule or a benefit (one of
    `rules`), and the claim restates the rest in the unit's words without the figure, nor
    does the question name it ("You can hire ..."): it says of all what holds of an age."""
    toks, lead = u.info.tokens, u.info.lead
    if (lead + 2 >= len(toks) or toks[lead] not in _AGE_BOUNDS
            or not toks[lead + 1][:1].isdigit() or not rules & set(toks)):
        return False
    figure = toks[lead + 1]
    if any(g.startswith(figure) for g in given):
        return False  # the question names the age ("Do over 60s get ...?")
    return (figure not in p.info.tokens and not p.restricted
            and len(p.words) >= 2 and p.words <= u.words)
