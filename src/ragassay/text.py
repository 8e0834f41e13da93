"""Sentence splitting and keying shared by every suite and the offline judge.

Context sentences are keyed `0a`, `0b`, ... `1a` (document index + letter) and
answer sentences `a`, `b`, ... as RAGBench's TRACe annotation does, so that the
LLM prompts, the offline judge and the reports all name sentences the same way.
"""

from __future__ import annotations

import re
import threading
from functools import lru_cache
from string import ascii_lowercase
from typing import Any, NamedTuple

_WS = re.compile(r"\s+")
_TOKEN = re.compile(r"[A-Za-z0-9]+(?:[.'’-][A-Za-z0-9]+)*")


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


_LOCAL = threading.local()
_BLOCK = 4000  # pysbd slows down sharply on very long paragraphs: split them first


def _segmenter() -> Any:
    """One pysbd segmenter per thread: `segment()` keeps state on the instance."""
    seg = getattr(_LOCAL, "segmenter", None)
    if seg is None:
        import pysbd

        seg = _LOCAL.segmenter = pysbd.Segmenter(language="en", clean=False)
    return seg


def _pieces(block: str) -> list[str]:
    """Cut a very long block at line breaks or spaces into pieces pysbd handles quickly."""
    if len(block) <= _BLOCK:
        return [block]
    out = []
    while len(block) > _BLOCK:
        cut = block.rfind("\n", 0, _BLOCK)
        if cut < _BLOCK // 2:
            cut = block.rfind(". ", 0, _BLOCK) + 1
        if cut < _BLOCK // 2:
            cut = block.rfind(" ", 0, _BLOCK)
        if cut < _BLOCK // 2:
            cut = _BLOCK
        out.append(block[:cut])
        block = block[cut:]
    out.append(block)
    return out


@lru_cache(maxsize=65536)
def _split_cached(text: str) -> tuple[str, ...]:
    parts: list[str] = []
    for block in re.split(r"\n\s*\n", text):
        block = block.strip()
        if not block:
            continue
        for piece in _pieces(block):
            for s in _segmenter().segment(piece):
                s = _WS.sub(" ", s).strip()
                if s:
                    parts.append(s)
    return tuple(parts)


def split_sentences(text: str) -> list[str]:
    """Split text into sentences (pysbd, paragraph-aware); empty text gives []."""
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


def tokens(text: str) -> list[str]:
    """Lower-cased word tokens, for lexical evidence."""
    return [t.lower() for t in _TOKEN.findall(text)]


def approx_tokens(text: str) -> int:
    """A cheap token estimate (about 4 characters a token) for budgeting prompts."""
    return max(1, len(text) // 4) if text else 0
