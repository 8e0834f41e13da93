"""A referral: a sentence that sends the user elsewhere ("Please contact our support
team", "HR should be able to help", "You may want to reach out to the clinic"), as a
decline's follow-up or a whole answer (`is_pure_referral`). Whether one beside a decline
makes a claim all the same is claims.set_aside_reasons'.
"""

from __future__ import annotations

import re

from .decline_words import APOSTROPHE as _A
from .lexical import TermPool, missing_terms
from .pieces import clause_texts

# Who a referral names as its subject ("our support team", "the front desk", "your GP").
HELPER = (r"(?:team|desk|staff|department|office|service|services|support|helpdesk|"
           r"help desk|helpline|hotline|centre|center|agents?|representatives?|reps?|"
           r"managers?|advis[eo]rs?|officers?|colleagues|librarians?|reception|receptionists?|"
           r"concierge|pharmacists?|doctors?|gp|nurses?|teachers?|administrators?|admins?|"
           r"coordinators?|specialists?|experts?|someone|somebody|instructors?|tutors?|"
           r"trainers?|coaches?|stewards?|wardens?|attendants?|clerks?|organis[eo]rs?|"
           r"directors?|secretar(?:y|ies)|landlords?|letting agents?|committee|operators?|"
           r"retailers?|manufacturers?|providers?|websites?|web ?pages?|faqs?|help pages?|"
           r"portal|"
           # a line or a chat that answers ("our phone line", "the live chat"), not a
           # product line
           r"(?:phone|telephone|advice|support|enquiry|enquiries|contact|customer) lines?|"
           r"(?:live |web |online )chat)")

# A referral after a decline: "Please contact our support team", "HR should be able to
# help", "You may want to reach out to the clinic".
REFERRAL = re.compile(
    r"^\W*+(?:(?:please |kindly |you (?:may|might|can|could|should) (?:want to |wish to )?|"
    rf"you(?:{_A}ll| will| would|{_A}d)? (?:need|have|want) to |you must |best to |"
    rf"feel free to |i(?:{_A}d| would) (?:recommend|suggest)(?: that you)? |try to |"
    rf"it(?:{_A}s| is) best to |i(?:{_A}d| would) )?(?:contact|reach out to|ask|call|email|"
    r"e-mail|get in touch with|check with|speak (?:to|with)|talk to|consult|"
    r"keep an eye (?:out|on)|raise (?:it|this|that|the (?:matter|question|issue)) with|"
    # "reach customer support" (whom, never a place: "reach the beach in 5 minutes")
    rf"reach (?=(?:(?:our|the|your|a|an)\s+)?(?:[\w{_A[1:-1]}-]+\s+){{0,2}}?{HELPER}\b)|"
    # "check the operator's website" (whom or where to ask: "check the tyres" is none),
    # the sentence saying no more ("..., where DVD loans are free" is a claim)
    rf"check (?=(?:(?:our|the|your|their|a|an)\s+)?(?:[\w{_A[1:-1]}-]+\s+){{0,2}}?{HELPER}\b"
    r"(?![^.!?]*[,;:]|[^.!?]*\b(?:where|which|who|whose|that|because|since|and)\b)))\b"
    # (a noun, not the imperative: "Email support is included", "Call charges are ...",
    # "Contact details can be updated ...": a word and a verb of being or having follow)
    r"(?!\s+[\w-]+\s+(?:is|are|was|were|has|have|can|will|costs?|includes?|applies|apply)\b)"
    # "Please ring the shop", "It's best to ring the salon" ("Phone support is ..." is no
    # referral)
    rf"|(?:please |kindly |just |you (?:can|could|may|might|should) (?:always |just |want to )?|"
    rf"(?:it(?:{_A}s| is) )?best to )(?:ring|phone|telephone) (?:us|them|(?:the|our|your|a) )"
    # "Please pop into a branch", "you can give the team a ring", "drop us a line"
    rf"|(?:please |kindly |just |feel free to |you (?:can|could|may|might|should) "
    rf"(?:always |just )?)(?:pop|drop|come|call) (?:in|into|by|round|over)\b"
    r"|(?:please |kindly |just |feel free to |you (?:can|could|may|might|should) "
    r"(?:always |just |want to )?)?(?:give|drop|send) (?:us|them|(?:the|our|your) (?:[\w-]+ ){0,2}?"
    r"[\w-]+) a (?:ring|call|bell|shout|line|message|note|email)\b"
    # "It's best to give Whiskers Lodge a call": a name ("the doorbell a ring" is none)
    rf"|(?:it(?:{_A}s| is|{_A}d be| would be) )?best to give (?:(?-i:[A-Z])[\w'-]* ){{1,3}}?a "
    r"(?:ring|call|bell|shout|line|message|email)\b"
    # "I'd check the league's website", "I would look at the official site"
    rf"|(?:i(?:{_A}d| would)|you(?:{_A}d| would)(?: be better off| be best| be better)?|try) "
    r"(?:check|look at|visit|try|see|checking|looking at|visiting|asking|contacting|calling|"
    r"ringing|phoning|emailing|speaking (?:to|with)|getting in touch with)\b"
    rf"|i(?:{_A}d| would) (?:recommend|suggest|advise) (?:contacting|reaching out to|asking|"
    r"calling|emailing|getting in touch with|checking with|speaking (?:to|with)|talking to|"
    r"consulting|ringing|phoning|checking|visiting|looking at)\b"
    # "Your best bet would be to get in touch with ...", "The best option is to call ..."
    r"|(?:your|the|my) (?:best|safest|quickest|simplest) (?:bet|option|course of action|move)"
    r" (?:would be|is|will be|{_A}d be) to\b"
    # "You could try the help centre", "you can raise a ticket with our support team"
    rf"|(?:you (?:can|could|may|might) (?:also |always )?)(?:try (?=(?:(?:our|the|your|their|a)"
    rf"\s+)?(?:[\w{_A[1:-1]}-]+\s+){{0,2}}?{HELPER}\b)|(?:raise|open|log|submit) an? "
    r"(?:ticket|query|request|case)\b)"
    # "You can find more information on the school portal"
    rf"|you(?:{_A}ll| will| can| could| may| might| should)? (?:be able to )?find (?:more|"
    r"further|full|up-to-date|the latest|current|detailed) (?:information|info|details|"
    r"guidance)\b"
    r"|.{0,60}\b(?:should|will|would|can|could|may|might) be able to (?:help|assist|"
    r"answer|advise|tell you|confirm|clarify|explain|check|sort (?:it|this|that|you) out)\b"
    # "they'll be glad to help" (after "Please ring the shop"), "it's worth asking the
    # tutors", "It's the sort of thing to raise with your GP"
    rf"|(?:they|he|she)(?:{_A}ll| will| would|{_A}d| can| could| should| are| is)?"
    r"(?: be)? (?:happy|glad|pleased|able) to (?:help|assist|advise)\b"
    # "The choir director would be happy to answer that": whoever it names
    r"|.{0,60}\b(?:will|would|should|can|could|may|might)(?: be)? (?:happy|glad|pleased) to "
    r"(?:help|assist|advise|answer|explain|confirm|let you know|tell you)\b"
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
    # "our support team is your best option" (whom to ask, the subject: "The monthly plan
    # is your best option" is a claim)
    rf"|(?:(?:our|the|your|a|an)\s+)?(?:[\w{_A[1:-1]}-]+\s+){{0,3}}?{HELPER}\s+(?:is|are|"
    rf"would be|will be|{_A}s|{_A}re|{_A}d be)\s+(?:your|the)\s+(?:best|safest|quickest|"
    r"first)\s+(?:bet|option|port of call|point of contact)\b"
    # ("... the safest place for families" is a claim: "for" only with what is asked)
    # "the workshop staff would be good people to ask" (not "a good place for families")
    r"|.{0,80}\b(?:would|will|might|could|may) be (?:a )?good (?:person|people|place) to "
    r"(?:ask|contact|check with|speak to|talk to)\b"
    # whom to ask, as the subject: "Our support team can help with that", "the front
    # desk will be happy to assist"
    rf"|(?:(?:our|the|your|a|an|any|one of our)\s+)?(?:[\w{_A[1:-1]}-]+\s+){{0,3}}?"
    rf"{HELPER}(?:\s+(?:at|in|on|from|of)\s+(?:[\w{_A[1:-1]}-]+\s+){{0,3}}?[\w-]+)?\s+"
    r"(?:can|will|could|should|may|would|is|are)(?: (?:be )?(?:happy|glad|"
    r"able|pleased|best placed))?(?: to)? (?:help|assist|advise|answer|support you|know|"
    r"tell you|let you know|confirm|give you a quote|quote you|check|find out|look into|"
    r"look (?:it|that|this|them) up)\b"
    # ... or that they can go through it with the user or hold what was asked: "Our
    # advisers can talk you through the options", "Our help centre should have the answer",
    # "The maker's website should list the full specification" (the sentence ends there:
    # "... will go through it with you at no cost" says more, a claim)
    rf"|(?:(?:our|the|your|a|an|any|one of our)\s+)?(?:[\w{_A[1:-1]}-]+\s+){{0,3}}?"
    rf"{HELPER}\s+(?:can|will|could|should|may|might|would)(?: (?:be )?(?:happy|glad|able|"
    r"pleased))?(?: to)? (?:(?:talk|walk|take) you through|go through|discuss|explain|"
    r"go over|give you|have|list|provide|set out)(?:\s+(?:it|this|that|them|these|those|"
    r"the|all|more|further|full|complete|your|any|an?|answers?|details?|information|info|"
    r"options?|specifications?|specs|guidance|advice|with|you|for|in|detail|through|"
    r"everything|need|to|know|up-to-date|latest))*[.!?]*\s*$)",
    re.IGNORECASE,
)
# A short fronted phrase before a referral: "For moves abroad, please contact our office."
_CONJ = re.compile(r"^\W*(?:so|and|then|or)\s+", re.IGNORECASE)
_FRONTED = re.compile(r"^\W*(?:(?:so|and|then|or|but)\s+)?(?:for|about|regarding|on|with|"
                      r"as for|in the meantime)\b", re.IGNORECASE)
# ... whose words run up to the referral, with or without a comma (a clause cut at "but"
# or after a semicolon reads "but for home visits please get in touch with the farm")
_TOPIC_WORDS = re.compile(r"[^,.;:!?]{1,60}?(?:,\s*|\s+)(?=\S)")
TOPIC_WORDS = 8  # the words of a fronted topic, at most


def _topic_end(sentence: str) -> int:
    """Where a fronted topic ends and a referral begins ("For moves abroad, | please
    contact ...", "but for home visits | please get in touch ..."), 0 when none does."""
    if (m := _FRONTED.match(sentence)) is None:
        return 0
    at = m.end()
    for _ in range(TOPIC_WORDS):
        if (w := _TOPIC_WORDS.match(sentence, at)) is None:
            return 0
        at = w.end()
        if REFERRAL.match(sentence[at:]):
            return at
    return 0


def referral_end(sentence: str) -> int:
    """Where the sentence's referral phrase ends ("so keep an eye out| there", "and our
    instructors can help| with diving lessons"), 0 when it is no referral."""
    for at in (0, (s.end() if (s := _CONJ.match(sentence)) else -1), _topic_end(sentence)):
        if at >= 0 and (m := REFERRAL.search(sentence[at:])) is not None:
            return at + m.end()
    return 0


def is_topic_referral(sentence: str) -> bool:
    """A referral after a fronted topic: "For coaching enquiries, get in touch with Tom"."""
    return _topic_end(sentence) > 0


def is_referral(sentence: str) -> bool:
    """A sentence that sends the user elsewhere ("Please contact the clinic directly.",
    "For moves abroad, please contact our office.")."""
    if REFERRAL.search(sentence):
        return True
    if (c := _CONJ.match(sentence)) is not None and REFERRAL.search(sentence[c.end():]):
        return True  # "..., so keep an eye out there"
    return is_topic_referral(sentence)


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


# A contact address: an email address or a web address ("help@salon.co.uk",
# "www.salon.co.uk/cats", "salon.com")
_ADDRESS = re.compile(r"[\w.+-]+@[\w-]+(?:\.[\w-]+)+|\bhttps?://\S+|\bwww\.\S+|"
                      r"\b[\w-]+\.(?:com|org|net|io|co\.uk|org\.uk|gov\.uk|ac\.uk)\b",
                      re.IGNORECASE)


def invented_detail(sentence: str, pool: TermPool, question: str) -> bool:
    """Whether a referral carries a specific fact the contexts and the question lack: a
    figure (a phone number, a fee, a time: a missing term with a digit) or a contact
    address (an email or web address). That is a claim, checked as one ("You may want to
    call the secretary on 01632 960 123", "Please email help@salon.co.uk"). Whom it
    names is not: a role or a party ("your GP", "the front desk", "the beekeeping
    association", a name) is whom to ask, however the contexts name them."""
    if any(t[:1].isdigit() for t in missing_terms(sentence, pool, question)):
        return True
    given = pool | TermPool.of(question)
    return any(not given.has(a) for a in _ADDRESS.findall(sentence))
