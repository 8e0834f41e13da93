"""Sentence splitting and keying shared by every suite and the offline judge.

Splitting is a paragraph-aware rule (end punctuation, space, capital or digit; not after
an abbreviation or an initial): on the development sets it gives exactly pysbd's
sentences for 97.9% of texts at about 50x the speed (`benches/splitter.py`,
benches/RESULTS.md), and its cost is linear in the text, so a 50k-token context splits in
milliseconds.

Context sentences are keyed `0a`, `0b`, ... `1a` (document index + letter) and
answer sentences `a`, `b`, ... as RAGBench's TRACe annotation does, so that the
LLM prompts, the offline judge and the reports all name sentences the same way.
"""

from __future__ import annotations

import difflib
import re
from collections.abc import Sequence
from dataclasses import dataclass
from functools import lru_cache
from string import ascii_lowercase
from typing import NamedTuple

from ragassay.types import Sample

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
_BOUND = re.compile(r"""([.!?]+["'”’)\]]*)\s+(?=["'“‘(\[]?[A-Z0-9])""")


def _split_block(block: str) -> list[str]:
    out: list[str] = []
    start = 0
    for m in _BOUND.finditer(block):
        before = block[max(start, m.start() - 40) : m.start()].split()  # the last word
        last = before[-1].lower().rstrip(".") if before else ""
        # "Dr. Smith", "U.S. Army", "J. Doe": not a sentence end
        numbered = last in _ABBR_NUMBERED and block[m.end():m.end() + 1].isdigit()
        if m.group(1) == "." and (last in _ABBR or numbered
                                  or (len(last) == 1 and last.isalpha())):
            continue
        s = _WS.sub(" ", block[start : m.end(1)]).strip()
        if s:
            out.append(s)
        start = m.end()
    s = _WS.sub(" ", block[start:]).strip()
    if s:
        out.append(s)
    return out


@lru_cache(maxsize=8192)  # contexts repeat across suites, strategies and the judge
def _split_cached(text: str) -> tuple[str, ...]:
    parts: list[str] = []
    for block in re.split(r"\n\s*\n", text):
        block = block.strip()
        if block:
            parts.extend(_split_block(block))
    return tuple(parts)


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


# ---- a sample keyed once --------------------------------------------------------------

CUT_MARK = " [...]"
KEY_TOKENS = 2  # what a sentence's key ("0a: ") costs in a prompt


@dataclass(frozen=True)
class KeyedSample:
    """A sample split and keyed once, within the token budget, for every consumer: the
    LLM prompts, the offline judge and the dashboard's highlighting name the same sentences.

    `contexts` are the context sentences shown (documents in order, keys as
    `key_contexts`; past the budget nothing is shown and the last shown sentence may be
    cut, ending in " [...]"); `documents` the shown part of each document, as text.
    The question, answer and reference (the first one) are cut to the same budget.
    `all_contexts` keeps every context sentence (for length-weighted shares, whose
    denominators include what was not shown). `truncated` names what was cut.
    """

    sample: Sample
    question: str
    documents: tuple[str, ...]
    contexts: tuple[KeyedSentence, ...]
    all_contexts: tuple[KeyedSentence, ...]
    answer_text: str
    answer: tuple[KeyedSentence, ...]
    reference: tuple[KeyedSentence, ...]
    truncated: frozenset[str] = frozenset()

    @property
    def context_truncated(self) -> bool:
        return "contexts" in self.truncated

    @property
    def shown_keys(self) -> frozenset[str]:
        return frozenset(s.key for s in self.contexts)


def cut_text(text: str, max_tokens: int) -> tuple[str, bool]:
    """The text within `max_tokens` (about 4 characters a token), cut at a word boundary."""
    limit = max_tokens * 4
    if len(text) <= limit:
        return text, False
    cut = text[:limit]
    space = cut.rfind(" ")
    return (cut[:space] if space > limit // 2 else cut) + CUT_MARK, True


def fit_sentences(sentences: list[KeyedSentence], max_tokens: int
                  ) -> tuple[list[KeyedSentence], bool]:
    """The leading sentences that fit the budget (each costs its tokens plus its key);
    the first one that does not fit is cut when more than 50 tokens are left."""
    shown: list[KeyedSentence] = []
    budget = max_tokens
    for s in sentences:
        need = approx_tokens(s.text) + KEY_TOKENS
        if need <= budget:
            shown.append(s)
            budget -= need
            continue
        if budget > 50:
            shown.append(s._replace(text=s.text[: (budget - KEY_TOKENS) * 4] + CUT_MARK))
        return shown, True
    return shown, False


def _documents(contexts: tuple[str, ...], shown: list[KeyedSentence], cut: bool
               ) -> tuple[str, ...]:
    """Each document's shown part: whole documents as given; the cut one rebuilt from its
    shown sentences; documents after the cut left out."""
    if not cut:
        return contexts
    by_doc: dict[int, list[str]] = {}
    for s in shown:
        by_doc.setdefault(s.doc, []).append(s.text)
    last = max(by_doc, default=-1)
    return tuple(contexts[d] if d < last else " ".join(by_doc.get(d, []))
                 for d in range(last + 1))


def key_sample(sample: Sample, max_tokens: int = 6000) -> KeyedSample:
    """Split and key a sample once, cutting every text to `max_tokens`."""
    truncated: set[str] = set()
    every = key_contexts(sample.contexts)
    context, cut = fit_sentences(every, max_tokens)
    if cut:
        truncated.add("contexts")
    texts: dict[str, str] = {}
    refs = sample.references
    for name, text in (("question", sample.question), ("answer", sample.answer),
                       ("reference", refs[0] if refs else "")):
        texts[name], was_cut = cut_text(text, max_tokens)
        if was_cut:
            truncated.add(name)
    return KeyedSample(
        sample=sample,
        question=texts["question"],
        documents=_documents(sample.contexts, context, cut),
        contexts=tuple(context),
        all_contexts=tuple(every),
        answer_text=texts["answer"],
        answer=tuple(key_answer(texts["answer"])),
        reference=tuple(key_answer(texts["reference"])),
        truncated=frozenset(truncated),
    )


def did_you_mean(name: str, known: Sequence[str]) -> str:
    """` (did you mean X?)` for the closest known name, or "": the one hint every
    unknown-name error gives (CLI metric names, the pytest plugin's thresholds)."""
    close = difflib.get_close_matches(name, known, n=1)
    return f" (did you mean {close[0]}?)" if close else ""
