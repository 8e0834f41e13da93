"""A universal that ranges over no more than the sentence's own subject already covers
(issue #38, session 28).

A claim's "all" or "any" widens a sentence that says its statement of a part only
("All members ..." for "Gold members ..."), so the paraphrase rule asks a universal
claim for a universal sentence (`paraphrase.distributes`). A careful reader also takes
a universal as said in other words where it ranges over exactly what the sentence
names:

- a totality word of the sentence ("full", "entire", "whole", "complete") said as
  "all": "the entire exhibition" / "all of the exhibition" (the quantified word right
  after the totality word, within a few tokens: "the whole set of 12 brushes" / "all 12
  brushes"), or "a full refund" / "all your money back" (the quantified word unnamed in
  the sentence, and the word the totality bears on unnamed in the claim: the claim
  says the totality in other words; "All bookings get a full refund" keeps "refund" and
  names bookings, so it widens whom);
- a universal restricted the way the sentence's subject is ("anything you delete" /
  "deleted notes", "any credits you don't use" / "credits that are not used", "anyone
  still riding" / "riders still on the course"): the universal is followed by a
  relative clause ("you", "that", "who", ...) or by "still", and a content word of that
  restriction (its first three letters) names the sentence's subject or its modifier,
  said before the subject noun or in a relative or "still" right after it. A noun
  quantified ("any credits") is the sentence's subject noun too. A universal with no
  restriction of its own ("everyone", "all members") is never read so.
"""

from __future__ import annotations

from .clauses import UNIVERSAL, Part
from .lexical import STOPWORDS, stem

_TOTAL = frozenset({"full", "fully", "entire", "entirely", "whole", "complete"})
_RELATIVE = frozenset({"you", "we", "they", "that", "which", "who", "whom", "i"})
_STILL = "still"
_NEAR = 4  # tokens after a totality word where what it bears on stands
_REACH = 5  # tokens of a restriction read after a universal or a subject noun
_NEGATING = frozenset({"not", "don't", "doesn't", "didn't", "haven't", "hasn't", "never"})


def _content(toks: tuple[str, ...], start: int, end: int) -> list[str]:
    return [stem(t) for t in toks[start:end]
            if t.isalpha() and t not in STOPWORDS and t not in _NEGATING]


def _totality(q: str | None, p: Part, u: Part) -> bool:
    """The sentence's totality word said as the claim's universal over `q` (module
    docstring, first case)."""
    if q is None:
        return False
    toks = u.info.tokens
    for k, t in enumerate(toks):
        if t not in _TOTAL:
            continue
        after = _content(toks, k + 1, k + 1 + _NEAR)
        if q in after:
            return True  # "the entire exhibition" / "all of the exhibition"
        if q not in u.stems and after and after[0] not in p.stems:
            return True  # "a full refund" / "all your money back"
    return False


def _restriction(p: Part, k: int) -> list[str]:
    """The content stems restricting the claim's universal at token `k` (a relative
    clause or "still" right after it, or after the noun it quantifies)."""
    toks = p.info.tokens
    j = k + 1
    if j < len(toks) and toks[j] not in _RELATIVE and toks[j] != _STILL and toks[j].isalpha() \
            and toks[j] not in STOPWORDS:
        j += 1  # "any credits you don't use": past the noun
    if j >= len(toks) or (toks[j] not in _RELATIVE and toks[j] != _STILL):
        return []
    return _content(toks, j + 1, j + 1 + _REACH)


def _restricted_phrases(u: Part) -> list[tuple[list[str], list[str]]]:
    """The sentence's subject as (its words up to a relative or "still", what that
    restricts it by): "deleted notes" (["delet", "note"], []), "credits that are not
    used" (["credi"], ["used"]), and a later noun with "still" after it ("...; riders
    still on the course are collected")."""
    toks = u.info.tokens
    f = next((i for i in range(u.info.lead, len(toks)) if stem(toks[i]) == u.first), None)
    if f is None:
        return []
    out: list[tuple[list[str], list[str]]] = []
    end = next((j for j in range(f + 1, min(len(toks), f + 3))
                if toks[j] in _RELATIVE or toks[j] == _STILL), None)
    if end is None:
        out.append((_content(toks, f, f + 2), []))
    else:
        out.append((_content(toks, f, end), _content(toks, end + 1, end + 1 + _REACH)))
    for j in range(f + 3, len(toks)):
        if toks[j] == _STILL and toks[j - 1] not in STOPWORDS:
            out.append(([stem(toks[j - 1])], _content(toks, j + 1, j + 1 + _REACH)))
    return out


def _as_restricted(q: str | None, said: list[str], u: Part) -> bool:
    """Whether a phrase of the sentence is restricted as the claim's universal over `q`
    with restriction `said` is: what names it and restricts it is the claim's (a noun
    quantified, or at most a noun for a pronoun, besides), and it shares a word of the
    restriction ("colour posters you print" is not "anything you print")."""
    mine = {s[:3] for s in said}
    for head, rest in _restricted_phrases(u):
        others = [w for w in head if w[:3] not in mine]
        if q is not None and [w for w in others if w[:3] != q[:3]]:
            continue
        if len(others) > 1 or (q is not None and not others):
            continue
        if mine & {w[:3] for w in head + rest}:
            return True
    return False


def ranges_as_said(p: Part, u: Part) -> bool:
    """Whether every universal of the claim `p` ranges over no more than the sentence
    `u` says (module docstring)."""
    toks = p.info.tokens
    at = [k for k in range(p.info.lead, len(toks)) if toks[k] in UNIVERSAL]
    if not at or len(at) != len(p.quantified):
        return False
    for k, q in zip(at, p.quantified, strict=True):
        if _totality(q, p, u):
            continue
        said = _restriction(p, k)
        if not said or not _as_restricted(q, said, u):
            return False
    return True
