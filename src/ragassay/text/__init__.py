"""Text: sentence splitting and keys, the citation-marker grammar, and a sample keyed once.

`sentences`: a linear, paragraph-aware splitter (97.9% identical to pysbd on the dev
sets, at about 50x its speed: `benches/splitter.py`, benches/RESULTS.md) and the TRACe
keys (`0a`, `0b`, ... for context sentences, `a`, `b`, ... for the answer's). `markers`:
the citation markers an answer may carry (`[1]`, `[^2]`, `(Source 2)`, `【1】`, ids and
titles; a trailing sources section, `sources`, is cut); `titles`: the ids and titles
markers name contexts by, a passage's leading label among them. `key_sample`: each sample split,
keyed, stripped of its citation markers and cut to the budget ONCE, for every suite and
judge.
"""

from __future__ import annotations

import difflib
import re
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import NamedTuple

from ragassay.text.code import code_spans
from ragassay.text.markers import (
    CitedSentence,
    Marker,
    ParsedAnswer,
    parse_answer,
    parse_citations,
)
from ragassay.text.sentences import (
    WORD_TOKEN,
    KeyedSentence,
    approx_tokens,
    key_answer,
    key_contexts,
    letter_key,
    norm_key,
    sentence_spans,
    split_sentences,
    tokens,
)
from ragassay.text.titles import Numbering, numbering
from ragassay.types import Sample

__all__ = [
    "CUT_MARK", "WORD_TOKEN", "CitedSentence", "KeyedSample", "KeyedSentence", "Marker",
    "Numbering", "ParsedAnswer", "ShownSentence", "approx_tokens", "code_spans", "cut_text",
    "did_you_mean", "display_answer", "fit_sentences", "key_answer", "key_contexts", "key_sample",
    "letter_key", "norm_key", "numbering", "parse_answer", "parse_citations", "plain_apostrophes",
    "sentence_spans", "split_sentences", "tokens",
]


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

    Citation markers are citations, not claims: `answer_text` and `answer` are the answer
    without them (`markers`: the one grammar, code left alone), so that no suite or judge
    path reads "[1]" as a claim; `citations` keeps what each sentence cites, for the
    `citations` suite, keyed as `answer` is.
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
    citations: ParsedAnswer = field(default_factory=ParsedAnswer)

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


# Apostrophes typed other ways than "'": the right single quotation mark (U+2019), the
# modifier letter apostrophe (U+02BC), the full-width apostrophe (U+FF07), and an acute
# accent between letters ("don´t").
_APOSTROPHES = str.maketrans({"\u2019": "'", "\u02bc": "'", "\uff07": "'"})
_ACUTE = re.compile(r"(?<=[A-Za-z])\u00b4(?=[A-Za-z])")


def plain_apostrophes(text: str) -> str:
    """The text with every apostrophe written "'" ("don’t" -> "don't"), character for
    character (offsets and sentence keys do not move). `key_sample` applies it to every
    text once, so that no reader (decline patterns, negations, tokens) meets another
    form."""
    text = text.translate(_APOSTROPHES)
    return _ACUTE.sub("'", text) if "\u00b4" in text else text


def key_sample(sample: Sample, max_tokens: int = 6000) -> KeyedSample:
    """Split and key a sample once, cutting every text to `max_tokens`; apostrophes
    written one way (`plain_apostrophes`)."""
    truncated: set[str] = set()
    contexts = tuple(plain_apostrophes(c) for c in sample.contexts)
    every = key_contexts(contexts)
    context, cut = fit_sentences(every, max_tokens)
    if cut:
        truncated.add("contexts")
    texts: dict[str, str] = {}
    refs = sample.references
    citations = parse_answer(plain_apostrophes(sample.answer), contexts, sample.metadata)
    for name, text in (("question", plain_apostrophes(sample.question)),
                       ("answer", citations.text),
                       ("reference", plain_apostrophes(refs[0]) if refs else "")):
        texts[name], was_cut = cut_text(text, max_tokens)
        if was_cut:
            truncated.add(name)
    # the answer's sentences are the citation parse's (markers removed, keyed a, b, ...),
    # so that the citations suite and every other reader name them alike
    plain = "answer" in truncated or not citations.n_markers
    answer = (tuple(key_answer(texts["answer"])) if plain else
              tuple(KeyedSentence(s.key, s.text, -1) for s in citations.sentences))
    return KeyedSample(
        sample=sample,
        question=texts["question"],
        documents=_documents(contexts, context, cut),
        contexts=tuple(context),
        all_contexts=tuple(every),
        answer_text=texts["answer"],
        answer=answer,
        reference=tuple(key_answer(texts["reference"])),
        truncated=frozenset(truncated),
        citations=citations,
    )


class ShownSentence(NamedTuple):
    """An answer sentence as the reports show it (`text`: its citation markers after it)
    and as the judges read it (`plain`: without them), under the judges' key."""

    key: str
    text: str
    plain: str


def display_answer(answer: str) -> list[ShownSentence]:
    """The answer's sentences keyed as `key_sample` keys them, each shown with its citation
    markers after it (the reports' and the dashboard's highlighting: a marker-only
    sentence goes with the one before, as for the judges; a trailing sources section is
    not shown, as the judges do not read it). Ids and titles are read only with the
    sample's metadata, so here only numbered markers count."""
    parsed = parse_citations(answer, Numbering(0))
    if not parsed.n_markers:
        return [ShownSentence(s.key, s.text, s.text) for s in key_answer(parsed.text)]
    return [ShownSentence(s.key, " ".join([s.text, *s.labels]), s.text)
            for s in parsed.sentences]


def did_you_mean(name: str, known: Sequence[str]) -> str:
    """` (did you mean X?)` for the closest known name, or "": the one hint every
    unknown-name error gives (CLI metric names, the pytest plugin's thresholds)."""
    close = difflib.get_close_matches(name, known, n=1)
    return f" (did you mean {close[0]}?)" if close else ""

