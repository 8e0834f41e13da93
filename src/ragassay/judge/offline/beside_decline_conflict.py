"""A clause beside a decline that contradicts the contexts: "The documents don't mention
walk-ins, but we are closed on Saturdays" against "9am on Saturdays", "There's nothing on
pensioner discounts, only the 30% student discount" against a 20% one.

A decline's other clauses are read as a claim when they say enough (hedged.HEDGE_WORDS);
a short one ("but we're closed on Saturdays") may say a few words only and still state a
fact. A careful reader checks it against the passages like any claim: where claim
alignment finds it contradicts one (a figure, a polarity, an entity), the sentence
claims, whatever its length.
"""

from __future__ import annotations

import re

from .alignment import align
from .declines import DECLINE
from .lexical import FILLER, STOPWORDS, TermPool, content_tokens
from .sentences import ContextIndex, sentence_info

# a clause's joining word, before it is read as a sentence of its own
_JOIN = re.compile(r"^\W*(?:(?:but|and|though|although|however|yet|so|only)\b\W*)+",
                   re.IGNORECASE)


def contradicts_contexts(clauses: tuple[str, ...], ctx: ContextIndex | None) -> bool:
    """Whether any clause that does not itself decline (DECLINE) contradicts the contexts
    (`ctx`; None: none is read), claim alignment's conflict."""
    if ctx is None or len(ctx) == 0:
        return False
    for c in clauses:
        if DECLINE.search(c):
            continue
        text = _JOIN.sub("", c).strip()
        if len(text.split()) < 2:
            continue
        if align(sentence_info(text[:1].upper() + text[1:]), ctx).conflict is not None:
            return True
    return False


# a clause's subject that is the speaker, the user, the sources or a pointer: "but I
# think so", "but you may find it online", "but it's worth a try" (no fact of the world)
_NO_FACT_SUBJECT = re.compile(
    r"^(?:i|i['\u2019]\w+|you|you['\u2019]\w+|it|it['\u2019]s|its|that|that['\u2019]s|this|"
    r"there|they|they['\u2019]\w+|he|she|someone|somebody|anyone|staff|the team|please|"
    r"if|when|maybe|perhaps|hopefully|thanks|thank|sorry|feel|do|does|did|can|could|"
    r"would|should|may|might|will|let|just|happy|glad|otherwise|what|which|whether|how|"
    r"who|where|so|as|because|since|the (?:[\w-]+\s+)?(?:documents?|information|info|"
    r"details|sources?|texts?|pages?|website|site|guide|leaflet|faq))\b",
    re.IGNORECASE)
# the contrast that adds a fact to a decline: "..., but ...", "..., though ..."
_CONTRAST = re.compile(r"^\W*(?:but|though|although|however|yet)\b\W*", re.IGNORECASE)
SHORT_FACT_WORDS = 3  # words a clause beside a decline has at least, to state a fact


def adds_unstated(clauses: tuple[str, ...], claiming: tuple[str, ...], pool: TermPool,
                  question: str) -> bool:
    """Whether a declining sentence's clause set against its decline ("but", right after
    the declining clause), one of those that may claim (`claiming`: no referral, scope or
    advice), states a fact of the world with a word the contexts and the question lack:
    "..., but horses travel free on all our sailings", "..., but we also hire tandems".
    Its subject is the business ("we") or a thing, not the speaker, the user, the
    sources or a pointer (`_NO_FACT_SUBJECT`); however few words it says, that is a claim
    the contexts do not make (hedged.HEDGE_WORDS counts words, not what they state)."""
    full = pool | TermPool.of(question)
    for k, c in enumerate(clauses):
        if not (k and c in claiming and _CONTRAST.match(c) and DECLINE.search(clauses[k - 1])
                ) or DECLINE.search(c):
            continue
        text = _CONTRAST.sub("", c).strip()
        if len(text.split()) < SHORT_FACT_WORDS or _NO_FACT_SUBJECT.match(text):
            continue
        if any(not full.has(t) for t in content_tokens(text)
               if t not in FILLER and t not in STOPWORDS):
            return True
    return False
