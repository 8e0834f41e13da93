"""A hedge that puts the answer off to the user's own case: "It may depend on your
plan", "That might vary by branch", "It depends on your contract - please check with
support".

The subject is a pronoun for the thing asked about, opening the sentence, and the verb
says the answer turns on something the speaker does not know; it gives no value of the
world. A noun subject ("Prices vary by region", "Delivery depends on stock") states what
the business does, a claim, and is not read here. What the sentence adds after the hedge
("..., but it's usually 20 pounds") is read by hedged.hedged_claim as any declining
sentence's other clauses are. `declines.DECLINE` joins these patterns.
"""

from __future__ import annotations

from .decline_words import APOSTROPHE as _A

IT_DEPENDS = (
    # "It may depend on your plan", "That would depend on the room", "It depends on ...",
    # "This might vary by location" (the topic read after the match: "on your plan")
    rf"^\W*(?:(?:hmm+|well|honestly|so|sorry)\W+)*(?:it|that|this)(?:{_A}ll| will)?\s+"
    r"(?:(?:may|might|could|can|would|will|probably|possibly|really|likely)\s+)*"
    r"(?:depends?|vary|varies)(?=\s+(?:on|by|depending on|from)\b)",
)
"""Patterns (joined with the other decline phrasings, case-insensitive)."""

TRIGGER_WORDS = r"\bdepends?\b|\bvar(?:y|ies)\b"
"""What the fast scan must let through for the shapes here without a negation."""
