"""An answer that declines: "I don't know", "the documents don't say", "I can't help
with that one", and the referral that often follows ("Please contact our support team").

Decline phrasings are patterns (a decline says so in words; nothing to align): first-
person ignorance or inability ("I'm not sure", "I couldn't find anything about",
"I'm unable to answer"), a lack of information ("I don't have enough information", "no
details on X are given"), and a source that is silent ("the policy documents don't
mention", "isn't covered in the documents", "there's nothing in the passages about").
Apostrophes are written one way where a sample is keyed (text.plain_apostrophes); the
patterns read the typographic one too, for callers with raw text.

A declining sentence may still make a claim ("I'm not sure, but refunds take 45 days"):
`hedged.hedged_claim` reads the clauses outside the decline.
"""

from __future__ import annotations

import re

from .decline_words import APOSTROPHE as _A
from .decline_words import CANNOT as _CANNOT
from .decline_words import COVERS as _COVERS
from .decline_words import GIVEN as _GIVEN
from .decline_words import INTERJECTION as _INTERJECTION
from .decline_words import NOT as _NOT
from .decline_words import SOURCE as _SOURCE
from .decline_words import TEXTS as _TEXTS
from .decline_words import WHAT_I_HAVE as _WHAT_I_HAVE
from .gap_idioms import GAP_IDIOMS
from .gap_idioms import TRIGGER as _GAP
from .nothing_there import LOOKED_FOR, LOOKING, NOTHING_THERE
from .referrals import is_pure_referral
from .silent import SILENT, UNNAMED_SOURCE
from .source_scope import declines_by_scope
from .uncertain import TRIGGER_WORDS as _UNSURE
from .uncertain import UNCERTAIN
from .unclear import TRIGGER_WORDS as _UNCLEAR
from .unclear import UNCLEAR

_SILENT_VERB = (
    r"(?:say|mention|cover|contain|specify|state|include|address|go into|provide|answer|"
    r"tell|discuss|list|explain|describe|give|indicate|detail|clarify|talk about|touch on)"
)
_KNOW_VERB = (r"(?:answer|determine|find|locate|see|say|tell|confirm|provide|verify|help|"
              r"assist|advise|comment|speak to|give|know|check|access|look up|be sure|spot|"
              r"come across|track down|pin down)")
_INFO = (r"(?:information|info|details?|data|knowledge|answer|specifics|records?|idea|context|"
         r"guidance|advice|figures?|numbers?|facts?|coverage)")
_PATTERNS = (  # (every pattern but a silent source's, silent.SILENT)
    # ignorance
    rf"\bi (?:do not|don{_A}?t|dont) know\b",
    rf"\b(?:i{_A}?m|i am|we{_A}?re|we are) not (?:sure|certain)\b",
    r"\bno idea\b",
    # first-person inability: "I can't help with that one", "we couldn't find anything"
    rf"\b(?:i|we)(?:{_A}(?:m|re|ve|d))?(?:\s+(?:am|are|was|were|have|had|also|really|just|"
    rf"unfortunately|currently|simply|sadly))*\s+(?:{_CANNOT}|could{_NOT}|"
    rf"unable to|not able to|(?:was|were|wasn|weren)(?:{_A}t)? (?:not )?able to|"
    rf"have{_NOT} been able to|won{_A}?t be able to)\s+(?:\w+\s+){{0,2}}?{_KNOW_VERB}\b",
    # "I've had a look but can't find anything on X": the subject before a search
    rf"\b(?:i|we)(?:{_A}ve| have| had)?\s+(?:had a (?:\w+ )?look|looked|checked|searched|"
    rf"gone through|been through)\b[^.;!?]{{0,60}}?\b(?:but|and)\s+(?:{_CANNOT}|could{_NOT}|"
    rf"unable to|not able to|(?:did|do){_NOT})\s+(?:\w+\s+){{0,2}}?{_KNOW_VERB}\b",
    # ... its second clause cut from the search ("but can't find anything on X"): a search
    # that found nothing, "anything" its object
    rf"^\W*(?:but|and|yet)\s+(?:{_CANNOT}|could{_NOT}|unable to|(?:was|were){_NOT} able to)"
    r"\s+(?:find|see|spot|locate|track down|come across)\s+(?=anything\b|any\s)",
    # "I can't recommend a brand": the assistant's (the business's "we can't recommend
    # bleach on quartz" is its advice, a claim)
    rf"\bi(?:{_A}m| am)? (?:really |just |honestly )?(?:{_CANNOT}|could{_NOT}|unable to|"
    rf"not able to)\s+(?:\w+\s+){{0,2}}?(?:recommend|suggest)\b",
    # the same without a subject, with verbs that only decline ("cannot be determined")
    rf"\b(?:{_CANNOT}|unable to|not possible to) (?:answer|determine|say|"
    rf"tell|confirm|be determined|be answered)\b",
    # a lack of information: "I don't have enough information", "I have no data on"
    rf"\b(?:do|does|did){_NOT} have (?:(?:any|enough|sufficient|the|that|this|much|specific|"
    rf"more|further|relevant|reliable|such|those|these|details|access to)\s+)*{_INFO}\b",
    # "I don't have any up-to-date information" (the speaker's lack only: "The Lite
    # doesn't have heart rate data" is a claim)
    rf"\b(?:i|we) (?:do|did){_NOT} have (?:any |enough |the |much )?(?:[\w-]+\s+){{0,2}}?{_INFO}\b",
    # "I don't have Saturday's line-up, I'm afraid", "Sorry, I don't have the prices":
    # the assistant lacking something, with a regret beside it
    # "I don't have the pet policy to hand": the speaker's lack of a text at hand
    rf"\bi (?:do not|don{_A}?t|dont) have (?!to\b)[^.;!?,]{{1,60}}?\s(?:to hand|at hand|"
    r"in front of me)\b",
    rf"\bi (?:do not|don{_A}?t|dont) have (?!to\b)[^.;!?]{{1,60}}?,?\s*(?:i{_A}m afraid|"
    rf"i am afraid|sorry|unfortunately)\b",
    rf"\b(?:sorry|unfortunately|i{_A}m afraid|i am afraid)\W+(?:but\W+)?i (?:do not|"
    rf"don{_A}?t|dont) have (?!to\b)",
    # "I don't have a price for catalytic converters": the assistant lacking something
    # about a topic, opening its sentence ("I" is the assistant; "we" may be the business)
    rf"^\W*i (?:do not|don{_A}?t|dont) have (?!to\b)(?:(?:a|an|any|the)\s+)?"
    rf"(?:[\w-]+\s+){{1,3}}?(?:for|on|about|regarding|of)\b",
    # "the information I have covers X and Y, but nothing about Z"
    rf"\b(?:(?:our|my)\s+(?:[\w-]+\s+)?(?:{_SOURCE}|details)|"
    rf"{_SOURCE}\s+(?:i|we)\s+(?:have|had|can see)|"
    # "The course details mention the fee, but nothing about loans" (a text, not a policy)
    rf"(?:the|these|this)\s+(?:[\w-]+\s+)?(?:{_TEXTS}|details)\s+(?:only\s+)?"
    rf"(?:mention|cover|list|say|give|include|show|state)s?)\b"
    rf"[^.;!?]{{0,120}}?(?:,?\s*but|,) nothing (?:about|on|regarding|concerning|"
    r"(?:that |which )?(?:mentions?|covers?|says?))\b",
    rf"\b(?:i|we) have no (?:\w+ )?{_INFO}\b",
    # "I have nothing on parking", "I've got nothing about that" (the assistant only: "we
    # have nothing on Sundays" is the business's diary)
    rf"\bi(?:{_A}ve| have)(?: got)? nothing (?:on|about|regarding|concerning|covering)\b",
    # "I don't have anything to go on there", "I've got nothing to go on"
    rf"\bi (?:(?:do not|don{_A}?t|dont) have|(?:have{_NOT}|haven{_A}?t) got) (?:anything|much) "
    r"to go on\b"
    rf"|\bi(?:{_A}ve| have)(?: got)? nothing to go on\b",
    # "I haven't got any info about", "I don't hold any details on" (the assistant only:
    # "we don't hold data on customers" is the business's claim)
    rf"\bi (?:have{_NOT}|haven{_A}?t|{_A}ve not) got (?:any |enough |much |the )?"
    rf"(?:[\w-]+\s+){{0,2}}?{_INFO}\b",
    rf"\bi (?:do not|don{_A}?t|dont) hold (?:any |much |the )?(?:[\w-]+\s+){{0,2}}?{_INFO}\b",
    # "I wasn't given anything about", "I haven't been given any details on"
    rf"\b(?:i|we) (?:was|were|have|had)(?:{_NOT}|n{_A}?t) (?:been )?given (?:anything|"
    rf"any (?:[\w-]+\s+)?{_INFO})\b",
    # "My sources are silent on X", "the documentation is silent about X"
    rf"\b{_SOURCE}\b(?:\s+[\w-]+){{0,3}}?\s+(?:is|are|was|were|seems?|appears?)\s+"
    r"(?:(?:to be|completely|entirely|totally|rather|quite)\s+)*(?:silent\b|quiet on\b)",
    # "There's no reference to X in the docs"
    r"\bno (?:specific |direct )?references? to\b",
    # "I'm not seeing anything on X"
    rf"\b(?:i{_A}m|i am) not seeing (?:anything|any (?:mention|information|info|details?|"
    r"reference))\b",
    # "That isn't in my notes.", "It's not in the documents I was given": the whole clause
    rf"(?:\b(?:is|are|was|were){_NOT}|{_A}(?:s|re) not) (?:\w+ )?(?:in|within|among) "
    rf"(?:the |my |these |those |"
    rf"any )?(?:[\w-]+ ){{0,2}}?{_TEXTS}(?:\s+{_GIVEN})?(?=\s*(?:[,;:.!?\u2014\u2013]|"
    rf"$|sorry|i{_A}m afraid|unfortunately))",
    # (not what a rule asks for: "No information is needed from you", "no details are
    # required to sign up" say what is needed, a claim)
    r"\bno (?:relevant |specific |further |such |additional |other )?(?:information|info|"
    r"details?|data|mention|specifics|records?)\b(?!\s+(?:is|are|will be|has to be|have to "
    r"be|must be)\s+(?:\w+\s+)?(?:needed|required|necessary|requested|asked for|collected|"
    r"stored|kept|shared))",
    # "There isn't enough information here", "not enough detail"
    rf"(?:\bnot|n{_A}?t) (?:enough|sufficient) {_INFO}\b",
    # a silent source: "the documents I have don't mention", "the docs don't specify"
    rf"\b{_SOURCE}\b(?:\s+[\w{_A[1:-1]}-]+){{0,5}}?\s+(?:do|does|did){_NOT}\s+"
    rf"(?:seem to |appear to |really |actually |explicitly |directly )?{_SILENT_VERB}\b",
    # ... the generic forms of before (kept: an answer "does not say" what it is asked)
    rf"\b(?:does|do){_NOT} (?:contain|provide|mention|specify|say|state|answer)\b",
    rf"\bnot (?:mentioned|specified|provided|stated|covered|addressed|included|given|listed|"
    rf"found|available) (?:in|within) (?:the |these |this |those |my |our |your |any )?"
    rf"(?:[\w-]+ ){{0,2}}?{_SOURCE}\b",
    rf"\b(?:is|are|was|were){_NOT} (?:\w+ )?(?:covered|addressed|mentioned|included|"
    rf"discussed|specified|stated|provided|given|listed|described|explained|found|"
    rf"available|present|contained|detailed|documented|shown|set out|spelled out) "
    rf"(?:in|by|within|from|among|anywhere in) (?:the |these |this |those |my |our |your |"
    rf"any )?(?:[\w-]+ ){{0,2}}?{_SOURCE}\b",
    # "... isn't mentioned in the fair's information": a possessive before the texts the
    # assistant was given only (not "the building's insurance policy": the business's)
    rf"(?:\bnot|n{_A}t) (?:\w+ )?(?:covered|addressed|mentioned|specified|stated|listed|"
    rf"described|explained|given|included) (?:in|within) the [\w-]+{_A}s (?:[\w-]+ )?"
    rf"{_TEXTS}\b",
    # "... isn't covered here", "nothing here covers it", "none of the sources mention"
    rf"\b(?:is|are|was|were){_NOT} (?:\w+ )?(?:covered|addressed|mentioned|specified|"
    rf"stated|given|listed|available|provided|included) (?:here|there)\b",
    # "That isn't covered in the league rules I have": whatever the speaker was given
    rf"(?:\b(?:is|are|was|were){_NOT}|{_A}(?:s|re) not) (?:\w+ )?(?:covered|addressed|"
    rf"mentioned|included|specified|stated|listed|described|explained|found|given) "
    rf"(?:in|by|within|among) {_WHAT_I_HAVE}\b",
    # "The syndicate rules I have access to don't address this": what the speaker was given,
    # silent on the question ("The slots I can see don't include Saturday" is a claim)
    rf"\b{_WHAT_I_HAVE}(?: access to)?\s+(?:do|does|did){_NOT}\s+"
    rf"(?:seem to |appear to |really |actually |explicitly |directly )?(?:address|mention|"
    rf"cover|say|specify|go into|discuss|talk about|touch on|answer)\s+(?:this|that|it|"
    rf"the question|whether|what|how|when|where|who|which|why|anything)\b",
    r"\bnothing (?:here|in (?:here|there|them|it)|(?:in what |that )?(?:i|we) (?:have|can see|was "
    r"given|were given)(?: access to)?) (?:\w+ )?(?:covers?|mentions?|says?|"
    r"address(?:es)?|answers?|"
    r"talks? about|touch(?:es)? on|goes? into|specif(?:y|ies)|explains?)\b",
    rf"\bnone of (?:the |these |those |my |our |your )?(?:[\w-]+ ){{0,2}}?{_SOURCE}\b",
    # "Not sure.", "Hmm, not sure - ...": ignorance without a subject, opening the sentence
    rf"^\W*(?:(?:hmm+|um+|well|honestly|sorry|{_INTERJECTION}|so|but|and)\W+)*"
    r"not (?:really |"
    r"entirely |quite |too )?(?:sure|certain)\b",
    rf"\b(?:is|are){_NOT} available to (?:me|us)\b",
    # "That isn't something the scooter guidance I have covers": the whole of it
    rf"(?:\bnot|n{_A}t) (?:something|anything) (?:that )?{_WHAT_I_HAVE}(?: access to)? "
    rf"{_COVERS}\b",
    rf"(?:\bnot|n{_A}t) something (?:that )?(?:i|we|the|these|this|our|my)\b",
    # "I don't see anything about a gym" (not "We don't see anything wrong": a claim)
    rf"\bi (?:do not|don{_A}?t|dont|{_CANNOT}|could{_NOT}) see (?:anything|any (?:mention|"
    r"information|info|details?|reference)) (?:about|on|regarding|concerning|mentioning|"
    r"for|of)\b",
    # "I don't see group discounts mentioned anywhere", "I can't see fees listed": the
    # topic between, what the assistant reads said of it (not "I don't see why ...")
    rf"\bi (?:do not|don{_A}?t|dont|{_CANNOT}|could{_NOT}) see (?:(?!why\b|how\b)[\w-]+\s+)"
    r"{1,5}?(?:mentioned|listed|covered|included|specified|stated|referred to|set out)\b",
    rf"\b(?:there{_A}?s|there is|there are|i (?:found|see|can find|could find)) nothing\b",
    rf"\bnothing (?:in|about|on|regarding) (?:the |these |this |those |my |our |your )?"
    rf"(?:[\w-]+ ){{0,2}}?{_SOURCE}\b",
    r"\bthere (?:is|are) no (?:mention|information|details?|data|record)\b",
    # "I only have the winter opening hours; nothing about summer"
    r"\bi (?:only|just) (?:have|had|know)\b[^.!?]{0,100}?[;,]\s*(?:but\s+)?"
    r"nothing (?:about|on|regarding|for|covering)\b",
    # "Not in the documents, sorry."
    rf"^\W*(?:(?:sorry|unfortunately|afraid)\W+)?(?:that{_A}?s\s+|that is\s+|it{_A}?s\s+)?"
    rf"not (?:in|covered in|mentioned in|listed in) (?:the |my |our |these |those |any )?"
    rf"(?:[\w-]+ ){{0,2}}?{_TEXTS}\b"
    rf"(?=(?:\W|sorry|i{_A}?m afraid|unfortunately|i have|we have)*(?:[.!?]|$))",
    r"\b(?:outside|beyond) (?:the scope of|what) ",
    r"\bunknown\b|\bno answer\b",  # then "What I have says nothing about vouchers"
    rf"\b(?:(?:what|everything) {_GIVEN}|{_WHAT_I_HAVE})(?: here)? {_COVERS} nothing\b",
)
# ... and, tried first at each place (they read on to the verb), a source silent on the
# topic in the shapes of silent.py
DECLINE = re.compile("|".join(f"(?:{p})" for p in (*SILENT, *_PATTERNS, *UNCERTAIN,
                                                     *UNCLEAR, *NOTHING_THERE,
                                                     *GAP_IDIOMS)),
                     re.IGNORECASE)
# Every pattern above holds one of these (a negation, "unable", "unknown", "able to",
# "outside", "beyond", "never", "silent"): a sentence without any is no decline, read in
# one fast scan.
_TRIGGER = re.compile(
    rf"\bno(?:t|thing|ne|body)?\b|cannot|n{_A}?t\b|unable|unknown|able to|outside|beyond|"
    rf"\bnever\b|\bsilent\b|\bquiet on\b|{_UNSURE}|{_UNCLEAR}|{_GAP}",
    re.IGNORECASE)


# What a decline says it lacks, right after its phrase: "(I couldn't find) anything about
# candy floss machines", "(I don't have details) about TV wall-mounting", "(I'm not sure)
# whether we offer a testing service". It names the topic asked about and claims nothing
# of it; it ends at a clause's edge or at a word that goes on to say more ("but",
# "except", "other than").
_TOPIC_END = (r"[^,;:.!?\u2014\u2013()]*?(?=\s+(?:but|except|other than|apart from|besides|"
              r"although|though|however|whereas|while)\b|[,;:.!?\u2014\u2013()]|$)")
_TOPIC = re.compile(
    r"\s*(?:(?:anything|any|much|something|more|further|specific|the|a)\s+)*"
    r"(?:(?:[\w-]+\s+)?(?:information|info|details?|data|mention|record|advice|guidance)\s+)?"
    r"(?:about|on|regarding|concerning|as to|whether|if|which|what|how|when|where|who|"
    r"why)\b" + _TOPIC_END, re.IGNORECASE)
# ... or, after the assistant's own lack ("I don't have", "I couldn't find"), a thing of
# it: "a phone number for the lost property office" (not after "The Basic plan doesn't
# provide": "any cover for accidental damage" is what the plan lacks, a claim)
_THING = re.compile(r"\s*(?:a|an|any|the)\s+(?:[\w-]+\s+){1,3}?(?:for|of)\b" + _TOPIC_END,
                    re.IGNORECASE)
_ASSISTANT = re.compile(r"\bi\b", re.IGNORECASE)


# A time or a figure: what says when or how much ("... every Wednesday", "... for 12")
WHEN = re.compile(r"\d|\b(?:every|each|daily|weekly|monday|tuesday|wednesday|thursday|"
                  r"friday|saturday|sunday|weekdays?|weekends?|mornings?|afternoons?|"
                  r"evenings?)s?\b", re.IGNORECASE)
# A topic that goes on to assert: a relative clause after a noun ("Dr Evans's clinic that
# runs ..."), a clause of reason or time ("now that the surgery has closed")
_ASSERTS = re.compile(
    r"\b(?!(?:about|on|regarding|concerning|as|to|whether|if|which|what|how|when|where|"
    r"who|why|the|a|an|any|anything|that|this|those|these)\b)[a-z]{3,}(?:['\u2019]s)?\s+"
    r"(?:that|which|who|whom|whose)\s+\w"
    r"|\b(?:now that|since|because|given that|as long as|ever since)\b", re.IGNORECASE)


def _asserts(topic: str) -> bool:
    """Whether a declined topic says something of it beyond a noun phrase: a relative or
    subordinate clause, a time, a day or a figure (WHEN): a claim to check, not the bare
    object of a decline ("about TV wall-mounting", "whether we offer a testing service")."""
    return bool(_ASSERTS.search(topic) or WHEN.search(topic))


# ... or, after a source silent on it ("nothing here covers"), what it does not cover
_SILENT_END = re.compile(rf"(?:{_COVERS}|include|specify|state|list)$", re.IGNORECASE)
# ... or, after "I can't confirm", a short bare noun phrase: "(so I can't confirm) weekend
# availability" (no verb, pronoun or figure in it: _NOUN_PHRASE, _asserts)
_CONFIRM_END = re.compile(r"(?:confirm|determine|verify|comment on|advise on)$", re.IGNORECASE)
_BARE = re.compile(r"\s+(?:[\w-]+\s+){0,3}[\w-]+(?=\W*$)")
_OBJECT = re.compile(r"\s+(?!(?:this|that|it|whether|if)\b)" + _TOPIC_END, re.IGNORECASE)


# A decline said of its topic as the subject ("Food and drink options aren't mentioned in
# what I was given", "Weekend hours are not covered in the documents"): the passive
# decline naming the sources ("Food isn't included" names none: a claim of a scope), and
# before it a bare noun phrase opening the clause (no verb, pronoun or figure
# in it: "Dogs are allowed but parking ..." says more, a claim)
_PASSIVE = re.compile(rf"(?:is|are|was|were|has been|have been)(?:n{_A}?t|\s+not)\b"
                      rf"|{_A}(?:s|re)\s+not\b", re.IGNORECASE)
_SOMETHING = re.compile(rf"(?:not|n{_A}t) (?:something|anything)\b", re.IGNORECASE)
_COPULA = re.compile(r"\s(?:is|are|was|were)$", re.IGNORECASE)
_NOUN_PHRASE = re.compile(
    r"\W*(?:(?:sorry|unfortunately|sadly|i['\u2019]m afraid)\W+)?"
    r"(?!.*\b(?:is|are|was|were|be|been|can|could|will|would|should|may|might|must|has|have|"
    r"had|do|does|did|i|we|you|they|it|he|she|but|because|since|when|if)\b)[a-z][\w' &-]{0,60}?\s+",
    re.IGNORECASE)


def declined_topics(clause: str) -> tuple[str, str]:
    """A clause split into what its declines say they lack (`_TOPIC`, after each decline
    phrase; `_THING` after the assistant's) and the rest: ("about TV wall-mounting", "I
    don't have details, sorry."). A topic that asserts (`_asserts`: "about his clinic that
    runs every Tuesday") stays in the rest, a claim."""
    topics: list[str] = []
    rest: list[str] = []
    at = 0
    for m in DECLINE.finditer(clause):
        if m.start() < at:
            continue
        pre = clause[at:m.start()]
        if _SOMETHING.match(m.group()) and (c := _COPULA.search(pre)):
            pre = pre[:c.start()] + " "  # "pet policies | aren't something our pages ..."
        if ((_PASSIVE.match(m.group()) or _SOMETHING.match(m.group()))
                and not UNNAMED_SOURCE.fullmatch(m.group())
                and _NOUN_PHRASE.fullmatch(pre) and not _asserts(pre)):
            topics.append(pre)  # "Food and drink options | aren't mentioned in ..."
            rest.append(clause[at + len(pre.rstrip()):m.start()])
            at = m.start()
        rest.append(clause[at:m.end()])
        at = m.end()
        t = _TOPIC.match(clause, at) or (
            _THING.match(clause, at) if _ASSISTANT.search(m.group()) else None) or (
            _OBJECT.match(clause, at) if _SILENT_END.search(m.group()) else None) or (
            LOOKED_FOR.match(clause, at) if LOOKING.search(m.group()) else None) or (
            _BARE.match(clause, at) if _CONFIRM_END.search(m.group())
            and _NOUN_PHRASE.fullmatch(clause[at:].rstrip(".!?") + " ") else None)
        if t is not None and not _asserts(t.group()):
            topics.append(t.group())
            at = t.end()
    rest.append(clause[at:])
    return " ".join(topics), "".join(rest)


_OPENING = re.compile(r"^\W*(.+?[.!?])(?=\s|$)", re.DOTALL)


def is_noncommittal(answer: str) -> bool:
    """An answer (or sentence) that declines: "I don't know", "the context does not say",
    "I don't have enough information to answer that", ..., or that opens by saying what
    the sources cover or by sending the user elsewhere ("Please contact customer service
    for help with that.": whether it claims more is for claims.set_aside_reasons)."""
    if not answer.strip():
        return False
    if _TRIGGER.search(answer) is not None and DECLINE.search(answer) is not None:
        return True
    head = first.group(1) if (first := _OPENING.match(answer)) else answer
    return declines_by_scope(head) or is_pure_referral(head)
