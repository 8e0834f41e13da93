"""Which answer sentences make a claim, and keeping the verdict in line with them.

Sentences that assert nothing (abstentions, conversational filler, a yes/no opener)
are set aside: they are not checked against the contexts and do not enter the
faithfulness model. The analyzer and the fit script use the same rules, so fitting and
scoring see the same sentences.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from ragassay.text import KeyedSentence

from .beside_claims import says_more
from .clauses import part
from .covered_items import covered_list, listed_named, most_named
from .declines import DECLINE, is_noncommittal
from .evidence import SUPPORT_THRESHOLD
from .hedged import hedged_claim, is_advice, open_days, summarises
from .lead_in import introduces_only
from .lexical import FILLER, STOPWORDS, TermPool, is_filler, missing_terms, stem, stem_set
from .offered import offered_items, offered_list
from .pieces import AUXILIARIES, clause_texts
from .referrals import invented_detail, is_pure_referral, is_referral, is_topic_referral
from .referred_party import party_verdict, swapped_party
from .sentences import OPENERS, ContextIndex, SentenceInfo, reply_phrase
from .sign_offs import signs_off
from .small_talk import small_talk
from .source_scope import (
    declines_by_scope,
    is_help_scope,
    is_source_scope,
    names_source,
    owned_scope,
)

ABSTAINS, FILLER_SENTENCE, OPENER, REFERRAL = "abstains", "filler", "opener", "referral"
_GETTING_IN_TOUCH = frozenset({"contact", "ask", "call", "email", "phone", "ring", "speak",
                               "talk", "please"})


def is_opener(info: SentenceInfo) -> bool:
    """ "No.", "Yes!", "Well, no.": an answer's yes/no opener, no claim of its own."""
    toks = info.tokens
    return (
        bool(toks)
        and any(t in OPENERS for t in toks)
        and all(t in OPENERS or t in FILLER or t in STOPWORDS for t in toks)
    ) or reply_phrase(info.text)  # ("Not at all.", "Of course!")


# a question put to the user: what they want, more help, or whom to ask ("Would you like
# me to book a lane?", "Is there anything else I can help with?", "Could you ring
# reception?"); "Do you know ...?", "Can I remind you that ...?", "Can you believe ...?"
# state what they ask about
_ASKS_USER = re.compile(
    r"^\W*(?:(?:would|do|can|could|shall|should|may|will)\s+(?:you|i|we)\b"
    r"(?!\s+(?:know|believe|remind|realise|realize|imagine))"
    r"|is there anything\b|anything else\b)", re.IGNORECASE)
# what such a question may say: the asking, the offer, the asking someone else
_OFFER_TEXT = """
    like want wish need help book reserve arrange send check anything else more
    information details question questions query ring call phone contact email ask pass
    forward speak talk tell let get touch put through member staff someone team directly
"""
_OFFER = frozenset(stem(w) for w in _OFFER_TEXT.split())
_CONTACT_TEXT = "ring call phone contact email ask check pass forward speak talk tell visit"
_CONTACT = frozenset(stem(w) for w in _CONTACT_TEXT.split())
# a clause of its own, which says something ("..., since lanes are open to everyone?")
_OWN_CLAUSE = frozenset({"that", "since", "because", "as", "who", "whose", "instead",
                         "if", "unless", "although", "though"})
OFFER_WORDS = 1  # the other content words an offer beside a claim may name
REFERRAL_WORDS = 2  # ... a question asking the user to ask someone, beside a decline


def asks_user(info: SentenceInfo, text: str, beside_decline: bool = False) -> bool:
    """Whether the sentence only asks the user what they want or offers more help (beside
    a claim: FILLER_SENTENCE), or, beside a decline, asks them to ask someone (REFERRAL):
    a question naming at most OFFER_WORDS (REFERRAL_WORDS) things of its own, with no
    clause or negation of its own ("Shall I book you the sauna for Monday?" names two:
    a claim to check)."""
    toks = info.tokens
    if not info.asks or info.negated or not _ASKS_USER.search(text) or (
            _OWN_CLAUSE & set(toks)) or ", which" in text:
        return False
    own = {w for t, w in zip(toks, info.all_stems, strict=True)
           if t not in STOPWORDS and w not in _OFFER}
    if beside_decline:
        return len(own) <= REFERRAL_WORDS and bool(_CONTACT & set(info.all_stems))
    return len(own) <= OFFER_WORDS


def set_aside_reasons(
    sentences: Sequence[KeyedSentence],
    infos: Sequence[SentenceInfo],
    pool: TermPool,
    question: str,
    ctx: ContextIndex | None = None,
) -> list[str | None]:
    """Per answer sentence, why it is left out of the faithfulness model, or None.

    - ABSTAINS: "I don't know", "the documents don't say", asserting nothing beyond the
      abstention (not "I'm not sure, but X won in 1998": a hedged claim is checked).
    - OPENER: a yes/no opener ("No.", "Yes!") followed by a sentence that makes a claim:
      it goes with that sentence (and takes its support).
    - FILLER_SENTENCE: only stopwords and conversational filler ("Sure!", "I agree."),
      set aside only when another sentence says something (pure filler is scored).
    - FILLER_SENTENCE too: a lead-in ending in a colon ("Try this:") before what it
      introduces, of one clause denying nothing (lead_in.py), naming nothing the
      contexts and the question lack.
    - REFERRAL: it sends the user elsewhere ("Please contact our support team.", "HR
      should be able to help.", "I'd check the league's website."), naming nothing the
      contexts and the question lack; beside a sentence that abstains, naming no
      number they lack ("Please ask your GP.").
    - ABSTAINS also: a sentence that declines by saying what the sources (named as
      texts) or the speaker cover ("The documents only cover hours, not printing."),
      and the referrals of an answer that only refers (a pure referral declines,
      unless it names someone or something the contexts name: then it is checked; or,
      in an answer with no decline, a party the contexts tie to the question's topic or
      to another, referred_party.party_verdict).
    - ABSTAINS too: beside a sentence that abstains, one that says what the sources
      cover, explaining the decline ("It only covers our electricity supply, not gas
      tariffs."), naming no number or name the contexts and the question lack; or that
      restates what they cover in other words, each word one the contexts state ("Our
      hire range covers X, Y and Z", hedged.summarises).
    `pool` is what the contexts offer as evidence (ContextIndex.pool); `ctx` the contexts,
    to align a summary of them with (None: no sentence is read as one).
    """
    out: list[str | None] = []
    pure = [is_pure_referral(k.text) for k in sentences]
    topical = [p and _names_from_contexts(info, pool) for p, info in zip(pure, infos, strict=True)]
    topical, swapped = _parties(sentences, pure, topical, question, ctx)
    for k, info, named_contact, wrong in zip(sentences, infos, topical, swapped, strict=True):
        if wrong or named_contact and not DECLINE.search(k.text):
            out.append(None)  # "get in touch with Tom Reyes": the contexts say whom to ask
        elif is_noncommittal(k.text) and not hedged_claim(k.text, question, pool, ctx):
            out.append(ABSTAINS)
        elif declines_by_scope(k.text) and not missing_terms(k.text, pool, question) and (
                not owned_scope(k.text) or most_named(k.text, pool)):
            out.append(ABSTAINS)  # "The documents only cover X and Y, not Z."
        elif is_filler(info.tokens) or is_opener(info) or (
                asks_user(info, k.text) and not missing_terms(k.text, pool, question)):
            out.append(FILLER_SENTENCE)
        elif introduces_only(info) and k is not sentences[-1] and not missing_terms(
                k.text, pool, question):
            out.append(FILLER_SENTENCE)  # "Here's what to do:": a lead-in; the list says it
        elif is_referral(k.text) and not missing_terms(k.text, pool, question) and not (
                _says_of_named(info, k.text, pool)) and not invented_detail(
                k.text, pool, question) and not says_more(k.text, pool):
            out.append(REFERRAL)
        else:
            out.append(None)
    if ABSTAINS in out:  # what explains a decline, or where to ask instead
        _beside_decline(sentences, infos, out, pool, question, ctx)
        out = [None if w else r for w, r in zip(swapped, out, strict=True)]
    # a pure referral ("Please contact customer service.", "Your GP can advise on that.")
    # declines: the role it names is whom to ask; a number it names no context has
    # ("... for 25 EUR"), a condition or a reason ("Ask your GP before ... because ...")
    # is a claim
    refers = [r in (REFERRAL, None) and p and not named
              and not invented_detail(k.text, pool, question)
              for k, r, p, named in zip(sentences, out, pure, topical, strict=True)]
    if any(refers) and all(f or r == FILLER_SENTENCE for f, r in zip(refers, out, strict=True)):
        return [ABSTAINS if f else r for f, r in zip(refers, out, strict=True)]
    if all(r in (FILLER_SENTENCE, REFERRAL) for r in out):
        return [None] * len(out)  # filler, or a referral that advises: scored
    for i in range(len(out) - 1):  # an opener goes with the claim that follows it
        if out[i] == FILLER_SENTENCE and is_opener(infos[i]) and out[i + 1] is None:
            out[i] = OPENER
    return out


def _parties(sentences: Sequence[KeyedSentence], pure: list[bool], topical: list[bool],
             question: str, ctx: ContextIndex | None) -> tuple[list[bool], list[bool]]:
    """Which sentences name a party the contexts tie to a topic (`topical`, with those
    naming the contexts' own words), and which, beside a decline, send the user to a
    party the contexts tie to another topic than the question's (a claim, swapped)."""
    if not any(DECLINE.search(k.text) for k in sentences):  # whom the contexts give the topic
        return [t or (p and party_verdict(k.text, question, ctx) is not None)
                for t, p, k in zip(topical, pure, sentences, strict=True)], [False] * len(pure)
    swapped = [swapped_party(k.text, question, ctx) for k in sentences]
    return [t or w for t, w in zip(topical, swapped, strict=True)], swapped


def _beside_decline(sentences: Sequence[KeyedSentence], infos: Sequence[SentenceInfo],
                    out: list[str | None], pool: TermPool, question: str,
                    ctx: ContextIndex | None) -> None:
    """Beside a sentence that abstains, set aside (in `out`) what explains the decline
    (ABSTAINS), and where to ask instead or a question put to the user (REFERRAL)."""
    # "it" / "they" / "the documents" after a decline that names the sources it read
    named = any(r == ABSTAINS and names_source(k.text)
                for k, r in zip(sentences, out, strict=True))
    for i, k in enumerate(sentences):
        if out[i] is not None:
            continue
        # (what the speaker offers to tell is read as a list: "I can tell you about X")
        missing = missing_terms(k.text, pool, question) or says_more(k.text, pool) or (
            offered_items(k.text) is not None and not offered_list(k.text, pool, question))
        if (is_source_scope(k.text, beside=named, declined=True) or (
                is_source_scope(k.text, beside=named, declined=True, loose=True)
                and listed_named(k.text, pool)) or (named and is_help_scope(k.text))
                or summarises(k.text, ctx) or covered_list(k.text, pool, question)
                or offered_list(k.text, pool, question)) and not missing:
            out[i] = ABSTAINS
        elif not missing and (courteous(infos[i]) or echoes(infos[i], question)
                              or signs_off(k.text) or small_talk(k.text)):
            out[i] = FILLER_SENTENCE  # "Thanks for asking, and have a lovely day!", "Parking?"
        elif asks_user(infos[i], k.text, beside_decline=True) and not missing:
            out[i] = REFERRAL  # "Could you ring reception so someone can check?"
        elif (is_referral(k.text) or is_advice(
                k.text, open_days(ctx) if ctx is not None else None)) and not says_more(
                k.text, pool) and not invented_detail(k.text, pool, question) and (
                offered_items(k.text) is None):  # ("I can tell you about X": a list, read)
            out[i] = REFERRAL  # a role it names ("your GP") is whom to ask, no claim


# what a courtesy line says beyond filler: thanks, regrets and good wishes
_COURTESY = frozenset(stem(w) for w in (
    "asking", "ask", "day", "weekend", "evening", "morning", "afternoon", "rest", "wishes",
    "wish", "patience", "understanding", "inconvenience", "apologies", "apologise",
    "apologize", "enjoy", "wonderful", "lovely", "best", "regards", "cheers", "luck",
    "query", "enquiry", "contacting", "reaching", "touch", "soon", "again", "time",
    "message", "bear", "unable", "frustrating", "disappointing", "shame", "pity",
    "appreciate", "appreciated", "understand", "bother", "trouble", "useful", "more"))


def courteous(info: SentenceInfo) -> bool:
    """A courtesy line beside a decline: thanks, a regret or a good wish, every word filler
    or courtesy ("Thanks for asking, and have a great day!", "Sorry I couldn't be more
    useful."), no figure or name: it claims nothing."""
    return bool(info.tokens) and not info.names and all(
        t in STOPWORDS or t in FILLER or stem(t) in _COURTESY
        or re.split(r"n['\u2019]t$", t)[0] in AUXILIARIES for t in info.tokens)


ECHO_WORDS = 4  # tokens of a question echoing the user's, at most ("Parking?")


def echoes(info: SentenceInfo, question: str) -> bool:
    """A short question echoing the user's, beside a decline ("Parking?", "Dogs at the
    café?"): every content word of it is the question's, so it claims nothing."""
    if not info.asks or len(info.tokens) > ECHO_WORDS or info.negated:
        return False  # (most sentences: no stems of the question read)
    q = stem_set(question)
    return all(t in STOPWORDS or t in FILLER or stem(t) in q for t in info.tokens)


# what a referral's clause says of whom it names when it only says they help
_HELPING = frozenset(stem(w) for w in (
    "help", "assist", "advise", "answer", "happy", "glad", "pleased", "able", "question",
    "query", "queries", "enquiry", "enquiries", "sort", "deal"))


def _says_of_named(info: SentenceInfo, text: str, pool: TermPool) -> bool:
    """Whether a referral names someone or something the contexts name and says more of
    them in a clause of its own, in words the contexts have ("Get in touch with Tom
    Ellery, who coordinates releases"): what it says of them is a claim to check against
    the contexts, which say who does what. "..., who will be happy to help" says only
    that they help: whom to ask, no claim."""
    if not any(pool.has(n) for n in info.names):
        return False
    named = stem_set(" ".join(info.names))
    return any(not is_referral(c) and (part(c).words - named - _HELPING) & pool.stems
               for c in clause_texts(text)[1:])


def _names_from_contexts(info: SentenceInfo, pool: TermPool) -> bool:
    """Whether a referral says whom to ask about a topic it fronts, naming someone or
    something the contexts name ("For coaching enquiries, get in touch with Tom Reyes"):
    the contexts say who handles what, so the answer is a claim to check against them,
    not a decline. Without a topic ("Please get in touch with Acme Bank about that") it
    sends the user on, as a decline does (review 7). So too one whose every word but
    its verb of getting in touch is the contexts' ("For a warranty claim, contact our
    store"): whom the contexts send that topic to is checked (handlers.py)."""
    if not is_topic_referral(info.text):
        return False
    return any(pool.has(n) for n in info.names) or all(
        pool.has(w) for w in info.words if w.lower() not in _GETTING_IN_TOUCH)


def owners(aside: Sequence[str | None]) -> list[int]:
    """Per sentence, the sentence whose evidence it takes: itself, or for an opener the
    sentence it opens."""
    own = list(range(len(aside)))
    for i in range(len(aside) - 2, -1, -1):
        if aside[i] == OPENER:
            own[i] = own[i + 1]
    return own


UNSUPPORTED_CAP = 0.49  # an answer with an unsupported claim contains a hallucination


def consistent_faithfulness(p: float, claim_support: Sequence[float], missing_terms: bool) -> float:
    """The faithfulness model's probability, kept in line with the claims (one verdict,
    one story), order kept within each case:
    - a claim is not supported: scaled into [0, UNSUPPORTED_CAP), so the answer is
      flagged as a hallucination (it contains one) and never scores 10/10;
    - every claim supported and no key term missing: scaled into [0.5, 1], so it is
      never flagged;
    - otherwise (every claim supported, a number or name missing): as the model says.
    Appending a sentence can only move an answer down these cases, so padding never
    raises its faithfulness."""
    if any(x < SUPPORT_THRESHOLD for x in claim_support):
        return p * UNSUPPORTED_CAP
    if not missing_terms:
        return 0.5 + 0.5 * p
    return p
