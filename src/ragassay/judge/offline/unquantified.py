"""Words that look like universal quantifiers and quantify nothing beyond what the
sentence names (clauses._quantified reads them as no quantifier):

- a floating "all" / "both" over a listed subject: "Violins, violas and cellos are all
  repaired here", "Tea and coffee are both free". Set after its verb, the word
  quantifies the subject before it, and a subject that lists its items names the whole
  of what it speaks of: the claim says what "Violins, violas and cellos are repaired
  here" says. Before its noun ("all violins"), or after the verb of a subject that is one
  kind ("The rooms are all cleaned daily"), it still quantifies;
- "neither ... nor" joining two verbs or phrases: "If you neither repay nor extend the
  loan, ..." denies both, of no kind ("neither plan includes ...", with no "nor",
  still says it of every plan);
- a fixed phrase holding the word: "not at all", "above all", "each other" (idioms.py).
"""

from __future__ import annotations

from collections.abc import Sequence

from .idioms import idiom_word

_FLOATING = frozenset({"all", "both"})
_VERBS = frozenset({"are", "were", "have", "can", "will", "may", "must", "should", "get"})
_LIST_TAIL = 3  # tokens before the verb within which the list's "and" stands ("X and Y")
_NOR_REACH = 4  # tokens after "neither" within which its "nor" stands


def floats_over_list(toks: Sequence[str], i: int, lead: int) -> bool:
    """Whether toks[i] is a floating "all" / "both" after its verb, whose subject (from
    `lead`) ends in a list of two or more items joined by "and"."""
    if toks[i] not in _FLOATING or i - 1 <= lead or toks[i - 1] not in _VERBS:
        return False
    subject = toks[lead:i - 1]
    return len(subject) >= 3 and "and" in subject[-_LIST_TAIL:-1] and subject[0] != "and"


def correlative(toks: Sequence[str], i: int) -> bool:
    """Whether toks[i] is the "neither" of "neither A nor B" (its "nor" within
    _NOR_REACH tokens)."""
    return toks[i] == "neither" and "nor" in toks[i + 1:i + 1 + _NOR_REACH]


def quantifies_nothing(toks: Sequence[str], i: int, lead: int) -> bool:
    """Whether the quantifier word at toks[i] quantifies nothing (module docstring)."""
    return floats_over_list(toks, i, lead) or correlative(toks, i) or idiom_word(toks, i)


_RANKING = frozenset({"most", "least", "best", "worst", "more", "fewer", "less"})


def compared_any(toks: Sequence[str], i: int) -> bool:
    """Whether "any" at `i` follows "than", or "of" after a superlative or comparative
    ("more than any other", "the highest of any school"): a comparison, quantifying
    nothing; "tickets of any season" quantifies seasons."""
    if not i or toks[i - 1] not in ("of", "than"):
        return False
    before = toks[max(0, i - 8):i - 1]  # (its noun phrase: "the highest number of major
    # crimes of any school")
    return toks[i - 1] == "than" or any(
        t in _RANKING or (t.endswith("est") and len(t) > 5) for t in before)
