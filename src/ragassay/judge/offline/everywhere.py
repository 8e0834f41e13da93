"""A place said of everywhere (alignment._conflicts, beside frequency.always_hedged): a
claim that says something holds "nationwide", "anywhere", "everywhere", "worldwide" or
"across the country" against a unit that restates it of a place it names ("Next-day
delivery is available for postcodes inside the ring road", "Bins are collected in the
north and east wards"): the unit says it of that place, the claim of every place. A
unit that says it everywhere too ("worldwide", "wherever"), or a claim that names the
unit's place itself ("anywhere in the UK" for "in the UK"), widens nothing.
"""

from __future__ import annotations

from .clauses import UNIVERSAL, Part, part
from .frequency import always_hedged
from .lexical import STOPWORDS
from .units import Unit
from .whole_place import place_quantified

_EVERYWHERE = frozenset({"nationwide", "countrywide", "worldwide", "everywhere", "anywhere",
                         "wherever", "globally", "internationally"})
# "across the country", "throughout the city", "all over the region": the whole of a place
_ACROSS = frozenset({"across", "throughout"})
_WHOLE = frozenset({"country", "city", "nation", "region", "county", "state", "world",
                    "borough", "town", "area", "district"})
_PLACING = frozenset({"in", "inside", "within", "to", "across", "throughout", "around"})
# objects of "in" or "to" that name no place ("in advance", "in person", "to you")
_NO_PLACE = frozenset({"advance", "person", "writing", "full", "total", "addition", "cash",
                       "store", "branch", "order", "time", "general", "case", "you", "us",
                       "them", "me"})


def _everywhere(toks: tuple[str, ...]) -> bool:
    return bool(_EVERYWHERE & set(toks)) or any(
        t in _ACROSS and toks[i + 1:i + 2] == ("the",) and toks[i + 2:i + 3]
        and toks[i + 2] in _WHOLE for i, t in enumerate(toks))


def _places(x: Part) -> frozenset[str]:
    """The content stems the text places what it says on, each the first after a place
    word and its determiners ("inside the ring road": ring; "in the north and east
    wards": north); none after a universal ("to any address") or of the whole of a
    place ("across the city")."""
    toks, stems = x.info.tokens, x.info.all_stems
    out = set()
    for i, t in enumerate(toks[:-1]):
        if t not in _PLACING or toks[i + 1] in UNIVERSAL:
            continue  # ("to any address in the county": everywhere in it)
        j = i + 1
        while j < len(toks) and toks[j] in STOPWORDS and toks[j] not in _NO_PLACE:
            j += 1
        if (j < len(toks) and toks[j] not in _NO_PLACE | _WHOLE and not toks[j][:1].isdigit()
                and stems[j] in x.words):
            out.add(stems[j])
    return frozenset(out)


def place_widened(p: Part, u: Part) -> bool:
    """Whether the claim says "everywhere" of what the unit, sharing at least half its
    content words, says of a place it names, saying nowhere "everywhere" itself."""
    if _everywhere(u.info.tokens):
        return False
    if not _everywhere(p.info.tokens):  # ("in every carriage")
        return place_quantified(p, u, _places(u))
    return (2 * len(p.words & u.words) >= len(p.words) and bool(_places(u) - p.words)
            and not _bounded(p) & u.words)  # ("anywhere in the county": the unit's place)


def _bounded(p: Part) -> frozenset[str]:
    """The places the claim's own "anywhere" or "everywhere" is bounded to, the word
    after it a place word ("anywhere in the county": county)."""
    toks = p.info.tokens
    return frozenset(s for i, t in enumerate(toks[:-1]) if t in _EVERYWHERE
                     and toks[i + 1] in _PLACING for s in _places(part(" ".join(toks[i + 1:]))))


def said_wider(p: Part, u: Unit) -> bool:
    """Whether the claim says more often (frequency.always_hedged) or in more places
    (`place_widened`) what the unit restates of fewer."""
    return always_hedged(p, u) or place_widened(p, u.part) or (
        u.clause and place_widened(p, u.sentence) and not _everywhere(u.sentence.info.tokens))
