"""The noun a universal quantifier quantifies, where it is not the first content word
after it (clauses._quantified reads that word otherwise):

- a floating "all" / "both" after its subject's verb, or straight after its subject,
  quantifies that subject: "The museum's galleries are all step-free" and "The hotel's
  rooms all have Wi-Fi" say what "every gallery", "every room" say ("step", "have" are
  no kind of anything);
- a possessive before the noun is a determiner, not what is quantified: "all the
  museum's galleries" quantifies galleries, as "every gallery of the museum" does (the
  possessive says whose; it names no kind of them, so the claim that drops it says the
  same of the same galleries).

A subject that lists its items ("Violins, violas and cellos are all repaired") is
unquantified.floats_over_list's: it quantifies nothing.
"""

from __future__ import annotations

from collections.abc import Sequence

from .counts import is_number
from .lexical import STOPWORDS

_FLOATING = frozenset({"all", "both"})
# the verbs a floating quantifier follows ("are all", "have all been")
_LINKS = frozenset({"are", "were", "have", "had"})
# the verbs a floating quantifier stands before, straight after its subject ("rooms
# all have", "tills all take")
_AFTER = frozenset({"have", "are", "were", "can", "will", "must", "may", "need", "get",
                    "come", "take", "include", "offer", "use", "run", "open", "close"})


def possessive(token: str) -> bool:
    """Whether a token is a possessive ("museum's", "shop’s")."""
    return len(token) > 3 and token[-2:] in ("'s", "’s")


def floating_subject(toks: Sequence[str], i: int, lead: int) -> int | None:
    """The index of the subject noun a floating "all" / "both" at toks[i] quantifies:
    after a linking verb ("galleries are all"), or after the noun and before its verb
    ("rooms all have"); None when toks[i] does not float."""
    if toks[i] not in _FLOATING or i - 1 < lead:
        return None
    nxt = toks[i + 1] if i + 1 < len(toks) else ""
    if toks[i - 1] in _LINKS:
        k = i - 2
    elif toks[i - 1] not in STOPWORDS and nxt in _AFTER:
        k = i - 1
    else:
        return None
    if k < lead or toks[k] in STOPWORDS or possessive(toks[k]) or not toks[k].isalpha():
        return None
    # the subject opens the clause: a determiner, a possessive and modifiers at most
    # before it ("The hotel's rooms"), no verb ("We have ... and they are all ...")
    before = toks[lead:k]
    if len(before) > 3 or any(t in STOPWORDS and t not in _DETERMINERS for t in before):
        return None
    return k


_DETERMINERS = frozenset({"the", "our", "your", "their", "its", "these", "those"})


def past_possessive(toks: Sequence[str], j: int) -> int:
    """The index of the noun after a possessive at toks[j] ("museum's | galleries"),
    else j."""
    if possessive(toks[j]) and j + 1 < len(toks) and toks[j + 1] not in STOPWORDS:
        return j + 1
    return j


def head_stem(toks: Sequence[str], stems: Sequence[str], i: int, lead: int) -> str | None:
    """The stem of what the quantifier at toks[i] quantifies: a floating one's subject,
    else the first content word after it that is no figure ("every 4 to 6 hours": hours),
    past a possessive; None when there is none ("100 MB each")."""
    if (k := floating_subject(toks, i, lead)) is not None:
        return stems[k]
    for j in range(i + 1, min(len(toks), i + 6)):
        if toks[j] not in STOPWORDS and not is_number(stems[j]):
            return stems[past_possessive(toks, j)]
    return None
