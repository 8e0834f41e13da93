"""A guess beside a decline: "I can't tell from here, but it sounds like a worn belt",
"Not sure, though I think the hall seats forty". The guess says what the speaker
believes of the world: a claim, however few words it has. `hedged.hedged_claim` reads
a declining sentence's clause that guesses as a claim when it names a term the contexts
and the question lack.
"""

from __future__ import annotations

import re

from .decline_words import APOSTROPHE as _A
from .lexical import FILLER, STOPWORDS, TermPool
from .normalise import norm_tokens

GUESS = re.compile(
    r"^\W*(?:(?:but|though|although|and|so|yet|however)\W+)*"
    rf"(?:it|that|this|they|she|he)(?:{_A}s|\s+(?:sounds?|looks?|seems?)|\s+is)\s*"
    r"(?:sounds?|looks?|seems?)?\s*(?:like|as if|as though)\b"
    r"|^\W*(?:(?:but|though|although|and|so|yet|however)\W+)*(?:i|we)\s+(?:think|believe|"
    r"suspect|reckon|expect|guess)\b"
    r"|^\W*(?:(?:but|though|although|and|so|yet|however)\W+)*my (?:best )?guess (?:is|would be)\b",
    re.IGNORECASE)
"""A clause opening with a guess: "but it sounds like", "though I think", "my guess is"."""


def guessed_unstated(clause: str, pool: TermPool, question: str) -> bool:
    """Whether the clause opens with a guess (GUESS) and what it guesses names a content
    word that neither the contexts (`pool`) nor the question have ("a faulty pump")."""
    m = GUESS.match(clause)
    if m is None:
        return False
    full = pool | TermPool.of(question) if question else pool
    return any(t not in STOPWORDS and t not in FILLER and t.isalpha() and not full.has(t)
               for t in norm_tokens(clause[m.end():]))
