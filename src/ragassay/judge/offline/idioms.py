"""Quantifier words inside fixed phrases that quantify no noun (unquantified.py):
"not at all" and "... at all" (an intensified denial: "not charged at all" says what
"never charged" says), "above all" and "first of all" (an ordering of what is said),
"every now and then" / "every so often" / "every once in a while" (a hedge of
frequency: sometimes), "each other" (a reciprocal), "any more" / "any longer" (no
longer), "all set" / "all right" (a state), "all in all" and "once and for all". Read
as a quantifier, the "all" of "not at all: your location is never shared" took
"location" as its noun and the claim as one said of every location.

The phrase holds only where no noun phrase follows it as the quantifier's own ("at all
branches", "each other member", "any more tickets" still quantify): after the phrase
comes a word that starts no noun phrase, or the sentence's end.
"""

from __future__ import annotations

from collections.abc import Sequence

# words that start no noun phrase a quantifier could take: prepositions, conjunctions,
# subject pronouns, verbs of being, adverbs of time
_NO_HEAD = frozenset({
    "for", "to", "with", "in", "on", "by", "from", "at", "about", "into", "after", "before",
    "during", "since", "until", "and", "or", "but", "nor", "so", "yet", "if", "when",
    "unless", "because", "as", "though", "although", "while", "you", "we", "they", "it",
    "i", "he", "she", "there", "then", "is", "are", "was", "were", "be", "will", "can",
    "may", "do", "does", "did", "have", "has", "still", "even", "either", "now", "here",
    "today", "anymore", "please", "just", "again", "unfortunately", "however",
})
_NEGATORS = frozenset({"not", "no", "nothing", "never", "none"})
_ORDINALS = frozenset({"first", "last", "most", "best", "worst", "least", "firstly"})
_BE = frozenset({"are", "is", "re", "am", "be", "were", "was", "get", "got"})


def _open(toks: Sequence[str], k: int) -> bool:
    """Whether no noun phrase starts at toks[k] (the sentence's end, or a word of _NO_HEAD)."""
    return k >= len(toks) or toks[k] in _NO_HEAD


def _all_phrase(toks: Sequence[str], i: int) -> bool:
    before = toks[i - 1] if i else ""
    if before == "at":  # "not at all", "not charged at all for repairs"
        return (i >= 2 and toks[i - 2] in _NEGATORS) or _open(toks, i + 1)
    if before == "above" and i == 1:
        return True
    if before == "of" and i == 2 and toks[0] in _ORDINALS:
        return True
    if tuple(toks[i - 3:i]) == ("once", "and", "for") or tuple(toks[i + 1:i + 3]) == (
            "in", "all") or tuple(toks[i - 2:i]) == ("all", "in"):
        return True  # ("once and for all"; both words of "all in all")
    return (tuple(toks[i + 1:i + 2]) in (("set",), ("right",)) and before in _BE
            and _open(toks, i + 2))  # ("you're all set", not "got all right answers")


def idiom_word(toks: Sequence[str], i: int) -> bool:
    """Whether the quantifier word at toks[i] belongs to a fixed phrase that quantifies
    no noun (module docstring)."""
    t, after = toks[i], tuple(toks[i + 1:i + 2])
    if t == "all":
        return _all_phrase(toks, i)
    if t == "every":
        return after in (("now",), ("so",), ("once",))
    if t == "each":
        return after == ("other",) and _open(toks, i + 2)
    if t == "any":
        return after in (("more",), ("longer",)) and _open(toks, i + 2)
    return False
