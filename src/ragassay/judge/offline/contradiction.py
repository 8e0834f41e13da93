"""Precise signs that a sentence contradicts the context sentence it restates.

Two detectors, applied as a rule rather than fitted (they are rare in the dev sets,
and where they fire the sentence says the opposite of its evidence: on the dev sets
64 of the 68 answers they fire on are labelled unfaithful, scripts/devsets/rules.py):
- a polarity flip: a restatement with a negation added or removed, or a word replaced
  by its antonym ("was not opened", "rejected" for "approved"), but not both ("does not
  open" = "is closed"). In a sentence of several clauses (a parenthesis, a semicolon, a
  dash) one clause must also be such a restatement by itself: "Monthly plans are not
  refundable (only annual plans can be refunded within 30 days)" restates "Annual plans
  can be refunded within 30 days" in its aside and negates another fact in its main clause;
- a role swap: two names in reversed roles around the same relation ("Langevin
  supervised Curie" for "Curie supervised Langevin"; the passive voice is no swap).
"""

from __future__ import annotations

import re
from typing import TYPE_CHECKING

from .lexical import NEGATIONS, STOPWORDS, antonym_stems
from .sentences import SentenceInfo, sentence_info

if TYPE_CHECKING:
    from .sentences import ContextIndex


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
NEGATION_FLIP_COVERAGE = 0.8  # share of content words the best sentence must share


NEGATION_SCOPE = 3  # tokens after a negation word that it negates


def _is_negation(token: str) -> bool:
    return token in NEGATIONS or token.endswith(("n't", "n’t"))


def _content(s: SentenceInfo) -> list[str]:
    """Content stems without the negation words and the opener: "not" is the flip, not a
    word the restatement must share ("The drug was not approved" restates "The drug was
    approved by the FDA in 2019"), and "Not really, ..." answers the question."""
    return [
        x
        for t, x in list(zip(s.tokens, s.all_stems, strict=True))[s.lead :]
        if t not in STOPWORDS and not _is_negation(t)
    ]


# "failed" after a determiner names a thing ("retries a failed delivery"), negating
# nothing of the sentence's claim; "the delivery failed" still negates.
_ATTRIBUTIVE = frozenset({"failed", "failing"})
_DETERMINERS = frozenset({
    "a", "an", "the", "any", "each", "every", "this", "that", "these", "those",
    "its", "their", "your", "our", "his", "her", "my",
})


def _negates(toks: tuple[str, ...], i: int) -> bool:
    """Whether the i-th token is a negation of the claim (not "a failed delivery")."""
    if toks[i] in _ATTRIBUTIVE and i > 0 and toks[i - 1] in _DETERMINERS:
        return False
    return _is_negation(toks[i])


def _negated_on(s: SentenceInfo, shared: set[str]) -> bool:
    """Whether a negation word of the sentence bears on a shared content word (one of
    the NEGATION_SCOPE tokens after it: "was not opened", "doesn't plan to"); a leading
    "No, ..." answers the question and negates nothing of the claim."""
    toks, st = s.tokens, s.all_stems
    return any(
        _negates(toks, i)
        and any(x in shared for x in st[i + 1 : i + 1 + NEGATION_SCOPE])
        for i in range(s.lead, len(toks))
    )


def polarity_flip(s: SentenceInfo, c: SentenceInfo, *, clause: bool = False) -> str | None:
    """The sentence restates a context sentence with the opposite meaning: "The bridge
    was not opened in 1932" or "The council rejected the budget" against "The bridge
    was opened in 1932" / "The council approved the budget". It restates it when
    NEGATION_FLIP_COVERAGE of its content words are there (an antonym counts as there)
    and it covers at least half of the context sentence's; the meaning is opposite when
    a negation bears on a shared word in exactly one of them, or a word was replaced by
    its antonym, but not both ("does not open" = "is closed"). A `clause` of a longer
    sentence need not cover half of the context sentence (the other clauses may cover the
    rest). Returns "negation", "antonym" or None."""
    s_content, c_content = _content(s), _content(c)
    if not s_content or not c_content:
        return None
    swapped = {
        x
        for t, x in zip(s.tokens, s.all_stems, strict=True)
        if x not in c.stem_set and t.isalpha() and antonym_stems(t) & c.stem_set
    }
    shared = {x for x in s_content if x in c.stem_set} | swapped
    if sum(1 for x in s_content if x in shared) / len(s_content) < NEGATION_FLIP_COVERAGE:
        return None
    c_shared = {x for x in c_content if x in s.stem_set} | {
        a for x in swapped for a in c.stem_set if a in _antonyms_of_stem(s, x)
    }
    if not clause and len(c_shared) / len(set(c_content)) < 0.5:
        return None
    antonym = len(swapped) % 2 == 1
    if not antonym and not s.negated and not c.negated:
        return None  # no negation on either side, nothing replaced by its antonym
    negation = _negated_on(s, shared) != _negated_on(c, shared | c_shared)
    if negation == antonym:
        return None
    return "negation" if negation else "antonym"


def _antonyms_of_stem(s: SentenceInfo, x: str) -> set[str]:
    return {
        a for t, st in zip(s.tokens, s.all_stems, strict=True) if st == x for a in antonym_stems(t)
    }


# Where a sentence's clauses part: brackets, a semicolon, a dash set off by spaces.
_CLAUSE_BREAK = re.compile(r"[()\[\];]|\s[-\u2013\u2014]\s|\u2014")
MIN_CLAUSE_TOKENS = 3  # a shorter piece ("(2019)", "- see below") is no clause of its own


def clauses(s: SentenceInfo) -> list[SentenceInfo]:
    """The sentence's clauses, or the sentence itself when it has only one."""
    parts = [p for p in _CLAUSE_BREAK.split(s.text) if len(p.split()) >= MIN_CLAUSE_TOKENS]
    return [sentence_info(p.strip()) for p in parts] if len(parts) > 1 else [s]


def contradiction(s: SentenceInfo, ctx: ContextIndex, top: list[int]) -> str | None:
    """A precise sign that the sentence contradicts its best-matching context sentences:
    "role swap", "negation" or "antonym" (see the module docstring); None otherwise."""
    for j in top:
        if role_swap(s, ctx.infos[j]):
            return "role swap"
    best = ctx.infos[top[0]]
    flip = polarity_flip(s, best)
    if flip is None:
        return None
    parts = clauses(s)
    if len(parts) == 1 or any(polarity_flip(p, best, clause=True) for p in parts):
        return flip
    return None
