"""Whom a referral names, read against whom the contexts send the question's topic to.

An answer that only sends the user on ("Contact the Grounds Office and they'll help",
"Please email Member Services") declines when the party it names is generic or one the
contexts never tie to anything: the role is whom to ask. When the contexts say who deals
with what ("Lost keys are reissued by the Porters' Lodge. Car passes come from Estates."),
a referral naming one of those parties answers the question, as a careful reader takes
it: it says that party deals with the topic asked about. That is a claim, checked as
one: supported when the context sentence on the question's topic names that party, an
entity swap when it names another party and the referral's party is the one the contexts
give another topic (the decline never scored, a wrong contact left out of every figure).

A party is a run of names ("Security Desk", "Facilities") or a helper phrase
("the lettings team", "the security desk"); it identifies someone only with a word that
is not a generic helper noun ("desk", "team", "office") or a stopword, so "our support
team" names no one; one party names another when its words are a part of the other's
("Security" of "the Security Desk"; "the club office" is not "the club secretary").
The context sentence on the topic is the one sharing the most of the question's topic
words (its words past those of asking and contacting), one
sentence only (a tie reads nothing).
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from typing import NamedTuple

from .lexical import STOPWORDS, stem
from .pieces import clause_texts
from .referrals import HELPER, is_referral
from .sentences import ContextIndex, SentenceInfo, sentence_info
from .weeks import CALENDAR

SUPPORTED, SWAPPED = "supported", "entity"

_WORD = re.compile(r"[A-Za-z][\w&'\u2019-]*")
# a helper phrase: "the security desk", "our lettings team" (up to two words before)
_HELPER_PHRASE = re.compile(rf"\b(?:the|our|your|their|a|an)\s+((?:[\w'\u2019-]+\s+){{0,2}}?"
                            rf"{HELPER})\b", re.IGNORECASE)
_GENERIC = re.compile(rf"{HELPER}|main|general|local|relevant|right|appropriate|friendly|"
                      r"dedicated|head", re.IGNORECASE)
# a named party said to help, as a whole answer ("Estates can help with that", "The
# Dispensary will sort that out for you"), or where to send it ("Please send it to the
# PTA Shop"): a referral naming whom, beside referrals.REFERRAL's shapes
_NAMED_HELPS = re.compile(
    r"^\W*(?:(?:the|our|your)\s+)?(?:[A-Z][\w&'\u2019-]*\s+){1,4}(?:can|will|could|should|"
    r"would|may|might)\s+(?:be\s+(?:happy|glad|pleased|able)\s+to\s+)?(?:help|assist|advise|"
    r"sort|deal with|handle|arrange|look into|take care of)\b"
    r"|^\W*(?:[Pp]lease\s+)?(?:send|take|bring|report|direct|forward|submit|return)\s+(?:it|"
    r"this|that|them|your\s+[\w-]+)\s+to\s+(?:the\s+)?[A-Z]")
# the topic a referral names: "(can help) with billing disputes", "(ask) about refunds"
_ABOUT = re.compile(r"\b(?:with|about|regarding|concerning|for)\s+([^,;:.!?]+)", re.IGNORECASE)
# what a question says of asking or contacting, no topic of its own
_ASKING = frozenset(stem(w) for w in (
    "ask", "contact", "call", "phone", "ring", "email", "speak", "talk", "get", "touch",
    "reach", "go", "need", "help", "deal", "handle", "sort", "person", "people", "someone",
    "somebody", "best", "right", "whom", "who", "where", "which", "want", "should"))


class Verdict(NamedTuple):
    """A referral's party against the contexts: `kind` SUPPORTED or SWAPPED, `row` the
    context sentence on the question's topic."""

    kind: str
    row: int


def _identity(words: Sequence[str]) -> frozenset[str]:
    """The stems that tell one party from another, none where only generic helper nouns
    and stopwords name it ("our support team"); else every word but the stopwords, its
    helper noun too ("the club office" is not "the club secretary")."""
    kept = [w for w in words if (w.isupper() and len(w) > 1) or w.lower() not in STOPWORDS]
    if all(_GENERIC.fullmatch(w) and not w.isupper() for w in kept):
        return frozenset()
    return frozenset(stem(w.lower()) for w in kept)


def parties(info: SentenceInfo, opening: bool = False) -> list[frozenset[str]]:
    """The parties a sentence names, each as its identifying stems: runs of names (a day
    or month is none; with `opening`, a capitalised word opening the sentence too, as a
    referral's subject: "Estates can help") and helper phrases ("the security desk")."""
    names = set(info.names)
    if opening and (first := _WORD.search(info.text)) is not None:
        names.add(first.group(0).lower())
    out: list[frozenset[str]] = []
    run: list[str] = []
    for m in [*_WORD.finditer(info.text), None]:
        w = m.group(0) if m is not None else ""
        if w[:1].isupper() and w.lower() in names and stem(w.lower()) not in CALENDAR:
            run.append(w)
            continue
        if run and (ident := _identity(run)):
            out.append(ident)
        run = []
    for h in _HELPER_PHRASE.finditer(info.text):
        if ident := _identity(_WORD.findall(h.group(1))):
            out.append(ident)
    return out


def _same(a: frozenset[str], b: frozenset[str]) -> bool:
    return a <= b or b <= a


def _topic_row(question: str, ctx: ContextIndex, said: frozenset[str]) -> int | None:
    """The one context sentence sharing the most of the question's topic words, and of
    those the referral names past its parties (`said`: "... can help with billing
    disputes")."""
    topic = ({stem(w.lower()) for w in _WORD.findall(question)
              if w.lower() not in STOPWORDS} | said) - _ASKING
    if not topic:
        return None
    shared = [len(topic & i.stem_set) for i in ctx.infos]
    best = max(shared, default=0)
    if best == 0 or shared.count(best) > 1:
        return None
    return shared.index(best)


def party_verdict(text: str, question: str, ctx: ContextIndex | None) -> Verdict | None:
    """A referral's party against the party the contexts send the question's topic
    to (see the module's note), or None: no referral, no party the contexts name, no
    context sentence on the topic, one naming no party, or a referral naming both the
    topic's party and another's (alignment reads that one as written)."""
    if ctx is None or len(ctx) == 0 or not (is_referral(text) or _NAMED_HELPS.search(text)):
        return None
    info = sentence_info(text)
    if not (named := parties(info, opening=True)):
        return None
    ctx_parties = [parties(i) for i in ctx.infos]
    said = frozenset(stem(w.lower()) for m in _ABOUT.finditer(text)
                     for w in _WORD.findall(m.group(1))
                     if w.lower() not in STOPWORDS and not _GENERIC.fullmatch(w)
                     ) - frozenset().union(*named)
    if (row := _topic_row(question, ctx, said)) is None or not ctx_parties[row]:
        return None
    here = [a for a in named if any(_same(a, p) for p in ctx_parties[row])]
    elsewhere = [a for a in named if a not in here and any(
        _same(a, p) for j, ps in enumerate(ctx_parties) if j != row for p in ps)]
    if here and elsewhere:
        return None  # both ("Tom, our coordinator": his name, her role): alignment reads it
    if here:
        return Verdict(SUPPORTED, row)
    return Verdict(SWAPPED, row) if elsewhere else None


# a clause's joining word, before it is read as a referral of its own
_JOIN = re.compile(r"^\W*(?:(?:but|and|though|however|so|instead|perhaps|maybe)\b\W*)+",
                   re.IGNORECASE)


def clause_verdict(text: str, question: str, ctx: ContextIndex | None) -> Verdict | None:
    """`party_verdict` of a sentence, or of its one referral clause ("I'm not sure, but
    the Events Office can help with that"): a decline does not make the party it sends
    the user to a generic one."""
    if (v := party_verdict(text, question, ctx)) is not None or ctx is None:
        return v
    found = [v for c in clause_texts(text)[1:]
             if (v := party_verdict(_JOIN.sub("", c).strip(), question, ctx)) is not None]
    return found[0] if len(found) == 1 else None


def swapped_party(text: str, question: str, ctx: ContextIndex | None) -> bool:
    """Whether a sentence (or its referral clause) sends the user to a party the contexts
    tie to another topic than the question's (`clause_verdict`)."""
    return (v := clause_verdict(text, question, ctx)) is not None and v.kind == SWAPPED
