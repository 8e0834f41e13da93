"""A restriction of the context that a claim drops (alignment.py): what the context
says only at some times, on some days or in one case, said without it.

- `drops_time`: a benefit or a figure said without the recurring time or the time of
  day the unit gives it ("Under-12s skate for free" for "... on Tuesday afternoons";
  "20% off" for "... before 4pm");
- `drops_days` / `tail_days`: a universal claim said of something on every day that the
  unit says on some days ("any order over £40" for "..., Monday to Thursday");
- `drops_only`: "only if"/"only on" and its case, dropped ("We accept mattresses" for
  "We accept mattresses only if they are still sealed").
"""

from __future__ import annotations

from .clauses import Part, clause_parts, part
from .lexical import STOPWORDS
from .scope import PARTICIPLE_PREPS, TIMES, WEEK, WEEKDAYS, named_times, placed_times

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
    return bool(placed_times(u, recurring=True)) or _day_range(u) or (
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
    return _day_range(u) or bool(placed_times(u, recurring=True) & WEEK)


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


_CASE_CLAUSES = frozenset({"if", "when", "where", "while", "once", "until"})



def _day_range(u: Part) -> bool:
    """Whether the unit names a range of days of the week ("Monday to Thursday",
    "Mon-Fri" written out): a recurring part of the week, with or without "on"."""
    toks = u.info.tokens
    return any(toks[i] in WEEKDAYS and toks[i + 1] in {"to", "through", "until", "till"}
               and toks[i + 2] in WEEKDAYS for i in range(len(toks) - 2))


_BOUNDS = frozenset({"before", "after", "until", "till", "from"})


def _clock_bound(u: Part) -> bool:
    """Whether the unit bounds what it says by a time of day ("... before 4pm", "after
    6pm"): a benefit said without it is said of the whole day."""
    toks = u.info.tokens
    return any(k == "time" for _, k in u.figures) and any(
        toks[i] in _BOUNDS and toks[i + 1][:1].isdigit() for i in range(len(toks) - 1))
