"""A condition read with the clause it conditions, in claims and contexts alike: "A
courtesy car is not provided | if your car is written off" is one statement, its
polarity the main clause's (alone, "if your car is written off" says nothing of cars).
"""

from __future__ import annotations

import re

from .clauses import Part, part

_CONDITION = re.compile(r"^\W*(?:and\s+|but\s+|even\s+|only\s+)?(?:if|when|unless)\b",
                        re.IGNORECASE)


def conditioned(parts: list[Part]) -> list[Part]:
    """Clauses with a condition read with the clause it conditions ("A courtesy car is
    not provided | if your car is written off": one statement, its polarity the main
    clause's; alone, "if your car is written off" says nothing of cars), in claims and
    contexts alike."""
    if len(parts) < 2 or not any(_CONDITION.match(p.text) for p in parts):
        return parts
    out: list[Part] = []
    pending: Part | None = None
    for p in parts:
        if pending is not None:
            out.append(part(f"{pending.text} {p.text}"))
            pending = None
        elif _CONDITION.match(p.text):
            if out:
                out[-1] = part(f"{out[-1].text} {p.text}")
            else:
                pending = p
        else:
            out.append(p)
    if pending is not None:
        out.append(pending)
    return out
