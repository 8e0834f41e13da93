"""An object swapped for one no context has, sharing its head word (issue #38, round 4).

"The locker opens with a brass padlock key" against "The locker opens with the blue key
card": the claim keeps the head word ("key") and what is said of it, and puts two or
more words that no context states ("brass padlock"), not even by a close static vector,
in place of the words the context gives it ("blue", "card"). Support reads three of five
words as stated and the claim as half supported; alignment finds no unit restating it.
Only a noun phrase that ends its clause counts: an article or a possessive, the new
words side by side in the text (no quantifier among them), the head, then punctuation or
the end ("credited every month", "Good news: delivery", "The group considers diverse
values for ..." are no objects).
`swapped_object` reports the new words as a detail stated in no context (alignment's
`Finding.unstated`), so the claim is unsupported.
"""

from __future__ import annotations

import re
from typing import TYPE_CHECKING

from .clauses import UNIVERSAL, Part, lemma_stems, neighbours
from .counts import is_number
from .lexical import STOPWORDS
from .normalise import normalise_text
from .words import word_vectors

if TYPE_CHECKING:
    from .units import Units

SOFT_WORD = 0.6  # a word this close to a context word by its static vector is stated
MIN_NEW = 2  # new words in a row, at least
MIN_SHARED = 2  # words the claim shares with the unit besides the head, at least
_WORD_OR_MARK = re.compile(r"[\w'’]+|[^\w\s]")
ARTICLES = frozenset({"a", "an", "the", "its", "their", "your", "our", "his", "her", "my"})


def swapped_object(p: Part, units: Units) -> str | None:
    """The run of new words (module docstring) the claim puts before a head word it shares
    with a context sentence that gives the head another modifier, or None. The cheap
    checks of the text's shape come first; word vectors are read for a candidate only."""
    toks = p.info.tokens
    stems = lemma_stems(toks, p.info.all_stems)
    content = [i for i, t in enumerate(toks) if t not in STOPWORDS and not is_number(stems[i])
               and t.isalpha()]
    fresh = {i for i in content if stems[i] not in units.stems}
    if len(fresh) < MIN_NEW:
        return None
    text: str | None = None
    for k, i in enumerate(content):
        if i not in fresh or (k and content[k - 1] in fresh):
            continue  # not the start of a run
        run = [i]
        while k + len(run) < len(content) and content[k + len(run)] in fresh:
            run.append(content[k + len(run)])
        if len(run) < MIN_NEW or run[-1] - run[0] != len(run) - 1:
            continue  # a run of words side by side in the text
        h = run[-1] + 1  # the head, right after its new modifiers ("brass padlock key")
        if h >= len(toks) or stems[h] not in units.stems or any(
                toks[i] in UNIVERSAL for i in run):
            continue
        if run[0] == 0 or toks[run[0] - 1] not in ARTICLES:
            continue  # a noun phrase: an article or a possessive, the new words, the head
        if text is None:  # (the claim with each word and mark set apart by one space)
            text = " ".join(_WORD_OR_MARK.findall(normalise_text(p.text).lower()))
        if not re.search(re.escape(" ".join(toks[run[0] - 1:h + 1])) + r"(?: [.,;!?]|$)", text):
            continue  # side by side, the head ending its clause ("... with a brass padlock key.")
        if not _given_other_neighbours(stems[h], p, units):
            continue
        pool = units.ctx.all_word_vectors()
        if len(pool) and float((word_vectors([toks[j] for j in run]) @ pool.T).max(
                axis=1).max()) >= SOFT_WORD:
            continue  # a word of it is close to a context word: no new word
        return " ".join(toks[run[0]:h])
    return None


def _given_other_neighbours(head: str, p: Part, units: Units) -> bool:
    """Whether a context sentence that says the head word, and two more of the claim's
    words, gives the head a modifier before it that the claim lacks ("blue key card")."""
    for row in units.by_stem.get(head, ()):
        u = units.sentence(row)
        if len((p.words & u.words) - {head}) < MIN_SHARED:
            continue
        before = {n[1:] for n in neighbours(u.part).get(head, frozenset()) if n[0] == "<"}
        if before - p.words:
            return True
    return False
