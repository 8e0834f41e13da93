"""A source silent on the topic, as a grammar over sentence shapes: a subject that is what
the assistant was given to read ("the FAQ", "the plot rules", "these passages", "what I
was given", "here") and a predicate that says it does not cover, mention or say the
topic asked about, in any tense:

- the source as subject, its verb negated: "The handbook doesn't go into beekeeping",
  "These passages never mention X", "The documents make no mention of X", "The guidance
  hasn't got anything on X", "The policy wording here says nothing about X";
- "nothing" as subject: "Nothing in the rules mentions X", "nothing else here covers X",
  "Nothing I have here talks about X";
- "there was nothing (in the rules) about X";
- the topic as subject, the source in a phrase: "Bees aren't mentioned anywhere in what I
  was given", "Hives weren't covered by the leaflet";
- "X is not something the FAQ covers", "That's not something the salon's page covers";
- no source named, at the clause's end (session 20): "Spin classes aren't covered.",
  "Details on X aren't included", "X isn't in the list of ...", and the fragment
  "Nothing about X." (a claim of a scope when the contexts state the topic).

Each shape ends at its verb (or "nothing"), so that what follows is the declined topic
(declines.declined_topics). A text verb ("mention", "say", "go into") makes any source
noun one ("the rules don't mention bees"); a verb the world uses of a product or a policy
too ("cover", "include", "provide") is a claim when the contexts state its topic
("The policy does not cover water damage" against a passage that covers it):
`hedged.covers_stated_topic`. The older silent-source phrasings (declines._PATTERNS,
"the documents I have don't mention", "isn't covered in the policy documents") are read
alongside.
"""

from __future__ import annotations

import re

from .decline_words import APOSTROPHE as _A
from .decline_words import SOURCE as _SOURCE
from .decline_words import TEXTS as _TEXTS
from .lexical import NEGATIONS, TermPool, content_tokens, is_filler
from .unclear import UNCLEAR_SOURCE

# What the assistant was given to read, as a noun: the texts and the world's documents
# that a text verb makes sources ("the plot rules", "the price list", "the FAQ")
_NOUN = (rf"(?:{_SOURCE[3:-1]}|help cent(?:re|er)|rules|guidance|guidelines|terms|conditions|"
         r"wording|lists?|"
         r"booklets?|handouts?|timetable|schedule|extracts?|paperwork|literature|details)")
# ... with its determiner and modifiers, and who gave it ("the salon's page", "the
# tenancy rules I have", "the policy wording here")
_GIVEN_TO = (r"(?:\s+(?:i|we)(?:\s+(?:have|had|was given|were given|can see|could see|got|"
             rf"received)|{_A}ve got|{_A}ve been given)(?:\s+access to)?"
             # "the details provided", "the information available (to me)"
             r"|\s+(?:provided|supplied|available|given|shared)(?:\s+to (?:me|us))?)?"
             r"(?:\s+here)?")
# (a possessive only before a noun that names a text: "the salon's page", "the fair's
# information"; "the building's insurance policy" is the business's, a claim of its scope)
_READ = rf"(?:{_TEXTS[3:-1]}|pages?|website|site|wording)"
SOURCE_NP = (r"(?:(?:the|these|this|those|my|our|your|any|all the)\s+)(?:[\w&-]+\s+|"
             rf"[\w-]+{_A}s\s+(?=(?:[\w-]+\s+){{0,2}}?{_READ}\b)){{0,3}}?{_NOUN}{_GIVEN_TO}")
_WHAT_I_HAVE = (r"(?:what|anything|everything) (?:i|we)(?: (?:have|had|was given|were given|"
                rf"can see|could see|received|(?:have|had) been given)|{_A}ve got|"
                rf"{_A}ve been given)(?: here)?")
# what a text does of a topic, in any tense and person
_TEXT_VERB = (r"(?:mention(?:s|ed)?|say(?:s)?|said|go(?:es)? into|went into|talk(?:s|ed)? about|"
              r"discuss(?:es|ed)?|address(?:es|ed)?|touch(?:es|ed)? on|cover(?:s|ed)?|"
              r"specif(?:y|ies|ied)|refer(?:s|red)? to|deal(?:s|t)? with|include(?:s|d)?|"
              r"explain(?:s|ed)?|list(?:s|ed)?|provide(?:s|d)?|answer(?:s|ed)?)")
_TEXT_VERB_BASE = (r"(?:mention|say|go into|talk about|discuss|address|touch on|cover|specify|"
                   r"refer to|deal with|include|explain|list|provide|answer)")
_PARTICIPLE = (r"(?:mentioned|covered|addressed|discussed|specified|stated|included|listed|"
               r"explained|described|referred to|dealt with|touched on|talked about|gone into)")
_NEG_AUX = rf"(?:do|does|did|has|have|had)(?:n{_A}?t| not)"

SILENT: tuple[str, ...] = (
    # "The handbook doesn't go into X", "These passages never mention X", "the notes
    # haven't said anything about X"
    rf"\b{SOURCE_NP}\s+(?:{_NEG_AUX}\s+(?:(?:really|actually|explicitly|directly|seem to|"
    rf"appear to)\s+)?{_TEXT_VERB_BASE}|never\s+{_TEXT_VERB}|{_NEG_AUX}\s+{_PARTICIPLE})\b",
    # "The documents make no mention of X", "the guidance hasn't got anything on X", "the
    # policy wording here says nothing about X"
    rf"\b{SOURCE_NP}\s+(?:makes?|made) no (?:mention|reference)\b",
    rf"\b{SOURCE_NP}\s+(?:{_NEG_AUX}\s+(?:got|have|contain|include) anything|"
    rf"(?:has|have|had)(?: got)? nothing|{_TEXT_VERB} nothing)\b",
    # "The knowledge base has no entry on X", "the FAQ gives no word about X": a text's
    # own parts (an entry, a section), not what a product has ("The plan has no cap")
    rf"\b{SOURCE_NP}\s+(?:has|have|had|contains?|holds?|gives?)(?: got)? no (?:\w+ )?"
    r"(?:entry|entries|section|sections|article|articles|page|pages|word|mention|"
    r"reference|information|info|details?)\b",
    # "Nothing in the rules mentions X", "nothing else here covers X", "Nothing I have here
    # talks about X"
    rf"\bnothing (?:else )?(?:in {SOURCE_NP}|in {_WHAT_I_HAVE}|(?:that )?(?:i|we) "
    rf"(?:have|had|was given|can see)(?: here)?|here)\s+(?:\w+ly\s+)?{_TEXT_VERB}\b",
    # "There was nothing in the tenancy rules about X"
    rf"\bthere (?:was|were|has been|had been){_A}?(?:n{_A}?t)? (?:nothing|no mention)"
    rf"(?: in {SOURCE_NP}| here)?",
    # "Bees aren't mentioned anywhere in what I was given", "weren't covered by the leaflet"
    # (with the source named, a text's "given" / "shown" too: "The rate isn't given in
    # the loan details")
    rf"\b(?:is|are|was|were|has been|have been)(?:n{_A}?t| not) (?:\w+ )?(?:{_PARTICIPLE}|"
    rf"given|shown|noted|detailed|spelled out|set out) "
    rf"(?:anywhere )?(?:in|by|within) (?:{SOURCE_NP}|{_WHAT_I_HAVE})",
    # "X is not something the plot rules address", "That's not something the FAQ covers"
    rf"(?:\bnot|n{_A}t) (?:something|anything) (?:that )?(?:{SOURCE_NP}|{_WHAT_I_HAVE})\s+"
    rf"(?:really\s+)?{_TEXT_VERB}\b",
)
# No source named (session 20): a decline only where the contexts lack the topic
# (`covers_stated_topic`), whatever the verb
UNNAMED = (
    # ... with no source named, at the clause's end: "Spin classes aren't covered.",
    # "Details on X aren't included here" (session 20: a claim of a scope when the
    # contexts state its topic, `covers_stated_topic`)
    rf"\b(?:is|are|was|were)(?:n{_A}?t| not) (?:\w+ly )?{_PARTICIPLE}"
    rf"(?=\s*(?:[.!;,]|$|(?:here|anywhere|at all|in (?:the|this|that) list)\b))",
    # "Laptops aren't in the list of loan items", "... aren't among the items listed"
    rf"\b(?:is|are|was|were)(?:n{_A}?t| not) (?:in|on|among|part of) (?:the|this|that|any) "
    rf"(?:[\w-]+ ){{0,2}}?(?:list|items? listed|things listed|options listed)\b",
    # a fragment: "Nothing about spin.", "Nothing on laptop loans, I'm afraid."
    r"^\W*nothing (?:about|on|regarding|concerning)\b",
    # what is lacking after what is listed (session 21): "The timetable lists yoga and
    # pilates, but says nothing about spin" (the listing read as a summary of the
    # contexts, summary.py); "The policy covers theft and fire, but nothing about flood
    # damage" against a policy that covers it is a claim
    r"\bbut (?:it |they |this |that )?(?:(?:says?|mentions?|has|contains?|gives?|shows?|"
    r"lists?) )?nothing (?:about|on|regarding|concerning)\b",
    # "It says nothing about X", "They don't mention X", "..., but it doesn't say anything
    # about X": a pronoun for the source, opening the sentence or after "but" (review 21b:
    # "it" / "they" may be a product or people, "They don't go into pronunciation" of
    # tutors, so a decline only where the contexts lack the topic, as above)
    rf"(?:^\W*|\bbut\s+)(?:it|they)\s+(?:{_NEG_AUX}\s+(?:really\s+)?(?:say|mention|go into|"
    r"talk about|discuss|specify)(?: anything)?|(?:says?|mentions?) nothing|makes? no mention)\b",
)
SILENT += UNNAMED
SILENT_SOURCE = re.compile("|".join(f"(?:{p})" for p in SILENT), re.IGNORECASE)
UNNAMED_SOURCE = re.compile("|".join(f"(?:{p})" for p in UNNAMED), re.IGNORECASE)
_DIGITS = re.compile(r"\S*\d\S*")
_BUT = re.compile(r"\W*but\b", re.IGNORECASE)  # a match after what the sources list


# ... and where a decline says it looked: "(isn't) in the FAQ", "(nothing about that)
# in our staff handbook", "(not listed) within the leaflets I have"
_IN_TEXTS = re.compile(rf"\b(?:in|within|from|among)\s+(?:the|my|our|these|those|this|any)\s+"
                       rf"(?:[\w-]+\s+){{0,2}}?{_TEXTS}\b(?:{_GIVEN_TO})?", re.IGNORECASE)


def unnamed(text: str) -> str:
    """The text with each silent source's phrase dropped ("That's not something the FAQ
    covers" -> "That's ."), and each "in the <texts>" where it looked, a figure in it
    kept: what names the source the assistant read ("the FAQ", "the Greenway
    handbook") is no claim about the world."""
    text = SILENT_SOURCE.sub(lambda m: " ".join(_DIGITS.findall(m.group())), text)
    text = UNCLEAR_SOURCE.sub(lambda m: " ".join(_DIGITS.findall(m.group())), text)
    return _IN_TEXTS.sub(lambda m: " ".join(_DIGITS.findall(m.group())), text)


# A verb the world uses of a policy, a plan or a product too ("The policy does not cover
# water damage"), and the nouns that only name what the assistant read
_WORLD_VERB = re.compile(r"\b(?:cover(?:s|ed)?|include(?:s|d)?|provide(?:s|d)?|list(?:s|ed)?)\b",
                         re.IGNORECASE)
_TEXT_ONLY = re.compile(
    r"\b(?:documents?|docs|documentation|contexts?|texts?|passages?|sources?|excerpts?|"
    r"snippets?|extracts?|information|info|notes|faqs?|here|what|anything|everything|"
    # a text a bot answers from, by its kind (session 20: "Our guide doesn't include
    # anything on parking charges" was read as a claim about the guide's scope)
    r"guides?|handbooks?|brochures?|leaflets?|manuals?|pages?|websites?|site|articles?|"
    r"booklets?|pamphlets?|catalogues?|wiki|newsletters?|price list|help cent(?:re|er)|"
    r"knowledge base|i|we)\b", re.IGNORECASE)


def covers_stated_topic(sentence: str, pool: TermPool) -> bool:
    """Whether a sentence read as a silent source is a claim about a policy's, a plan's or
    a product's scope: its verb is one the world uses too ("cover", "include"), its
    source a noun the world has ("the policy", not "the documents" nor "what I have"),
    and the contexts state every content word of what it says is not covered ("The
    policy does not cover water damage" against "covers ... escape of water" and
    "accidental damage": checked against them, a contradiction). Of a topic the
    contexts lack ("... doesn't cover pet injuries") it declines."""
    m = SILENT_SOURCE.search(sentence)
    if m is None:
        return False
    # (with no source named the topic decides, whatever the verb: "Parking isn't
    # mentioned" against "Free parking is included" is a claim)
    if UNNAMED_SOURCE.fullmatch(m.group()) is None and (
            not _WORLD_VERB.search(m.group()) or _TEXT_ONLY.search(m.group())):
        return False
    # (after "but" what comes before is what the sources list, read as a summary of the
    # contexts, summary.py: the topic is what follows, review 21b)
    before = "" if _BUT.match(m.group()) else sentence[:m.start()]
    topic = [t for t in content_tokens(before + " " + sentence[m.end():])
             if t not in _POINTING and not is_filler([t]) and t not in NEGATIONS
             and t not in _ANSWERS]  # ("Sorry, breakfast ...", "No, towels aren't ...")
    return bool(topic) and all(pool.has(t) for t in topic)


# an answer's words, no topic's, beside the filler ("yes", "sorry") and the negations
# ("no") left out already ("..., I'm afraid", review 20b)
_ANSWERS = frozenset({"nope", "afraid", "unfortunately", "sadly"})
_POINTING = frozenset({"that", "this", "it", "those", "these", "one", "something",
                       "anything", "s"})
