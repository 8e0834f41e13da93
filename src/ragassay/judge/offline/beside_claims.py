"""What a sentence set aside beside a decline (a referral, a sign-off, a list of what the
sources hold) may still say of the world, in common words the contexts lack, so that
missing_terms (figures, dates, names) does not see it (review 25b):

- a stance of charge: "... the free airport shuttle", "I hope you enjoy the
  complimentary spa!", "but it is free for members": something said to cost nothing,
  where no context says anything is free, complimentary, included or waived;
- a relative clause stating a fact of what it names, no modal of helping in it: "You
  could try the help centre, which is open until midnight", "... the app, where sauna
  slots are free to book" ("the front desk, who can help" only sends the user on);
- in a sign-off, the business's own thing the contexts never name: "Enjoy your visit to
  our rooftop pool!" ("our" before content words none of which a context has; "Our
  pages only talk about ..." describes the sources, no sign-off).
"""

from __future__ import annotations

import re

from .lexical import FILLER, STOPWORDS, TermPool, norm_tokens
from .sign_offs import signs_off

# said at no charge (charges.py's words less "included", which also means "contained in")
_NO_CHARGE = frozenset({"free", "complimentary", "waived"})
_RELATIVE = re.compile(r",\s*(?:which|where|who|whose)\s+(?P<rest>[^,;:.!?]+)", re.IGNORECASE)
# a relative clause that only says whom to ask and what they can do ("who can help")
_MODAL = re.compile(r"\b(?:can|could|will|would|should|may|might|shall)\b|'ll\b|\u2019ll\b",
                    re.IGNORECASE)
_OUR = re.compile(r"\bour\s+(?P<thing>(?:[\w-]+\s+){0,2}[\w-]+)", re.IGNORECASE)


def _content(text: str) -> list[str]:
    """The words of a text that say something: no stopword or filler."""
    return [t for t in norm_tokens(text) if t not in STOPWORDS and t not in FILLER]


def unstated_charge(text: str, pool: TermPool) -> bool:
    """Whether the text calls something free of charge in a word no context uses."""
    return any(t in _NO_CHARGE and not pool.has(t) for t in norm_tokens(text))


def _unstated_relative(text: str, pool: TermPool) -> bool:
    """A relative clause with no modal, one of whose content words no context has."""
    return any(not _MODAL.search(m.group("rest"))
               and any(not pool.has(t) for t in _content(m.group("rest")))
               for m in _RELATIVE.finditer(text))


def _unnamed_own_thing(text: str, pool: TermPool) -> bool:
    """"our" before words none of which a context names ("our rooftop pool")."""
    return any((words := _content(m.group("thing"))) and not any(pool.has(t) for t in words)
               for m in _OUR.finditer(text))


def says_more(text: str, pool: TermPool) -> bool:
    """Whether a sentence set aside beside a decline says more of the world than whom to
    ask or a courtesy (module docstring)."""
    return (unstated_charge(text, pool) or _unstated_relative(text, pool)
            or (signs_off(text) and _unnamed_own_thing(text, pool)))
