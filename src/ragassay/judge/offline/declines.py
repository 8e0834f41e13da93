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

from .pieces import clause_texts

APOSTROPHE = "['\u2019\u02bc\uff07]"  # an apostrophe, however typed
_A = APOSTROPHE  # (short, inside the patterns)
_NOT = rf"(?:n{_A}?t|\s+not)"  # "n't" / " not" after an auxiliary (do, does, could ...)
_CANNOT = rf"(?:cannot|can{_A}?t|can not)"
_SOURCE = (
    r"(?:documents?|docs|documentation|contexts?|texts?|passages?|sources?|information|"
    r"info|articles?|polic(?:y|ies)|leaflets?|pages?|knowledge base|manuals?|guides?|faqs?|"
    r"summary|materials?|data|records?|notes|files?|excerpts?|snippets?|results?|content|"
    r"sections?|handbook|brochure|website|site)"
)
# what the assistant was given to read, never the business's own records or policy
# ("Sorry, it's not in our records" is a claim about an account)
_TEXTS = (r"(?:documents?|docs|documentation|contexts?|texts?|passages?|sources?|"
          r"information|info|articles?|leaflets?|knowledge base|manuals?|guides?|faqs?|"
          r"materials?|notes|files?|excerpts?|snippets?|handbook|brochure)")
_SILENT_VERB = (
    r"(?:say|mention|cover|contain|specify|state|include|address|go into|provide|answer|"
    r"tell|discuss|list|explain|describe|give|indicate|detail|clarify|talk about|touch on)"
)
_KNOW_VERB = (r"(?:answer|determine|find|locate|see|say|tell|confirm|provide|verify|help|"
              r"assist|advise|comment|speak to|give|know|check|access|look up|be sure)")
_INFO = (r"(?:information|info|details?|data|knowledge|answer|specifics|records?|idea|context|"
         r"guidance|advice|figures?|numbers?|facts?|coverage)")
# what a text does of a topic: "nothing here covers", "isn't something the guide I have mentions"
_COVERS = r"(?:covers?|mentions?|says?|address(?:es)?|answers?|goes into|talks about)"
_GIVEN = r"i (?:have|had|was given|can see|could see|can access)"
"""What the speaker says it was given to read: "the league rules I have", "... I can see"."""
_WHAT_I_HAVE = rf"(?:the |these |this |those |my |any )?(?:[\w-]+ ){{1,3}}?{_GIVEN}"
_PATTERNS = (
    # ignorance
    rf"\bi (?:do not|don{_A}?t|dont) know\b",
    rf"\b(?:i{_A}?m|i am|we{_A}?re|we are) not (?:sure|certain)\b",
    r"\bno idea\b",
    # first-person inability: "I can't help with that one", "we couldn't find anything"
    rf"\b(?:i|we)(?:{_A}(?:m|re|ve|d))?(?:\s+(?:am|are|was|were|have|had|also|really|just|"
    rf"unfortunately|currently|simply|sadly))*\s+(?:{_CANNOT}|could{_NOT}|"
    rf"unable to|not able to|(?:was|were|wasn|weren)(?:{_A}t)? (?:not )?able to|"
    rf"have{_NOT} been able to|won{_A}?t be able to)\s+(?:\w+\s+){{0,2}}?{_KNOW_VERB}\b",
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
    rf"{_SOURCE}\s+(?:i|we)\s+(?:have|had|can see))\b"
    rf"[^.;!?]{{0,120}}?,?\s*but nothing (?:about|on|regarding|concerning|"
    r"(?:that |which )?(?:mentions?|covers?|says?))\b",
    rf"\b(?:i|we) have no (?:\w+ )?{_INFO}\b",
    r"\bno (?:relevant |specific |further |such |additional |other )?(?:information|info|"
    r"details?|data|mention|specifics|records?)\b",
    rf"\bnot (?:enough|sufficient) {_INFO}\b",
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
    rf"\b(?:is|are|was|were){_NOT} (?:\w+ )?(?:covered|addressed|mentioned|included|"
    rf"specified|stated|listed|described|explained|found|given) (?:in|by|within|among) "
    rf"{_WHAT_I_HAVE}\b",
    # "The syndicate rules I have access to don't address this": what the speaker was given,
    # silent on the question ("The slots I can see don't include Saturday" is a claim)
    rf"\b{_WHAT_I_HAVE}(?: access to)?\s+(?:do|does|did){_NOT}\s+"
    rf"(?:seem to |appear to |really |actually |explicitly |directly )?(?:address|mention|"
    rf"cover|say|specify|go into|discuss|talk about|touch on|answer)\s+(?:this|that|it|"
    rf"the question|whether|what|how|when|where|who|which|why|anything)\b",
    r"\bnothing (?:here|in (?:here|there|them|it)|(?:in what |that )?(?:i|we) (?:have|can see|was "
    r"given|were given)) (?:\w+ )?(?:covers?|mentions?|says?|address(?:es)?|answers?|"
    r"talks? about|touch(?:es)? on|goes? into|specif(?:y|ies)|explains?)\b",
    rf"\bnone of (?:the |these |those |my |our |your )?(?:[\w-]+ ){{0,2}}?{_SOURCE}\b",
    # "Not sure.", "Hmm, not sure - ...": ignorance without a subject, opening the sentence
    r"^\W*(?:(?:hmm+|um+|well|honestly|sorry|oh|ah|so|but|and)\W+)*not (?:really |"
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
DECLINE = re.compile("|".join(f"(?:{p})" for p in _PATTERNS), re.IGNORECASE)
# Every pattern above holds one of these (a negation, "unable", "unknown", "able to",
# "outside", "beyond"): a sentence without any is no decline, read in one fast scan.
_TRIGGER = re.compile(
    rf"\bno(?:t|thing|ne|body)?\b|cannot|n{_A}?t\b|unable|unknown|able to|outside|beyond",
    re.IGNORECASE)

# Who a referral names as its subject ("our support team", "the front desk", "your GP").
_HELPER = (r"(?:team|desk|staff|department|office|service|services|support|helpdesk|"
           r"help desk|helpline|hotline|centre|center|agents?|representatives?|reps?|"
           r"managers?|advis[eo]rs?|officers?|colleagues|librarians?|reception|receptionists?|"
           r"concierge|pharmacists?|doctors?|gp|nurses?|teachers?|administrators?|admins?|"
           r"coordinators?|specialists?|experts?|someone|somebody|instructors?|tutors?|"
           r"trainers?|coaches?|stewards?|wardens?|attendants?|clerks?|organis[eo]rs?)")

# A referral after a decline: "Please contact our support team", "HR should be able to
# help", "You may want to reach out to the clinic".
REFERRAL = re.compile(
    r"^\W*+(?:(?:please |kindly |you (?:may|might|can|could|should) (?:want to |wish to )?|"
    rf"you(?:{_A}ll| will| would|{_A}d)? (?:need|have|want) to |you must |best to |"
    rf"feel free to |i(?:{_A}d| would) (?:recommend|suggest)(?: that you)? |try to |"
    rf"it(?:{_A}s| is) best to |i(?:{_A}d| would) )?(?:contact|reach out to|ask|call|email|"
    r"e-mail|get in touch with|check with|speak (?:to|with)|talk to|consult|"
    r"keep an eye (?:out|on))\b"
    # "Please ring the shop" ("Phone support is ..." is no referral)
    r"|(?:please |kindly |just |you (?:can|could|may|might|should) (?:always |just )?)"
    r"(?:ring|phone|telephone) (?:us|them|(?:the|our|your|a) )"
    # "Please pop into a branch", "you can give the team a ring", "drop us a line"
    rf"|(?:please |kindly |just |feel free to |you (?:can|could|may|might|should) "
    rf"(?:always |just )?)(?:pop|drop|come|call) (?:in|into|by|round|over)\b"
    r"|(?:please |kindly |just |feel free to |you (?:can|could|may|might|should) "
    r"(?:always |just )?)?(?:give|drop|send) (?:us|them|(?:the|our|your) (?:[\w-]+ ){0,2}?"
    r"[\w-]+) a (?:ring|call|bell|shout|line|message|note|email)\b"
    # "It's best to give Whiskers Lodge a call": a name ("the doorbell a ring" is none)
    rf"|(?:it(?:{_A}s| is|{_A}d be| would be) )?best to give (?:(?-i:[A-Z])[\w'-]* ){{1,3}}?a "
    r"(?:ring|call|bell|shout|line|message|email)\b"
    # "I'd check the league's website", "I would look at the official site"
    rf"|(?:i(?:{_A}d| would)|you(?:{_A}d| would)(?: be better off)?|try) (?:check|look at|"
    r"visit|try|see|checking|looking at|visiting|asking|contacting)\b"
    rf"|i(?:{_A}d| would) (?:recommend|suggest) (?:contacting|reaching out to|asking|"
    r"calling|emailing|getting in touch with|checking with|speaking (?:to|with)|talking to|"
    r"consulting)\b"
    r"|.{0,60}\b(?:should|will|would|can|could|may|might) be able to (?:help|assist|"
    r"answer|advise|tell you|confirm|clarify|explain|check)\b"
    # "they'll be glad to help" (after "Please ring the shop"), "it's worth asking the
    # tutors", "It's the sort of thing to raise with your GP"
    rf"|(?:they|he|she)(?:{_A}ll| will| would|{_A}d| can| could| should| are| is)?"
    r"(?: be)? (?:happy|glad|pleased|able) to (?:help|assist|advise)\b"
    r"|.{0,40}\bworth (?:asking(?! for\b| about\b)|checking with|contacting|"
    r"raising (?:it|this|that) with)\b"
    r"|.{0,40}\b(?:sort|kind) of (?:thing|question) to (?:raise|ask|check|take up)\b"
    # "Your tenancy agreement or an adviser would be the best place to check"
    rf"|.{{0,80}}\b(?:would|will|should|might|may|is|are|{_A}d|{_A}s|{_A}re) (?:be )?"
    r"(?:the |your |a )?(?:best|right|better|quickest|safest|first) "
    r"(?:place|person|people|source|bet|option|port of call) (?:to|for (?:(?:that|this|"
    r"those|these|your|any|more|further|specific|up-to-date|the latest)\s+)?(?:advice|help|"
    r"information|info|questions?|queries|query|enquiries|details|guidance|answers?|that|"
    r"this|it|updates?)\b)"
    # ("... the safest place for families" is a claim: "for" only with what is asked)
    # "the workshop staff would be good people to ask" (not "a good place for families")
    r"|.{0,80}\b(?:would|will|might|could|may) be (?:a )?good (?:person|people) to "
    r"(?:ask|contact|check with|speak to|talk to)\b"
    # whom to ask, as the subject: "Our support team can help with that", "the front
    # desk will be happy to assist"
    rf"|(?:(?:our|the|your|a|an|any|one of our)\s+)?(?:[\w{_A[1:-1]}-]+\s+){{0,3}}?"
    rf"{_HELPER}(?:\s+(?:at|in|on|from|of)\s+(?:[\w{_A[1:-1]}-]+\s+){{0,3}}?[\w-]+)?\s+"
    r"(?:can|will|could|should|may|would|is|are)(?: (?:be )?(?:happy|glad|"
    r"able|pleased|best placed))?(?: to)? (?:help|assist|advise|answer|support you|know|"
    r"tell you|let you know|confirm|give you a quote|quote you|check|find out|look into)\b)",
    re.IGNORECASE,
)
# A short fronted phrase before a referral: "For moves abroad, please contact our office."
_CONJ = re.compile(r"^\W*(?:so|and|then|or)\s+", re.IGNORECASE)
_FRONTED = re.compile(r"^\W*(?:for|about|regarding|on|with|as for|in the meantime)\b"
                      r"[^,.;:!?]{1,60},\s*", re.IGNORECASE)


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
    r"received|found|could find|have access to)(?: access to)?)?"
    r"(?P<only>(?:\s+(?:only|just|mainly|mostly|largely|seem to|seems to|appear to|"
    r"appears to))*)\s+"
    r"(?:covers?|(?:is|are|was|were) (?P<only2>only |just |mainly |mostly |all )?(?:about|on|"
    r"concerned with|limited to|focused on|for)|deals? with|relates? to|concerns?|focus(?:es)?"
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


def _text_noun(m: re.Match[str]) -> bool:
    noun = m.group("noun") or ""
    if _TEXT_NOUN.search(noun):
        return True
    speaker = (m.group("speaker") or "").lower().split()[:1]
    return bool(_OWNED_NOUN.search(noun)) and (m.group("det").lower() in ("our", "my") or (
        noun.lower() != "details" and speaker == ["i"]))
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
    rf"covering|concerning)\b",
    re.IGNORECASE)
_CONTRAST = re.compile(r"(?i),\s*(?:but\s+)?not\b|\bnot\s+(?:about|on|for)\b|"
                       r",?\s*but (?:says |mentions )?nothing (?:about|on|regarding|concerning)\b")


def is_source_scope(sentence: str, beside: bool = False, declined: bool = False) -> bool:
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
    the sources then too."""
    m = _SCOPE.search(sentence)
    if m is None:
        return bool(_SPEAKER_SCOPE.search(sentence))  # "I only have details about X"
    if m.group("speaker"):
        return True
    if m.group("det").lower() == "which" and not beside:
        return False  # ("..., which only covers entry": of the sources only beside a
        # decline naming them, "... the list of services I have, which covers ...")
    text = _text_noun(m)
    if declined and text:
        return True
    pointed = m.group("det").lower() in _DEICTIC or text
    limited = bool(m.group("only").strip() or m.group("only2")) or bool(
        _CONTRAST.search(sentence[m.end():]))
    if beside and (text or (m.group("det").lower() in _DEICTIC and not m.group("noun"))
                   or (m.group("noun") and _OWNED_NOUN.search(m.group("noun")) and limited)):
        return True  # ("The information covers X and Y, but nothing about Z")
    return pointed and limited


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


def declines_by_scope(sentence: str) -> bool:
    """A sentence that declines by saying what the sources or the speaker cover, with no
    decline beside it: "The documents only cover opening hours and loan limits, not
    printing.", "Sorry, I can only answer questions about our opening hours and loans."
    The source is named as a text ("documents", "what I have", "the information I
    have"), never a policy, plan or booking, and limited ("only", "..., not X")."""
    if _SPEAKER_SCOPE.search(sentence):
        return True
    m = _SCOPE.search(sentence)
    if m is None or not m.group("noun") or not _text_noun(m):
        return False
    return bool(m.group("speaker") or m.group("only").strip() or m.group("only2")
                or _CONTRAST.search(sentence[m.end():]))


# What a decline says it lacks, right after its phrase: "(I couldn't find) anything about
# candy floss machines", "(I don't have details) about TV wall-mounting", "(I'm not sure)
# whether we offer a testing service". It names the topic asked about and claims nothing
# of it; it ends at a clause's edge or at a word that goes on to say more ("but",
# "except", "other than").
_TOPIC_END = (r"[^,;:.!?\u2014\u2013()]*?(?=\s+(?:but|except|other than|apart from|besides|"
              r"although|though|however|whereas|while)\b|[,;:.!?\u2014\u2013()]|$)")
_TOPIC = re.compile(
    r"\s*(?:(?:anything|any|much|something|more|further|specific|the|a)\s+)*"
    r"(?:(?:information|info|details?|data|mention|record)\s+)?"
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
_SILENT_END = re.compile(rf"{_COVERS}$", re.IGNORECASE)
_OBJECT = re.compile(r"\s+(?!(?:this|that|it|whether|if)\b)" + _TOPIC_END, re.IGNORECASE)


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
        rest.append(clause[at:m.end()])
        at = m.end()
        t = _TOPIC.match(clause, at) or (
            _THING.match(clause, at) if _ASSISTANT.search(m.group()) else None) or (
            _OBJECT.match(clause, at) if _SILENT_END.search(m.group()) else None)
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


def referral_end(sentence: str) -> int:
    """Where the sentence's referral phrase ends ("so keep an eye out| there", "and our
    instructors can help| with diving lessons"), 0 when it is no referral."""
    for skip in (None, _CONJ, _FRONTED):
        at = 0
        if skip is not None:
            if (s := skip.match(sentence)) is None:
                continue
            at = s.end()
        if (m := REFERRAL.search(sentence[at:])) is not None:
            return at + m.end()
    return 0


def is_topic_referral(sentence: str) -> bool:
    """A referral after a fronted topic: "For coaching enquiries, get in touch with Tom"."""
    m = _FRONTED.match(sentence)
    return m is not None and bool(REFERRAL.search(sentence[m.end():]))


def is_referral(sentence: str) -> bool:
    """A sentence that sends the user elsewhere ("Please contact the clinic directly.",
    "For moves abroad, please contact our office.")."""
    if REFERRAL.search(sentence):
        return True
    if (c := _CONJ.match(sentence)) is not None and REFERRAL.search(sentence[c.end():]):
        return True  # "..., so keep an eye out there"
    m = _FRONTED.match(sentence)
    return m is not None and bool(REFERRAL.search(sentence[m.end():]))


# A condition, a time or a reason: a referral carrying one advises ("ask your doctor
# before using it if you have asthma, because it can trigger attacks"), a claim
_QUALIFIED = re.compile(r"\b(?:before|after|if|unless|when|whenever|because|since|as long "
                        r"as|so that|until|once|while|or else|otherwise)\b", re.IGNORECASE)


def is_pure_referral(sentence: str) -> bool:
    """A sentence that only sends the user elsewhere, as a whole answer may: one
    clause, no condition, time or reason ("Please contact customer service for help
    with that.", "Your GP can advise on that."; not "Ask your doctor before using it
    if you have asthma")."""
    return (is_referral(sentence) and len(clause_texts(sentence)) == 1
            and not _QUALIFIED.search(sentence))
