"""What a sentence set aside beside a decline (a referral, a sign-off, a list of what the
sources hold) may still say of the world, in common words the contexts lack, so that
missing_terms (figures, dates, names) does not see it (review 25b): in a sign-off, the
business's own thing the contexts never name: "Enjoy your visit to our rooftop pool!"
("our" before content words none of which a context has; "Our pages only talk about
..." describes the sources, no sign-off).

Withdrawn in session 25 (each turned a correct held-out answer wrong, counts only): a
stance of charge the contexts never take ("... the free airport shuttle") and a relative
clause of fact after a referral ("the help centre, which is open until midnight"); their
cases are strict xfails in tests/judge/offline/test_review25b.py.
"""

from __future__ import annotations

import re

from .lexical import FILLER, STOPWORDS, TermPool, norm_tokens
from .sign_offs import signs_off

_OUR = re.compile(r"\bour\s+(?P<thing>(?:[\w-]+\s+){0,2}[\w-]+)", re.IGNORECASE)


def _content(text: str) -> list[str]:
    """The words of a text that say something: no stopword or filler."""
    return [t for t in norm_tokens(text) if t not in STOPWORDS and t not in FILLER]


def _unnamed_own_thing(text: str, pool: TermPool) -> bool:
    """"our" before words none of which a context names ("our rooftop pool")."""
    return any((words := _content(m.group("thing"))) and not any(pool.has(t) for t in words)
               for m in _OUR.finditer(text))


def says_more(text: str, pool: TermPool) -> bool:
    """Whether a sentence set aside beside a decline says more of the world than whom to
    ask or a courtesy (module docstring)."""
    return signs_off(text) and _unnamed_own_thing(text, pool)
