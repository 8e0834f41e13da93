"""A part of a kind said otherwise (alignment._conflicts): a claim that says something of
all of a kind ("every swimmer", "all our canoes and kayaks") or of a bare plural read as
all of it ("Apprentices earn the full wage"), against a sentence that says it of a part
only ("Apprentices over 21 ...", "... for season ticket holders") while another
sentence of the same document names another part, a modifier the claim lacks before the
kind ("Younger apprentices", "Other swimmers", "Guided kayaks"), and does not say the
claim's predicate of it: the contexts split the kind, so the claim widens what they say.
"""

from __future__ import annotations

from dataclasses import replace

from .clauses import POST_MODIFIERS, Part, lemma_stems
from .scope import TIMES, narrowed
from .units import Unit, Units

_DETERMINERS = frozenset({"the", "a", "an", "our", "your", "their", "its", "this", "these",
                          "those", "all", "any", "each", "every", "both", "some"})
_JOINS = frozenset({"and", "or"})
_PREDICATE = 2  # content words the claim and the unit share beside the kind, at least


def _kinds(p: Part) -> set[str]:
    """What the claim says something of all of: the words it quantifies (not times), the
    words joined to one of them ("courses and flights"), or its subject when it is a bare
    word at its start ("Apprentices earn ...")."""
    heads = {h for h in p.quantified if h is not None and h not in TIMES}
    toks = p.info.tokens
    stems = lemma_stems(toks, p.info.all_stems)
    for i in range(1, len(toks) - 1):
        if toks[i] not in _JOINS:
            continue
        j = i + 1
        while j < len(toks) - 1 and toks[j] in _DETERMINERS:
            j += 1
        if stems[i - 1] in heads and stems[j] in p.words:
            heads.add(stems[j])
    lead = p.info.lead
    if not p.universal and p.first is not None and lead < len(toks) and (
            stems[lead] == p.first and toks[lead].endswith(("s", "ren"))):
        heads.add(p.first)  # a bare plural: the kind in general
    return heads


def _other_part(x: str, s: Part, claim_toks: set[str]) -> bool:
    """Whether the sentence opens on `x` named with a modifier the claim lacks, after
    determiners at most ("Younger apprentices ...", "Other swimmers ...")."""
    toks = s.info.tokens
    stems = lemma_stems(toks, s.info.all_stems)
    i = s.info.lead
    while i < len(toks) - 1 and toks[i] in _DETERMINERS:
        i += 1
    return (i + 1 < len(toks) and stems[i + 1] == x and toks[i].isalpha()
            and toks[i] not in claim_toks)


def _says_part(p: Part, u: Unit, x: str, whole: frozenset[str]) -> bool:
    """Whether the claim says the word that names the unit's part of `x`: the content
    word before it ("Guided kayaks") or the first content word of a post-modifier
    after it ("Dogs on a lead", "Children under five"), anywhere in the claim ("Dogs
    are welcome ... as long as they are on a lead")."""
    toks = u.part.info.tokens
    stems = lemma_stems(toks, u.part.info.all_stems)
    mine = p.words | whole | set(p.info.tokens)  # (`whole`: the claim sentence's words)
    for i in range(u.part.info.lead, len(toks)):
        if stems[i] != x:
            continue
        if i > u.part.info.lead and stems[i - 1] in u.words and stems[i - 1] in mine:
            return True
        if i + 1 < len(toks) and toks[i + 1] in POST_MODIFIERS | {"on", "in", "at"}:
            said = [k for k in range(i + 2, min(i + 5, len(toks)))
                    if stems[k] in u.words or toks[k][:1].isdigit()]
            if said and (stems[said[0]] in mine or toks[said[0]] in mine):
                return True
    return False


def part_otherwise(p: Part, u: Unit, units: Units, whole: frozenset[str] = frozenset()
                   ) -> bool:
    """Whether the unit says the claim's predicate of a part of a kind the claim speaks
    of all of (it lacks the kind's word, or narrows it) and another sentence of its
    document names another part of that kind without that predicate (module doc); not
    a sentence the claim takes words of its own from ("Books stay on loan for 21 days
    before a fine is charged" of "Library books are kept on loan for 21 days. Overdue
    books are then charged a fine")."""
    said = (p.words & u.words)
    claim_toks = set(p.info.tokens)
    docs, infos = units.ctx.docs, units.ctx.infos
    for x in _kinds(p):
        if x in u.words and not narrowed(replace(p, quantified=(x,)), u.part):
            continue  # the unit says it of the whole kind
        if _says_part(p, u, x, whole):
            continue  # the claim names the unit's part ("Children younger than five")
        pred = said - _kinds(p) - {x}
        if len(pred) < _PREDICATE:
            continue  # (too little said to tell the predicate)
        for j in units.by_stem.get(x, ()):
            if j == u.row or docs[j] != docs[u.row] or infos[j].asks:
                continue
            s = units.sentence(j).part
            if (p.words - u.words - {x}) & s.words:
                continue  # the claim says what this sentence says too: it joins the two
            if not pred <= s.words and _other_part(x, s, claim_toks):
                return True
    return False
