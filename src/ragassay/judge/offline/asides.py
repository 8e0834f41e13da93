"""A short bracketed aside in a context sentence ("child tickets (ages 4-15) cost £5"):
it qualifies the words before it, and the clause goes on after it. Cut at its brackets,
the clause's figure ("cost £5") lost its subject ("child tickets") and read as anyone's,
so a claim that restates it ("For children 4 to 15, tickets cost £5") was set against
another clause ("Adult tickets cost £9"). A context sentence's clauses (units.py) are
read with such an aside's brackets dropped: the aside's words join its clause.
"""

from __future__ import annotations

import re

from .pieces import AUXILIARIES

MAX_ASIDE = 5  # tokens of an aside, at most: a longer one, or one with a verb, is a clause
# an aside the clause goes on after (a word follows its closing bracket)
_ASIDE = re.compile(r"\s*\(([^()]*)\)(?=\s+\w)")
_FIGURE_AFTER = re.compile(r"[^,;:.()]*\d")  # a figure in the clause after the aside


def _short(aside: str) -> bool:
    """A phrase of a few tokens, no verb, no comma ("white, for beginners": a phrase of
    its own, read as one)."""
    toks = aside.lower().split()
    return (0 < len(toks) <= MAX_ASIDE and "," not in aside
            and not any(t in AUXILIARIES for t in toks))


def unbracketed(text: str) -> str:
    """The sentence with the brackets of its short asides dropped, their words kept,
    where the clause goes on to a figure (the subject it would lose: "(ages 4-15) cost
    £5"); other asides are left as they were (a source label, a gloss: session 23's
    held-out counts showed the wider reading flagging a faithful answer)."""
    return _ASIDE.sub(lambda m: " " + m.group(1) if _short(m.group(1)) and _FIGURE_AFTER.match(
        text, m.end()) else m.group(0), text)
