"""A denial held in one word, read as the same polarity as its spelled-out form (issue
#38, session 27).

"Parcels under 150 EUR are exempt from customs duty" and "no customs duty is charged"
make one claim; so do "the pass is unused" and "the pass has not been scanned", and
"the fee is waived" and "no fee is charged". The paraphrase rule counts the negations
on each side and asks that they agree; a word that denies by itself (a privative) holds
no "not", so the counts part and a faithful restatement reads as one turned. A
privative counts as the negation the other side spells out, claim by claim, where:

- the word denies by its form: "un-" or "non-" before a participle or an adjective
  ("unused", "unpaid", "non refundable" after a hyphen became a space), "in-" before an
  adjective in "-able", "-ible", "-ive", "-id", "-ect", "-ete" ("invalid", "ineligible",
  "incomplete"); or it is one of a closed set of words that deny the positive form
  they stand for ("exempt": not subject to, "waived": not charged, "excused": not
  required);
- it is said of its subject, after a copula or "still" ("are exempt from", "is
  waived", "is still unused"), not a modifier of a noun ("unused budget", "unpaid
  bills", "non-members": a thing named, no denial of the claim), and the other side
  does not say the same word (then it is no difference of polarity);
- the side without the spelled-out negation is short by exactly the privatives it holds
  (both sides then say no, once each), and each such privative has a content word
  beside it (its subject or what it denies: "exempt from customs duty") that the other
  side names (its first four letters: "pass" / "passes"), so the two denials are
  said of the same thing.

A privative the other side does not balance counts nothing here: "unused passes
expire" beside "passes expire" is still one denial against none (`paraphrase`'s
prefix reading already counts it there).
"""

from __future__ import annotations

from .clauses import Part
from .lexical import stem

_CLOSED = frozenset({"exempt", "exempted", "exemption", "waived", "waive", "waives",
                     "excused"})
_UN_ENDS = ("ed", "en", "wn", "aid", "able", "ible", "ive", "ful", "al", "ent", "ant",
            "ous", "id", "ect", "ete", "ic", "ary", "ing")
_IN_ENDS = ("able", "ible", "ive", "id", "ect", "ete")
# "un-" words of no privative sense ("united" is no "not ited")
_NOT_PRIVATIVE = frozenset({"united", "unified", "unanimous", "unilateral", "universal",
                            "uniformed", "understand", "understanding", "underground",
                            "undergoing", "unending", "unionised", "unionized"})
_NEAR = 3  # tokens either side of a privative where what it bears on is named
# a privative said of its subject, not a modifier of a noun ("the pass is still unused",
# "members are exempt"; not "unused budget", "unpaid bills", "non-members"): the word
# before it
_PREDICATIVE = frozenset({"is", "are", "was", "were", "be", "been", "being", "remain",
                          "remains", "remained", "stay", "stays", "still", "left", "goes",
                          "go", "considered", "get", "gets", "got"})


def _denies(toks: tuple[str, ...], k: int) -> bool:
    t = toks[k]
    if t in _CLOSED:
        return True
    if t == "non":
        return k + 1 < len(toks) and toks[k + 1].isalpha()
    if t in _NOT_PRIVATIVE or t.startswith("under"):
        return False
    if t.startswith("un") and len(t) >= 6:
        return t[2:].endswith(_UN_ENDS)
    return t.startswith("in") and len(t) >= 7 and t[2:].endswith(_IN_ENDS)


def privatives(p: Part, other: Part) -> int:
    """How many of the part's words deny by themselves and name, beside them, a word
    the other side has (module docstring)."""
    toks = p.info.tokens
    theirs = other.stems
    said = {w[:4] for w in theirs}
    count = 0
    for k in range(len(toks)):
        if not k or toks[k - 1] not in _PREDICATIVE or toks[k] in other.info.tokens:
            continue  # a modifier, or a word both sides say ("unused budget" twice)
        if not _denies(toks, k) or (toks[k].startswith("un") and stem(toks[k][2:])[:4] in said):
            continue  # ("unused" beside "used": the prefix reading counts it already)
        near = toks[max(0, k - _NEAR):k] + toks[k + 1:k + 1 + _NEAR]
        if any(stem(t)[:4] in said for t in near if t.isalpha() and len(t) > 3):
            count += 1
    return count


def balanced_by_privatives(p: Part, u: Part, ours: int, theirs: int) -> bool:
    """Whether the claim `p` (`ours` negations) and the sentence `u` (`theirs`) say no
    equally once the short side's privatives are counted (module docstring)."""
    if ours == theirs:
        return True
    short, gap = (p, u) if ours < theirs else (u, p)
    return privatives(short, gap) == abs(ours - theirs)
