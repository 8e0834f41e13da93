"""A restriction of the context that a claim drops (alignment.py): what the context
says only at some times, on some days or in one case, said without it.

- `drops_time`: a benefit or a figure said without the recurring time or the time of
  day the unit gives it ("Under-12s skate for free" for "... on Tuesday afternoons";
  "20% off" for "... before 4pm");
- `drops_days` / `tail_days`: a universal claim said of something on every day that the
  unit says on some days ("any order over £40" for "..., Monday to Thursday");
- `drops_only`: "only if"/"only on" and its case, dropped ("We accept mattresses" for
  "We accept mattresses only if they are still sealed"); `drops_exception`: "except",
  "apart from", "other than", "excluding" and what it excepts, dropped ("Photography is
  allowed in all galleries" for "... in all galleries except the Print Room");
- `adds_only`: "only" said of one of the things the unit lists together ("Tours run in
  English only" for "Tours run in English and Spanish");
- `dropped_case`: a universal claim ("all", "every", "any", "always", "whenever") said of
  what the unit says for whom, within a bound, at some times, in one case or of part of
  it (`limits_case`: "all our quotes are free" for "Quotes are free for properties
  within 15 miles of our yard"), and a benefit said of no case where the contexts price
  the other one (`free_for_some`: "the kits are free" for "... free for households in
  the district" beside "Elsewhere, kits cost £45").
"""

from __future__ import annotations

from collections.abc import Sequence

from .beneficiary import qualified_for
from .both import both_widened
from .clauses import ONLY, PARTIAL, RESTRICTORS, Part, clause_parts, part
from .day_hours import hours_unplaced
from .hours import hours_widened
from .lexical import MONTHS, STOPWORDS, stem
from .pieces import AUXILIARIES
from .scope import CLOCK, PARTICIPLE_PREPS, TIMES, participle_asides
from .units import Unit, Units
from .weeks import WEEK, WEEKDAYS, day_range, named_times, placed_times, time_word, whole_week

# what a recurring time conditions ("Under-12s skate free on Tuesday afternoons"), beside a
# figure: a claim of neither only says where, who or what
_BENEFITS = frozenset({"free", "discount", "discounted", "off", "half-price", "cheaper",
                       "reduced"})


def drops_time(p: Part, u: Part) -> bool:
    """Whether a claim says without a time what the unit says of one recurring part of
    the week, the day or the year only ("Under-12s skate for free" for "Under-12s skate
    free on Tuesday afternoons"): the claim names no time and no figure of time."""
    if any(k in TIMES for _, k in p.figures) or _time_words(p) or named_times(p):
        return False
    benefit = bool(_BENEFITS & set(p.info.tokens))
    if not (benefit or p.figures):
        return False  # (where, who or what it is: "The choir rehearses in the church hall")
    return bool(placed_times(u, recurring=True)) or day_range(u) or (
        benefit and _clock_bound(u))


def _time_words(p: Part) -> frozenset[str]:
    """The claim's words of time, not "time" after another noun ("PC time", "screen
    time": what is sold, not when)."""
    toks, stems = p.info.tokens, p.info.all_stems
    words = p.words & TIMES
    if "time" in words and not any(
            t == "time" and (i == 0 or toks[i - 1] in STOPWORDS or stems[i - 1] in TIMES)
            for i, t in enumerate(toks)):
        words = words - {"time"}
    if "day" in words and not any(t == "day" and (i == 0 or toks[i - 1] not in _KIND_OF_DAY)
                                  for i, t in enumerate(toks)):
        words = words - {"day"}  # "next-day delivery", "same-day service": a kind of it
    return words


_KIND_OF_DAY = frozenset({"next", "same"})


def drops_days(p: Part, u: Part) -> bool:
    """Whether a universal claim ("free delivery on any order over £40") says what the
    unit says on some days of the week only ("..., Monday to Thursday", "on weekdays"):
    the claim names no day and no part of the week, and quantifies something other than
    time."""
    if named_times(p) or WEEKDAYS & set(p.info.tokens) or all(
            h in TIMES for h in p.quantified if h is not None):
        return False  # (a claim quantified over time: `time_bound`'s)
    return day_range(u) or bool(placed_times(u, recurring=True) & WEEK)


TAIL_WORDS = 4  # a sentence's last comma piece this short is an adverbial of it all


def tail_days(p: Part, unit: Part, sentence: Part) -> bool:
    """`drops_days` against a short last piece of the unit's sentence (", Monday to
    Thursday"): the clause it ends (`unit`) is still said on those days without it."""
    head, sep, tail = sentence.text.rstrip(" .").rpartition(",")
    if not sep or len(tail.split()) > TAIL_WORDS or not drops_days(p, part(tail)):
        return False
    # (the last piece is the last clause's with a subject of its own: "..., and the bar
    # is open from 6pm to 11pm, Monday to Saturday" says nothing of the days of the
    # clause before; a relative clause between them is the unit's own: "... for all
    # diners | who arrive after 6pm, Monday to Friday")
    pieces = clause_parts(sentence.text)
    at = next((k for k, c in enumerate(pieces) if unit.text.startswith(c.text)), None)
    return at is not None and all(c.opening is not None for c in pieces[at + 1:-1])


# what follows "only" and limits a statement to a case ("We accept mattresses only if
# they are still sealed", "Fitting is available only on weekdays")
_ONLY_CASE = frozenset({"if", "when", "where", "for", "on", "in", "at", "to", "during",
                        "with", "after", "before", "while", "within", "until", "between",
                        "by", "from", "once"})


def drops_only(p: Part, u: Part, sentence: Part | None = None,
               said: frozenset[str] = frozenset()) -> bool:
    """Whether the unit limits what it says with "only" and a case ("only if they are
    still in their original packaging") and the claim, with no restriction of its own,
    says it without any content word of that case: it says it of every case.
    `sentence`: the unit's sentence, when the unit is a clause of it; `said`: the words
    of the claim's whole sentence (a case it keeps in another clause: "..., as long as
    they are still sealed")."""
    if p.restricted:
        return False
    toks, stems = u.info.tokens, u.info.all_stems
    if sentence is not None and toks and toks[-1] == "only":
        # a clause "We accept mattresses only" whose case is the condition after it
        toks, stems = sentence.info.tokens, sentence.info.all_stems
    for i in range(len(toks) - 1):
        if toks[i] == "only" and toks[i + 1] in _ONLY_CASE:
            # a clause's case runs to its end, a phrase's to the next preposition ("only
            # on Wednesdays | from the station office")
            end = len(toks)
            if toks[i + 1] not in _CASE_CLAUSES:
                end = next((k for k in range(i + 3, len(toks))
                            if toks[k] in _ONLY_CASE or toks[k] in PARTICIPLE_PREPS), end)
            case = {stems[k] for k in range(i + 2, end)
                    if toks[k] not in STOPWORDS and not toks[k][:1].isdigit()}
            if case and not case & (p.words | said) and not case & p.stems:
                return True
    return False


_FOCUS_REACH = 3  # tokens after "only" in which its word is found ("only on Saturdays")


def adds_only(p: Part, u: Unit, only_in_unit: frozenset[str], units: Units) -> bool:
    """Whether the claim says "only" of a word the unit lists together with another the
    claim leaves out ("English only" for "in English and Spanish"; "Only members can
    book" for "Members and guests can book"): the other item is dropped, not just left
    unsaid. Its words: the content words in the _FOCUS_REACH tokens after "only" or, with
    none there, the one before it."""
    toks, stems = p.info.tokens, p.info.all_stems
    if not ONLY & set(toks) or ONLY & set(u.sentence.info.tokens):
        return False
    focus = set()
    for i, t in enumerate(toks):
        if t not in ONLY:
            continue
        after = [stems[k] for k in range(i + 1, min(len(toks), i + 1 + _FOCUS_REACH))
                 if toks[k] not in STOPWORDS]
        before = [stems[k] for k in range(i) if toks[k] not in STOPWORDS][-1:]
        focus.update(after or before)
    return any(units.alternatives.together(w, v, u.row) for w in focus & p.words
               for v in only_in_unit)


_CASE_CLAUSES = frozenset({"if", "when", "where", "while", "once", "until"})
_EXCEPT = frozenset({"except", "excluding"})
_EXCEPT_PAIRS = frozenset({("apart", "from"), ("other", "than"), ("save", "for")})
_EXCEPT_FIRST = frozenset(a for a, _ in _EXCEPT_PAIRS)  # (a claim's own "other" ...: no)
EXCEPTED_WORDS = 4  # the content words after "except" that name what it excepts, at most
_HAS = frozenset({"gets", "get", "gives", "give"})  # (besides the auxiliaries)


def _excepted_from(toks: Sequence[str], i: int) -> int | None:
    """Where the excepted phrase starts when an exception's marker is at `i` ("except
    X": i + 1; "apart from X": i + 2), else None."""
    if toks[i] in _EXCEPT:
        return i + 1
    return i + 2 if tuple(toks[i:i + 2]) in _EXCEPT_PAIRS else None


_SUBJECT_SPAN = 3  # a subject and its bound: "riders under 14"


def _bound_restated(p: Part, u: Part) -> bool:
    """Whether the claim's only restriction is its subject's own bound, word for word the
    unit's ("Riders under 14 must ..." of "Riders under 14 must ..., except ..."): it
    restates whom the unit is about, and limits nothing the unit does not."""
    toks = p.info.tokens
    if any(t in RESTRICTORS or t in PARTIAL for t in toks):
        return False
    head = " ".join(toks[p.info.lead:p.info.lead + _SUBJECT_SPAN])
    return f" {head} " in f" {' '.join(u.info.tokens)} "


def drops_exception(p: Part, u: Part, sentence: Part | None = None,
                    said: frozenset[str] = frozenset()) -> bool:
    """Whether the unit (or, when it is a clause of `sentence`, the clause after it)
    excepts something ("except the Print Room", "apart from Advanced Pointe") and the
    claim, with no restriction of its own, says it without any content word of what is
    excepted: it says it of that too. `said`: the words of the claim's whole sentence."""
    if (p.restricted and not _bound_restated(p, u)) or any(
            t in _EXCEPT_FIRST for t in p.info.tokens):
        return False
    named = {p.info.all_stems[k] for k in p.info.capitals if k}  # (not its first word)
    if {v for v, _ in p.figures} - {v for v, _ in u.figures} or not named <= u.stems:
        return False  # it names one of them ("Route 7 runs on Sundays"): not all
    if sentence is None and len(clause_parts(u.text)) > 1:
        return False  # (whose exception it is: its clauses are units of their own)
    info = u.info
    if sentence is not None:  # a clause: what the clause after it excepts ("..., except X")
        texts = [c.text for c in clause_parts(sentence.text)]
        k = next((i for i, t in enumerate(texts) if t == u.text), len(texts))
        if k + 1 >= len(texts):
            return False
        info = part(texts[k + 1]).info
        if not info.tokens or _excepted_from(info.tokens, 0) is None:
            return False  # ("..., and the gym is open every day except Sunday": the gym's)
    toks, stems = info.tokens, info.all_stems
    others = set(u.info.all_stems if sentence is not None else ())
    for i in range(len(toks)):
        start = _excepted_from(toks, i)
        if start is None:
            continue
        case: list[str] = []  # the excepted phrase: to its verb ("... is open"), if any
        for k in range(start, len(toks)):
            if toks[k] in AUXILIARIES or toks[k] in _HAS or len(case) == EXCEPTED_WORDS:
                break
            if toks[k] not in STOPWORDS:
                case.append(stems[k])
        # (what names it apart from the rest: "12" of "except route 12" beside "routes")
        own = set(case) - others - set(stems[:i])
        if own and not own & (p.words | said | p.stems):
            return True
    return False



_BOUNDS = frozenset({"before", "after", "until", "till", "from"})


def _clock_bound(u: Part) -> bool:
    """Whether the unit bounds what it says by a time of day ("... before 4pm", "after
    6pm"): a benefit said without it is said of the whole day."""
    toks = u.info.tokens
    return any(k == CLOCK for _, k in u.figures) and any(
        toks[i] in _BOUNDS and toks[i + 1][:1].isdigit() for i in range(len(toks) - 1))


# words that open what limits a statement to a case: for whom, within what, when, until,
# where ("free for properties within 15 miles", "welcome until 7pm", "when a safety boat
# is on the water", "where the wall is brick"); a bare figure after one of `_BY_FIGURE`
# is such a case too ("within 15 miles", "over £500"), not after "for" ("for £15": a
# price, "for 2 hours": how long)
_LIMITS = frozenset({"for", "within", "when", "where", "during", "until", "till", "before",
                     "after", "over", "under", "above", "below", "only", "unless", "except",
                     "between", "aged", "who", "whose", "that", "longer", "shorter",
                     "provided"})
# a phrase that says when within what the statement is about ("during their stay"): a
# case only of a claim quantified over time ("at any time")
_SPANNING = frozenset({"during"})
_WHEN_BOUNDS = frozenset({"within", "until", "till", "before", "after"})
_BY_FIGURE = frozenset({"within", "until", "till", "before", "after", "over", "under",
                        "above", "below", "between", "aged", "longer", "shorter"})
# "available to past students", "open to residents": to whom it is given
_GIVEN = frozenset({"available", "open", "offered", "restricted", "limited"})
# a place in time that names part of the week or of the year ("on Open Evenings", "in
# July and August", "on Mondays and Tuesdays")
_WHEN_PLACES = frozenset({"on", "in", "at"})
# part of what it names: "some of our oils", "most rooms", "the first 500 ticket holders"
_SOME = frozenset({"some", "most", "certain", "first", "selected"})
# ("whatever I want", "whichever you like": the speaker's choice, no scope of the unit's)
_UNIVERSAL_CASE = frozenset({"all", "every", "any", "everyone", "everybody", "anyone",
                             "anybody", "each"})
_RATE_UNITS = frozenset(stem(w) for w in ("minute", "hour", "day", "night", "week", "month",
                                          "year"))
_CASE_RUN = 5  # tokens of a limiting phrase read for its case
# a relative clause or a place, without a figure, says which ones only of the word it
# follows: of what the claim quantifies ("Rooms above the third floor", "Residents who
# register ..."), not of another word ("walks that start at the harbour", "platforms
# above the flood line": a description of the walks, the platforms)
_ATTACHED = frozenset({"who", "whose", "that", "over", "under", "above", "below"})
_HEAD_REACH = 2  # tokens before the phrase that may hold what the claim quantifies
# ("parking permits that ...": "parking" is what "all parking permits" quantifies)
# "for a gentle lather", "for an even burn": what for, not for whom; unless it is a time
# ("for a limited time")
_ARTICLES = frozenset({"a", "an"})
KNOWN_SHARE = 0.8  # of a claim's words some context has, the share the unit must state


def limits_case(p: Part, u: Part, known: frozenset[str], said: frozenset[str] = frozenset(),
                sentence: Part | None = None) -> bool:
    """Whether a universal claim ("all our quotes are free", "always free", "whenever
    they like") restates a unit that does not quantify what the claim does, every word
    of the claim that some context has in it (`known`: the contexts' stems; a word no
    context has is the claim's own colour, "of charge", "amateur radio"), and the unit
    limits what it says to a case of which the claim says nothing ("... for properties
    within 15 miles of our yard", "... until 7pm", "... on Open Evenings", "some of our
    oils"): the claim says it of every case. `said`: the words of the claim's whole
    sentence; `sentence`: the unit's, when the unit is a clause of it (whose times
    together may make up the week). A relative clause or a place without a figure
    ("who ...", "that ...", "above the ...") limits it only after what the claim
    quantifies, and "for a ..." only as a time: after another word it describes that
    word ("walks that start at the harbour"), and "for a gentle lather" says what for."""
    toks = set(p.info.tokens)
    if not p.universal or not (_UNIVERSAL_CASE - {"each"}) & toks and not {
            "always", "whenever"} & toks:
        return False  # ("each team can make ...": of each one, no scope)
    if None in p.quantified and p.restricted:
        return False  # "anyone with a long-term condition": a case of its own
    if p.figures and all(h in _RATE_UNITS for h in p.quantified):
        return False  # "2 days each week", "credited every month": a rate
    if any(h in u.quantified for h in p.quantified) or (
            toks & _UNIVERSAL_CASE | toks & {"always"}) & set(u.info.tokens):
        return False  # the unit quantifies it too ("always carry out their own valuation")
    if not _restates_known(p, u, known):
        return False
    if any(h is not None and h in known and h not in u.words and h not in TIMES
           for h in p.quantified):
        return False  # (it quantifies what the unit does not name: `elsewhere`'s)
    times = placed_times(u) | (placed_times(sentence) if sentence else frozenset())
    return _case(p, u, said, whole_week(times))


# money as figures key it ("£45": pound, "$30": dolla, "20 EUR": eur)
MONEY = frozenset({"pound", "dolla", "euro", "eur", "usd", "gbp", "chf", "cad", "aud",
                   "yen", "penc", "cent"})
# what limits a benefit to whom: "free for households in the district", "free within 15
# miles of the yard", "15% off for members"
_WHOM = frozenset({"for", "within", "over", "under", "aged"})


def free_for_some(p: Part, u: Part, known: frozenset[str], priced: bool,
                  said: frozenset[str] = frozenset()) -> bool:
    """Whether a claim that something is free or cheaper, of no case ("Yes, the test kits
    are free"), restates a unit that says so for whom or within what only ("Test kits
    are free for households in the Wyre Valley district") while the contexts price the
    other case (`priced`: another sentence of the unit's passage names a sum, "Elsewhere,
    kits cost £45"): the claim says it of every case, as `limits_case`'s "all" does."""
    if p.universal or not priced or not _BENEFITS & set(p.info.tokens):
        return False
    return _restates_known(p, u, known) and _case(p, u, said, False, _WHOM)


def _restates_known(p: Part, u: Part, known: frozenset[str]) -> bool:
    """Whether the unit states KNOWN_SHARE (and two at least) of the claim's words that
    some context has (`known`): a word no context has is the claim's own colour."""
    mine = p.words & known
    shared = mine & u.words
    return len(shared) >= 2 and len(shared) >= KNOWN_SHARE * len(mine)


def _case(p: Part, u: Part, said: frozenset[str], week: bool,
          only: frozenset[str] | None = None) -> bool:
    """Whether the unit limits what it says by a phrase whose content words (or
    figures) the claim lacks (`limits_case`); `week`: its times make up the week;
    `only`: the words that may open the phrase (all of `_LIMITS` and places in time
    when None)."""
    toks, stems = u.info.tokens, u.info.all_stems
    claim_toks, claim_words = set(p.info.tokens), p.words | said | p.stems
    of_time = all(h in TIMES for h in p.quantified)  # "always", "at any time"
    # (a clock time bounds the hours of a day, not which days: "open every day" for
    # "opens daily from 9am until 5pm"; "at any time", "always" it bounds)
    days = of_time and CLOCK not in p.quantified and "always" not in p.info.tokens
    over_time = bool({"always", "whenever"} & claim_toks)  # (its case is the statement's)
    every = _every_case(p.info.tokens, p.info.all_stems)
    aside = participle_asides(u.info.text, toks)
    for i in range(u.info.lead, len(toks) - 1):
        t = toks[i]
        if t in claim_toks and (t not in every or every[t] & set(stems[i + 1:i + 1 + _CASE_RUN])
                                or _names_everyone(toks, stems, i + 1)):
            continue  # (the claim's "for everyone" does not say the unit's "for residents";
            # "for all babies" does say "for babies on request", and "for everyone" says
            # "for the public", "for people of all ages")
        if i in aside:
            continue  # ("Our lavender, harvested in July, is ...": of all of it, no case)
        after = next((k for k in range(i + 1, len(toks)) if not toks[k][:1].isdigit()),
                     len(toks) - 1)
        if only is None and t in _SOME and stems[after] in claim_words | {"of"} and not (
                i and toks[i - 1] == "the" and t != "first"):
            return True  # "Some of our oils", "the first 500 ticket holders"
        when = t in _WHEN_PLACES and only is None
        if (only is not None and t not in only) or not (
                t in _LIMITS or when or (t == "to" and i and toks[i - 1] in _GIVEN)) or (
                t in _SPANNING and not of_time):
            continue  # ("free breakfast during their stay": when, of every guest)
        j = _phrase_start(toks, i + 1, len(toks))
        if j >= len(toks) or toks[j] in _UNIVERSAL_CASE:
            continue  # "for everyone", "for all guests": no case
        run = range(j, min(len(toks), j + _CASE_RUN))
        if t in _ATTACHED and not toks[j][:1].isdigit() and not over_time and not (
                None in p.quantified or set(p.quantified) & set(
                    stems[max(u.info.lead, i - _HEAD_REACH):i])):
            continue  # ("walks that start at the harbour": which walks, not which guides;
            # "anyone" is any person: "for customers who bring ..." says which)
        if t == "for" and toks[i + 1] in _ARTICLES and not any(
                stems[k] in TIMES or _when(toks[k]) for k in run):
            continue  # ("... for a gentle lather": what for)
        if toks[j][:1].isdigit():
            # (a span of time bounds when, not of what: "refunded within 5 days" says
            # it of every refund; `time_bound` reads it against "always"; "flights
            # longer than 6 hours" are some flights)
            unit = stems[j + 1] if j + 1 < len(toks) else ""
            clock = j + 1 < len(toks) and toks[j + 1] in ("am", "pm")
            if t in _BY_FIGURE and toks[j] not in claim_toks | said and not (
                    unit in TIMES and t in _WHEN_BOUNDS) and not (clock and days):
                return True
            continue
        if when and (week or not any(_when(toks[k]) for k in run)):
            continue  # "on the farm tracks": where, not when; a whole week: no case
        case = {stems[k] for k in run if toks[k] not in STOPWORDS and not toks[k][:1].isdigit()}
        if case - claim_words and len(case - claim_words) * 2 >= len(case):
            return True  # (most of it: "when a safety boat is on the water" of "boats")
    return False


def _phrase_start(toks: Sequence[str], j: int, end: int) -> int:
    """The first word of a limiting phrase from `j` that is no stopword, or a universal
    ("for | local residents", "for | everyone"); `end` when none before it."""
    while j < end and toks[j] in STOPWORDS and toks[j] not in _UNIVERSAL_CASE:
        j += 1
    return j


def _every_case(toks: Sequence[str], stems: Sequence[str]) -> dict[str, frozenset[str]]:
    """The limiting words the claim opens a universal phrase with ("free for everyone",
    "to all members"), each with the content stems of its phrase: its case is every
    case, so the unit's own phrase after the same word ("free for local residents") is
    a case the claim drops, unless it names what the claim's does ("for all babies" /
    "for babies on request")."""
    out: dict[str, frozenset[str]] = {}
    for i, t in enumerate(toks[:-1]):
        if t in _LIMITS:
            j = _phrase_start(toks, i + 1, len(toks) - 1)
            if toks[j] in _UNIVERSAL_CASE:
                out[t] = frozenset(stems[k] for k in range(j + 1, min(len(toks), j + 1 + _CASE_RUN))
                                   if toks[k] not in STOPWORDS)
    return out


# who the unit's phrase names when it names everyone in other words: "the (general)
# public", "members of the public", "people of all ages"
_EVERYONE = frozenset({"public"})
_AGE = stem("age")


def _names_everyone(toks: Sequence[str], stems: Sequence[str], at: int) -> bool:
    """Whether the unit's phrase from `at` names everyone in other words (`_EVERYONE`,
    or "all" / "any" age): the case of a claim's "for everyone", none it drops."""
    run = range(at, min(len(toks), at + _CASE_RUN))
    return any(toks[k] in _EVERYONE or (toks[k] in _UNIVERSAL_CASE and k + 1 < len(toks)
                                        and stems[k + 1] == _AGE) for k in run)


def _when(token: str) -> bool:
    """Whether a token names part of the week, the day or the year, a month too."""
    return token in MONTHS or time_word(token) is not None


def dropped_case(p: Part, near: Sequence[Unit], units: Units,
                 said: frozenset[str] = frozenset(), doc: int | None = None) -> int | None:
    """The context sentence of a unit whose case the claim drops: `hours_widened` for
    hours said of every day that the contexts give for some days (of `doc`'s passage),
    `both_widened` for "both X" said where the contexts say it of one case,
    `limits_case` for a universal claim (unless a unit quantifying what it does states
    all its words a context has), `free_for_some` for a benefit said of no case. None
    when there is none."""
    known = units.stems
    if (row := hours_widened(p, units, doc)) is not None or (row := hours_unplaced(
            p, units, doc, said)) is not None or (
            not said and (row := both_widened(p, units, doc)) is not None):
        return row
    if p.universal:
        if any(set(p.quantified) & set(u.part.quantified) and p.words & known <= u.words
               for u in near):
            return None
        return next((u.row for u in near
                     if limits_case(p, u.part, known, said, u.sentence)), None)
    if not _BENEFITS & set(p.info.tokens):
        return None  # (no benefit: no passage read for a price, on every claim's path)
    return next((u.row for u in near if free_for_some(p, u.part, known, _priced(
        units, u.row) or qualified_for(u.part.info.tokens, _BENEFITS,
                                       units.given | p.words | p.stems | said), said)), None)


def _priced(units: Units, row: int) -> bool:
    """Whether another sentence of the row's passage names a sum ("Elsewhere, kits cost
    £45"): the contexts price a case besides the row's."""
    return any(j != row and any(k in MONEY for _, k in units.sentence(j).part.figures)
               for j in units.ctx.rows(units.ctx.docs[row]))
