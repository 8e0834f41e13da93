"""One sentence's lexical views (`SentenceInfo`) and a sample's context sentences
indexed once (`ContextIndex`, `DocView`): the shared types of the offline judge's
feature modules (`features`, `recall`, `contradiction`), which all read them."""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from functools import lru_cache
from typing import TypeVar, cast

import numpy as np

from .counts import ranked_values
from .lexical import STOPWORDS, TermPool, canon_number, names, negation_count, stem
from .normalise import Quantity, cased_tokens, quantities, written_values
from .words import word_vectors

T = TypeVar("T")
COPY_N = 4  # a copied fragment: this many consecutive tokens found in one context sentence



def ngrams(toks: list[str] | tuple[str, ...], n: int) -> list[tuple[str, ...]]:
    return [tuple(toks[i : i + n]) for i in range(len(toks) - n + 1)]


# Interjections that open an answer ("No, ...", "Yes. ..."): not a negation of the
# sentence's claim, and not content.
OPENERS = frozenset({"yes", "no", "yeah", "yep", "nope", "nah", "well", "oh", "ok", "okay", "sure",
                     "certainly", "absolutely",
                     # the speaker's attitude to what follows, not part of it
                     "unfortunately", "sadly", "fortunately", "luckily", "happily",
                     "thankfully", "regrettably", "alas"})
# An interjection of several words set off at the start ("Not really, ...", "Of course
# not!", "Of course, ..."): it answers the question and says nothing of the claim that
# follows, as "No," and "Yes," do (a content word of it, "course", would count as one of
# the claim's words its unit lacks).
# "No" before a word, not set off by punctuation, is a determiner: "No refunds are given"
_NO_DETERMINER = re.compile(r"^\W*no\s+(?!one\b)[a-z]", re.IGNORECASE)
_PHRASE_OPENER = re.compile(
    r"^\W*(not (?:really|exactly|quite|necessarily|at all)|of course not|no way"
    r"|(?:unfortunately|sadly|regrettably|certainly|definitely|absolutely) not"
    r"|of course|sure thing|no problem|you bet|good question|great question)"
    r"\s*(?:[,;:!.]|[-\u2013\u2014]\s)",
    re.IGNORECASE,
)


@dataclass(frozen=True)
class SentenceInfo:
    """Pre-computed lexical views of one sentence."""

    text: str
    stems: list[str]  # content stems, in order
    all_stems: list[str]  # every token's stem, in order (for bigrams)
    numbers: tuple[Quantity, ...]
    names: list[str]  # lower-cased names (capitalised words not at a sentence start)
    negated: bool  # after a leading "No," / "Yes," interjection
    stem_set: frozenset[str] = field(default_factory=frozenset)
    tokens: tuple[str, ...] = ()  # lower-cased normalised tokens, aligned with all_stems
    bigrams: frozenset[tuple[str, str]] = field(default_factory=frozenset)
    grams: frozenset[tuple[str, ...]] = field(default_factory=frozenset)  # token COPY_N-grams
    capitals: tuple[int, ...] = ()  # positions of capitalised tokens (names, sentence start)
    lead: int = 0  # leading interjection tokens ("No, ...", "Yes. ..."), not the claim's
    words: tuple[str, ...] = ()  # content words (not stopwords), in order
    word_stems: tuple[str, ...] = ()  # their stems, aligned with `words`
    soft: tuple[int, ...] = ()  # positions in `words` of words made of letters only
    asks: bool = False  # a question ("... ?", closing quotes or brackets allowed)
    values: frozenset[float] = frozenset()  # figures' values, as written and canonical


def _capitals(cased: Sequence[str], toks: Sequence[str]) -> tuple[int, ...]:
    """The positions of capitalised words that are no stopword, and of "May" after the
    first token (the month, not the modal)."""
    return tuple(i for i, t in enumerate(cased) if t[:1].isupper() and (
        toks[i] not in STOPWORDS or (i and toks[i] == "may")))


@lru_cache(maxsize=16384)  # ~3 KB each: bounded at ~50 MB
def sentence_info(text: str) -> SentenceInfo:
    """Lexical views of a sentence (cached: context sentences repeat across samples)."""
    cased = cased_tokens(text)
    toks = [t.lower() for t in cased]
    all_stems = [stem(canon_number(t)) for t in toks]
    content = [s for t, s in zip(toks, all_stems, strict=True) if t not in STOPWORDS]
    lead = lead_tokens(text, toks)
    words = [(t, s) for t, s in zip(toks, all_stems, strict=True) if t not in STOPWORDS]
    return SentenceInfo(
        text=text,
        stems=content,
        all_stems=all_stems,
        numbers=quantities(text),
        # (a thing's rank gives its number: "the third floor" is floor 3, counts.place_rank)
        values=written_values(text) | ranked_values(tuple(toks)),
        names=names(text),
        negated=negation_count(text, toks[lead:]) > 0,
        stem_set=frozenset(all_stems),
        tokens=tuple(toks),
        bigrams=frozenset(zip(all_stems, all_stems[1:], strict=False)),
        grams=frozenset(ngrams(toks, COPY_N)),
        capitals=_capitals(cased, toks),
        lead=lead,
        words=tuple(t for t, _ in words),
        word_stems=tuple(x for _, x in words),
        soft=tuple(i for i, (t, _) in enumerate(words) if t.isalpha()),
        asks=text.rstrip().rstrip("\"')]}»”’ ").endswith("?"),
    )



def reply_phrase(text: str) -> bool:
    """Whether the sentence is a phrase opener and nothing else ("Not at all.", "Of
    course!", "Not really."): a reply, no claim of its own, as "No." is."""
    opener = _PHRASE_OPENER.match(text)
    return opener is not None and not text[opener.end():].strip()


def lead_tokens(text: str, toks: list[str]) -> int:
    """How many leading tokens are an opener ("No, ...", "Not really, ...")."""
    lead, rest = 0, text
    while lead < len(toks) - 1 and toks[lead] in OPENERS:
        if toks[lead] == "no" and _NO_DETERMINER.match(rest):
            # "No courtesy car is provided ...", "No, no deposit is needed", "Sadly no
            # seats are left": a negation, no interjection, wherever it stands in the lead
            break
        lead += 1
        word = re.match(rf"^\W*{re.escape(toks[lead - 1])}\b", rest, re.IGNORECASE)
        if word is None:  # (a token the text spells otherwise: stop reading the lead)
            break
        rest = rest[word.end():]
    opener = _PHRASE_OPENER.match(text)
    if opener:  # ("Sure thing, ...": "sure" alone is a one-word opener)
        lead = max(lead, min(len(opener.group(1).split()), len(toks) - 1))
    elif lead and (opener := _PHRASE_OPENER.match(rest)):  # "No, not at all: ..."
        lead = min(lead + len(opener.group(1).split()), len(toks) - 1)
    return lead


def token_view(text: str) -> SentenceInfo:
    """A light SentenceInfo of a sentence or clause: its tokens, stems, capitals and
    opener only (no numbers, names, n-grams), for clause-level alignment, which reads no
    more; a sentence already analysed gives its full info."""
    cased = cased_tokens(text)
    toks = [t.lower() for t in cased]
    all_stems = [stem(canon_number(t)) for t in toks]
    return SentenceInfo(
        text=text,
        stems=[x for t, x in zip(toks, all_stems, strict=True) if t not in STOPWORDS],
        all_stems=all_stems,
        numbers=(),
        names=[],
        negated=False,
        stem_set=frozenset(all_stems),
        tokens=tuple(toks),
        capitals=_capitals(cased, toks),
        lead=lead_tokens(text, toks),
    )


@dataclass(frozen=True)
class DocView:
    """The union of lexical views of some context sentences (a document, or a few)."""

    stems: frozenset[str]
    bigrams: frozenset[tuple[str, str]]
    tokens: frozenset[str]
    values: frozenset[float]
    names: frozenset[str]

    def __or__(self, other: DocView) -> DocView:
        return DocView(self.stems | other.stems, self.bigrams | other.bigrams,
                       self.tokens | other.tokens, self.values | other.values,
                       self.names | other.names)

    @classmethod
    def of(cls, infos: list[SentenceInfo]) -> DocView:
        return cls(
            frozenset().union(*(i.stem_set for i in infos)),
            frozenset().union(*(i.bigrams for i in infos)),
            frozenset().union(*(i.tokens for i in infos)),
            frozenset().union(*(i.values for i in infos)),
            frozenset(n for i in infos for n in i.names),  # lower-cased words
        )


class ContextIndex:
    """Context sentences with their embeddings and lexical sets, built once per sample."""

    def __init__(
        self,
        infos: list[SentenceInfo],
        emb: np.ndarray,
        docs: list[int] | None = None,
        given: TermPool | None = None,
    ) -> None:
        """`given`: what the question gives as known (its sentences not addressed to the
        evaluator, prepare._given): a name it has may be known (given_names)."""
        self.infos = infos
        self.given = given
        self.emb = emb
        self.docs = docs if docs is not None else [0] * len(infos)
        self.stems: frozenset[str] = frozenset().union(*(i.stem_set for i in infos))
        self.tokens: frozenset[str] = frozenset().union(*(i.tokens for i in infos))
        self.grams: frozenset[tuple[str, ...]] = frozenset().union(*(i.grams for i in infos))
        self.pool = TermPool(self.stems, frozenset().union(*(i.values for i in infos)))
        self._rows: dict[int, list[int]] = {}
        for j, d in enumerate(self.docs):
            self._rows.setdefault(d, []).append(j)
        self._doc_views: dict[int, DocView] = {}
        self._words: np.ndarray | None = None  # every sentence's content words, in order
        # views other modules derive from the index once, by name (alignment's units)
        self.derived: dict[str, object] = {}
        self._word_starts = np.cumsum([0] + [len(i.soft) for i in infos])

    def derive(self, name: str, build: Callable[[], T]) -> T:
        """The view `name` other modules derive from the index, built on first use
        (`build`) and kept for the sample: what every claim of it reads again."""
        if name not in self.derived:
            self.derived[name] = build()
        return cast(T, self.derived[name])

    def all_word_vectors(self) -> np.ndarray:
        """Every sentence's content words of letters as static vectors, sentence by
        sentence (rows; looked up together, on first use)."""
        if self._words is None:
            self._words = word_vectors([i.words[k] for i in self.infos for k in i.soft])
        return self._words

    def word_vectors(self, j: int) -> np.ndarray:
        """Context sentence j's rows of `all_word_vectors`."""
        return self.all_word_vectors()[self._word_starts[j] : self._word_starts[j + 1]]

    def __len__(self) -> int:
        return len(self.infos)

    def rows(self, doc: int) -> list[int]:
        """Indices of the sentences of one document."""
        return self._rows.get(doc, [])

    def doc_view(self, doc: int) -> DocView:
        view = self._doc_views.get(doc)
        if view is None:
            view = DocView.of([self.infos[j] for j in self.rows(doc)])
            self._doc_views[doc] = view
        return view
