"""A lead-in that only introduces what follows it ("Here's what to do:", "You'll need:",
"To renew your permit:"): layout and filler, its list says what it says (claims.py).

A colon does not make the words before it filler: "Refunds aren't available, but here's
what you can do instead:" denies a refund, and "The pool is open to everyone, and
here's a tip:" states who may swim, each in a clause of its own before the clause that
introduces the list. Only a lead-in of one clause that denies nothing is read so.
"""

from __future__ import annotations

from .pieces import clause_texts
from .sentences import SentenceInfo


def introduces_only(info: SentenceInfo) -> bool:
    """Whether a sentence ending in a colon is a bare lead-in: one clause, no negation."""
    text = info.text.rstrip()
    return text.endswith(":") and not info.negated and len(clause_texts(text)) <= 1
