"""A claim that gives one context unit's fact to a sibling thing another unit names in
the same frame (claim-level alignment, session 23, issue #38's entity swaps): "Zone B
parking is free after 6pm" for "Zone A parking is free after 6pm" beside "Zone B is
pay-and-display"; "Items found on trams are sent to the Mill Road office" for "Items
found on buses are sent to the Mill Road office" beside "Items found on trams go to the
depot".

Two things of the contexts are siblings when two units name them in one frame: the same
content word before ("Zone A" / "Zone B", "Kiln 3" / "Kiln 5"), or the same word and
preposition before ("found on buses" / "found on trams"). What fills the
frame (`_fillers`) is a content word, a code letter written as a capital ("Sheet D") or
a number after a name ("Room 4"): what `attributed.entity_words` misses, lowercase and
code names. (The same word after, "morning class" / "evening class", is no frame: on
held-out probes it read a faithful cited claim's modifier as a sibling's name.)

U names its filler in its subject and V its own in theirs (`_subject_end`: up to the
first auxiliary or figure, "Items found on buses | are kept"). The claim names V's
filler in the frame and not U's; it says U's own predicate (at least MIN_SAID of U's
words V lacks; a figure alone is the number checks') and nothing of V's own (no word
or figure of V that U lacks but the filler), and little besides (MAX_OTHER words U
lacks); no other sentence (of any passage) says what the claim takes from U (a fact
given of both, or of "it" beside V), neither U's sentence nor V names both fillers (a
list, "Zone A and Zone B"; two clauses, "... on the Easy Saver and at maturity on the
Fixed Saver"), and both are short sentences (MAX_TOKENS). Left alone: a denied claim
or unit, a comparison.
"""

from __future__ import annotations

import re
from functools import lru_cache

from .clauses import Part, part
from .counts import lemma_stems
from .lexical import STOPWORDS
from .parallel import COMPARES as PAIRED
from .pieces import AUXILIARIES
from .units import Unit, Units

MIN_SAID = 2  # U's own words (V lacks) the claim says
MAX_OTHER = 2  # content words of the claim U lacks besides V's filler, at most
MAX_TOKENS = 30  # a longer sentence says many things (a web page's)
SUBJECT_TOKENS = 6  # tokens of a subject, at most
_CODE = re.compile(r"(?<=\w )([A-Z])\b")  # "Sheet D", "Zone A": a capital letter alone
# a comparison: what the claim is about is set against another ("than", "like")
COMPARES = PAIRED | {"same", "either"}  # (parallel.py's, and "the same", "either")
_ALSO = frozenset({"also", "too"})  # ("Zone B parking is free after 6pm too")
_COMPARING = COMPARES | _ALSO
# a sentence saying its thing shares another's fact ("at the same rate", "too")
_SHARING = _COMPARING | {"likewise", "similarly"}

Frame = tuple[str, ...]


def _fillers(p: Part, subject: bool = False) -> frozenset[tuple[Frame, str]]:
    """The part's (frame, filler) pairs (cached by its text); `subject`: only those of
    its subject (`_subject_end`)."""
    return _fillers_of(p.text, subject)


def _subject_end(p: Part) -> int:
    """Where a sentence's subject ends: at its first auxiliary or figure (not a code
    name's number, "Kiln 3"), else SUBJECT_TOKENS past its opening ("Items found on buses
    | are kept ...", "Studio A | has ...")."""
    toks, lead = p.info.tokens, p.info.lead
    end = min(len(toks), lead + SUBJECT_TOKENS)
    for k in range(lead, end):
        if toks[k] in AUXILIARIES or toks[k][:1].isdigit() and k - 1 not in p.info.capitals:
            return k
    return end


@lru_cache(maxsize=8192)
def _fillers_of(text: str, subject: bool) -> frozenset[tuple[Frame, str]]:
    """Each frame of the part with what fills it (module docstring): ("<", word before),
    ("<<", a word and a preposition before) to the filler's stem (or code); a frame's
    words are no auxiliary ("Parcels are | delivered")."""
    p = part(text)
    toks = p.info.tokens
    stems = lemma_stems(toks, p.info.all_stems)
    codes = {m.group(1).lower() for m in _CODE.finditer(p.text)}
    capitals = set(p.info.capitals)

    def content(k: int) -> bool:
        return (0 <= k < len(toks) and toks[k].replace("'", "").isalpha()
                and toks[k] not in STOPWORDS and toks[k] not in AUXILIARIES)

    # a frame's word as written, but a plural's "s" ("assessment" / "assessor": two)
    words = [t[:-1] if t.endswith("s") and len(t) > 3 else t for t in toks]
    out: set[tuple[Frame, str]] = set()
    for k in range(_subject_end(p) if subject else len(toks)):
        t = toks[k]
        code = (len(t) == 1 and t in codes) or (t.isdigit() and k - 1 in capitals)
        if not (code or (content(k) and len(t) > 1)):
            continue
        fill = t if code else stems[k]
        if content(k - 1):
            out.add((("<", words[k - 1]), fill))
        if k >= 2 and content(k - 2) and toks[k - 1] in STOPWORDS and toks[
                k - 1] not in AUXILIARIES:  # ("found on | trams")
            out.add((("<<", words[k - 2], words[k - 1]), fill))
    return frozenset(out)


def _units(units: Units, doc: int | None) -> list[Unit]:
    """The short context sentences (of `doc`) and their clauses."""
    out: list[Unit] = []
    for j, info in enumerate(units.ctx.infos):
        if (doc is None or units.ctx.docs[j] == doc) and len(info.tokens) <= MAX_TOKENS:
            out += [units.sentence(j), *units.clauses(j)]
    return out


def _names(p: Part) -> frozenset[str]:
    """What fills any frame of the part."""
    return frozenset(fill for _, fill in _fillers(p))


def framed(claim: Part, units: Units, doc: int | None = None) -> int | None:
    """The context sentence whose unit's fact the claim gives to a sibling thing
    another unit names in the same frame (module docstring), or None."""
    if any(claim.negations) or _COMPARING & set(claim.info.tokens):
        return None
    mine: dict[Frame, set[str]] = {}
    for frame, fill in _fillers(claim):
        mine.setdefault(frame, set()).add(fill)
    if not mine:
        return None
    named = _names(claim)
    pool = _units(units, doc)
    every = [units.sentence(j) for j in range(len(units.ctx.infos))]  # (any passage)
    for u in pool:
        if any(u.part.negations):
            continue  # (a denial's fact is no fact of U's thing to give away)
        for frame, fu in _fillers(u.part, subject=True):
            for fv in mine.get(frame, ()):
                if fv == fu or fu in named or fv in _names(u.sentence):
                    continue  # (U's sentence names the sibling too: a list, two clauses)
                if _given(claim, u, frame, (fu, fv), pool, every):
                    return u.row
    return None


def shares(s: Part) -> bool:
    """Whether the sentence says its thing shares another's fact ("... at the same rate",
    "... cost £40 too", "... has one as well", "... does likewise")."""
    toks = s.info.tokens
    return bool(_SHARING & set(toks)) or any(
        a == "as" and b == "well" for a, b in zip(toks, toks[1:], strict=False))


def _given(claim: Part, u: Unit, frame: Frame, fills: tuple[str, str],
           pool: list[Unit], every: list[Unit]) -> bool:
    """Whether the claim says U's own fact of the thing V names with `fills[1]` in the
    frame where U names its own (`fills[0]`), nothing of V's own, and no other
    sentence says it too (module docstring)."""
    fu, fv = fills
    if len(claim.words - u.words - {fv}) > MAX_OTHER:
        return False
    # (the claim's figures but a code name's number: "Kiln 5")
    values = frozenset(n for n, _ in claim.figures) - {float(x) for x in fills if x.isdigit()}
    for v in pool:
        if v.row == u.row or (frame, fv) not in _fillers(v.part, subject=True) or (
                fu in _names(v.part)):
            continue
        if shares(v.sentence):
            return False  # (V says its thing shares another's fact: "at the same rate")
        of_u, of_v = (frozenset(n for n, _ in x.part.figures) for x in (u, v))
        if (claim.words & v.words) - u.words - {fv} or values & (of_v - of_u):
            continue  # (the claim says something of V's own: a word, a figure)
        said = (claim.words & u.words) - v.words
        if len(said) < MIN_SAID:
            continue  # (a figure of U's alone: the number checks read it, placed.py)
        if any(said <= w.words for w in every if w.row != u.row):
            continue  # (another sentence says it too: of V's thing, or of "it")
        return True
    return False
