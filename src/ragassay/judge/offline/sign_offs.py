"""A sign-off beside a decline: an offer to help with something else ("Happy to help
with anything else about car hire.", "Let me know if you have another question.", "Is
there anything else I can help with?") or a good wish ("Good luck with your
application!", "I hope you have a great time on the slopes!", "Enjoy your visit!").
Said after "I don't have details on X" it closes the answer and claims nothing of the
world; claims._beside_decline sets it aside (only beside a sentence that declines, and
only when it names no figure, name or address the contexts lack).

A sentence that says more stays a claim: "Happy to help: the desk is open until 9pm"
(a figure, a clause of its own), "Enjoy the free parking on site!" (a wish about a thing,
not the user's own visit or time).
"""

from __future__ import annotations

import re

from .decline_words import APOSTROPHE as _A

# what the offer is of: the rest of what the user may ask
_ELSE = re.compile(r"\b(?:anything|something|everything) else\b|\b(?:any |an)?other "
                   r"(?:questions?|queries|query|enquir(?:y|ies))\b|\banother (?:question|"
                   r"query|enquiry)\b|\bany (?:more|further) (?:questions?|queries|help)\b",
                   re.IGNORECASE)
_LEAD = r"^\W*(?:(?:but|and|so|though|otherwise|meanwhile|in the meantime|of course|please|do)\W+)*"
# ... and its opening: the speaker glad to help, the user invited to ask
_OFFER = re.compile(
    rf"{_LEAD}(?:(?:i{_A}?m|i am|i{_A}d be|i would be|i{_A}ll be|i will be|we{_A}re|we are)\s+)?"
    r"(?:always\s+|more than\s+|very\s+)?(?:happy|glad|pleased) to (?:help|assist|answer)\b"
    rf"|{_LEAD}(?:let me know|feel free|just ask|ask away|don{_A}?t hesitate|do get in touch|"
    r"is there|was there|are there|can i|could i|may i|shall i|would you like|do you have|"
    rf"if you have|if there{_A}?s|if there is|anything else)\b",
    re.IGNORECASE)
# what a sign-off says after its offer, at most: it stops where a claim would begin
_SHORT = 10
_FIGURE = re.compile(r"\d")


def offers_more_help(sentence: str) -> bool:
    """An offer to help with the rest of what the user may ask: the speaker glad to help
    or the user invited to ask, about "anything else" or "another question", no figure."""
    return (bool(_OFFER.search(sentence)) and bool(_ELSE.search(sentence))
            and not _FIGURE.search(sentence) and len(sentence.split()) <= _SHORT + 4)


# a good wish: luck, enjoyment of the user's own visit or time, a hope for it
_WISH = re.compile(
    rf"{_LEAD}(?:(?:good|best of|the best of) luck|all the best|best wishes|safe travels|"
    r"take care|"
    r"enjoy (?:your|the rest of your)|have (?:a|an) (?:(?:really|very|great|good|lovely|nice|"
    r"wonderful|fantastic|brilliant|safe|happy|fun|great)\s+)+(?:time|day|trip|stay|visit|"
    r"evening|weekend|holiday|journey|break|meal|game|match|event|celebration)|"
    r"i (?:hope|trust) (?:you (?:have|enjoy|find)|it goes|that|this|everything)|"
    r"hope (?:you (?:have|enjoy)|it goes|that|this|everything))\b",
    re.IGNORECASE)
# ... whose own words stay few and say nothing of a thing on offer
_WISH_WORDS = 12


def wishes_well(sentence: str) -> bool:
    """A good wish for the user's visit, time or plans ("Good luck with your
    application!", "I hope you have a great time on the slopes!"), short, no figure."""
    return (bool(_WISH.search(sentence)) and not _FIGURE.search(sentence)
            and len(sentence.split()) <= _WISH_WORDS)


def signs_off(sentence: str) -> bool:
    """An offer of more help or a good wish (the module's doc)."""
    return offers_more_help(sentence) or wishes_well(sentence)
