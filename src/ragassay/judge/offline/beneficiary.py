"""Whom a benefit is for, said with a qualifier: "free for straps bought in our shop",
"discounted for members who renew by May", "free for orders that ship to the UK".

`dropped.free_for_some` reads a benefit said of no case against a unit that limits it
to some, when the contexts price the other case. A "for" phrase whose noun is itself
qualified by a participle or a relative clause names a case even where no price is
given: the qualifier exists only to set that case apart from the others, so a claim
that the thing is simply free drops it. A qualifier the question names ("bought", "shop"
among the question's words) makes the case the one the user asked about: none dropped;
so does one the claim names in its own words ("free on UK orders" for "free for orders
that ship within the UK": `given` holds the claim's words too).
"""

from __future__ import annotations

from .lexical import STOPWORDS, stem

_RELATIVES = frozenset({"who", "that", "which", "whose"})
# irregular past participles that qualify a noun ("straps bought here")
_PARTICIPLES = frozenset({"bought", "made", "sold", "held", "paid", "kept", "brought",
                          "taken", "given", "done", "sent", "won", "built", "worn"})
_UNIVERSAL = frozenset({"all", "everyone", "everybody", "anyone", "anybody", "every", "any"})
_REACH = 4  # tokens after the noun the qualifier is looked for in
_QUALIFIER = 6  # tokens of the qualifier, from its first, read for the words that name it


def _qualifier(token: str) -> bool:
    return token in _RELATIVES or token in _PARTICIPLES or (
        token.endswith("ed") and len(token) > 4 and token not in STOPWORDS)


def qualified_for(tokens: tuple[str, ...], benefits: frozenset[str],
                  given: frozenset[str]) -> bool:
    """Whether a benefit word is followed by "for" and a noun qualified by a participle or
    a relative clause, no word of the qualifier one of `given` (the question's stems, and
    the claim's words) (module docstring)."""
    for i in range(len(tokens) - 2):
        if tokens[i] not in benefits or tokens[i + 1] != "for":
            continue
        j = i + 2
        while j < len(tokens) and tokens[j] in ("the", "your", "our", "any", "a", "an"):
            j += 1
        if j >= len(tokens) or tokens[j] in _UNIVERSAL or tokens[j][:1].isdigit():
            continue  # "free for everyone", "free for 30 days"
        # the qualifier right after the noun (of two words at most: "gift cards bought")
        after = tokens[j + 1:j + 1 + _REACH]
        at = 0
        while at < min(len(after), 1) and not _qualifier(after[at]) and (
                after[at] not in STOPWORDS):
            at += 1
        if at >= len(after) or not _qualifier(after[at]):
            continue  # ("free for residents, and the cafe, which ...": another clause's)
        start = j + 1 + at
        qualifying = {stem(t) for t in tokens[start:start + _QUALIFIER] if t not in STOPWORDS}
        if not qualifying & given:
            return True  # (its qualifier in the question or the claim: the case kept)
    return False
