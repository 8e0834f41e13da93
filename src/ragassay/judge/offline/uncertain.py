"""The speaker's own uncertainty, or its refusal to guess, as a decline: "I'm unsure
about the fees", "I can't be certain about that", "I'd rather not guess", "I wouldn't
want to speculate", "I don't want to give you the wrong answer", "I'd hate to mislead
you", "I'm not in a position to answer that".

Each says what the speaker knows or will say, nothing of the world. Only "I" reads so:
"If you're unsure, ask the desk" advises the user, and "we can't be certain of delivery
dates in winter" may be the business saying what it cannot promise, a claim.
`declines.DECLINE` joins these patterns.
"""

from __future__ import annotations

from .decline_words import APOSTROPHE as _A
from .decline_words import CANNOT as _CANNOT
from .decline_words import NOT as _NOT

_I_AM = rf"(?:i{_A}m|i am)"
_I_WOULD = rf"(?:i{_A}d|i would)"
_GUESS = r"(?:guess|speculate|assume|make (?:something|things|an answer) up)"

UNCERTAIN = (
    # "I'm unsure about X", "I'm honestly unsure whether ..."
    rf"\b{_I_AM} (?:really |honestly |a bit |a little |still )?unsure\b",
    # "I can't be certain", "I couldn't say for sure", "I can't tell for certain"
    rf"\bi (?:{_CANNOT}|could{_NOT}) (?:be (?:\w+ )?|say (?:\w+ )?|tell (?:\w+ )?)?"
    r"(?:(?:for )?(?:sure|certain)|certainly|definitively|with (?:any )?certainty)\b",
    # "I'd rather not guess", "I wouldn't want to speculate", "I don't want to guess"
    rf"\b{_I_WOULD} rather not {_GUESS}\b",
    rf"\bi (?:would{_NOT}|wouldn{_A}?t|do{_NOT}|don{_A}?t) (?:want|like) to {_GUESS}\b",
    # "I don't want to give you the wrong answer / incorrect information", "I'd hate to
    # mislead you", "I wouldn't want to mislead you"
    rf"\bi (?:do{_NOT}|don{_A}?t|would{_NOT}|wouldn{_A}?t) (?:want|like) to (?:give|tell) "
    r"you (?:the |any |an? )?(?:wrong|incorrect|inaccurate|misleading|bad)\b",
    rf"\b(?:{_I_WOULD} hate|i (?:do{_NOT}|don{_A}?t|would{_NOT}|wouldn{_A}?t) (?:want|like))"
    r" to (?:mislead|misinform|misadvise) you\b",
    # "I'm not in a position to answer / say / comment"
    rf"\b{_I_AM} not in a (?:\w+ )?position to (?:answer|say|comment|confirm|advise|tell|"
    r"give|help)\b",
)
"""Patterns (joined with the other decline phrasings, case-insensitive)."""

TRIGGER_WORDS = r"\bunsure\b|\bmislead|\bmisinform|\bmisadvise"
"""What the fast scan must let through for the shapes here without a negation."""
