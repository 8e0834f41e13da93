"""Regular verb forms read as their base: "logged" is "log", "stored" "store", "shipping"
"ship". The crude stem (lexical.stem: a 5-character prefix) joins a long verb's forms
("increased" / "increase") but not a short one's ("logged" / "log"); where one side says
a verb in one form and the other in another, these bases are the common word."""

from __future__ import annotations

from collections.abc import Iterable
from functools import lru_cache

from .lexical import STOPWORDS, stem

_MIN_BASE = 3  # letters: "fed", "red", "bed" have no base to undo


def ing_base(tok: str) -> str | None:
    """An -ing form's base, its doubled last letter undone ("swimming": "swim";
    "diving": "div", "dive" less its "e"); None for another word."""
    if len(tok) <= 5 or not tok.endswith("ing"):
        return None
    base = tok[:-3]
    return base[:-1] if len(base) > 3 and base[-1] == base[-2] else base


@lru_cache(maxsize=16384)
def _bases(tok: str) -> frozenset[str]:
    if tok in STOPWORDS:
        return frozenset()
    base = ing_base(tok)
    if base is None and len(tok) == 4 and tok.endswith("ed") and tok[1:3] != "ee":
        return frozenset({stem(tok[:-1])})  # "used": "use", "owed": "owe", "tied": "tie"
    if base is None and len(tok) > 4 and tok.endswith("ed") and not tok.endswith("eed"):
        base = tok[:-2]
        if len(base) > _MIN_BASE and base[-1] == base[-2] and base[-1] not in "ls":
            base = base[:-1]  # "logged": "log", "shipped": "ship" (not "called", "passed")
    if base is None or len(base) < _MIN_BASE:
        return frozenset()
    return frozenset({stem(base), stem(base + "e")})


def bases(tokens: Iterable[str]) -> frozenset[str]:
    """The stems of the bases of the regular -ed and -ing forms among `tokens`, read
    beside their own stems (never in place of them)."""
    out: set[str] = set()
    for t in tokens:
        out |= _bases(t)
    return frozenset(out)


def with_bases(stems: frozenset[str], pairs: Iterable[tuple[str, str]]) -> frozenset[str]:
    """`stems` and the bases of those of them that are a regular -ed or -ing form
    (`pairs`: a part's (token, stem) pairs): a negation's reach, read in either form."""
    return stems.union(*(_bases(t) for t, s in pairs if s in stems))
