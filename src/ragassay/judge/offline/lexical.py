"""Lexical evidence: content tokens, numbers, names, negations, answer normalisation.

Everything here is cheap string work; the analyzer combines it with embedding
similarity. Token matching is forgiving of inflection (a shared 5-character
prefix counts as found: "increase" / "increased") but not of substitutions.
"""

from __future__ import annotations

import re
import string
import unicodedata
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from functools import lru_cache

from ragassay.text import tokens

from .measures import unit_words
from .normalise import (
    COMMON_ACRONYMS,
    HEDGES,
    norm_tokens,
    quantities,
    quantity_present,
    written_values,
)

_STOPWORDS_TEXT = """
    a about above after again against all am an and any are aren't as at be because been
    before being below between both but by can could did do does doing down during each few
    for from further had has have having he her here hers herself him himself his how i if in
    into is it its itself just me more most my myself nor now of off on once only or other our
    ours ourselves out over own same she should so some such than that the their theirs them
    themselves then there these they this those through to too under until up very was we were
    what when where which while who whom why will with would you your yours yourself
    yourselves also s t ll re ve d m o y us may might must shall let get got one
"""
_NEGATIONS_TEXT = """
    not no never none nobody nothing neither nor without cannot can't don't doesn't didn't
    isn't aren't wasn't weren't won't wouldn't shouldn't couldn't hasn't haven't hadn't n't
    fail fails failed lack lacks unable
"""
# a pronoun with its auxiliary ("you're", "it's", "we'll", "that's") is as empty as its
# parts: no content word of a claim or a context sentence
_CLITIC_HOSTS = "i you we they he she it that there here what who where let"
_CONTRACTIONS = frozenset(f"{h}'{c}" for h in _CLITIC_HOSTS.split()
                          for c in ("m", "re", "s", "ll", "ve", "d"))
STOPWORDS = frozenset(_STOPWORDS_TEXT.split()) | _CONTRACTIONS
NEGATIONS = frozenset(_NEGATIONS_TEXT.split())
_NUM_WORDS = {
    "zero": "0", "one": "1", "two": "2", "three": "3", "four": "4", "five": "5", "six": "6",
    "seven": "7", "eight": "8", "nine": "9", "ten": "10", "eleven": "11", "twelve": "12",
    "first": "1", "second": "2", "third": "3", "fourth": "4", "fifth": "5",
    "hundred": "100", "thousand": "1000", "million": "1000000", "billion": "1000000000",
}  # fmt: skip
_MONTHS_TEXT = (
    "january february march april may june july august september october november december"
)
YEAR = tuple(_MONTHS_TEXT.split())  # the month names in order, one place for the judge
MONTHS = frozenset(YEAR)
DAYS = ("monday", "tuesday", "wednesday", "thursday", "friday", "saturday", "sunday")
# a dotted abbreviation ("U.S.", "D.C.") is one word, as the tokenizer reads it
_CAP_WORD = re.compile(r"\b[A-Z](?:\.[A-Z])+\b|\b[A-Z][A-Za-z0-9’'-]*[A-Za-z0-9]|\b[A-Z]\b")
_PUNCT = re.compile(rf"[{re.escape(string.punctuation)}‘’“”–—…]")
_ARTICLES = re.compile(r"\b(a|an|the)\b")

# Conversational filler: a sentence made only of these words (and stopwords) asserts
# nothing about the world ("Sure!", "I agree.", "Well, I think so too!").
_FILLER_TEXT = """
    sure yes yeah yep yup yea ya ok okay oh ah ahh aha wow well hmm hm um uh hi hello hey
    thanks thank please agree agreed absolutely definitely certainly indeed right true
    exactly cool great good nice awesome amazing interesting fun funny neat lol haha really
    totally maybe perhaps probably think thought believe guess suppose know knew see
    sounds sound seems like love glad happy sorry tell told say said it's that's
    i'm i'd i've you're that'd
    hope helps help helpful welcome let ask questions question anything else further
    feel free assist course
"""
FILLER = frozenset(_FILLER_TEXT.split())


def is_filler(toks: Sequence[str]) -> bool:
    """Whether a sentence's tokens are only stopwords and conversational filler."""
    return all(t in STOPWORDS or t in FILLER for t in toks)


@lru_cache(maxsize=262144)
def stem(tok: str) -> str:
    """A crude, fast stem: plural / possessive "s" dropped, "-ies" / "-ied" read "-y", then
    a 5-character prefix of alphabetic tokens ("hours" = "hour", "increased" = "increase",
    "carried" = "carry"); numbers untouched."""
    if tok[:1].isdigit():
        return tok
    if tok.endswith(("'s", "’s")):
        tok = tok[:-2]
    elif len(tok) > 4 and tok.endswith(("ies", "ied")):
        tok = tok[:-3] + "y"  # ("carries", "carried": "carry", as "carry" is)
    elif len(tok) > 3 and tok.endswith("s") and not tok.endswith(("ss", "us", "is")):
        tok = tok[:-1]
    return tok if len(tok) <= 5 else tok[:5]


def content_tokens(text: str) -> list[str]:
    """Lower-cased tokens without stopwords (numbers kept)."""
    return [t for t in norm_tokens(text) if t not in STOPWORDS]


@lru_cache(maxsize=32768)
def stem_set(text: str) -> frozenset[str]:
    """Stems of every (normalised) token of a text, stopwords included, for presence checks."""
    return frozenset(stem(canon_number(t)) for t in norm_tokens(text))


def canon_number(tok: str) -> str:
    if tok in _NUM_WORDS:
        return _NUM_WORDS[tok]
    if tok[:1].isdigit():
        return tok.replace(",", "").rstrip(".")
    return tok


_POSSESSIVE = re.compile(r"(?:['’]s|['’])$")
_PRONOUN_I = frozenset({"i", "i'm", "i've", "i'd", "i'll", "i’m", "i’ve", "i’d", "i’ll"})


def _at_sentence_start(text: str, pos: int) -> bool:
    j = pos - 1
    while j >= 0 and text[j].isspace():
        j -= 1
    return j < 0 or text[j] in '.!?:;"“(*-•'


def numbers(text: str, toks: Sequence[str] | None = None) -> list[str]:
    """Numbers in the text by value, as canonical strings ("1,000" and "one thousand"
    -> "1000", "$4.2B" -> "4200000000", "two" -> "2"); `toks` is unused (kept for callers)."""
    return [_value_key(q.value) for q in quantities(text)]


def _value_key(v: float) -> str:
    return str(int(v)) if v == int(v) and abs(v) < 1e15 else f"{v:.6g}"


def _name_spans(text: str) -> list[str]:
    out = []
    text = unit_words(text)  # the "C" of "10°C" is a unit, no name
    for m in _CAP_WORD.finditer(text):
        if _at_sentence_start(text, m.start()):
            continue
        w = _POSSESSIVE.sub("", m.group(0))
        if (w and w.lower() not in STOPWORDS and w.lower() not in _PRONOUN_I
                and w not in COMMON_ACRONYMS):
            out.append(w)
    return out


def names(text: str) -> list[str]:
    """Capitalised words not at a sentence start (names, places, months), lower-cased."""
    return [w.lower() for w in _name_spans(text)]


def key_terms(text: str) -> list[str]:
    """Numbers (written with digits), dates and names: the terms a hallucination check
    looks for, in order; numbers as normalised ("$4.2B" -> "4.2 billion")."""
    seen: dict[str, None] = {}
    for q in quantities(text):
        if q.text[:1].isdigit():
            seen.setdefault(q.term, None)
    for w in _name_spans(text):
        seen.setdefault(w, None)
    return list(seen)


@dataclass(frozen=True)
class TermPool:
    """What a text offers as evidence for key terms: its stems and its numbers' values."""

    stems: frozenset[str]
    values: frozenset[float]

    @classmethod
    def of(cls, text: str) -> TermPool:
        return cls(stem_set(text), written_values(text))

    def __or__(self, other: TermPool) -> TermPool:
        return TermPool(self.stems | other.stems, self.values | other.values)

    def has(self, term: str) -> bool:
        """Whether a key term is found: a number by value (at its stated precision), a
        name by the stems of all its tokens."""
        qs = quantities(term)
        if qs and (term[:1].isdigit() or term.split(" ", 1)[0] in HEDGES):
            return all(quantity_present(q, self.values) for q in qs)
        return term_present(term, self.stems)


def term_present(term: str, haystack_stems: frozenset[str]) -> bool:
    """Whether every token of a key term appears (stem-wise, a demonym as its place) in
    the haystack."""
    return all(name_present(t, haystack_stems) for t in norm_tokens(term))


_DEMONYM = ("ian", "ese", "an", "ish", "i", "n")


def name_present(word: str, stems: frozenset[str]) -> bool:
    """A (lower-cased) word's stem is among `stems`, or the word is a demonym of one
    ("asian" / "asia", "chinese" / "china", "italian" / "italy"); an abbreviation
    normalisation spells out is present when all its words are ("u.s" / "United
    States", "uk" / "United Kingdom"), and a hyphenated name when its parts are ("pro-ject")."""
    if stem(canon_number(word)) in stems:
        return True
    if ("." in word or "-" in word) and len(spelled := norm_tokens(word)) > 1:
        return all(name_present(t, stems) for t in spelled)  # ("audio-technica": the
        # stems hold its parts, as the tokenizer splits them)
    if word.isalpha() and len(spelled := norm_tokens(word.upper())) > 1:
        # an acronym normalisation spells out from its capitals ("uk" / "United
        # Kingdom"): the sentence's stems hold the spelled words, its names the acronym
        return all(stem(t) in stems for t in spelled)
    for suffix in _DEMONYM:
        if word.endswith(suffix) and len(word) - len(suffix) >= 3:
            base = word[: -len(suffix)][:5]
            if any(x.startswith(base) for x in stems if len(x) > len(base) - 1):
                return True
    return False


def negation_count(text: str, toks: list[str] | None = None) -> int:
    """Negation words and n't contractions."""
    toks = tokens(text) if toks is None else toks
    return sum(1 for t in toks if t in NEGATIONS or t.endswith(("n't", "n’t")))


def normalise_answer(text: str) -> str:
    """SQuAD-style normalisation: lower, strip accents, punctuation and articles, spaces."""
    text = unicodedata.normalize("NFKD", text)
    text = "".join(c for c in text if not unicodedata.combining(c)).lower()
    text = _PUNCT.sub(" ", text)
    text = _ARTICLES.sub(" ", text)
    return " ".join(canon_number(t) for t in text.split())


def months_in(text: str) -> list[str]:
    return [t for t in tokens(text) if t in MONTHS]


def missing_terms(answer: str, pool: TermPool, question: str = "") -> list[str]:
    """Key terms of the answer found neither in the pool (the contexts) nor the question."""
    full = pool | TermPool.of(question) if question else pool
    return [t for t in key_terms(answer) if not full.has(t)]


def missing_as_written(answer: str, pool: TermPool, question: str = "") -> list[str]:
    """`missing_terms`, each as the answer writes it (`as_written`): what a reason names."""
    return [as_written(t, answer) for t in missing_terms(answer, pool, question)]


_MAX_WINDOW = 5  # words: "a day or two", "three quarters of an hour"
_LONGEST_WINDOW = 12  # words: the most a term is looked for in before it is quoted bare


def as_written(term: str, text: str) -> str:
    """A key term as the reader finds it in `text`: itself when written so, else the
    fewest words of `text` that read as it, with the figure ("'a day' (read as 24)": a
    number read from words, which a reason quoting '24' alone would hide). One term in,
    one out, so counts of terms never change. A hedged figure ("about 14" for "about two
    weeks") and a name the reader makes ("Celsius" for "10°C") are found the same way
    (trial 91: "'about 14' not found in the context", words the answer never wrote)."""
    if re.search(rf"(?<!\w){re.escape(term)}(?!\w)", text, re.IGNORECASE):
        return term
    words = text.split()
    for n in range(1, max(_MAX_WINDOW, min(len(words), _LONGEST_WINDOW)) + 1):
        for i in range(len(words) - n + 1):
            window = " ".join(words[i:i + n]).strip(".,;:!?()[]{}\"'“”‘’")
            if window and term in key_terms(window):
                return f"{window} (read as {term})"
    return term


_ANTONYM_PAIRS_TEXT = """
increase decrease increased decreased increasing decreasing rise fall rose fell raise lower
higher lower more less most least many few gain loss gained lost win lose won lost
include exclude including excluding included excluded accept reject accepted rejected
agree disagree agreed disagreed allow forbid allowed forbidden approve deny approved denied
before after early late earlier later first last begin end began ended start finish
started finished open close opened closed buy sell bought sold import export positive
negative success failure successful unsuccessful strong weak strengthen weaken above below
inside outside internal external maximum minimum majority minority always never all none
true false correct incorrect correctly incorrectly right wrong rightly wrongly good bad
better worse best worst happy sad like dislike liked disliked love hate loved hated
friend enemy friends enemies easy difficult easier harder cheap expensive cheaper costlier
old new older newer young old past future up down upward downward expand shrink
expanded shrank north south east west left right male female husband wife brother sister
son daughter father mother arrive leave arrived left remember forget remembered forgot
present absent possible impossible legal illegal able unable likely unlikely
approve reject approved rejected approval rejection pass veto passed vetoed
guilty innocent acquit convict acquitted convicted alive dead
approve decline approved declined include omit included omitted
accepts refuses accepted refused accepting refusing accepts rejects
indoors outdoors indoor outdoor
"""
_PAIRS = _ANTONYM_PAIRS_TEXT.split()
ANTONYMS: dict[str, frozenset[str]] = {}
for _a, _b in zip(_PAIRS[::2], _PAIRS[1::2], strict=True):
    ANTONYMS[_a] = ANTONYMS.get(_a, frozenset()) | {_b}
    ANTONYMS[_b] = ANTONYMS.get(_b, frozenset()) | {_a}
_NEG_PREFIXES = ("un", "in", "im", "il", "ir", "dis", "non", "mis")
_SAID_PREFIXES = ("un", "in", "dis", "non")  # the prefixes a word is given as its antonym


@lru_cache(maxsize=65536)
def antonym_stems(word: str) -> frozenset[str]:
    """Stems of words that contradict `word`: a lexicon pair or a negating prefix."""
    out = {stem(a) for a in ANTONYMS.get(word, ())}
    for p in _NEG_PREFIXES:
        if word.startswith(p) and len(word) - len(p) >= 4:
            out.add(stem(word[len(p) :]))
    if len(word) >= 4:
        out.update(stem(p + word) for p in _SAID_PREFIXES)
    return frozenset(out)


def crude_root(word: str) -> str:
    """A stem's first four letters, where "parking" and "park", "smoking" and "smoke"
    meet (`stem` keeps five): for rules where a near word counting as the same is cheap."""
    return word[:4]


def root(word: str) -> str:
    """A word's stem less an "-ing" / "-ed" ending ("opening", "opened": "open"), less a
    final "e" ("guide", "guided": "guid"; "heater", "heated": "heat"; "date", "dated":
    "dat", review 19d)."""
    for end in ("ing", "ed"):
        if word.endswith(end) and len(word) - len(end) >= 3:
            return stem(word[: -len(end)]).removesuffix("e")
    return stem(word).removesuffix("e")


# one act seen from either side: "the kiosk sells passes" is "you can buy passes there"
_CONVERSES = frozenset({"buy", "buys", "bought", "sell", "sells", "sold"})


# verbs granting or refusing, read in the third person too; not events in time ("closes
# at 4pm" marks an hour of an "open 10am-4pm")
_STANCE_VERBS = frozenset({"accept", "reject", "include", "exclude", "allow", "forbid",
                           "approve", "deny", "decline", "omit", "agree", "disagree"})


def lexicon_antonyms(word: str) -> frozenset[str]:
    """The lexicon's antonyms of a word, a verb's third person read as its base
    of a verb of stance ("rejects" / "accepts", "omits" / "includes": the lexicon lists
    the base); none of a
    converse ("reception sells them" is "they can be bought at reception")."""
    if word in _CONVERSES:
        return frozenset()
    found = ANTONYMS.get(word)
    if found is None and word[:-1] in _STANCE_VERBS and word.endswith("s"):
        found = ANTONYMS.get(word[:-1])
    return found or frozenset()


def antonyms_in(word: str, stems: frozenset[str], tokens: Iterable[str]) -> frozenset[str]:
    """The stems among `stems` (the other side's) that contradict `word`, where the other
    side's `tokens` bear them out: a lexicon pair, or a whole token that is `word` with a
    negating prefix ("limited" / "unlimited") or `word` without one. antonym_stems'
    prefixed stems are 5 letters, so "club" met the "inclu" of "include" and "form" the
    "infor" of "information" (session 19): claim-level alignment asks this instead; the
    support features keep antonym_stems (their fitted models read it)."""
    lexicon = {stem(a) for a in lexicon_antonyms(word)}
    out = {a for a in antonym_stems(word) | lexicon if a in stems}
    if not out:
        return frozenset()
    said = set()
    base = root(word)
    # (the word less its prefix, by root: "unlimited" against "limited")
    unprefixed = {root(word[len(p):]) for p in _NEG_PREFIXES
                  if word.startswith(p) and len(word) - len(p) >= 4}
    for tok in tokens:
        # (a whole token, less its prefix, is the other word by its root: "unlimited" /
        # "limit", "ineligible" / "eligibility", "unopened" / "opening"; "include" less
        # "in" is no "club", review 19b)
        if any(tok.startswith(p) and len(tok) - len(p) >= 4 and root(tok[len(p):]) == base
               for p in _SAID_PREFIXES if len(word) >= 4) or (
                len(tok) >= 4 and root(tok) in unprefixed):
            said.add(stem(tok))
    return frozenset(a for a in out if a in lexicon or a in said)
