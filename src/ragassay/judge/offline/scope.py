"""The scope of a universal claim against a unit that restates it (alignment.py): what
"all", "every" or "any" quantifies, and whether the unit says the same of less.

- `narrowed`: the unit names what the claim quantifies with a modifier the claim lacks,
  before it ("permanent staff" for "all staff") or after it ("adults aged 65 and over",
  "orders over $25", "students from low-income households");
- `elsewhere`: the unit says the rest of the claim of something in the quantified
  word's place and limits it ("Interviews are held for Medicine only" for "... for
  every course"; "... on PostgreSQL but not on MySQL" for "... on every database");
- `time_bound`: a claim true "at any time" against a unit with a time limit ("within
  30 days").
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import replace

from .clauses import (
    POST_MODIFIERS,
    UNIVERSAL,
    Part,
    clause_parts,
    is_negation,
    lemma_stems,
    neighbours,
    part,
)
from .lexical import STOPWORDS, stem
from .normalise import separators
from .pieces import fronted
from .weeks import (
    WEEKDAYS,
    YEAR,
    day_range,
    named_times,
    placed_times,
    week_days,
    year_months,
)
from .whole_time import ALL_YEAR, whole_figure

_TIMES_TEXT = """
    moment second minute hour day week month year time morning afternoon evening night
    weekday weekend season spring summer autumn fall winter quarter monday tuesday
    wednesday thursday friday saturday sunday
"""
TIMES = frozenset(stem(w) for w in _TIMES_TEXT.split())  # stems
CLOCK = stem("time")  # a clock time's key among figures, and "at any time"'s stem
_DAY = stem("day")


# where a subject is placed narrows it ("Tenants on the ground floor may ...", "Staff in
# the London office get ..."); after another word these often say what it is about
SUBJECT_PLACES = frozenset({"on", "in", "at"})


def _heads(p: Part, u: Part) -> list[str]:
    """The words the claim quantifies that the unit does not quantify itself."""
    own = set(u.quantified)
    return [h for h in p.quantified if h is not None and h not in own]


def participle_asides(text: str, toks: Sequence[str]) -> frozenset[int]:
    """The token positions of a participle phrase set off by commas, a participle and its
    preposition ("Our lavender, harvested in July, is dried on site"): it describes what
    it follows, all of it, so its time or place is no case the unit limits what it says
    to. A participle before a clause opens a condition ("..., provided the item is
    unused, ..."), a case."""
    seps = separators(text)
    if len(seps) < len(toks) - 1:
        return frozenset()
    out: set[int] = set()
    for i in range(1, len(toks) - 1):
        if "," not in seps[i - 1] or not _participle_prep(toks, i):
            continue
        k = next((k for k in range(i, len(toks) - 1) if "," in seps[k]), None)
        if k is not None:
            out.update(range(i, k + 1))
    return frozenset(out)


def _parted(text: str, a: str, b: str) -> bool:
    """Whether a comma or other stop stands between the words `a` and `b` wherever they
    meet in the text ("On the Basic plan, meetings ...": "plan" modifies no meetings)."""
    return re.search(rf"\b{re.escape(a)}\s*[,;:]\s*{re.escape(b)}\b", text, re.IGNORECASE
                     ) is not None and re.search(rf"\b{re.escape(a)}[\s-]+{re.escape(b)}\b",
                                                 text, re.IGNORECASE) is None


def narrowed(p: Part, u: Part) -> bool:
    """Whether the unit modifies a word the claim quantifies with words the claim does
    not have (a content word just before it, or a post-modifier just after it: "on",
    "in", "at" after the unit's subject only), or places it ("customers within the city
    centre", "customers on the Gold package", "members registered on the scheme": a
    place word or a participle with its preposition, then a content word the claim
    lacks); a time it quantifies, by a day or season ("on Saturday mornings" for "every
    morning")."""
    rates = _rates(u)
    toks = u.info.tokens
    stems = lemma_stems(toks, u.info.all_stems)
    if _named_part(p, u, toks, stems):
        return True
    heads = [h for h in _heads(p, u) if h not in rates]
    if not heads:
        return False
    claim_toks = set(p.info.tokens)
    aside = participle_asides(u.info.text, toks)
    for i in range(u.info.lead, len(toks)):
        if stems[i] not in heads:
            continue
        before = i - 1
        if stems[i] in TIMES:
            if (before >= u.info.lead and stems[before] in TIMES
                    and stems[before] not in p.words):
                return True  # "Saturday mornings" for "every morning"
            continue
        if (before >= u.info.lead and toks[before] not in STOPWORDS
                and stems[before] in u.words and stems[before] not in p.words
                and not _parted(u.info.text, toks[before], toks[i])):
            return True
        if before >= u.info.lead and toks[before] in _ORDINALS and toks[before] not in claim_toks:
            return True  # "before their first visit" for "before each visit"
        after = i + 1
        if after < len(toks) and toks[after] not in claim_toks and (
                toks[after] in POST_MODIFIERS
                or (toks[after] in SUBJECT_PLACES and stems[i] == u.first)):
            return True
        if (after < len(toks) and stems[i] == u.first and toks[after] not in claim_toks
                and toks[after].endswith("ing") and len(toks[after]) > 5
                and toks[after] not in NOT_LIMITING
                and not set(stems[after + 1:after + 4]) & p.words):  # (kept: "by direct debit")
            return True  # "Residents receiving Council Tax Reduction ..." for "all residents"
            # (not "Public skating sessions ..." for "each public session": a compound)
        if after in aside:
            continue  # ("Our lavender, harvested in July, ...": all of it, no case)
        if placed_after(toks, stems, after, p, stems[i] == u.first):
            return True
        if _trailing(toks, stems, after, p, u.capitalised):
            return True
    return False


def _named_part(p: Part, u: Part, toks: tuple[str, ...], stems: list[str]) -> bool:
    """Whether the unit quantifies the claim's word too, over a named part of what the
    claim places it in ("all players in the Premier Division" for "every player in the
    league"): a place word, a determiner at most, then a name the claim lacks, where the
    claim places its word too (not "every room" for "all rooms at the Harbour Hotel": a
    business's name for itself)."""
    if not set(p.quantified) & set(u.quantified):
        return False  # (most units: no need to read the claim's tokens)
    mine = lemma_stems(p.info.tokens, p.info.all_stems)
    if not any(mine[j] in p.quantified and p.info.tokens[j + 1] in SUBJECT_PLACES
               for j in range(len(mine) - 1)):
        return False
    for i in range(len(toks) - 2):
        if stems[i] not in p.quantified or stems[i] not in u.quantified or stems[i] in TIMES:
            continue  # ("each month at Hollins Farm" places it; no part of the months)
        k = i + 2 if toks[i + 2] not in _PLACE_DETERMINERS or i + 3 >= len(toks) else i + 3
        run = []  # the name ("Premier Division"): none of it the claim's ("the hotel")
        while k < len(toks) and stems[k] in u.capitalised:
            run.append(stems[k])
            k += 1
        if toks[i + 1] in SUBJECT_PLACES and run and not set(run) & p.stems:
            return True
    return False


# participles after a subject that say what all of it does or is about, no case of it
NOT_LIMITING = frozenset({"including", "during", "regarding", "concerning", "according",
                           "nothing", "something", "anything", "everything"})
# (not counts.ORDINALS, the ranks a figure reader skips: "last", "next" narrow as well)
_ORDINALS = frozenset({"first", "second", "third", "last", "final", "initial", "next"})


# after what a claim restates of a quantified word ("orders over £150"), a phrase that
# limits it further: where to, for whom, within what ("... to postcodes in Kent"), where,
# with what ("... in the city centre", "members over 18 with a climbing card")
_TRAILING = frozenset({"to", "for", "within", "outside", "with", "in"})
_TRAILING_RUN = 4  # claim tokens (and figures) skipped before the phrase, at most
_PLACE_DETERMINERS = frozenset({"the", "a", "an", "our", "your", "their", "its", "this",
                                "that", "these", "those"})


def _trailing(toks: tuple[str, ...], stems: list[str], at: int, p: Part,
              names: frozenset[str] = frozenset()) -> bool:
    """Whether, past a run of the claim's own tokens and figures after the quantified
    word ("orders over £150"), the unit goes on with a limiting phrase whose first
    content word the claim lacks ("to postcodes in Kent" of "all orders over £150"): the
    claim restates the unit's modifier and drops the rest of it. Not a phrase that is
    universal itself ("to any address"), nor "in" before anything but a determiner or a
    name (`names`: the unit's capitalised stems): "over £40 in value" measures."""
    claim_toks = set(p.info.tokens)
    j = at
    while j < len(toks) and j - at < _TRAILING_RUN and (
            toks[j] in claim_toks or toks[j][:1].isdigit()):
        j += 1
    if j == at or j >= len(toks) or toks[j] not in _TRAILING or toks[j] in claim_toks:
        return False
    if toks[j] == "in" and not (toks[j + 1:j + 2] and (toks[j + 1] in _PLACE_DETERMINERS
                                                       or stems[j + 1] in names)):
        return False  # "in the city centre", "in Kent"; not a measure ("over £40 in value")
    k = j + 1
    while k < len(toks) and toks[k] in STOPWORDS and toks[k] not in UNIVERSAL:
        k += 1
    return (k < len(toks) and toks[k] not in UNIVERSAL and not toks[k][:1].isdigit()
            and stems[k] not in p.words)


# after a person or thing, words that place it ("customers within the city", "members
# outside the county")
_PLACING = frozenset({"within", "outside", "inside", "on", "in", "at"})
PARTICIPLE_PREPS = frozenset({"on", "in", "at", "with", "for", "to", "by", "under",
                               "through", "before", "after"})
# participles not in -ed ("castles set up on hard surfaces"), and the particle after one
_IRREGULAR_PARTICIPLES = frozenset({"set", "built", "made", "held", "kept", "sold", "bought",
                                    "paid", "put", "left", "done", "given", "taken", "shown",
                                    "worn", "brought", "sent", "fitted", "laid", "run",
                                    "grown", "written", "known", "caught", "found", "drawn",
                                    "woven", "sewn", "spun", "cut"})
_PARTICLES = frozenset({"up", "out", "off", "down", "in", "away", "back"})


def _participle_prep(toks: Sequence[str], at: int) -> int:
    """Where the words after a participle and its preposition start ("registered on |
    the scheme", "set up on | hard surfaces", "harvested in | July"); 0 when `at` opens
    none."""
    t = toks[at]
    if not (t.endswith("ed") or t in _IRREGULAR_PARTICIPLES):
        return 0
    j = at + 1
    if j + 1 < len(toks) and toks[j] in _PARTICLES and toks[j + 1] in PARTICIPLE_PREPS:
        j += 1  # "set up on"
    return j + 1 if j < len(toks) and toks[j] in PARTICIPLE_PREPS else 0


MEMBERSHIP = frozenset({'plan', 'package', 'scheme', 'programme', 'program', 'tier', 'list',
                         'register', 'course', 'contract', 'account', 'tariff', 'membership'})


def placed_after(toks: tuple[str, ...], stems: list[str], at: int, p: Part,
            subject: bool = False) -> bool:
    """Whether the unit's words from `at` place the word before them: a place word, or a
    participle and its preposition ("registered on"), then (past determiners) a content
    word the claim does not have."""
    if at >= len(toks):
        return False
    j = at + 1
    if toks[at] in SUBJECT_PLACES and not subject and not MEMBERSHIP & set(toks[j:j + 4]):
        return False  # "check bags at the entrance": where the verb happens, not which bags
    if toks[at] not in _PLACING and (stems[at] in p.words
                                     or not (j := _participle_prep(toks, at))):
        return False
    while j < len(toks) and toks[j] in STOPWORDS:
        j += 1
    return j < len(toks) and not toks[j][:1].isdigit() and stems[j] not in p.words


# what a rule lets or makes its subject do: a generic subject ("Tenants may ...") is read
# as all of them
DEONTIC = frozenset({"may", "can", "must", "cannot", "allowed", "entitled", "eligible",
                     "permitted", "required", "need"})


def generic_widened(p: Part, u: Part) -> bool:
    """Whether a claim whose subject is a bare noun ("Tenants can keep pets") says what a
    rule of the unit says of that noun placed or modified ("Tenants on the ground floor
    may keep one small dog"; "Permanent staff are entitled to ..."): the claim drops a
    restrictive modifier of the subject, and so widens its scope."""
    if p.universal or u.universal or p.first is None or p.first != u.first:
        return False
    toks, lead = p.info.tokens, p.info.lead
    if lead >= len(toks) or stem(toks[lead]) != p.first:
        return False  # the claim's subject has a word before it of its own
    if not DEONTIC & set(u.info.tokens) or not DEONTIC & set(toks):
        return False
    return narrowed(replace(p, quantified=(p.first,)), u)


def elsewhere(p: Part, u: Part, sentence: Part) -> bool:
    """Whether the unit states the rest of the claim of something else in the place of
    the word the claim quantifies, and limits it ("only", "unless", a negation of
    another case in its sentence)."""
    limited = u.restricted or sentence.restricted or any(
        is_negation(t) for t in sentence.info.tokens)
    if not limited:
        return False
    for h in _heads(p, u):
        if h in TIMES or h in u.words:
            continue
        rest = p.words - {h}
        if len(rest) < 2 or not rest <= u.words:
            continue
        slot = neighbours(_unquantified(p)).get(h, frozenset())
        mine = neighbours(u)
        if any(not slot.isdisjoint(mine.get(v, ())) for v in u.words - p.words):
            return True
    return False


def _unquantified(p: Part) -> Part:
    """The claim without its quantifiers: "held for every course" places "course" after
    "held", as "held for Medicine only" places "Medicine"."""
    return part(_QUANTIFIER.sub(" ", p.text))


_QUANTIFIER = re.compile(r"\b(?:" + "|".join(sorted(UNIVERSAL)) + r")\b", re.IGNORECASE)



def time_bound(p: Part, u: Part, sentence: Part | None = None, figures: bool = True,
               calendar: frozenset[str] = frozenset()) -> bool:
    """Whether a claim quantified over time only ("at any time", "every day", "always")
    meets a unit that bounds it with a figure of time the claim does not state ("within
    30 days") or places it in a part of the week, the day or the year the claim does not
    name ("on weekdays", "on Tuesday afternoons", "in summer"); `sentence`: the unit's
    sentence, whose times together may make up the week (no bound then); `figures`:
    whether a figure of time bounds it too (not for a sentence read for one of its
    clauses: "at 11am, and on Saturdays ... at 2pm" are each one clause's); `calendar`:
    the days and months the contexts place what they say on (Units.calendar: not a day
    they say is closed or deny). "Every day" against a range of days
    ("Tuesday to Saturday") is bounded unless those days fill out the week ("Monday to
    Friday ..." and then "At weekends ..."), "all year" against a range of months ("from
    May to September") unless the months fill out the year or the unit says "all year"
    too ("every year" says when it recurs, not that it lasts); "seven days a week" and
    "24 hours a day" bound nothing (whole_time.whole_figure)."""
    if not p.quantified or not (all(h in TIMES for h in p.quantified) or (
            len(p.quantified) == 1 and "always" in p.info.tokens)):
        return False
    mine = {k for _, k in p.figures}
    # (a clock time bounds the hours of a day, not which days: "open every day" says what
    # "opens daily from 9am until 5pm" does; "open at any time", "always" it bounds)
    days = "always" not in p.info.tokens and CLOCK not in p.quantified
    # (a unit quantified over time itself says "every day" of something: its "on
    # Sundays" is another clause's, "not open on Sundays, yet ... orders every day")
    months = year_months(u)
    if months and ALL_YEAR.search(p.text) and not ALL_YEAR.search(u.text) and (
            months | calendar < frozenset(YEAR)):
        return True  # "open all year" for "open from May to September"
    placed = placed_times(u)
    ranged = days and _DAY in p.quantified and day_range(u)
    return (figures and any(k in TIMES and k not in mine and not (days and k == CLOCK)
                            and not whole_figure(n, k, u.text) for n, k in u.figures)) or (
        not any(h in TIMES for h in u.quantified) and (bool(placed - named_times(p)) or ranged)
        and week_days(u, sentence) | calendar & WEEKDAYS != WEEKDAYS)  # (days short of a week)


def name_runs(p: Part) -> list[tuple[frozenset[str], str | None, str | None]]:
    """The names of several words in a sentence or clause ("the Half Fare Card", "Computer
    Science"): each run of capitalised content words (the sentence's first word counts
    only when the next is capitalised too), with the content stems just before and after
    it: its place."""
    toks, caps = p.info.tokens, set(p.info.capitals)
    stems = lemma_stems(toks, p.info.all_stems)
    content = [stems[i] in p.words for i in range(len(toks))]
    out = []
    i = p.info.lead
    while i < len(toks):
        if i in caps and content[i] and (i or i + 1 in caps):
            j = i
            while j + 1 < len(toks) and j + 1 in caps and content[j + 1]:
                j += 1
            before = next((stems[k] for k in range(i - 1, -1, -1) if content[k]), None)
            after = next((stems[k] for k in range(j + 1, len(toks)) if content[k]), None)
            out.append((frozenset(stems[i:j + 1]), before, after))
            i = j + 1
        else:
            i += 1
    return out


def name_swap(p: Part, u: Part, only_c: frozenset[str], only_u: frozenset[str]) -> bool:
    """Whether the words only the claim has are one name that stands where the unit has
    another name of its own, in the same place (the same word before or after it, or both
    at the start): "The Half Fare Card gives unlimited travel ..." for "The Alpine Rail
    Pass gives unlimited travel ..."; "held for Computer Science only" for "held for
    Medicine only"."""
    mine = [r for r in name_runs(p) if r[0] == only_c]
    if not mine:
        return False
    _, before, after = mine[0]
    for words, b, a in name_runs(u):
        if words <= only_u and ((b == before and (b is not None or a == after))
                                or (a == after and a is not None)):
            return True
    return False


def denied_of_all(p: Part, u: Part) -> bool:
    """Whether the unit denies a predicate of every member of a kind ("Cats are not
    allowed in any room", "No refunds are given on any sale item") and the claim, not
    negated, grants it of some of them ("Cats are allowed in ground-floor rooms"): the
    claim has the unit's subject, its negated word and what the unit quantifies, and
    the unit no restriction of its own."""
    if u.restricted or any(h is not None for h in p.negations):
        return False
    heads = {h for h in u.quantified if h is not None and h not in TIMES}
    denied = {h for h in u.negations if h is not None}
    if not heads or not denied or u.first is None:
        return False
    need = {u.first} | (heads & p.words) | (denied & p.words)
    if not (bool(heads & p.words) and bool(denied & p.words) and need <= p.words
            and len(p.words & u.words) >= 3):
        return False
    # one clause of the unit both quantifies and denies ("... before any colour service
    # for new clients and for anyone who hasn't had colour" denies nothing of every
    # service)
    pieces = clause_parts(u.text)
    return len(pieces) < 2 or any(
        set(c.quantified) & heads and {h for h in c.negations if h is not None} & denied
        for c in pieces)


def widened_kind(p: Part, u: Part) -> bool:
    """Whether a universal claim ("On every flight a warm meal comes round ...") says,
    of all of what it quantifies, what the unit says of a kind of it named with a
    modifier the claim lacks ("On long-haul flights, a hot meal is served ..."): the
    unit does not quantify that word itself and shares two more content words with the
    claim, whatever its other words."""
    heads = {h for h in p.quantified if h is not None and h not in TIMES} - _rates(u)
    if not heads or heads & set(u.quantified) or not heads & u.words or _quantifies(u, heads):
        return False
    return len((p.words & u.words) - heads) >= 2 and narrowed(p, u)


def _quantifies(u: Part, heads: set[str]) -> bool:
    """Whether the unit quantifies one of the words itself, past its modifiers ("Each
    hire set includes ...", "any in-print LP": set, LP), or prices each of what it names
    ("Stages cost £25 each", "... 25 pounds each")."""
    toks, stems = u.info.tokens, u.info.all_stems
    if any(t == "each" and any(x[:1].isdigit() for x in toks[max(0, k - 2):k])
           for k, t in enumerate(toks)):
        return True
    return any(s in heads and any(toks[k] in UNIVERSAL for k in range(max(0, i - 3), i))
               for i, s in enumerate(stems))


_PER = frozenset({"per", "a", "an", "each", "every"})  # before a word: a rate's unit


def _rates(u: Part) -> set[str]:
    """The unit's words that are a rate's unit, after "per" / "a" or a figure ("1 point
    per pound", "£20,000 a tax year"): "every pound" of a claim quantifies no kind."""
    toks, stems = u.info.tokens, u.info.all_stems
    # (a figure's token, not its stem: "their first visit" counts no visits)
    return {stems[i] for i in range(1, len(toks))
            if toks[i - 1] in _PER or toks[i - 1][:1].isdigit()}


_RELATIVES = frozenset({"which", "who", "whose"})


def drops_fronted(p: Part, u: Part, said: frozenset[str] = frozenset(),
                  clause: Part | None = None) -> bool:
    """Whether a universal claim ("The garden centre waters the hedges every day") says
    what a sentence says under a short fronted phrase ("In dry weather, ...", "For
    suite guests, ...") without any word of that phrase: it drops the sentence's
    restriction, and so widens it (a "for/in/on ..." opening with no verb or subject of
    its own, up to the first comma). `said`: the words of the claim's whole sentence,
    when `p` is one clause of it: a phrase all of whose words it says is kept ("in the
    city, a pass is any ticket ..."), one it shares a word with is not ("The weather is
    mild, and ..." for "In dry weather, ..."). `clause`: the clause of `u` the claim
    restates; a relative one ("After the induction, volunteers pitch to the committee,
    which meets on the first Monday of each month") says what it says of the noun before
    it, out of the fronted phrase's reach."""
    if not p.universal or p.restricted or "," not in u.text:
        return False
    if clause is not None and clause.info.tokens[:1] and clause.info.tokens[0] in _RELATIVES:
        return False
    head = u.text.split(",", 1)[0]
    if not fronted([t.lower() for t in head.split()]):
        return False
    words = part(head).words
    return (bool(words) and not words & p.words and not words <= said
            and len((p.words & u.words) - words) >= 2)


def acronym(token: str, sentence: Part) -> bool:
    """Whether a claim word is an acronym of capitalised words of the unit's sentence
    ("GNR" for "Guns N' Roses": no swap of a word)."""
    if not (2 <= len(token) <= 6 and token.isalpha()):
        return False
    initials = "".join(w[0] for w in re.findall(r"[A-Z][\w'’]*", sentence.text)).lower()
    return len(initials) >= len(token) and token.lower() in initials


def pronoun_widened(p: Part, u: Part, only_in_unit: frozenset[str]) -> bool:
    """Whether a claim says "anyone" / "everyone" where the unit it restates names its
    subject ("Anyone can borrow the telescopes" for "Members can borrow the telescopes"):
    the unit's subject is a word the claim lacks, its quantifier a pronoun; not a subject
    that is anyone already ("People can ...", "Members of the public can ...")."""
    return (None in p.quantified and u.first is not None and u.first in only_in_unit
            and u.first not in TIMES and u.first not in GENERIC_SUBJECTS
            and "public" not in u.info.tokens[:4])


GENERIC_SUBJECTS = frozenset(stem(w) for w in ("people", "person", "public", "everyone",
                                               "everybody", "anybody", "user",
                                               "item", "thing"))  # "everything": "Items"
