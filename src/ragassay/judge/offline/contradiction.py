"""A role swap: two names of a sentence in reversed roles around the same relation
("Langevin supervised Curie" for "Curie supervised Langevin"; the passive voice is no
swap), or two common-noun parties so (parties.py). One of the conflicts claim-level
alignment checks (alignment.py).
"""

from __future__ import annotations

from .lexical import STOPWORDS
from .parties import parties_swapped
from .sentences import SentenceInfo


def _entities(s: SentenceInfo, known: frozenset[str] | None) -> list[tuple[int, int, str]]:
    """(start, end, key) of runs of capitalised tokens; key = stem of the run's last
    token. With `known`, a run counts only when its key is a name of the evidence (so a
    capitalised sentence opener like "The" never does)."""
    out: list[tuple[int, int, str]] = []
    caps = s.capitals
    i = 0
    while i < len(caps):
        j = i
        while j + 1 < len(caps) and caps[j + 1] == caps[j] + 1:
            j += 1
        key = s.all_stems[caps[j]]
        if known is None or key in known:
            out.append((caps[i], caps[j], key))
        i = j + 1
    return out


def _relation(s: SentenceInfo, lo: int, hi: int) -> tuple[frozenset[str], bool]:
    """Content stems strictly between two token positions, and whether "by" is there."""
    toks = s.tokens[lo + 1 : hi]
    rel = frozenset(
        st for t, st in zip(toks, s.all_stems[lo + 1 : hi], strict=True) if t not in STOPWORDS
    )
    return rel, "by" in toks


def role_swap(s: SentenceInfo, c: SentenceInfo) -> bool:
    """Two names of the sentence in reversed roles (`_named_swap`), or two common-noun
    parties (parties.parties_swapped: "The tenant pays the landlord")."""
    return _named_swap(s, c) or parties_swapped(s, c)


def _named_swap(s: SentenceInfo, c: SentenceInfo) -> bool:
    """Two names of the sentence appear in the context sentence in the reverse order,
    the same short relation between them and the same voice ("Langevin supervised Curie"
    vs "Curie supervised Langevin"; "Langevin was supervised by Curie" is no swap). Each
    name must occur once in each sentence, and the relation (the content words between
    the names, at most MAX_RELATION of them) must be the context's."""
    c_ents = _entities(c, None)
    if len(c_ents) < 2:
        return False
    keys = [k for _, _, k in c_ents]
    pos = {k: (a, b) for a, b, k in c_ents if keys.count(k) == 1}
    a_ents = _entities(s, frozenset(pos))
    a_keys = [k for _, _, k in a_ents]
    a_ents = [e for e in a_ents if a_keys.count(e[2]) == 1]
    for x in range(len(a_ents)):
        for y in range(x + 1, len(a_ents)):
            (_, ax_end, kx), (ay_start, _, ky) = a_ents[x], a_ents[y]
            (cx_start, _), (cy_start, cy_end) = pos[kx], pos[ky]
            if cy_start >= cx_start:
                continue  # same order
            rel_a, by_a = _relation(s, ax_end, ay_start)
            rel_c, by_c = _relation(c, cy_end, cx_start)
            if rel_a and rel_a == rel_c and len(rel_c) <= MAX_RELATION and by_a == by_c:
                return True
    return False


MAX_RELATION = 3
