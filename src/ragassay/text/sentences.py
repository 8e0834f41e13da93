"""Sentence splitting, TRACe keys and word tokens.

Splitting is a paragraph-aware rule (end punctuation, space, capital or digit; not after
an abbreviation or an initial): on the development sets it gives exactly pysbd's
sentences for 97.9% of texts at about 70x the speed (`scripts/devsets/split_agreement.py`),
and its cost is linear in the text, so a 50k-token context splits in milliseconds.
`sentence_spans` gives the same sentences as spans of the text, so that a reader that
must map sentences back onto the text (the citation markers) splits exactly as
everyone else.

Context sentences are keyed `0a`, `0b`, ... `1a` (document index + letter) and
answer sentences `a`, `b`, ... as RAGBench's TRACe annotation does, so that the
LLM prompts, the offline judge and the reports all name sentences the same way.
"""

from __future__ import annotations

import re
from functools import lru_cache
from string import ascii_lowercase
from typing import NamedTuple

_WS = re.compile(r"\s+")
WORD_TOKEN = re.compile(r"[A-Za-z0-9]+(?:[.'’-][A-Za-z0-9]+)*")


class KeyedSentence(NamedTuple):
    key: str
    text: str
    doc: int  # document index; -1 for answer sentences


def letter_key(i: int) -> str:
    """0 -> a, 25 -> z, 26 -> aa, 27 -> ab ... (spreadsheet-style, never ambiguous)."""
    out = ""
    i += 1
    while i > 0:
        i, r = divmod(i - 1, 26)
        out = ascii_lowercase[r] + out
    return out


_ABBR_WORDS = (
    "mr mrs ms dr prof st sr jr vs etc e.g i.e inc ltd co corp al approx dept est "
    "gen gov jan feb mar apr jun jul aug sep sept oct nov dec mt ft u.s u.k a.m p.m ph.d"
)
_ABBR = frozenset(_ABBR_WORDS.split())
_ABBR_NUMBERED = frozenset({"no", "fig", "vol", "pp"})  # only before a number: "No. 5"
# a sentence ends at . ! or ? (with closing quotes/brackets), then space, then a capital,
# a digit or an opening quote/bracket
# (a run of stops is tried once, from its start, and never backtracked: linear on "....")
_BOUND = re.compile(r"""(?<![.!?])([.!?]++["'”’)\]]*+)\s+(?=["'“‘(\[]?[A-Z0-9])""")
_PARAGRAPH = re.compile(r"\n\s*\n")
# a list item's marker at the start of a line ("1. ", "2) ", "- ", "* ", "• "): layout,
# not words (session 26's cut of a paragraph at its items was withdrawn: it lowered the
# leave-one-dataset-out figures on SummEdits by about 0.008)
_ITEM = re.compile(r"^[ \t]*+(?:\d{1,2}[.)]|[-*\u2022])[ \t]++(?=\S)", re.MULTILINE)


def _block_spans(text: str, start: int, stop: int) -> list[tuple[int, int]]:
    """The sentences of one paragraph `text[start:stop]`, as spans of `text`."""
    out: list[tuple[int, int]] = []
    begin = start
    for m in _BOUND.finditer(text, start, stop):
        before = text[max(begin, m.start() - 40) : m.start()].split()  # the last word
        last = before[-1].lower().rstrip(".") if before else ""
        # "Dr. Smith", "U.S. Army", "J. Doe": not a sentence end
        numbered = last in _ABBR_NUMBERED and text[m.end():m.end() + 1].isdigit()
        if m.group(1) == "." and (last in _ABBR or numbered
                                  or (len(last) == 1 and last.isalpha())):
            continue
        out.append((begin, m.end(1)))
        begin = m.end()
    out.append((begin, stop))
    return out


def _trim(text: str, a: int, b: int) -> tuple[int, int]:
    while a < b and text[a].isspace():
        a += 1
    while b > a and text[b - 1].isspace():
        b -= 1
    return a, b


def item_text_start(text: str, a: int, b: int) -> int:
    """Where the words of the sentence `text[a:b]` start: after its list item's marker
    when the sentence opens a line with one ("\\n2. Pay at checkout."), else `a`."""
    while a < b and text[a].isspace():
        a += 1
    m = _ITEM.match(text, a, b)
    return m.end() if m else a


@lru_cache(maxsize=2048)
def _spans_cached(text: str) -> tuple[tuple[int, int], ...]:
    spans: list[tuple[int, int]] = []
    start = 0
    for stop, nxt in [(m.start(), m.end()) for m in _PARAGRAPH.finditer(text)] + [
            (len(text), len(text))]:
        for a, b in _block_spans(text, start, stop):
            a, b = _trim(text, a, b)
            if a < b:
                spans.append((a, b))
        start = nxt
    return tuple(spans)


def sentence_spans(text: str) -> tuple[tuple[int, int], ...]:
    """Each sentence of `text` as a (start, end) span, trimmed of surrounding space:
    `split_sentences(text)` is these spans with their inner whitespace made one space."""
    return _spans_cached(text) if text else ()


@lru_cache(maxsize=8192)  # contexts repeat across suites, strategies and the judge
def _split_cached(text: str) -> tuple[str, ...]:
    return tuple(_WS.sub(" ", text[a:b]) for a, b in _spans_cached(text))


def split_sentences(text: str) -> list[str]:
    """Split text into sentences (paragraph-aware); empty text gives []."""
    if not text or not text.strip():
        return []
    return list(_split_cached(text))


def key_answer(answer: str) -> list[KeyedSentence]:
    return [KeyedSentence(letter_key(i), s, -1) for i, s in enumerate(split_sentences(answer))]


def key_contexts(contexts: tuple[str, ...] | list[str]) -> list[KeyedSentence]:
    out: list[KeyedSentence] = []
    for d, doc in enumerate(contexts):
        for i, s in enumerate(split_sentences(doc)):
            out.append(KeyedSentence(f"{d}{letter_key(i)}", s, d))
    return out


def norm_key(value: object) -> str:
    """'[0A].' -> '0a': judges decorate sentence keys; compare them bare and lower-case."""
    return str(value).strip().strip("[]()<>'\"`*.,:;").strip().lower()


def tokens(text: str) -> list[str]:
    """Lower-cased word tokens, for lexical evidence."""
    return [t.lower() for t in WORD_TOKEN.findall(text)]


def approx_tokens(text: str) -> int:
    """A cheap token estimate (about 4 characters a token) for budgeting prompts."""
    return max(1, len(text) // 4) if text else 0
