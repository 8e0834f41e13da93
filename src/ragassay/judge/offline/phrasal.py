"""Common phrasal verbs read as their one-word equals ("turn on" ~ "enable"), for
relevance: the packaged static word vectors put "turn" and "on" far from "enable", so
"How do I turn on 2FA?" read as unrelated to "2FA can be enabled under Settings".

The table is small on purpose: verb-particle pairs that product, support and HR texts
use for a one-word verb the same texts also use, and whose words alone say something
else ("turn", "set", "sign", "log" are near nothing they mean together). A verb's
inflections ("turned on", "sets up") and one pronoun between verb and particle
("switch it off") are read too; the one-word verb replaces the pair in its base form
(relevance reads stems and static vectors, not tense).
"""

from __future__ import annotations

import re

# (verb, particle) -> the one-word verb it means in a product or policy text
PHRASAL: dict[tuple[str, str], str] = {
    ("turn", "on"): "enable",
    ("switch", "on"): "enable",
    ("turn", "off"): "disable",
    ("switch", "off"): "disable",
    ("set", "up"): "configure",
    ("sign", "up"): "register",
    ("log", "in"): "login",
    ("log", "on"): "login",
    ("sign", "in"): "login",
    ("log", "out"): "logout",
    ("sign", "out"): "logout",
    ("fill", "in"): "complete",
    ("fill", "out"): "complete",
    ("hand", "in"): "submit",
    ("send", "in"): "submit",
    ("call", "off"): "cancel",
    ("put", "off"): "postpone",
    ("pay", "back"): "repay",
    ("look", "up"): "search",
    ("find", "out"): "learn",
    ("top", "up"): "recharge",
    ("back", "up"): "backup",
}
# inflections of the verbs above (regular ones built, the rest written out)
_FORMS = {
    "set": ("set", "sets", "setting"), "put": ("put", "puts", "putting"),
    "log": ("log", "logs", "logged", "logging"), "sign": ("sign", "signs", "signed", "signing"),
    "top": ("top", "tops", "topped", "topping"), "find": ("find", "finds", "found", "finding"),
    "send": ("send", "sends", "sent", "sending"), "pay": ("pay", "pays", "paid", "paying"),
}
_PRONOUN = r"(?:it|them|this|that|these|those|him|her)"


def _forms(verb: str) -> tuple[str, ...]:
    return _FORMS.get(verb, (verb, verb + "s", verb + "ed", verb + "ing"))


# "in"/"on" are prepositions too: "signed in March 1918", "logged on the 3rd" are not
# phrasal; a particle before a capitalised word or a number (perhaps after "the") is
# read so (not before an acronym: "turn on 2FA", "log in with SSO")
_NAME_OR_NUMBER = r"(?!\s+(?:(?i:the|a|an)\s+)?(?:[A-Z][a-z]|\d[\d,.:]*(?:st|nd|rd|th)?\b))"
_PREPOSITION_NEXT = {"in": _NAME_OR_NUMBER, "on": _NAME_OR_NUMBER}
_PATTERNS = tuple(
    (re.compile(rf"\b(?i:{'|'.join(_forms(v))})(?:\s+(?i:{_PRONOUN}))?\s+(?i:{p})\b(?!-)"
                + _PREPOSITION_NEXT.get(p, "")), v, word)
    for (v, p), word in PHRASAL.items()
)
# a verb of the table as a word before a space: every pattern's match starts so, and
# most sentences have none (one scan instead of one per pattern; relevance reads every
# context sentence)
_ANY_VERB = re.compile(rf"\b(?i:{'|'.join(sorted({f for v, _ in PHRASAL for f in _forms(v)}))})\s")


def plain_verbs(text: str) -> str:
    """The text with each phrasal verb of the table written as its one-word equal:
    "How do I turn on 2FA?" -> "How do I enable 2FA?". The text itself without one."""
    if not _ANY_VERB.search(text):
        return text
    for pattern, _, word in _PATTERNS:
        text = pattern.sub(word, text)
    return text


def phrasal_verbs(text: str) -> tuple[tuple[str, str], ...]:
    """The phrasal verbs the text uses, each as (its verb, its one-word equal): "2FA can
    be turned on" -> (("turn", "enable"),)."""
    if not _ANY_VERB.search(text):
        return ()
    return tuple((verb, word) for pattern, verb, word in _PATTERNS if pattern.search(text))
