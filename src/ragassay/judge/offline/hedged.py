"""What a declining sentence still claims, and the advice beside a decline.

A declining sentence may still make a claim ("I'm not sure, but refunds take 45 days"):
`hedged_claim` reads the clauses outside the decline, with what the sources cover and
whom to ask set aside. Beside a decline, a sentence that only advises how or whom to ask
("Maybe ask the choir secretary at the next rehearsal?", "If you email the workshop,
they can tell you whether ...") makes no claim either (`is_advice`).
"""

from __future__ import annotations

import re

from .beside_decline_conflict import adds_unstated, contradicts_contexts
from .covered_items import ONLY_HAS as _ONLY_HAS
from .covered_items import covered_list, listed_named, most_named
from .decline_words import APOSTROPHE as _A
from .declines import DECLINE, WHEN, declined_topics
from .guessed import guessed_unstated
from .lexical import FILLER, NEGATIONS, STOPWORDS, TermPool, missing_terms, stem, stem_set
from .normalise import norm_tokens
from .offered import offered_list
from .pieces import clause_texts
from .referrals import invented_detail, is_referral
from .restated_beside_decline import without_restated
from .sentences import ContextIndex
from .silent import covers_stated_topic, unnamed
from .source_scope import is_help_scope, is_source_scope, names_source, owned_scope
from .summary import frame_end, listed_end, passive_items, restates

# Words a decline uses about the sources rather than the world ("based on the
# information provided", "the documents do not mention ...").
_SOURCE_TALK_TEXT = """
    information provided context contexts document documents based given text texts
    passage passages source sources data available answer question mention mentioned
    say says state stated specify specified detail details docs documentation article
    articles policy leaflet knowledge base covered cover address addressed guess rather
    find found locate retrieved unfortunately afraid sorry anything nothing whether see
    look looked looking checked searched
"""
_SOURCE_TALK = frozenset(_SOURCE_TALK_TEXT.split())
HEDGE_WORDS = 3  # content words a declining sentence's other clauses must say to claim
_INDIRECT = re.compile(r"\W*(?:which|what|whether|how|when|where|who|whom|why|if)\b",
                       re.IGNORECASE)


_GOES_ON = re.compile(r"^\W*(?:and|or|as well as|plus|not|but not|nor)\b", re.IGNORECASE)
# a clause adding to a summary of the contexts ("..., with prices from 185 pounds"): it goes
# on with it when the contexts state its words too (summary.restates)
_ADDS = re.compile(r"^\W*(?:with|including|such as|like)\b", re.IGNORECASE)
# words that make a clause a statement of its own rather than an item of a list
_VERBAL = re.compile(r"\b(?:is|are|was|were|be|been|can|could|will|would|should|may|might|"
                     r"must|has|have|had|do|does|did|i|we|you|they|it|\w+n't)\b",
                     re.IGNORECASE)
LIST_ITEM_WORDS = 5  # a verbless clause this short after a list goes on with it


def _goes_on(clause: str, closed: bool) -> bool:
    """Whether a clause goes on with the list before it: "and smoking, not CCTV", or a
    short verbless item, no figure in it, of a list that an "and" / "or" item closes
    (`closed`: "..., regulation | and restoration"; not "..., children travel free"),
    or that closes it itself ("..., rugs, | sofas and mattresses in homes and offices")."""
    if _GOES_ON.match(clause):
        return True
    most = LIST_ITEM_WORDS if closed else LIST_ITEM_WORDS + 3 if _CLOSES.search(clause) else 0
    return (len(clause.split()) <= most and not _VERBAL.search(clause)
            and not any(c.isdigit() for c in clause))


def _topic_goes_on(clause: str) -> bool:
    """Whether a clause after a decline goes on with the topic it lacks: "or household
    recycling centres, sorry" (an "and" / "or" item, LIST_ITEM_WORDS at most, no verb,
    no figure)."""
    return (bool(_GOES_ON.match(clause)) and len(clause.split()) <= LIST_ITEM_WORDS
            and not _VERBAL.search(clause) and not any(c.isdigit() for c in clause))


_CLOSES = re.compile(r"\s(?:and|or)\s", re.IGNORECASE)
# a clause after what the sources cover naming what they lack: "but nothing about loans"
# (the decline's topic, no item of the list; a time or a figure in it is a claim, WHEN)
_LACKING = re.compile(r"^\W*(?:(?:but|and|yet)\s+)?(?:there['\u2019]?s\s+|there is\s+)?nothing\s+"
                      r"(?:at all\s+)?(?:about|on|regarding|concerning|for|covering)\b",
                      re.IGNORECASE)


def _claiming_clauses(clauses: tuple[str, ...], ctx: ContextIndex | None,
                      declined: bool = False) -> tuple[str, ...]:
    """The clauses that may claim: not a referral, not what the sources cover, nor a
    clause that goes on with the latter's list. Beside a decline (in the sentence, or
    `declined`), what the contexts cover in other words (summary.py: "our range covers
    X, Y and Z", "the documents only say X") is no claim either when it is aligned with
    the contexts (`ctx`), and the items going on with it too."""
    out: list[str] = []
    scope = named = summary = False
    framed = ""  # the clause whose coverage frame a summary opened
    declined = declined or any(DECLINE.search(c) for c in clauses)
    for k, c in enumerate(clauses):
        lacked = False
        if declined and _LACKING.match(c) and not WHEN.search(c):
            scope = summary = False  # "..., but nothing about loans": the topic lacked
            continue
        closed = k + 1 < len(clauses) and bool(_GOES_ON.match(clauses[k + 1]))
        goes_on = scope and (_goes_on(c, closed) or bool(_ADDS.match(c)))
        if declined and ctx is not None and _ONLY_HAS.match(c):
            scope = covered_list(_with_items(clauses, k), ctx.pool, "")  # "; I only have X"
            summary = False
        elif declined and ctx is not None and offered_list(c, ctx.pool, ""):
            scope, summary = True, False  # "but I can tell you about X and Y"
        elif declined and _loose_scope(clauses, k, named, ctx):
            scope, summary = True, False  # "the info covers screen size, storage ..."
        elif declined and ((end := frame_end(c)) or (end := listed_end(c)) and not (
                is_source_scope(c, beside=named, declined=declined))):
            scope = summary = restates(c[end:], ctx)
            framed = c
        elif declined and (items := passive_items(c)):
            scope = restates(items, ctx)
        elif goes_on and (summary or _ADDS.match(c)):
            scope = restates(c, ctx)
            lacked = not scope and summary  # an item the contexts lack ...
        else:
            summary = False
            scope = is_source_scope(c, beside=named, declined=declined) or (
                named and is_help_scope(c)) or goes_on
        # "I don't have details about the tip | or recycling centres": its topic goes on
        # (a verbless item with no figure; "and the lockers are free" is a claim)
        topic = k > 0 and bool(DECLINE.search(clauses[k - 1])) and _topic_goes_on(c)
        if not scope and not topic and not is_referral(c) and not (
                declined and is_advice(c, open_days(ctx) if ctx is not None else None)):
            if lacked and framed not in out:
                out.append(framed)  # ... makes the summary it goes on with a claim
            out.append(c)
        named = named or bool(DECLINE.search(c) and names_source(c))
    return tuple(out)


def _loose_scope(clauses: tuple[str, ...], k: int, named: bool,
                 ctx: ContextIndex | None) -> bool:
    """Beside a decline, whether clause k says what "the information" covers, each item
    of its list (with the items going on with it) named by the contexts."""
    return ctx is not None and is_source_scope(clauses[k], beside=named, declined=True,
                                               loose=True) and listed_named(
        _with_items(clauses, k), ctx.pool)


def _with_items(clauses: tuple[str, ...], k: int) -> str:
    """Clause k with the list items that go on with it ("the info covers screen size, |
    storage and warranty only")."""
    j = k + 1
    while j < len(clauses) and _goes_on(clauses[j], j + 1 < len(clauses) and bool(
            _GOES_ON.match(clauses[j + 1]))):
        j += 1
    return ", ".join(clauses[k:j])


def summarises(sentence: str, ctx: ContextIndex | None) -> bool:
    """Beside a decline, a sentence restating what the contexts cover (summary.py: "Our
    hire range covers bouncy castles, soft play and slides - do ring about anything
    else"): it opens with a coverage frame, it is aligned with the contexts (`ctx`), and
    every other clause goes on with its list or refers the user on."""
    every = clause_texts(sentence)
    first = every[0]
    opens = frame_end(first) or listed_end(first) and not is_source_scope(first, declined=True)
    return bool(opens) and not _claiming_clauses(every, ctx, True)


def hedged_claim(sentence: str, question: str, pool: TermPool,
                 ctx: ContextIndex | None = None) -> bool:
    """Whether a declining sentence still makes a claim: it names a number, date or name
    absent from the contexts and the question ("The role of Napoleon in its design is
    unknown"), or its clauses that do not decline say HEDGE_WORDS or more content words
    the question does not, talk about the sources aside ("I'm not sure, but his books
    have been translated into 42 languages"). A clause asking what is not known ("...
    don't say which payment methods are accepted") is part of the decline. `ctx`: the
    contexts, to read a summary of them beside the decline (summary.py); None: none is."""
    # a referral clause names whom to ask ("..., but HR should be able to help"): no claim
    # ... and one saying what the sources cover explains the decline ("; the guidance I
    # have is about growing and harvesting, not markets"): no claim either
    # (with the list it goes on with: "... only cover obstructions | and smoking, not CCTV")
    if owned_scope(sentence) and not most_named(sentence, pool):
        return True  # "Our guides only cover prices and delivery, not X": an item no context names
    if covers_stated_topic(sentence, pool) or invented_detail(sentence, pool, question):
        return True  # "The policy does not cover water damage": a claim of its scope; an
        # email address, a phone number or a fee no context has ("Please email ...")
    every = clause_texts(sentence)
    # (a decline phrase may span the clauses: "The course notes mention the fee, | but
    # nothing about loans" declines as a whole)
    parts = _claiming_clauses(every, ctx, bool(DECLINE.search(sentence)))
    if not parts:  # all of it says what the sources cover or whom to ask
        return bool(missing_terms(unnamed(sentence), pool, question))
    if contradicts_contexts(parts, ctx) or adds_unstated(every, parts, pool, question):
        return True  # "..., but we are closed on Saturdays", "..., but we hire tandems"
    # (a clause giving what the passages do say is theirs: "We do offer X, but ...")
    parts = without_restated(parts, ctx)
    if any(guessed_unstated(c, pool, question) for c in parts):
        return True  # "..., but it sounds like a worn belt": a guess at the world
    # (what the sources cover is checked too: "I only have details about the Wednesday
    # visits" names a day the contexts lack; whom to ask is not; nor a name of the topic
    # the decline says it lacks, "I have no details about TV mounting", a figure yes)
    split = [declined_topics(c) for c in every if not is_referral(c)]
    if missing_terms(unnamed(" ".join(r for _, r in split)), pool, question) or any(
            t[:1].isdigit() for t in missing_terms(" ".join(t for t, _ in split), pool,
                                                   question)):
        return True
    # what the sentence says beyond its decline phrases and the topics they lack; a
    # clause asking what is not known is the decline's object too ("... don't say which
    # payment methods are accepted")
    text = " ".join(DECLINE.sub(" ", declined_topics(c)[1]) for i, c in enumerate(parts)
                    if not (i and DECLINE.search(parts[i - 1]) and _INDIRECT.match(c)))
    q = stem_set(question)
    said = {
        stem(t)
        for t in norm_tokens(text)
        if (w := re.split(_A, t)[0]) not in STOPWORDS and w not in FILLER  # "there's"
        and t not in _SOURCE_TALK
    }
    return len(said - q) >= HEDGE_WORDS


# How to find out, as a decline's follow-up advises: "Maybe ask the choir secretary at
# the next rehearsal", "If you email the workshop, they can tell you whether ...",
# "Someone at a club night might be able to point you in the right direction", "The
# Environment Agency's website is the place to check", "For a roof, you may need a
# specialist". Read only beside a sentence that declines (claims.set_aside_reasons).
_LEAD = (r"^\W*(?:(?:maybe|perhaps|just|so|but|though|alternatively|otherwise|instead|"
         r"in the meantime|for now|then|and)\W+)*")
# a verb of telling the user what they asked: "... can tell you", "we'll let you know"
_TELLING = (r"tell you|let you know|get back to you|be in touch|confirm (?:whether|if)|"
            r"advise you|point you")
_ADVICE = re.compile(
    # an imperative of finding out
    rf"{_LEAD}(?:please\s+)?(?:try|ask|check|call|ring|phone|e-?mail|contact|visit|look|see|"
    r"speak|talk|pop|drop|head|consult|search|enquire|inquire|get in touch|have a look|"
    r"give)\b"
    # whom to ask, saying they can tell: "they can tell you whether", "staff would know"
    # (contracted, only a verb of telling: "we'll let you know"; "we'll give you a ..." is
    # a promise)
    rf"|{_A}(?:ll|d)(?:\s+be\s+able\s+to)?\s+(?:{_TELLING})\b"
    r"|\b(?:can|could|will|would|should|may|might)(?:\s+be\s+able\s+to)?"
    rf"\s+(?:{_TELLING}|advise|help you|confirm (?:that|this|it)|say (?:whether|if)|"
    # ... the asked thing itself, a pronoun for it: "can sort that out for you"
    r"(?:sort|work|figure) (?:that|this|it) out|(?:look into|deal with|check) (?:that|this)\b|"
    r"answer (?:that|this|your)|give you (?:a|an|the|more)|know)\b"
    # a place to find out: "... is the place to check", "... is your best bet"
    rf"|\b(?:is|are|would be|will be|{_A}s|{_A}d be) (?:(?:probably|likely|usually|always)\s+)?"
    r"(?:the|your|a) (?:(?:best|right|"
    r"better|quickest|first|usual)\s+)?(?:place|places|person|people|bet|source|option|"
    r"port of call) (?:to|for)\b|\byour best bet\b"
    # "you may need a specialist", "you might want to ask the council"
    r"|\byou(?:\s+(?:may|might|could|would|will|should|probably))+\s+(?:need|want|have)\s+"
    r"(?:to (?:ask|check|contact|speak|talk|consult|call|ring|email|get in touch|look|"
    r"enquire|find|(?:get|seek|take) (?:advice|help|guidance))|(?:a|an) (?:[\w-]+\s+)?"
    r"(?:specialist|expert|professional|contractor|adviser|advisor|firm|company|service|\w+ian|\w+ist))\b",
    re.IGNORECASE)


# "You could try asking them directly.", "It may be best to check with the centre
# directly.", "It's worth ringing the library before you come.": a modal or a
# recommendation before a verb of finding out and whom to ask, the whole sentence (review
# 15: "It's worth asking about the free swims ..." says there are some; "You can ring room
# service at any hour ..." is the business's own statement)
_REFERRED = re.compile(
    rf"{_LEAD}(?:you\s+(?:could|may|might|should)\s+(?:always\s+|also\s+)?(?:try\s+)?|"
    rf"it(?:{_A}s|{_A}d be| is| may be| might be| would be| could be)\s+(?:best|worth|a good "
    r"idea|wise|better|advisable)\s+(?:to\s+)?)(?:ask|check|call|ring|phone|e-?mail|contact|"
    r"speak|talk|get in touch|enquire|inquire)(?:ing)?\b"
    # ... then whom or when, one clause naming no topic or thing of its own ("about the
    # free swims", "for a free breakfast", ", where children swim free")
    r"(?:(?!\b(?:about|regarding|for|where|which|who|whose|that|because|since|and|but)\b)"
    r"[^,;:.!?])*[.!?]*\s*$", re.IGNORECASE)


# a clause of a context sentence that names a day as one something is shut or not on
# ("The hall is closed on Mondays", "open daily | except Sundays"): the day is no time to
# go and ask ("open on Saturdays, | except in January" still names Saturday)
_SHUT = NEGATIONS | frozenset({"closed", "close", "closes", "shut", "shuts", "cancelled",
                               "except", "excluding"})
_CLAUSE_CUT = re.compile(r"[,;:]|(?=\b(?:but|except|excluding|whereas|although|though)\b)",
                         re.IGNORECASE)


def open_days(ctx: ContextIndex) -> TermPool:
    """What the contexts offer as a day to go and ask (`is_advice`'s pool): the stems of
    their clauses that shut nothing (`_SHUT`)."""
    return ctx.derive("open_days", lambda: TermPool(frozenset().union(*(
        stem_set(c) for i in ctx.infos for c in _CLAUSE_CUT.split(i.text)
        if not _SHUT.intersection(norm_tokens(c)))), frozenset()))


def is_advice(sentence: str, pool: TermPool | None = None) -> bool:
    """A sentence that advises how or whom to ask (`_ADVICE`), every clause of it (a
    condition, a referral or a list item going on aside): beside a decline it makes no
    claim about the world ("The driver would know, and she lends DVDs on request" does).
    A time or a figure in it is a claim of when or how much ("... every Wednesday"),
    unless a day or a time of day the contexts (`pool`) state too ("If you come along on
    the first Friday, someone there can point you in the right direction")."""
    if any(m[0][:1].isdigit() or pool is None or not pool.has(m[0])
           for m in WHEN.finditer(sentence)):
        return False
    if _REFERRED.match(sentence):
        return True
    parts = clause_texts(sentence)
    return any(_ADVICE.search(c) for c in parts) and all(
        _ADVICE.search(c) or _CONDITION_CLAUSE.match(c) or is_referral(c)
        or _list_item(c) for c in parts)


_PERSON = re.compile(r"\b(?:he|she|him|her|them|us)\b", re.IGNORECASE)


def _list_item(clause: str) -> bool:
    """A short item going on with a referral's list ("or Citizens Advice"), no clause of
    its own ("and she lends DVDs on request" is one)."""
    return (len(clause.split()) <= LIST_ITEM_WORDS and not _VERBAL.search(clause)
            and not _PERSON.search(clause) and not any(x.isdigit() for x in clause))


_CONDITION_CLAUSE = re.compile(r"^\W*(?:if|when|once|unless)\b", re.IGNORECASE)
