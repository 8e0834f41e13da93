"""Clauses, and what a clause says beyond its words: polarity, figures and scope.

A sentence is split into clauses where pieces.py cuts it. Each sentence or clause is read
once into a `Part` (cached by text), the unit claim-level alignment (alignment.py)
compares:
- `words`: its content stems, without negations, quantifiers, numbers and an opener;
- `negations`: the stem each predicate negation bears on ("not" in "does not need to be
  booked" bears on "booked"; "unless" is one; "without", "not only", "no later than" and
  "a failed delivery" are not);
- `figures`: each number with the word it counts ("5 devices", "8 am" as a time);
- `universal`: it quantifies over everyone or everything ("all", "every", "nobody" ...);
- `restricted`: it limits its statement ("only", "unless", "except", "people with ...").
"""

from __future__ import annotations

import bisect
import re
from collections import Counter
from dataclasses import dataclass
from functools import lru_cache

from .carried_negation import aspect_marker, carried_negation
from .counts import IRREGULAR, ORDINALS, TIME_WORDS, day_rank, figures, is_number, lemma_stems
from .lexical import NEGATIONS, STOPWORDS, stem
from .normalise import TOKEN, normalise_text, separators
from .pieces import AUXILIARIES, BREAK, fresh, merge_pieces
from .sentences import SentenceInfo, token_view
from .sentences import lead_tokens as _lead
from .unquantified import compared_any, quantifies_nothing
from .whole_time import whole_times

_UNIVERSAL_TEXT = """
    all every each any everyone everybody everything anyone anybody anything always
    nobody whatever whichever whoever whenever
"""
UNIVERSAL = frozenset(_UNIVERSAL_TEXT.split())
# "neither plan", "none of the mortgages": negations that also quantify (no X has it)
_NONE_OF = frozenset({"neither", "none"})
_TIME_STEM = stem("time")
# universals that stand for people or things themselves: they quantify no word after them
_PRONOUNS = frozenset(
    {"everyone", "everybody", "everything", "anyone", "anybody", "anything", "nobody",
     "whoever"}
)
_RESTRICTORS_TEXT = "only solely exclusively unless except excluding if"  # "if": a condition
RESTRICTORS = frozenset(_RESTRICTORS_TEXT.split())
ONLY = frozenset({"only", "solely", "exclusively"})  # the restrictors that are no condition
PARTIAL = frozenset({"most", "some", "certain"})  # ... of what follows them
_BOUNDS = frozenset({"older", "over", "above", "more", "younger", "under", "below", "less"})
_JOINING = frozenset({"and", "but", "or", "while"})  # a clause's word before its subject


def _subject_end(toks: tuple[str, ...], lead: int) -> int:
    """Where a one-word subject ends: after the opener and a joining word ("and anyone
    16 or older ...")."""
    return lead + 1 + int(lead < len(toks) and toks[lead] in _JOINING)
# a person or thing narrowed by what follows it: "people with ulcers", "children under 6",
# "adults aged 65", "students from low-income households", "guests who book directly"
_POST_MODIFIERS_TEXT = "with who whose under over aged from above below"
POST_MODIFIERS = frozenset(_POST_MODIFIERS_TEXT.split())
_PRONOUN_BOUNDS = POST_MODIFIERS | {"between", "aged"}  # "anyone between 95 and 100 kg"
# words between a negation and what it negates: "does not need to be booked"
_LIGHT = frozenset({"need", "needs", "needed", "even", "ever", "really", "necessarily",
                    "currently", "yet", "always", "usually", "generally", "actually", "also",
                    "quite", "times"})  # ("except at the times of school lessons")
_NEED = stem("need")
# words of necessity a claim's "need to" says in other words ("must live" / "need to live")
_NECESSITY = frozenset({"must", "required", "necessary", "mandatory", "compulsory"})
_HAVE_TO = frozenset({"have", "has", "had"})
# permission: "not allowed to take it" negates "take" ("can" is a stopword); without a
# "to" after it ("not allowed during the race") the permission word is what is negated
_PERMISSION = frozenset({"allowed", "permitted", "able"})
# "no later than 11 am", "not more than 3", "not only": a bound or an addition, no negation
_COMPARATIVES_TEXT = "more less fewer later earlier sooner greater higher lower longer only"
_COMPARATIVES = frozenset(_COMPARATIVES_TEXT.split())
_ATTRIBUTIVE = frozenset({"failed", "failing"})
DETERMINERS = frozenset({"a", "an", "the", "any", "each", "every", "this", "that", "these",
                         "those", "its", "their", "your", "our", "his", "her", "my"})
NEGATION_REACH = 6  # tokens after a negation in which it finds what it negates


def is_negation(token: str) -> bool:
    """A predicate negation word (not "without": it modifies, it does not deny)."""
    return (token in NEGATIONS and token != "without") or token == "unless" or token.endswith(
        ("n't", "n’t"))


def said_otherwise(p: Part, u: Part) -> frozenset[str]:
    """The claim's words the unit says by a synonym, so both state them: a denied "need"
    by another word of necessity ("You don't need to live ..." / "Members must live
    ...": "must", "required", "necessary", "mandatory", "compulsory", "have to"; the flip
    is then read; a claim's bare "need" is left to its own words, review 18b: "Children
    need to sign" must not restate "Parents must sign")."""
    out: set[str] = set()
    mine = p.info.tokens
    if _NEED in p.words and _NEED not in u.words and any(
            stem(t) == _NEED and k and is_negation(mine[k - 1]) for k, t in enumerate(mine)):
        toks = u.info.tokens
        if _NECESSITY & set(toks) or any(
                t in _HAVE_TO and toks[k + 1:k + 2] == ("to",) for k, t in enumerate(toks)):
            out.add(_NEED)
    return frozenset(out)


@dataclass(frozen=True, slots=True)
class Part:
    """A sentence or a clause as alignment reads it (module docstring)."""

    info: SentenceInfo
    words: frozenset[str]
    pairs: tuple[tuple[str, str], ...]  # (token, stem) of each content word, in order
    stems: frozenset[str]  # every token's stem (irregular verbs as their base)
    first: str | None  # its first content stem (the subject, mostly)
    negations: tuple[str | None, ...]  # per predicate negation, the stem it bears on
    reaches: tuple[frozenset[str], ...]  # per negation, every stem it may bear on
    figures: tuple[tuple[float, str | None], ...]  # (value, the stem it counts)
    counted: frozenset[str]  # content stems within two tokens after a number
    quantified: tuple[str | None, ...]  # per universal quantifier, the stem it quantifies
    restricted: bool
    opening: str | None  # no own subject: "verb", "preposition", "relative", "elliptic", ...
    capitalised: frozenset[str]  # stems of its capitalised tokens (names, the first word)

    @property
    def universal(self) -> bool:
        return bool(self.quantified)

    @property
    def text(self) -> str:
        return self.info.text


_BE = frozenset({"is", "are", "was", "were", "be", "been", "isn't", "aren't", "wasn't",
                 "weren't"})


def _one(toks: tuple[str, ...], at: int, j: int) -> bool:
    """Whether token j is a "single" that counts one of the word after it ("fail a single
    module"), not a noun or a kind ("Room 4 is not a single; it sleeps two", "isn't a
    single room", review 20b): after "a", before a content word, under a negation that
    is no "be"."""
    return (toks[j] == "single" and toks[j - 1] == "a" and j + 1 < len(toks)
            and toks[j + 1] not in STOPWORDS and not toks[j + 1][:1].isdigit()
            and toks[at] not in _BE and (not at or toks[at - 1] not in _BE))


def _negation_heads(toks: tuple[str, ...], stems: list[str], lead: int, text: str
                    ) -> list[tuple[int, str | None]]:
    """Per predicate negation, where it is and the stem it bears on."""
    # "except Sundays", "apart from X" deny as "unless" does, not after a denial ("not
    # allowed, except X") nor alone (that sentence's clause "except X")
    heads: list[tuple[int, str | None]] = []
    denies = any(is_negation(t) for t in toks) or (
        toks[lead:lead + 1] in (("except",), ("apart",)) and "," not in text)
    for i in range(lead, len(toks)):
        t, after = toks[i], carried_negation(toks, i)  # ("refuses to", "no longer")
        if after is None and not is_negation(t) and not (t == "non" and i + 1 < len(toks)) and not (
                (t == "except" or toks[i:i + 2] == ("apart", "from")) and not denies):
            continue  # ("non-refundable" is read "non refundable": it denies "refundable")
        if t in _ATTRIBUTIVE and i > 0 and toks[i - 1] in DETERMINERS or after is None and t in (
                "not", "no") and i + 1 < len(toks) and toks[i + 1] in _COMPARATIVES:
            continue  # "retries a failed delivery"; "no later than", "not only"
        head = light = None
        for j in range((after or i) + 1, min(len(toks), (after or i) + 1 + NEGATION_REACH)):
            u = toks[j]
            if u in _PERMISSION and light is None:
                light = stems[j]
                if j + 1 < len(toks) and toks[j + 1] == "to":
                    continue
                break
            if u in STOPWORDS or u in _LIGHT or is_negation(u) or is_number(stems[j]) or (
                    _one(toks, i, j)):  # "fail a single element" as "fail one element"
                continue
            head = stems[j]
            break
        heads.append((i, head if head is not None else light))
    return heads


NOUN_PHRASE = 3  # content words after a determiner "no" that its noun phrase may hold
_NEED_WORDS = frozenset({"need", "needs", "needed", "require", "requires", "required"})
_INDEFINITE = frozenset({"a", "an", "any"})
_DEFINITE = _INDEFINITE | {"the"}
LIGHT_VERBS = frozenset({"make", "take", "do", "get", "have"})  # "can't make the climb"
_NO_COMPOUND = re.compile(r"\bno-\w", re.IGNORECASE)  # "no-show", "no-claims": one word


def _reaches(toks: tuple[str, ...], stems: list[str], text: str,
             heads: list[tuple[int, str | None]], repeated: frozenset[str]
             ) -> list[frozenset[str]]:
    """Per negation of `_negation_heads` (same order), the stems it may bear on: its head,
    and for a determiner "no" also the last word of its noun phrase, the run of up to
    NOUN_PHRASE content words after it ("No boating licence is required" denies the
    licence a claim names without "boating": "You don't need a licence"); the run ends
    before a participle ("no appointment required"). Not that word where the sentence
    states it again (`repeated`: the whole sentence's, for a clause: "no late checkout on
    Sundays, when checkout is at 10am", "no joining fee, and the monthly fee is £30"),
    nor after a "no-" compound ("no-show appointments"); a unit's reach is read against a
    claim saying that something exists, is had or is needed only (`polarity._has`);
    review 19: every word of the phrase, or "rather than" as a negation, turned many
    faithful claims ("no weekend group discount" against "Group tours ...")."""
    out: list[frozenset[str]] = []
    for i, head in heads:
        reach = {head} if head is not None else set()
        start = i if toks[i] == "no" else _object_start(toks, i, head)
        if start is not None and not _NO_COMPOUND.search(text):
            run = 0
            while run < NOUN_PHRASE and start + 1 + run < len(toks) and not (
                    toks[start + 1 + run] in STOPWORDS or is_negation(toks[start + 1 + run])
                    or is_number(stems[start + 1 + run])):
                if run and toks[start + 1 + run].endswith("ed"):
                    break
                run += 1
            last = start + run
            if run > int(start == i) and stems[last] not in repeated:
                reach.add(stems[last])
        out.append(frozenset(reach))
    return out


def _object_start(toks: tuple[str, ...], i: int, head: str | None) -> int | None:
    """Where the object noun phrase of a negated need or light verb starts, read as a "no"
    phrase is: "do not need a GP referral" denies the referral as "No referral is needed"
    does, "can't make the climb" the climb (the position of its determiner), else None."""
    if head is None or i + 3 >= len(toks) or not (
            toks[i + 1] in _NEED_WORDS and toks[i + 2] in _INDEFINITE
            or toks[i + 1] in LIGHT_VERBS and toks[i + 2] in _DEFINITE):
        return None
    return i + 2


def _quantified(toks: tuple[str, ...], stems: list[str], lead: int) -> list[str | None]:
    """Per universal quantifier, the content stem it quantifies ("all tiers": tier;
    "everyone": None)."""
    out: list[str | None] = []
    for i in range(lead, len(toks)):
        t = toks[i]
        if (t not in UNIVERSAL and t not in _NONE_OF) or (
                t == "any" and compared_any(toks, i)):
            continue  # "the highest of any school", "more than any other": a comparison
        head = None
        if t in ("each", "every") and toks[i + 1:i + 2] == ("one",) and (
                toks[i + 2:i + 3] != ("of",)):
            continue  # "each one lasts an hour": of what went before ("each one of": of X)
        if t in _PRONOUNS:
            out.append(None)
            continue
        if quantifies_nothing(toks, i, lead):
            continue  # "violins, violas and cellos are all repaired"; "neither A nor B"
        if t == "whenever":
            out.append(_TIME_STEM)  # "whenever you like": at any time
            continue
        for j in range(i + 1, min(len(toks), i + 6)):  # "every 4 to 6 hours": hours
            if toks[j] not in STOPWORDS and not is_number(stems[j]):
                head = stems[j]
                break
        if head is None:
            continue  # "100 MB each": per item, nothing named of which it says "all"
        out.append(head)
    return out


_CONJUNCTIONS_TEXT = "and or but so then while yet also"
_CONJUNCTIONS = frozenset(_CONJUNCTIONS_TEXT.split())
_CONTRASTS = frozenset({"though", "although", "whereas", "however"})
_PRONOUN_SUBJECTS = frozenset({"it", "they"})
_PREPOSITIONS_TEXT = """
    from to in on at for with by up until within after before during over under into
    between per via
"""
_PREPOSITIONS = frozenset(_PREPOSITIONS_TEXT.split())
_RELATIVES = frozenset({"which", "who", "whom", "whose"})
_CONDITIONS = frozenset({"if", "when", "while", "once", "after", "before"})
_OBJECT_STARTS = frozenset({"no", "up", "a", "an", "the", "to"})


def _opening(toks: tuple[str, ...]) -> str | None:
    """How a clause opens when it has no subject of its own: "verb" ("has no device
    limit", "syncs up to 2 devices"), "preposition" ("and from 9 am to 1 pm on
    Saturdays"), "relative" ("which are caused by viruses"), "elliptic" (a negation of
    the first clause's predicate in a case: "but not if it is written off"), "pronoun"
    (a pronoun after a conjunction: "though it is not provided ..."), else None."""
    i = 0
    while i < len(toks) and (toks[i] in _CONJUNCTIONS or toks[i] in _CONTRASTS):
        i += 1
    if i >= len(toks):
        return None
    first, nxt = toks[i], toks[i + 1] if i + 1 < len(toks) else ""
    if first in _PRONOUN_SUBJECTS and i:
        return "pronoun"  # "..., though it is not provided if ...": the first clause's subject
    if first == "not" or (first == "never" and (nxt in _PREPOSITIONS or nxt in _CONDITIONS)):
        return "elliptic"  # "..., but not if it is written off", "not for damage to ..."
    if first in _RELATIVES:
        return "relative"
    if first in _PREPOSITIONS:
        return "preposition"  # "and from 9 am to 1 pm on Saturdays"
    if first in AUXILIARIES:
        return "verb"
    if first.endswith("s") and (nxt[:1].isdigit() or nxt in _OBJECT_STARTS):
        return "verb"  # "includes 5 GB", "has no ...", "syncs up to"
    return None


def subject_words(p: Part) -> frozenset[str]:
    """A clause's subject, as a following clause without one takes it: its content stems
    before its first auxiliary, negation or number ("The Classic card has no annual fee":
    classic, card; "People for the Ethical Treatment of Animals (PETA) is ...": all five)."""
    toks = p.info.tokens
    stems = lemma_stems(toks, p.info.all_stems)
    out = []
    for i in range(p.info.lead, len(toks)):
        t = toks[i]
        if t in AUXILIARIES or is_negation(t) or _is_count(t, stems[i]):
            break
        if _word_stem(t, stems[i]) in p.words:
            out.append(_word_stem(t, stems[i]))
    return frozenset(out)


def neighbours(p: Part) -> dict[str, frozenset[str]]:
    """Per content stem, the stems of the nearest tokens before ("<stem") and after
    (">stem") it that are no stopwords and no numbers: its place in the sentence."""
    return _neighbours(p.info.text)


@lru_cache(maxsize=4096)
def _neighbours(text: str) -> dict[str, frozenset[str]]:
    info = token_view(text)
    toks = info.tokens
    stems = lemma_stems(toks, info.all_stems)
    keep = [i for i, t in enumerate(toks) if t not in STOPWORDS and not is_number(stems[i])]
    out: dict[str, set[str]] = {}
    for k, i in enumerate(keep):
        near = out.setdefault(stems[i], set())
        if k:
            near.add("<" + stems[keep[k - 1]])
        if k + 1 < len(keep):
            near.add(">" + stems[keep[k + 1]])
    return {w: frozenset(n) for w, n in out.items()}


def predicate_words(p: Part) -> frozenset[str]:
    """What a clause says before its first preposition or number ("The Riverside Clinic
    is open from 8 am ...": riverside, clinic, open), as a following clause of only a
    prepositional phrase ("and from 9 am to 1 pm on Saturdays") takes it."""
    toks = p.info.tokens
    stems = lemma_stems(toks, p.info.all_stems)
    out = []
    for i in range(p.info.lead, len(toks)):
        if toks[i] in _PREPOSITIONS or _is_count(toks[i], stems[i]):
            break
        if _word_stem(toks[i], stems[i]) in p.words:
            out.append(_word_stem(toks[i], stems[i]))
    return frozenset(out)


def _is_count(token: str, stem: str) -> bool:
    """A number that counts ("3 devices"), not a rank ("third party")."""
    return is_number(stem) and token not in ORDINALS


def _word_stem(token: str, stem: str) -> str:
    """A token's stem as Part.words has it (a rank as its word: "third")."""
    return token if token in ORDINALS else stem


@lru_cache(maxsize=4096)  # ~4 KB each (with its token view): bounded at ~16 MB
def part(text: str) -> Part:
    """The alignment view of a sentence or clause (cached: contexts repeat)."""
    return _part(token_view(text))


# words that join clauses when they open one, no content of their own ("..., yet its
# website takes orders"; "we don't have it yet" keeps its "yet")
CONNECTIVES = frozenset({"although", "though", "whereas", "yet", "however", "whilst"})


# "non-refundable": the prefix negates, "even if": it stresses; neither says what
_NO_CONTENT = frozenset({"non", "even"})


def _is_word(t: str, s: str) -> bool:
    """A content word as alignment reads it: no stopword ("gets" is "get"), negation,
    quantifier, number (a rank, "first", is a word: "the first legs" are not "the second
    leg")."""
    return not (t in STOPWORDS or (t[-1:] == "s" and t[:-1] in STOPWORDS) or is_negation(t)
                or t in UNIVERSAL or t in RESTRICTORS or t in TIME_WORDS or t in _NO_CONTENT
                or (is_number(s) and t not in ORDINALS))


def first_word(info: SentenceInfo) -> str | None:
    """A sentence's first content stem, as its Part's `first` (without reading it all)."""
    for i in range(info.lead, len(info.tokens)):
        t = info.tokens[i]
        s = IRREGULAR.get(t, info.all_stems[i])
        if _is_word(t, s):
            return s
    return None


def _part(info: SentenceInfo, repeated: frozenset[str] = frozenset()) -> Part:
    """`info` read as a Part; `repeated`: stems its sentence states more than once, where
    `info` is a clause of it (its own are added)."""
    text = info.text
    toks = info.tokens
    stems = lemma_stems(toks, info.all_stems)
    words = []
    pairs = []
    caps = set(info.capitals)
    whole, no_content = whole_times(toks)  # ("year-round": all year)
    for i in range(info.lead, len(toks)):
        t, s = toks[i], stems[i]
        if t == "may" and i and i in caps:
            s = t  # "The May course": the month, not the modal
        elif not _is_word(t, s) or i in no_content or (i == info.lead and t in CONNECTIVES) \
                or aspect_marker(toks, i, info.lead):  # ("no longer", "still": aspect)
            continue  # (a clause's opening "yet", "although": no content; "not ... yet" is)
        if day_rank(toks, i) is not None:
            continue  # "the second Tuesday": a figure (counts.figures), no word
        if t in ORDINALS:
            s = t  # "first", not its number
        words.append(s)
        pairs.append((t, s))
    restricted = any(t in RESTRICTORS for t in toks) or any(
        toks[i + 1] in POST_MODIFIERS for i in range(info.lead, min(len(toks) - 1, info.lead + 3))
        if toks[i] not in STOPWORDS and not (i and toks[i - 1] in AUXILIARIES)
    ) or any(  # "anyone 16 or older", "children 5 and under": its subject's bound (as
        # the post-modifiers above, right after the subject: "parties of 10 or more"
        # later in a sentence is what it is about, not whom)
        is_number(stems[i]) and toks[i + 1] in ("or", "and") and toks[i + 2] in _BOUNDS
        for i in [_subject_end(toks, info.lead)] if i < len(toks) - 2
    ) or any(  # "anyone under 16", "everyone between 95 and 100 kg": whom, bounded
        t in _PRONOUNS and toks[i + 1] in _PRONOUN_BOUNDS for i, t in enumerate(toks[:-1])
    ) or any(  # "most items", "some plans": part of what it names ("the most popular": none)
        t in PARTIAL and i + 1 < len(toks) and toks[i + 1] not in STOPWORDS
        and not (i and toks[i - 1] == "the") for i, t in enumerate(toks))
    heads = _negation_heads(toks, stems, info.lead, text)
    return Part(
        info=info, words=frozenset(words), pairs=tuple(pairs), stems=frozenset(stems),
        first=words[0] if words else None,
        negations=tuple(h for _, h in heads),
        reaches=tuple(_reaches(toks, stems, text, heads, repeated | _repeated(stems))),
        figures=tuple(figures(toks, stems, frozenset(info.capitals), separators(text))),
        counted=frozenset(stems[j] for i, s in enumerate(stems) if is_number(s)
                          for j in range(i + 1, min(len(stems), i + 3))
                          if toks[j] not in STOPWORDS and not is_number(stems[j])),
        quantified=tuple(_quantified(toks, stems, info.lead)) + tuple(whole)
        + ((None,) if "no one" in text.lower() else ()),
        restricted=restricted,
        opening=_opening(toks),
        capitalised=frozenset(stems[i] for i in info.capitals),
    )


def _repeated(stems: list[str]) -> frozenset[str]:
    return frozenset(x for x, n in Counter(stems).items() if n > 1)


@lru_cache(maxsize=4096)
def clause_parts(text: str) -> tuple[Part, ...]:
    """The parts of the sentence's clauses (one, the sentence, when it has one): the
    sentence read once, its tokens cut where clause_texts cuts its text (a clause's text
    is its span of the normalised sentence: "$500" reads "500 dollars")."""
    whole = part(text)
    info = whole.info
    normal = normalise_text(text)
    spans = [m.span() for m in TOKEN.finditer(normal)]
    cuts = [m for m in BREAK.finditer(normal) if m.end() > m.start()]
    breaks = [m.start() for m in cuts]
    if not breaks or len(spans) != len(info.tokens):
        return (whole,)
    ids = [bisect.bisect_right(breaks, start) for start, _ in spans]
    pieces: list[list[int]] = []
    for k, b in enumerate(ids):
        if k and b == ids[k - 1]:
            pieces[-1].append(k)
        else:
            pieces.append([k])
    opens = [bool(ids[g[0]]) and fresh(cuts[ids[g[0]] - 1].group()) for g in pieces]
    groups = merge_pieces(pieces, info.tokens, "," in cuts[0].group(), opens)
    if len(groups) < 2:
        return (whole,)
    out = []
    repeated = _repeated(lemma_stems(info.tokens, info.all_stems))
    for g in groups:
        lo, hi = g[0], g[-1] + 1
        toks = info.tokens[lo:hi]
        piece = normal[spans[lo][0]:spans[hi - 1][1]]
        out.append(_part(SentenceInfo(
            text=piece, stems=[], all_stems=info.all_stems[lo:hi], numbers=(), names=[],
            negated=False, tokens=toks,
            capitals=tuple(i - lo for i in info.capitals if lo <= i < hi),
            lead=_lead(piece, list(toks))), repeated))
    return tuple(out)


def clauses(text: str) -> list[Part]:
    """The parts of the sentence's clauses (one, the sentence, when it has one)."""
    return list(clause_parts(text))

