"""The word a figure is given to: the content word right before it, a preposition or a
hedge between them skipped ("admitted 412", "discharged at 5pm", "reduced by a third",
"rose about 4%"). A sentence that gives two figures to two such words ("We admitted 412
hedgehogs and released 268"; "Doors open at 7 and the show starts at 8") ties each value
to its own event.

A claim that gives one of those values to the word the sentence gives the other value
("The centre released 412 hedgehogs") has moved the figure from its event to another: a
number change. Read only where no context sentence gives the claim's value to the
claim's word, the claim does not give the value to the sentence's own word for it as
well, and the claim's sentence does not state the other value (it may say both); the
sentence says the claim's word once ("The museum opens at 10am and the café opens an
hour later": which opening the 10am is, its subject says, not the verb). The
word must be a content word that is not what a figure counts ("2 adults 3 children":
"adults" counts the 2, it is no event of the 3) nor a rate ("per", "each").
"""

from __future__ import annotations

from .clauses import Part
from .counts import is_number
from .sentences import SentenceInfo
from .units import Units

# what may stand between a figure and the word it is given to
_SKIP = frozenset({"at", "by", "up", "to", "about", "around", "roughly", "nearly", "almost",
                   "approximately", "some", "only", "just", "in", "out", "back", "off"})
_RATES = frozenset({"per", "each", "every", "a", "an"})
_REACH = 2  # tokens skipped at most


def _value(s: str) -> float | None:
    try:
        return float(s) if is_number(s) else None
    except ValueError:
        return None


def anchors(toks: tuple[str, ...], stems: list[str],
            content: frozenset[str]) -> list[tuple[float, str]]:
    """(value, the word it is given to) for each figure of a sentence that has one."""
    counted = {stems[i + 1] for i in range(len(stems) - 1) if _value(stems[i]) is not None}
    out = []
    for i, s in enumerate(stems):
        n = _value(s)
        if n is None or not is_number(toks[i]):
            continue
        k = i - 1
        while k >= 0 and i - k <= _REACH and toks[k] in _SKIP:
            k -= 1
        if k < 0 or i - k > _REACH + 1:
            continue
        w = stems[k]
        if (w in content and _value(w) is None and w not in counted and w not in _RATES
                and toks[k] not in _RATES):
            out.append((n, w))
    return out


def _of(info: SentenceInfo) -> list[tuple[float, str]]:
    return anchors(info.tokens, info.all_stems, frozenset(info.stems))


def verb_swapped(p: Part, units: Units, rows: list[int],
                 said: set[tuple[float, str | None]]) -> int | None:
    """The context sentence that gives the claim's figure to one word and another value
    to the word the claim gives it to (module docstring), or None."""
    claimed = _of(p.info)
    if not claimed:
        return None
    infos = units.ctx.infos
    every = {a for j in range(len(infos)) for a in _of(infos[j])}
    values = {m for m, _ in said} | set(p.info.values)
    for n, word in claimed:
        if (n, word) in every:
            continue
        for j in rows:
            info = infos[j]
            if info.asks:
                continue
            given = _of(info)
            own = {w for m, w in given if m == n}
            others = {m for m, w in given if w == word and m != n}
            if own and word not in own and others and not others & values and not any(
                    (n, w) in claimed for w in own) and info.all_stems.count(word) == 1 and (
                    not own & set(p.info.all_stems)):  # ("Children pay £5": its own word)
                return j
    return None
