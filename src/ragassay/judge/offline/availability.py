"""Whether something is open or closed, available or not, said of the same thing and slot
with the opposite stance (issue #38): "Yes, we're open on Tuesdays" where the passage
says "We're open ... Wednesday to Sunday and closed Mondays and Tuesdays"; "we don't
offer a same-day service" against "Express same-day service is available ..."; "older
issues are still in print" against "Issues older than a year are out of print".

Alignment finds no conflict there: the sentence or clause the claim restates best (the
"open" clause, with the claim's hours) agrees, and the piece that says the opposite
shares only the slot (the day) with it. Read from a context sentence cut at its commas,
semicolons and contrast words ("but", "only", "except"), and at "and"/"or" before a
stance word: one piece with a stance (`stance`), the other way from the claim's, its own
subject (the words before its stance) all the claim's but one, and either
- a slot: a claim word past its subject that the piece states and no piece with the
  claim's stance states ("Tuesdays" in "closed Mondays and Tuesdays"), every other claim
  word the piece's sentence's; or
- the subject: the piece states the claim's whole subject and at most one word the claim
  lacks, no time word ("Issues older than a year are out of print"), and no piece with
  the claim's stance states that subject; where the claim says more past its subject
  (I049: "Guitar amplifiers are provided in the live room, along with a drum kit"
  against "Guitar amplifiers are not provided"), the piece must say nothing the claim
  lacks and take its stance by the same word.
Not for a claim with a condition, an exception or a bound of its own ("except Sundays",
"only in store", "after 10am"), and not for phrasal uses of "on"/"off" ("log on", "turn
it off"): those are stances only as "on/off by default". One of the conflicts claim-level
alignment checks (alignment.py).
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from functools import lru_cache

from .clauses import Part, is_negation, lemma_stems, part
from .lexical import stem
from .pieces import AUXILIARIES
from .units import Unit

OPEN, CLOSED = "open", "closed"
# one-word stances, each keyed to the word family the other side must share for a flat
# denial of a subject ("not provided" / "provided")
_OPEN_WORDS = {"open": "open", "available": "available", "offer": "offer", "offers": "offer",
               "offered": "offer", "provide": "provide", "provides": "provide",
               "provided": "provide"}
_CLOSED_WORDS = {"closed": "open", "shut": "open", "unavailable": "available"}
# two- and three-token stances: "in stock" / "out of stock", "on by default"
_PHRASES = {("in", "stock"): (OPEN, "stock"), ("out", "of", "stock"): (CLOSED, "stock"),
            ("in", "print"): (OPEN, "print"), ("out", "of", "print"): (CLOSED, "print"),
            ("on", "sale"): (OPEN, "sale"), ("sold", "out"): (CLOSED, "sale"),
            ("on", "by", "default"): (OPEN, "default"),
            ("off", "by", "default"): (CLOSED, "default"),
            ("enabled", "by", "default"): (OPEN, "default"),
            ("disabled", "by", "default"): (CLOSED, "default")}
# "open" and "closed" as a state only after these ("we're open", "and closed Mondays") or
# opening a piece: not "you can open an account", "wear closed shoes"
_STATE_BEFORE = frozenset({"is", "are", "was", "were", "be", "been", "being", "we're", "we’re",
                           "it's", "it’s", "they're", "they’re", "and", "or", "remain",
                           "remains", "stay", "stays", "still", "now", "currently",
                           "temporarily", "also", "fully"})
_STATE_WORDS = frozenset({"open", "closed", "shut"})
_BEFORE = 3  # tokens before an open word a negation of it stands within ("is not offered")
# where a sentence is cut into pieces of one stance each
_CUT = re.compile(r"\s*[,;:()–—]\s*|\s+(?:but|only|except|whereas|while|although|though|"
                  r"unless|so)\s+", re.IGNORECASE)
_JOIN = re.compile(r"\s+(?:and|or)\s+", re.IGNORECASE)
# a claim qualified by its own words says less than the flat stance
_QUALIFIED = frozenset({"except", "excluding", "unless", "only", "if", "apart", "other", "but",
                        "without", "instead", "rather", "until", "once", "when", "while",
                        "after", "before", "even", "limited"})
# words of an answer's manner, no part of what it says
_MANNER = frozenset(stem(w) for w in ("yes", "sorry", "unfortunately", "still", "also",
                                      "currently", "afraid", "indeed", "now", "yet"))


def stance(toks: Sequence[str]) -> tuple[str, str, int] | None:
    """OPEN or CLOSED, its word family and where it starts, when the tokens state one
    stance (a negation within _BEFORE tokens before an open word closes it); None when
    they state none, or two."""
    found: set[tuple[str, str]] = set()
    at = None
    for i, t in enumerate(toks):
        hit = next(((s, fam) for ph, (s, fam) in _PHRASES.items()
                    if tuple(toks[i:i + len(ph)]) == ph), None)
        if hit is None and (t in _OPEN_WORDS or t in _CLOSED_WORDS) and (
                t not in _STATE_WORDS or not i or toks[i - 1] in _STATE_BEFORE):
            hit = (OPEN, _OPEN_WORDS[t]) if t in _OPEN_WORDS else (CLOSED, _CLOSED_WORDS[t])
        if hit is None:
            continue
        side, fam = hit
        denied = any(is_negation(x) or x == "no" for x in toks[max(0, i - _BEFORE):i])
        if denied and side == CLOSED:
            return None  # "not closed": no stance read
        found.add((CLOSED if denied else side, fam))
        at = i if at is None else at
    sides = {s for s, _ in found}
    if len(sides) != 1 or at is None:
        return None
    return sides.pop(), min(fam for _, fam in found), at


def _stance_stems(p: Part) -> frozenset[str]:
    """The stems of the part's stance words, by their form and by their lemma ("sold
    out": "sold" and "sell", as `Part.words` reads it)."""
    toks = p.info.tokens
    said = {t for t in toks if t in _OPEN_WORDS or t in _CLOSED_WORDS}
    said |= {w for ph in _PHRASES for w in ph if w in toks}
    lemmas = lemma_stems(toks, p.info.all_stems)
    return frozenset({stem(t) for t in said} | {lemmas[i] for i, t in enumerate(toks) if t in said})


def _subject(p: Part) -> frozenset[str]:
    """The claim's content stems before its first auxiliary, negation or stance word."""
    toks = p.info.tokens
    stems = lemma_stems(toks, p.info.all_stems)
    out = []
    for i in range(p.info.lead, len(toks)):
        t = toks[i]
        if t in AUXILIARIES or t in _STATE_BEFORE or is_negation(t) or _opens(toks, i):
            break
        if stems[i] in p.words:
            out.append(stems[i])
    return frozenset(out) - _MANNER


def _opens(toks: Sequence[str], i: int) -> bool:
    """Whether a stance word or phrase starts at token i."""
    return toks[i] in _OPEN_WORDS or toks[i] in _CLOSED_WORDS or any(
        tuple(toks[i:i + len(ph)]) == ph for ph in _PHRASES)


@lru_cache(maxsize=4096)
def _pieces(text: str) -> tuple[tuple[str, str, frozenset[str], frozenset[str]], ...]:
    """A sentence's pieces with a stance: (stance, family, words, subject words)."""
    out = []
    for chunk in _CUT.split(text.rstrip(" .!?")):
        bits = _JOIN.split(chunk)
        merged: list[str] = []
        for b in bits:  # ("closed Mondays and Tuesdays": cut only before a stance)
            if merged and stance(part(b).info.tokens) is None:
                merged[-1] += " and " + b
            else:
                merged.append(b)
        for m in merged:
            if not m.strip():
                continue
            pc = part(m)
            read = stance(pc.info.tokens)
            if read is None:
                continue
            toks = pc.info.tokens
            own = lemma_stems(toks, pc.info.all_stems)[:read[2]]
            words = pc.words - _stance_stems(pc)
            out.append((read[0], read[1], words, frozenset(own) & words))
    return tuple(out)


def availability_flip(p: Part, near: Sequence[Unit]) -> int | None:
    """The context sentence one of whose pieces takes the stance opposite to the claim's
    on its subject or slot (module docstring); None when there is none."""
    toks = p.info.tokens
    mine = stance(toks[p.info.lead:])
    if mine is None or _QUALIFIED & set(toks):
        return None
    words = p.words - _stance_stems(p) - _MANNER
    if not words:
        return None
    subject = _subject(p)
    sentences = {u.row: u.sentence for u in near}
    read = {row: _pieces(s.info.text) for row, s in sentences.items()}
    agreeing = [w for pcs in read.values() for s, _, w, _ in pcs if s == mine[0]]
    for row in sorted(read):
        for side, fam, pw, own in read[row]:
            if side == mine[0] or len(own - words) > 1 or (own and not own & words):
                continue
            if _slot(words, subject, pw, agreeing, sentences[row].words) or _subject_denied(
                    words, subject, pw, own, agreeing, fam == mine[1]):
                return row
    return None


def _slot(words: frozenset[str], subject: frozenset[str], piece: frozenset[str],
          agreeing: list[frozenset[str]], sentence: frozenset[str]) -> bool:
    slot = (words - subject) & piece
    return bool(slot) and words <= sentence and not any(slot & a for a in agreeing)


def _subject_denied(words: frozenset[str], subject: frozenset[str], piece: frozenset[str],
                    own: frozenset[str], agreeing: list[frozenset[str]], same_word: bool
                    ) -> bool:
    if not subject or not subject <= piece or any(subject <= a for a in agreeing):
        return False
    extra = piece - words
    if words - subject - piece:  # (the claim says more: the piece must deny the subject flat)
        return not extra and same_word
    return len(extra) <= 1 and extra <= own
