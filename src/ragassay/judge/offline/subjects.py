"""What a clause without a subject of its own takes from its sentence: a verb its first
clause's subject ("..., has no device limit"), a prepositional phrase what the first
clause says before its own, a relative clause what it refers to, a gapped clause of a
context sentence the first clause's predicate ("... and £45 an hour on Fridays").
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from .clauses import (
    Part,
    is_negation,
    lemma_stems,
    predicate_words,
    subject_words,
)
from .pieces import AUXILIARIES


def taken(pieces: Sequence[Part], k: int, gapped: bool = False) -> frozenset[str]:
    """What clause k takes from its sentence when it has no subject of its own: a verb
    its first clause's subject ("..., has no device limit"), a prepositional phrase what
    the first clause says before its own ("..., and from 9 am to 1 pm on Saturdays"; so
    does an elliptic negation, "..., but not if it is written off"), a relative clause
    what it refers to ("..., which are caused by viruses"). `gapped` (context sentences):
    a clause of only a figure and what it qualifies takes what the first clause says
    before its own figure ("Rooms cost £30 an hour from Sunday to Thursday | and £45 an
    hour on Friday and Saturday"); a claim's is left alone (its figure would be set
    against another sentence's that way, "A game is £7.50, or £5.50 for under-12s")."""
    p = pieces[k]
    if gapped and k and p.opening is None and _GAPPED.match(p.text) and _gapped(
            p, pieces[k - 1]):
        return predicate_words(pieces[0])  # "[Rooms cost] £45 an hour on Fridays"
    if k and stranded(p):  # "..., but email support is": the first clause's predicate
        return pieces[0].words - subject_words(pieces[0])
    if k and p.opening is None and (when := _when_subject(p, pieces[0])):
        return when  # "The Palm House opens at 10:00 | and closes at 4:30 pm"
    if not k or p.opening is None:
        return frozenset()
    if p.opening == "relative":
        return last_words(pieces[k - 1])
    if p.opening == "preposition" or p.opening == "elliptic":
        return predicate_words(pieces[0])
    if p.opening == "verb":  # "..., and social membership, with no rowing, | is £60"
        subject = None  # (the first of a run: "whereas gliclazide, another medicine, | can")
        for q in reversed(pieces[1:k]):
            if (q.opening is None and len(q.info.tokens) <= _SUBJECT_TOKENS
                    and q.info.tokens[0] in ("and", "but", "while", "whereas")
                    and not any(t in AUXILIARIES or is_negation(t) for t in q.info.tokens)):
                subject = q
            elif q.opening != "preposition":
                break
        # (a figure's clause right after another clause with a subject and a figure of
        # its own takes that one's: "A costs £10 and includes 5 users; B costs £25 | and
        # includes 20 users" says B includes 20)
        q = pieces[k - 1]
        own = q if k > 1 and q.opening is None and q.figures and p.figures else pieces[0]
        return subject_words(subject or own)
    return subject_words(pieces[0])


# what follows a verb of when ("opens at 10:00 and closes at 4:30 pm")
_WHEN_STARTS = frozenset({"at", "until", "till", "from", "on", "by", "after", "before"})
_WHEN_NOUNS_TEXT = """weekends weekdays holidays mornings evenings afternoons nights mondays
    tuesdays wednesdays thursdays fridays saturdays sundays"""
_WHEN_NOUNS = frozenset(_WHEN_NOUNS_TEXT.split())


def _when_verb(toks: Sequence[str], start: int) -> int | None:
    """The position of the first verb of when from `start` ("opens at", "closes at"): a
    word in "-s" (no "-ss", no "weekends") before "at", "until", "from" ..."""
    return next((i for i in range(start, len(toks) - 1) if toks[i].endswith("s")
                 and not toks[i].endswith("ss") and toks[i] not in _WHEN_NOUNS
                 and toks[i + 1] in _WHEN_STARTS), None)


def _when_subject(p: Part, first: Part) -> frozenset[str]:
    """A clause of a conjunction and a verb of when with no auxiliary after it ("and closes
    at 4:30 pm"; not "and dogs on leads are allowed") after a first clause with a verb of
    when of its own ("The Palm House opens at 10:00"): the first clause's words before
    its verb, the subject both share (`subject_words` reads on to an auxiliary, "opens"
    too); else none."""
    toks = p.info.tokens
    if not toks or toks[0] not in _JOINING or _when_verb(toks, 1) != 1 or any(
            t in AUXILIARIES for t in toks[2:]):
        return frozenset()
    info = first.info
    at = _when_verb(info.tokens, info.lead + 1)
    if at is None:
        return frozenset()
    before = lemma_stems(info.tokens, info.all_stems)[info.lead:at] + info.all_stems[info.lead:at]
    return subject_words(first) & frozenset(before)


_JOINING = frozenset({"and", "but", "while", "whereas"})


_STRANDED = frozenset({"but", "while", "whereas", "though", "although"})
_STRANDED_TOKENS = 5  # "but email support is", "while the Plus plan does"


def stranded(p: Part) -> bool:
    """A contrasting clause whose verb phrase is left out, its auxiliary last ("Phone
    support is not included, | but email support is"): it says the first clause's
    predicate of its own subject, the first clause's negation undone."""
    toks = p.info.tokens
    return (2 < len(toks) <= _STRANDED_TOKENS and toks[0] in _STRANDED
            and toks[-1] in AUXILIARIES and not any(is_negation(t) for t in toks))


def _gapped(p: Part, before: Part) -> bool:
    """Whether a clause opened by a figure is a gapped one: it counts something (no date)
    and says more than what it counts (not "and 2% after that"), and the clause before
    ends no range ("between 2 | and 8 degrees", "on 6 | and 7 March")."""
    toks = before.info.tokens
    return (bool(p.figures) and all(k is not None and k[0] != "@" for _, k in p.figures)
            and bool(p.words - {k for _, k in p.figures}) and "between" not in toks
            and not (toks and toks[-1][:1].isdigit()))


_SUBJECT_TOKENS = 5  # a verbless piece this short before a verb's clause is its subject
_GAPPED = re.compile(r"^\W*(?:(?:and|or|but|while)\s+)+\d")


def last_words(p: Part, n: int = 2) -> frozenset[str]:
    """The clause's last `n` content stems: what a relative clause after it is about
    ("... colds or flu, which are caused by viruses")."""
    stems = [s for s in lemma_stems(p.info.tokens, p.info.all_stems) if s in p.words]
    return frozenset(stems[-n:])
