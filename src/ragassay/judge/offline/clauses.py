"""Clauses, and what a clause says beyond its words: polarity, figures and scope.

A sentence is split into clauses at semicolons, brackets, dashes, commas and the words
that open a clause ("but", "although", "which", "unless", "if", "and" ...); a piece of
fewer than MIN_CLAUSE_TOKENS tokens stays with its neighbour ("Yes, ...", "Basic and
Plus ..."). Each sentence or clause is read once into a `Part` (cached by text), the
unit claim-level alignment (alignment.py) compares:
- `words`: its content stems, without negations, quantifiers, numbers and an opener;
- `negations`: the stem each predicate negation bears on ("not" in "does not need to be
  booked" bears on "booked"; "unless" is one; "without", "not only", "no later than" and
  "a failed delivery" are not);
- `figures`: each number with the word it counts ("5 devices", "8 am" as a time);
- `universal`: it quantifies over everyone or everything ("all", "every", "nobody" ...);
- `restricted`: it limits its statement ("only", "unless", "except", "people with ...").
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from functools import lru_cache

from .lexical import NEGATIONS, STOPWORDS
from .sentences import SentenceInfo, sentence_info

MIN_CLAUSE_TOKENS = 3  # a shorter piece ("Yes", "In 2019", "Basic") is no clause of its own
_OPENS = (r"but|although|though|while|whereas|which|who|so|unless|except|yet|and|or|if|"
          r"because|since|as long as|provided|unlike|however|then")
_BREAK = re.compile(
    r"\s*[;()\[\]:]\s*"  # semicolons, brackets, colons
    r"|\s+[-\u2013\u2014]\s+|\u2014"  # a dash set off by spaces, an em dash
    r"|\s*,(?=\s)(?!\s*\d)\s*"  # a comma before a space and no digit (not "1,000", "1 , 000")
    rf"|\s+(?=(?:{_OPENS})\s)",  # a word that opens a clause
    re.IGNORECASE,
)

_UNIVERSAL_TEXT = """
    all every each any everyone everybody everything anyone anybody anything always
    nobody whatever whichever whoever
"""
UNIVERSAL = frozenset(_UNIVERSAL_TEXT.split())
# universals that stand for people or things themselves: they quantify no word after them
_PRONOUNS = frozenset(
    {"everyone", "everybody", "everything", "anyone", "anybody", "anything", "nobody",
     "whoever"}
)
_RESTRICTORS_TEXT = "only solely exclusively unless except excluding"
RESTRICTORS = frozenset(_RESTRICTORS_TEXT.split())
# a person or thing narrowed by what follows it: "people with ulcers", "children under 6",
# "adults aged 65", "students from low-income households", "guests who book directly"
_POST_MODIFIERS_TEXT = "with who whose under over aged from above below"
POST_MODIFIERS = frozenset(_POST_MODIFIERS_TEXT.split())
# words between a negation and what it negates: "does not need to be booked"
_LIGHT_TEXT = """
    need needs needed even ever really necessarily currently yet always usually
    generally actually also quite
"""
_LIGHT = frozenset(_LIGHT_TEXT.split())
# "no later than 11 am", "not more than 3", "not only": a bound or an addition, no negation
_COMPARATIVES_TEXT = "more less fewer later earlier sooner greater higher lower longer only"
_COMPARATIVES = frozenset(_COMPARATIVES_TEXT.split())
_ATTRIBUTIVE = frozenset({"failed", "failing"})
_DETERMINERS = frozenset({
    "a", "an", "the", "any", "each", "every", "this", "that", "these", "those",
    "its", "their", "your", "our", "his", "her", "my",
})
_TIME = frozenset({"am", "pm", "a.m", "p.m"})
_ORDINALS = frozenset({"first", "second", "third", "fourth", "fifth"})  # a rank, no count
_SCALES = {"thousand": 1e3, "million": 1e6, "billion": 1e9, "trillion": 1e12}
NEGATION_REACH = 6  # tokens after a negation in which it finds what it negates


def is_negation(token: str) -> bool:
    """A predicate negation word (not "without": it modifies, it does not deny)."""
    return (token in NEGATIONS and token != "without") or token == "unless" or token.endswith(
        ("n't", "n’t"))


def _is_number(stem: str) -> bool:
    return stem[:1].isdigit()


def _value(stem: str) -> float | None:
    try:
        return float(stem)
    except ValueError:
        return None


@dataclass(frozen=True)
class Part:
    """A sentence or a clause as alignment reads it (module docstring)."""

    info: SentenceInfo
    words: frozenset[str]
    first: str | None  # its first content stem (the subject, mostly)
    negations: tuple[str | None, ...]  # per predicate negation, the stem it bears on
    figures: tuple[tuple[float, str | None], ...]  # (value, the stem it counts)
    counted: frozenset[str]  # content stems within two tokens after a number
    quantified: tuple[str | None, ...]  # per universal quantifier, the stem it quantifies
    restricted: bool
    opening: str | None  # "verb" or "relative": it has no subject of its own (_opening)
    capitalised: frozenset[str]  # stems of its capitalised tokens (names, the first word)

    @property
    def universal(self) -> bool:
        return bool(self.quantified)

    @property
    def text(self) -> str:
        return self.info.text


def _negation_heads(toks: tuple[str, ...], stems: list[str], lead: int) -> list[str | None]:
    heads: list[str | None] = []
    for i in range(lead, len(toks)):
        t = toks[i]
        if not is_negation(t):
            continue
        if t in _ATTRIBUTIVE and i > 0 and toks[i - 1] in _DETERMINERS:
            continue  # "retries a failed delivery"
        if t in ("not", "no") and i + 1 < len(toks) and toks[i + 1] in _COMPARATIVES:
            continue  # "no later than", "not only"
        head = None
        for j in range(i + 1, min(len(toks), i + 1 + NEGATION_REACH)):
            u = toks[j]
            if u in STOPWORDS or u in _LIGHT or is_negation(u) or _is_number(stems[j]):
                continue
            head = stems[j]
            break
        heads.append(head)
    return heads


def _figures(toks: tuple[str, ...], stems: list[str]) -> list[tuple[float, str | None]]:
    """Each number with the word it counts: the next token ("5 devices"; a time for
    "8 am"), else the content word before it ("Physics in 1903" counts Physics)."""
    out: list[tuple[float, str | None]] = []
    n = len(toks)
    for i, s in enumerate(stems):
        if not _is_number(s) or toks[i] in _ORDINALS or (value := _value(s)) is None:
            continue
        j = i + 1
        if j < n and toks[j] in _SCALES:
            value *= _SCALES[toks[j]]
            j += 1
        key: str | None = None
        if j < n and toks[j] in _TIME:
            key = "time"
        elif j < n and toks[j] not in STOPWORDS and not _is_number(stems[j]):
            key = stems[j]
        else:
            for k in range(i - 1, max(-1, i - 3), -1):
                if toks[k] not in STOPWORDS and not _is_number(stems[k]):
                    key = stems[k]
                    break
        out.append((value, key))
    return out


def _quantified(toks: tuple[str, ...], stems: list[str], lead: int) -> list[str | None]:
    """Per universal quantifier, the content stem it quantifies ("all tiers": tier;
    "everyone": None)."""
    out: list[str | None] = []
    for i in range(lead, len(toks)):
        if toks[i] not in UNIVERSAL:
            continue
        head = None
        if toks[i] in _PRONOUNS:
            out.append(None)
            continue
        for j in range(i + 1, min(len(toks), i + 4)):
            if toks[j] not in STOPWORDS and not _is_number(stems[j]):
                head = stems[j]
                break
        out.append(head)
    return out


_CONJUNCTIONS_TEXT = "and or but so then while yet also"
_CONJUNCTIONS = frozenset(_CONJUNCTIONS_TEXT.split())
_AUXILIARIES_TEXT = """
    is are was were be been has have had can could may might must will would should
    shall does do did cannot
"""
_AUXILIARIES = frozenset(_AUXILIARIES_TEXT.split())
_PREPOSITIONS_TEXT = """
    from to in on at for with by up until within after before during over under into
    between per via
"""
_PREPOSITIONS = frozenset(_PREPOSITIONS_TEXT.split())
_RELATIVES = frozenset({"which", "who", "whom", "whose"})
_OBJECT_STARTS = frozenset({"no", "up", "a", "an", "the", "to"})


def _opening(toks: tuple[str, ...]) -> str | None:
    """How a clause opens when it has no subject of its own: "verb" ("has no device
    limit", "syncs up to 2 devices", "and from 9 am to 1 pm"), "relative" ("which are
    caused by viruses"), else None."""
    i = 0
    while i < len(toks) and toks[i] in _CONJUNCTIONS:
        i += 1
    if i >= len(toks):
        return None
    first, nxt = toks[i], toks[i + 1] if i + 1 < len(toks) else ""
    if first in _RELATIVES:
        return "relative"
    if first in _AUXILIARIES or first in _PREPOSITIONS:
        return "verb"
    if first.endswith("s") and (nxt[:1].isdigit() or nxt in _OBJECT_STARTS):
        return "verb"  # "includes 5 GB", "has no ...", "syncs up to"
    return None


def subject_words(p: Part) -> frozenset[str]:
    """A clause's subject, as a following clause without one takes it: its content stems
    before its first auxiliary, negation or number ("The Classic card has no annual fee":
    classic, card; "People for the Ethical Treatment of Animals (PETA) is ...": all five)."""
    toks, stems = p.info.tokens, p.info.all_stems
    out = []
    for i in range(p.info.lead, len(toks)):
        t = toks[i]
        if t in _AUXILIARIES or is_negation(t) or _is_number(stems[i]):
            break
        if stems[i] in p.words:
            out.append(stems[i])
    return frozenset(out)


def neighbours(p: Part) -> dict[str, frozenset[str]]:
    """Per content stem, the stems of the nearest tokens before ("<stem") and after
    (">stem") it that are no stopwords and no numbers: its place in the sentence."""
    return _neighbours(p.info.text)


@lru_cache(maxsize=32768)
def _neighbours(text: str) -> dict[str, frozenset[str]]:
    info = sentence_info(text)
    toks, stems = info.tokens, info.all_stems
    keep = [i for i, t in enumerate(toks) if t not in STOPWORDS and not _is_number(stems[i])]
    out: dict[str, set[str]] = {}
    for k, i in enumerate(keep):
        near = out.setdefault(stems[i], set())
        if k:
            near.add("<" + stems[keep[k - 1]])
        if k + 1 < len(keep):
            near.add(">" + stems[keep[k + 1]])
    return {w: frozenset(n) for w, n in out.items()}


def last_words(p: Part, n: int = 2) -> frozenset[str]:
    """The clause's last `n` content stems: what a relative clause after it is about
    ("... colds or flu, which are caused by viruses")."""
    stems = [s for s in p.info.all_stems if s in p.words]
    return frozenset(stems[-n:])


@lru_cache(maxsize=32768)
def part(text: str) -> Part:
    """The alignment view of a sentence or clause (cached: contexts repeat)."""
    info = sentence_info(text)
    toks, stems = info.tokens, info.all_stems
    words = []
    for i in range(info.lead, len(toks)):
        t, s = toks[i], stems[i]
        if (t in STOPWORDS or is_negation(t) or t in UNIVERSAL or t in RESTRICTORS
                or t in _TIME or _is_number(s)):
            continue
        words.append(s)
    restricted = any(t in RESTRICTORS for t in toks) or any(
        toks[i + 1] in POST_MODIFIERS for i in range(info.lead, min(len(toks) - 1, info.lead + 3))
        if toks[i] not in STOPWORDS
    )
    return Part(
        info=info,
        words=frozenset(words),
        first=words[0] if words else None,
        negations=tuple(_negation_heads(toks, stems, info.lead)),
        figures=tuple(_figures(toks, stems)),
        counted=frozenset(stems[j] for i, s in enumerate(stems) if _is_number(s)
                          for j in range(i + 1, min(len(stems), i + 3))
                          if toks[j] not in STOPWORDS and not _is_number(stems[j])),
        quantified=tuple(_quantified(toks, stems, info.lead))
        + ((None,) if "no one" in text.lower() else ()),
        restricted=restricted,
        opening=_opening(toks),
        capitalised=frozenset(stems[i] for i in info.capitals),
    )


@lru_cache(maxsize=16384)
def clause_texts(text: str) -> tuple[str, ...]:
    """The sentence's clauses (the sentence itself when it has one): pieces split at the
    breaks, a piece under MIN_CLAUSE_TOKENS tokens joined to the one before ("nausea
    and diarrhoea"), or to the next at the start ("Yes, ...") or when it is listed with
    it ("...; Basic and Plus subscribers get ...")."""
    pieces = [p.strip() for p in _BREAK.split(text) if p and p.strip()]
    merged: list[str] = []
    carry = ""
    for k, p in enumerate(pieces):
        if carry:
            p, carry = f"{carry} {p}", ""
        nxt = pieces[k + 1].split(maxsplit=1)[0].lower() if k + 1 < len(pieces) else ""
        if len(p.split()) >= MIN_CLAUSE_TOKENS:
            merged.append(p)
        elif merged and (nxt not in ("and", "or") or p.split()[0].lower() in ("and", "or")):
            merged[-1] = f"{merged[-1]} {p}"
        else:  # "Basic and Plus subscribers ...": a short piece joins what it is listed with
            carry = p
    if carry:
        merged.append(carry)
    return tuple(merged) if len(merged) > 1 else (text,)


def clauses(text: str) -> list[Part]:
    """The parts of the sentence's clauses (one, the sentence, when it has one)."""
    return [part(c) for c in clause_texts(text)]
