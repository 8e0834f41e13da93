"""What the contexts cover, restated in other words beside a decline.

A decline often goes on to say what the sources do cover, in the answer's own words:
the business's offer as a range ("Our hire range covers bouncy castles, soft play and
slides" for "We hire bouncy castles, soft play and slides"), or the sources as reported
("the documents only say X"). Such a restatement is read as a summary of the contexts,
leniently: it is no claim when every content word after its frame is one the contexts
state (by stem), each figure one of theirs with what it counts, with no negation; a word
no context has ("Our range covers adult and pet costumes") keeps it a claim to score.
"""

from __future__ import annotations

import re

from .counts import figures
from .declines import APOSTROPHE as _A
from .lexical import FILLER, NEGATIONS, STOPWORDS, TermPool, canon_number, stem
from .normalise import norm_tokens

_LEAD = r"^\W*(?:(?:but|and|so|though|however|otherwise|apart from that)\W+)*"
# the business's offer as a whole, by a noun for it: "Our hire range covers",
# "The menu includes", "our services take in"
_OFFER = re.compile(
    rf"{_LEAD}(?:our|the|my)\s+(?:[\w{_A[1:-1]}-]+\s+){{0,2}}?(?:range|ranges|selection|"
    r"stock|collection|catalogue|catalog|menu|services?|offer|offers|offering|offerings|"
    r"products?|line-?up|fleet|packages?|options|portfolio|repertoire)\s+(?:(?:also|only|"
    r"mainly|mostly)\s+)?(?:covers?|includes?|spans?|features?|consists? of|comprises?|"
    r"(?:is|are) made up of|takes? in|extends? to|runs? to)\b",
    re.IGNORECASE)
# the sources as reported, with a limit: "the documents only say", "the information I
# have just states that"
_REPORTED = re.compile(
    rf"{_LEAD}(?:the|these|those|my|our|all the)\s+(?:[\w-]+\s+){{0,2}}?(?:documents?|"
    r"docs|documentation|contexts?|texts?|passages?|sources?|excerpts?|snippets?|extracts?|"
    r"materials?|articles?|information|info|details|notes|leaflets?)"
    r"(?:\s+(?:i|we) (?:have|had|was given|were given|can see))?\s+(?:only|just)\s+"
    r"(?:says?|states?|tells? (?:me|us)|shows?|notes?|gives?)(?:\s+that)?\b",
    re.IGNORECASE)
# words of listing, not of what is listed ("occasions like Halloween", "such as")
_LISTING = frozenset({"including", "includes", "include", "example", "e.g", "etc",
                      "various"})


def frame_end(clause: str) -> int:
    """Where a coverage frame opening the clause ends ("Our hire range covers|", "the
    documents only say|"), 0 when it opens with none."""
    m = _OFFER.search(clause) or _REPORTED.search(clause)
    return m.end() if m else 0


def restates(text: str, pool: TermPool) -> bool:
    """Whether a text (what follows a coverage frame, or an item going on with it) is a
    lenient summary of the contexts (`pool`): each content word one whose stem they
    hold, each figure one of theirs with the word it counts ("12 books", not "3 books"
    where they have "3 weeks"), and no negation."""
    toks = norm_tokens(text)
    for t in toks:
        w = re.split(_A, t)[0]
        if t in NEGATIONS or w in NEGATIONS or t.endswith(("n't", "n\u2019t")):
            return False
        if (w in STOPWORDS or w in FILLER or t in _LISTING or not any(c.isalpha() for c in t)
                or any(c.isdigit() for c in t)):
            continue
        if stem(t) not in pool.stems:
            return False
    said = figures(toks, [stem(canon_number(t)) for t in toks])
    return all(f in pool.figures for f in said)
