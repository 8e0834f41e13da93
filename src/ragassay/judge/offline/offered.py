"""What the speaker says they do have or can tell, beside a decline: "What I do have
covers kayak hire and life jackets", "I do have the festival dates and ticket prices if
that helps", "I can only see information on haircuts and the student discount", "I can
help with questions about our phone plans and roaming".

After saying what it lacks, a careful reader takes such a sentence as a description of
the sources (what the speaker holds or can answer), not as a claim about the world. It
still says what the sources hold, so its list is checked against the contexts: each
item names what they name (covered_items.items_named), at least half of the list's
words are theirs (covered_items.half_named), no figure or time is in it but a day the
contexts name too (WHEN: "I do have a room on Friday" against passages without Friday is a
claim of availability), and no key term the contexts and the question lack
(missing_terms). A list the contexts never name ("I can tell you about our
paddleboards" against a kayak passage) stays a claim.
"""

from __future__ import annotations

import re

from .covered_items import half_named, items_named
from .decline_words import APOSTROPHE as _A
from .declines import WHEN
from .lexical import TermPool, missing_terms
from .referrals import is_referral

# the speaker's holding or telling, then the list: "what I (do) have covers|is about",
# "I (do|also) have", "I can (only) see|find (information|details) on|about",
# "I can (only) tell you about", "I can (only) help (you) with (questions about)"
_OFFER = re.compile(
    rf"^\W*(?:(?:but|and|so|though|however|that said|still|sorry)\W+)*"
    r"(?:what\s+i\s+(?:do\s+|can\s+)?(?:have|had|can see|found)(?:\s+got)?\s+(?:here\s+)?"
    r"(?:covers?|includes?|is about|is on|mentions?|lists?|relates to)"
    rf"|i(?:{_A}ve| have)?\s+(?:do|also|did)\s+(?:have|got|see|find)(?:\s+(?:some\s+)?"
    r"(?:information|info|details?)\s+(?:on|about|for|of))?"
    r"|i\s+(?:can|could)\s+(?:only\s+|also\s+|just\s+)?(?:see|find)\s+(?:some\s+)?"
    r"(?:information|info|details?|something|things)\s+(?:on|about|for|regarding)"
    r"|i\s+(?:can|could)\s+(?:only\s+|also\s+|just\s+|still\s+)?(?:tell you (?:more\s+)?about|"
    r"give you (?:information|info|details)\s+(?:on|about)|help(?:\s+you)?\s+with"
    r"(?:\s+(?:questions?|queries|enquiries)\s+(?:about|on|regarding))?))\s+(?P<items>.+)$",
    re.IGNORECASE | re.DOTALL)
# a courtesy closing the offer, no item of it: "if that helps", "if that's useful"
_COURTESY_END = re.compile(rf"\s*,?\s*if (?:that|it|this)(?:{_A}s| is| would be)?\s+(?:helps?|"
                           r"useful|of use|any use|helpful)\W*$", re.IGNORECASE)


# where the list ends: a clause of its own after it ("..., or you can give the team a
# shout"), a dash or a semicolon, where that clause only refers the user on
_ITEMS_END = re.compile(r"\s[-\u2013\u2014]\s|;|,?\s+(?:(?:or|and|but|so|though)\s+)?"
                        r"(?:you|we|i|they|please|feel free|just|otherwise)\b", re.IGNORECASE)


def offered_items(sentence: str) -> str | None:
    """The list a sentence says the speaker holds or can tell, or None: no such frame."""
    if (m := _OFFER.match(sentence)) is None:
        return None
    items = m.group("items")
    if (e := _ITEMS_END.search(items)) is not None:
        rest = items[e.start():].strip(" ,;-\u2013\u2014")
        if is_referral(rest):  # (else "..., and we also run a shuttle" is read with it)
            items = items[:e.start()]
    return _COURTESY_END.sub("", items)


def offered_list(sentence: str, pool: TermPool, question: str) -> bool:
    """Whether a sentence beside a decline only says what the speaker holds or can tell,
    its list named by the contexts (`pool`; the module's note)."""
    items = offered_items(sentence)
    if items is None or missing_terms(items, pool, question) or any(
            m[0][:1].isdigit() or not pool.has(m[0]) for m in WHEN.finditer(items)):
        return False
    return items_named(items, pool) and half_named(items, pool)
