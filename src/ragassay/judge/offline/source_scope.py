"""What the sources or the speaker cover, said to explain a decline or as one ("It only
covers our electricity supply, not gas tariffs", "The documents only cover opening hours,
not printing", "Sorry, I can only answer questions about our opening hours"): a
description of the sources, not of the world.
"""

from __future__ import annotations

import re

from .decline_words import APOSTROPHE as _A
from .decline_words import GIVEN as _GIVEN
from .decline_words import SOURCE as _SOURCE
from .decline_words import TEXTS as _TEXTS
from .pieces import clause_texts

# What the sources cover, said to explain a decline ("It only covers our electricity
# supply, not gas tariffs"; "the guidance I have is about growing, not markets"; "the
# house rules I can see only cover smoking"): the subject is the source (a pronoun for
# it, or a source noun, perhaps with what the speaker was given), the verb says what it
# is about. It describes the sources, not the world.
_SOURCE_NOUN = (
    rf"(?:{_SOURCE[3:-1]}|details|rules|guidance|guidelines|terms|conditions|agreement|"
    r"contract|material|extracts?|sheets?|catalogue|schedule|plan|booklet|documentation|"
    r"what i (?:have|had|can see|was given|found|could find)|"
    # any noun the assistant says it has: "the forecast I have only covers ..." (not the
    # business's "the rooms we have include ...")
    rf"[\w-]+(?=\s+{_GIVEN}\b))"
)
_SCOPE = re.compile(
    rf"^\W*(?:(?:but|and|so|though|however|unfortunately|sadly|sorry|apologies|"
    rf"i{_A}m (?:sorry|afraid)|i am (?:sorry|afraid))\W+)*"
    rf"(?:(?P<det>it|they|this|that|these|those|which|my|(?:the|our|your|all the))\s*"
    rf"(?:(?:[\w{_A[1:-1]}-]+\s+){{0,3}}?(?P<noun>{_SOURCE_NOUN}))?)"
    r"(?P<speaker>\s+(?:i|we) (?:have|had|was given|were given|can see|could see|can access|"
    rf"received|found|could find|have access to)(?: access to)?|\s+(?:i|we)(?:{_A}ve| have) "
    r"got|\s+here|\s+(?:provided|available|given|supplied)(?: to (?:me|us))?)?"
    r"(?P<only>(?:\s+(?:only|just|mainly|mostly|largely|seem to|seems to|appear to|"
    r"appears to))*)\s+"
    r"(?:covers?|(?:is|are|was|were) (?P<only2>only |just |mainly |mostly |all |"
    r"(?=limited|restricted))?(?:about|on|concerned with|(?P<limit>limited|restricted) to|"
    r"focused on|for)|deals? with|relates? to|concerns?|focus(?:es)?"
    r" on|talks? about|discuss(?:es)?|describes?|addresses|appl(?:y|ies) to|refers? to|"
    r"explains?|lists?|includes?|goes? into|mentions?)\b",
    re.IGNORECASE,
)
_DEICTIC = frozenset({"it", "they", "this", "that", "these", "those", "which", "my"})
# Nouns that only ever name what the assistant was given to read (not a policy, a plan
# or a guide, which the world has too): "The documents only cover X" is about them.
_TEXT_NOUN = re.compile(
    r"(?:documents?|docs|documentation|contexts?|texts?|passages?|sources?|excerpts?|"
    r"snippets?|extracts?|materials?|material|articles?|search results|results|"
    r"knowledge base|what i .*)$", re.IGNORECASE)
# ... and nouns the world has too ("the contact details"), the sources only when the speaker
# owns them ("our information", "the information I have"; not "the booking details I have")
_OWNED_NOUN = re.compile(r"(?:information|info|details)$", re.IGNORECASE)
# ... and a text the world has too, the sources when the speaker says it was given it
_READ_NOUN = re.compile(_TEXTS, re.IGNORECASE)


def _text_noun(m: re.Match[str]) -> bool:
    noun = m.group("noun") or ""
    if _TEXT_NOUN.search(noun):
        return True
    speaker = (m.group("speaker") or "").lower().split()[:1]
    if speaker == ["i"] and _READ_NOUN.fullmatch(noun.split()[-1] if noun else ""):
        return True  # "the guide I have", "the leaflets I was given": the speaker's reading
    return bool(_OWNED_NOUN.search(noun)) and (m.group("det").lower() in ("our", "my") or (
        noun.lower() != "details" and (speaker == ["i"] or bool(
            speaker and _GIVEN_WORD.match(speaker[0])))))
# What the speaker can answer, said to decline: "Sorry, I can only answer questions
# about our opening hours and loans", "I'm only able to help with queries on billing".
_SPEAKER_SCOPE = re.compile(
    rf"^\W*(?:(?:sorry|unfortunately|sadly|apologies|but|however|i{_A}m afraid|i am "
    rf"afraid)\W+)*(?:i|we)(?:{_A}m| am|{_A}re| are)?(?:\s+(?:can|am|are))?\s+(?:only|just)"
    r"\s+(?:be\s+)?(?:able to\s+)?(?:answer|help|assist|handle|discuss|talk about|cover|"
    r"provide|respond to|deal with)\s+(?:\w+\s+){0,2}?(?:questions?|queries|topics?|"
    r"subjects?|requests?|information|info|details|things|matters)\s+(?:about|on|"
    r"regarding|related to|relating to|concerning|that|to do with|in)\b"
    # "I only have details about servicing, repairs and battery changes"
    rf"|^\W*(?:(?:but|and|so|though|however|sorry|unfortunately)\W+)*(?:i|we)\s+"
    rf"(?:only|just)\s+(?:have|had|hold|know)\s+(?:(?:any|some|the)\s+)?(?:information|"
    rf"info|details|documents|notes|material|guidance|data)\s+(?:about|on|for|regarding|"
    rf"covering|concerning)\b"
    # "All I have is information on X and Y", "My information is limited to X"
    rf"|^\W*(?:(?:but|and|so|sorry|unfortunately)\W+)*all (?:i|we) (?:have|had|can see|was "
    r"given|could find) (?:is|are) (?:(?:some|the|a few|a little)\s+)?(?:information|info|"
    r"details|notes|material|guidance|data)\s+(?:about|on|for|regarding|covering|concerning)\b"
    r"|^\W*(?:(?:but|and|so|sorry|unfortunately)\W+)*(?:my|our) (?:information|info|details|"
    r"notes|material|documents|sources) (?:is|are) (?:only |strictly )?(?:limited|restricted) "
    r"to\b",
    re.IGNORECASE)
_CONTRAST = re.compile(r"(?i),\s*(?:but\s+)?not\b|\bnot\s+(?:about|on|for)\b|"
                       r",?\s*but (?:says |mentions )?nothing (?:about|on|regarding|concerning)\b")


def _speaker(m: re.Match[str]) -> bool:
    """Whether the match names the speaker's sources: "... I have", "... I've got", or
    "here" after a word for a text or the speaker's info ("the info here"; "the schedule
    here" is the business's)."""
    speaker = (m.group("speaker") or "").strip().lower()
    noun = m.group("noun") or ""
    if _GIVEN_WORD.match(speaker):  # "the information provided", "the documents available"
        return bool(_TEXT_NOUN.search(noun) or re.search(r"info(?:rmation)?$", noun, re.I))
    return bool(speaker) and (speaker != "here" or bool(
        _TEXT_NOUN.search(noun) or _OWNED_NOUN.search(noun)))


_GIVEN_WORD = re.compile(r"(?:provided|available|given|supplied)\b")


def is_source_scope(sentence: str, beside: bool = False, declined: bool = False,
                    loose: bool = False) -> bool:
    """A sentence (or clause) saying what the sources the speaker has cover, as a decline
    explains itself: "It only covers our electricity supply, not gas tariffs", "the
    guidance I have is about growing and harvesting". The source must be the speaker's
    ("... I have", "... I can see") or pointed at ("it", "these rules") and limited
    ("only", "mainly", "..., not X"): "The policy covers theft" is a claim about a policy.
    `beside`: it follows a decline that names the sources ("... the information I have
    doesn't mention X. It covers Y and Z."): then "it" / "they" or a text noun ("The
    documents cover Y") is the sources without a limit; "The policy covers theft" stays
    a claim. `declined`: a decline stands beside it that names no source ("Our
    information covers sweeping, but I can't see anything about pots"): a text noun is
    the sources then too. `loose`: beside a decline, "the information" / "the info" is
    the sources with no limit too ("I don't know. The information covers X and Y"): for
    a caller that checks the items it lists (covered_items.listed_named)."""
    m = _SCOPE.search(sentence)
    if m is None:
        return bool(_SPEAKER_SCOPE.search(sentence))  # "I only have details about X"
    if _speaker(m):
        return True
    if m.group("det").lower() == "which" and not beside:
        return False  # ("..., which only covers entry": of the sources only beside a
        # decline naming them, "... the list of services I have, which covers ...")
    text = _text_noun(m)
    if declined and text:
        return True
    pointed = m.group("det").lower() in _DEICTIC or text
    limited = bool(m.group("only").strip() or m.group("only2") or m.group("limit")) or bool(
        _CONTRAST.search(sentence[m.end():]))
    if loose and declined and re.search(r"info(?:rmation)?$", m.group("noun") or "", re.I):
        return True  # "I don't know. The information only covers plot fees."
    if beside and (text or (m.group("det").lower() in _DEICTIC and not m.group("noun"))
                   or (m.group("noun") and _OWNED_NOUN.search(m.group("noun")) and limited)):
        return True  # ("The information covers X and Y, but nothing about Z")
    return pointed and limited


def scope_end(sentence: str) -> int:
    """Where the verb of a sentence saying what the sources cover ends ("The information
    only covers| X and Y"), 0 when it says no such thing."""
    return m.end() if (m := _SCOPE.search(sentence)) else 0


# A decline that names the sources it read ("the information I have doesn't mention",
# "in the documents I have"): what follows it about "it" / "they" is about them.
_NAMES_SOURCE = re.compile(rf"\b{_SOURCE}\b|\b(?:what|(?:the|my|this|these|those)\s+"
                           r"(?:[\w-]+\s+){0,3}?[\w-]+) i (?:have|had|can see|was given)\b",
                           re.IGNORECASE)


def names_source(sentence: str) -> bool:
    """Whether a declining sentence names the sources it read (`is_source_scope`'s
    `beside`)."""
    return bool(_NAMES_SOURCE.search(sentence))


# What the assistant can help with, said beside a decline ("I can help with room
# details, prices and bookings"): its scope, not a claim about the world.
_HELP_SCOPE = re.compile(
    rf"^\W*(?:(?:but|and|so|however)\W+)?(?:i|we)(?:{_A}m| am|{_A}re| are)?\s+(?:can|could|"
    r"am able to|are able to|(?:would be |am |are |'m |'re )?happy to)\s+(?:(?:help|assist)"
    r"(?:\s+you)?\s+with|tell you (?:about|more about)|answer questions (?:about|on))\b",
    re.IGNORECASE)


def is_help_scope(sentence: str) -> bool:
    """A sentence saying what the assistant can help with ("We can help with bookings
    and prices"): a decline's scope when it stands beside one."""
    return bool(_HELP_SCOPE.search(sentence))


# a clause's own finite predicate that asserts ("it's free", "which are accepted", "they
# cost £5"), a negation ("it doesn't mention X") saying what the sources lack
_ASSERTS = re.compile(rf"\b(?:is|are|was|were|costs?|can|will|must|opens?|closes?|"
                      rf"takes?|runs?)\b|{_A}s\b", re.IGNORECASE)
_DENIES = re.compile(rf"\b(?:not|no|nothing|never)\b|n{_A}t\b", re.IGNORECASE)


def states_more(sentence: str) -> bool:
    """Whether a clause after a scope statement's first asserts something of its own:
    "The guide I was given only covers parking: it's free at the stadium" says what
    parking costs, no decline (not "..., not printing" or "; it doesn't mention X")."""
    return any(_ASSERTS.search(c) and not _DENIES.search(c) for c in clause_texts(sentence)[1:])


def declines_by_scope(sentence: str) -> bool:
    """A sentence that declines by saying what the sources or the speaker cover, with no
    decline beside it: "The documents only cover opening hours and loan limits, not
    printing.", "Sorry, I can only answer questions about our opening hours and loans."
    The source is named as a text ("documents", "what I have", "the information I
    have"), never a policy, plan or booking, and limited ("only", "..., not X")."""
    if _SPEAKER_SCOPE.search(sentence):
        return True
    m = _SCOPE.search(sentence)
    if m is None or not m.group("noun") or states_more(sentence):
        return False
    if not _text_noun(m):
        return _owned_read_limit(m, sentence)
    return bool(m.group("speaker") or m.group("only").strip() or m.group("only2")
                or m.group("limit")
                or _CONTRAST.search(sentence[m.end():]))


# a text the world has too ("guides", "help pages"), the speaker's own ("our", "my")
_OWNED_READ = re.compile(rf"(?:{_TEXTS[3:-1]}|pages?|help cent(?:re|er)|website|site)$",
                         re.IGNORECASE)


def owned_scope(sentence: str) -> bool:
    """Whether a sentence declines by what the speaker's own texts cover, a noun the world
    has too (`_owned_read_limit`): its caller checks that the contexts name what it lists."""
    m = _SCOPE.search(sentence)
    return (m is not None and bool(m.group("noun")) and not _text_noun(m)
            and _owned_read_limit(m, sentence))


def _owned_read_limit(m: re.Match[str], sentence: str) -> bool:
    """Whether a scope statement names the speaker's own texts ("our guides", "my help
    pages") and both limits it and names what it lacks: "Our guides only cover setup and
    pairing, not solar panels" (a decline). Without both ("Our guides cover the north
    trail") it may be the business's people or products, a claim."""
    return (m.group("det").lower() in ("our", "my") and bool(
        _OWNED_READ.search(m.group("noun") or "")) and bool(
        m.group("only").strip() or m.group("only2") or m.group("limit"))
        and bool(_CONTRAST.search(sentence[m.end():])))
