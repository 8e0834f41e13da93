"""A condition read with the clause it conditions, in claims and contexts alike: "A
courtesy car is not provided | if your car is written off" is one statement, its
polarity the main clause's (alone, "if your car is written off" says nothing of cars).
So is a clause that only says when, of every time, read with the clause after it ("Every
day, ...", "..., but all year round, the café ..."), or, last, with the one before it
("..., all year round"): alone it has no words to align. So is a "while" clause after
a clause too short to align alone ("You should not donate | while you have a cold": the
time the act is denied in; after a clause of its own, "Members pay £5, while guests pay
£10", a "while" contrasts two statements and stays apart).
"""

from __future__ import annotations

import re

from .clauses import Part, part
from .scope import TIMES

_CONDITION = re.compile(r"^\W*(?:and\s+|but\s+|even\s+|only\s+)?(?:if|when|unless)\b",
                        re.IGNORECASE)
_WHILE = re.compile(r"^\W*(?:and\s+|but\s+)?while\b", re.IGNORECASE)
ALONE = 2  # content words a clause needs to be aligned on its own (alignment.MIN_WORDS)


def conditioned(parts: list[Part]) -> list[Part]:
    """Clauses with a condition read with the clause it conditions ("A courtesy car is
    not provided | if your car is written off": one statement, its polarity the main
    clause's; alone, "if your car is written off" says nothing of cars), in claims and
    contexts alike."""
    if len(parts) < 2 or not any(_CONDITION.match(p.text) or _when(p) or _WHILE.match(
            p.text) for p in parts):
        return parts
    out: list[Part] = []
    pending: Part | None = None
    for k, p in enumerate(parts):
        if pending is not None:
            out.append(part(f"{pending.text} {p.text}"))
            pending = None
        elif _when(p) and k + 1 < len(parts):
            pending = p  # ("..., but all year round, the café serves ...": the next one's)
        elif _CONDITION.match(p.text) or _when(p) or (
                _WHILE.match(p.text) and out and len(out[-1].words) < ALONE):
            if out:
                out[-1] = part(f"{out[-1].text} {p.text}")
            else:
                pending = p
        else:
            out.append(p)
    if pending is not None:
        out.append(pending)
    return out


def _when(p: Part) -> bool:
    """A clause that says only "at every time" of something ("all year round")."""
    heads = frozenset(h for h in p.quantified if h)
    return bool(heads) and heads <= TIMES and p.words <= heads
