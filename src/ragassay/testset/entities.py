"""What a corpus is about, read without a model: its names (capitalised words and runs of
them that occur inside sentences: "Ledgerly", "Northwind Labs", "Enterprise"), its
topics (two content words that recur together: "annual leave", "audit log"), which
names are of one kind (listed together, "Lisbon, Singapore and Toronto", or followed by
the same word, "Team plan" / "Enterprise plan"), and whether a sentence of the corpus
says something about a name or topic (`Corpus.says`).

The offline generator builds on it: multi-hop questions only across passages that share
a name or topic, unanswerable questions about the corpus's own names and topics that ask
what no sentence of it says.
"""

from __future__ import annotations

import re
from collections import Counter, defaultdict
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from functools import cached_property

from ragassay.judge.offline.lexical import STOPWORDS
from ragassay.text import split_sentences

_WORD = re.compile(r"[A-Za-z][A-Za-z0-9'&-]*|\d[\d,.]*%?")
_CAP = re.compile(r"^[A-Z][A-Za-z0-9&'-]*$")
_QUESTION_TEXT = "what which who whom whose when where why how"
QUESTION_WORDS = frozenset(_QUESTION_TEXT.split())
_GENERIC_TEXT = """
    employee employees company team teams day days week weeks month months year years time
    hour hours minute minutes
    people person staff member members work user users page pages section information
    number rule rules policy policies please note example way part use used using new
"""
GENERIC = frozenset(_GENERIC_TEXT.split())
"""Words too common in any corpus to make a topic ("working days", "security team")."""
MIN_TOPIC_COUNT = 2
UNITS = frozenset(["kb", "mb", "gb", "tb", "ms", "km", "kg", "utc", "gmt"])
_EXTRA_STOP_TEXT = """
    per least every receive receives received not also take takes taken make makes made
    within first second third fully two three four five six seven eight nine ten
"""
EXTRA_STOP = frozenset(_EXTRA_STOP_TEXT.split())
_DATE_WORDS_TEXT = """
    january february march april may june july august september october november december
    monday tuesday wednesday thursday friday saturday sunday mondays tuesdays wednesdays
    thursdays fridays saturdays sundays
"""
DATE_WORDS = frozenset(_DATE_WORDS_TEXT.split())
_NAME_RUN = re.compile(r"(?<![\w-])[A-Z][A-Za-z0-9&'-]*(?: [A-Z][A-Za-z0-9&'-]*)*")
_OPENER = re.compile(r"(?:^|[:;>•*#-]|\d[.)])\s*$")  # what starts a clause: ": ", "- ", "1. "


def words(text: str) -> list[str]:
    return _WORD.findall(text)


def content(word: str) -> bool:
    """A word that carries meaning: alphabetic, 3+ letters, no stop or question word."""
    w = word.lower()
    return (len(w) >= 3 and w.isalpha() and w not in STOPWORDS and w not in QUESTION_WORDS
            and w not in EXTRA_STOP)


def content_words(text: str) -> frozenset[str]:
    return frozenset(w.lower() for w in words(text) if content(w))


@dataclass
class Corpus:
    """A corpus's sentences with its names, topics and kinds of names (see the module)."""

    sentences: list[str]
    documents: list[str] = field(default_factory=list)
    names: set[str] = field(default_factory=set)
    topics: set[str] = field(default_factory=set)
    kinds: dict[str, set[str]] = field(default_factory=lambda: defaultdict(set))

    @classmethod
    def read(cls, texts: Iterable[str]) -> Corpus:
        # each line on its own first: a heading is no part of the next sentence
        documents = list(texts)
        sentences = [s for t in documents for line in t.splitlines() if line.strip()
                     for s in split_sentences(line.strip())]
        corpus = cls(sentences=sentences, documents=documents)
        corpus._find_names()
        corpus._find_topics()
        corpus._find_kinds()
        return corpus

    def _find_names(self) -> None:
        """Runs of capitalised words (one space apart) that start no line or sentence,
        are no date word, and whose lower-case form the corpus uses no more often (a
        heading's "Allowances" is no name): names, wherever they occur."""
        capital: Counter[str] = Counter()
        for sentence in self.sentences:
            for m in _NAME_RUN.finditer(sentence):
                if m.start() == 0 or _OPENER.search(sentence[:m.start()]):
                    continue
                run = m.group(0).split()
                while run and run[-1].lower() in STOPWORDS | DATE_WORDS:
                    run.pop()
                while run and run[0].lower() in STOPWORDS | DATE_WORDS:
                    run.pop(0)
                if run:
                    capital[" ".join(run)] += 1
        lower: Counter[str] = Counter(w for s in self.sentences for w in words(s)
                                      if w.islower())
        self.names = {n for n, k in capital.items()
                      if " " in n or not n.isalpha() or lower[n.lower()] < k}

    def _find_topics(self) -> None:
        """Two adjacent content words (not both generic) that recur in the corpus."""
        counts: Counter[str] = Counter()
        for sentence in self.sentences:
            # adjacent words only: none across punctuation ("northwindlabs.example")
            toks = [t.lower() for t in sentence.split()]
            for a, b in zip(toks, toks[1:], strict=False):
                if (content(a) and content(b) and a not in GENERIC and b not in GENERIC
                        and not a.endswith("ly")):
                    counts[f"{a} {b}"] += 1
        in_names = {w.lower() for n in self.names for w in n.split()}
        self.topics = {t for t, n in counts.items() if n >= MIN_TOPIC_COUNT
                       and not set(t.split()) & in_names}

    def _find_kinds(self) -> None:
        """Names of one kind: listed together in a sentence, or followed by the same
        lower-case word ("Team plan", "Enterprise plan")."""
        after: dict[str, set[str]] = defaultdict(set)
        for sentence in self.sentences:
            found = self.names_in(sentence)
            listed = [n for n in found if re.search(
                rf"(?:(?:,|\band|\bor)\s*{re.escape(n)}(?![\w-])|(?<![\w-]){re.escape(n)}"
                rf"\s*(?:,|\band\b|\bor\b))", sentence)]
            if len(listed) >= 2:
                for n in listed:
                    self.kinds[n].update(m for m in listed if m != n)
            after_prep: dict[str, list[str]] = defaultdict(list)  # "in Lisbon ... in Toronto"
            for n in found:
                m = re.search(rf"\b(in|at|from|to|for|via|with)\s+{re.escape(n)}(?![\w-])",
                              sentence)
                if m:
                    after_prep[m.group(1)].append(n)
            for group in after_prep.values():
                if len(group) >= 2:
                    for n in group:
                        self.kinds[n].update(m for m in group if m != n)
            for n in found:
                m = re.search(rf"\b{re.escape(n)}\s+([a-z]{{3,}})\b", sentence)
                if m and content(m.group(1)):
                    after[m.group(1)].add(n)
        for followed in after.values():
            for n in followed:
                self.kinds[n].update(m for m in followed if m != n)

    @cached_property
    def _name_patterns(self) -> list[tuple[str, re.Pattern[str]]]:
        return [(n, re.compile(rf"(?<![\w-]){re.escape(n)}(?![\w-])"))
                for n in sorted(self.names, key=len, reverse=True)]

    def names_in(self, text: str) -> list[str]:
        """The corpus's names that occur in `text` (longest first, none inside another)."""
        out: list[str] = []
        for name, pattern in self._name_patterns:
            if pattern.search(text) and not any(name in longer for longer in out):
                out.append(name)
        return out

    def topics_in(self, text: str) -> list[str]:
        low = " ".join(t.lower() for t in words(text))
        return sorted(t for t in self.topics if f" {t} " in f" {low} ")

    def subjects_in(self, text: str, share: float = 0.5) -> list[str]:
        """What a passage is about: its names, then its topics (each `usable` at `share`)."""
        return [s for s in (*self.names_in(text), *self.topics_in(text))
                if self.usable(s, share)]

    def doc_count(self, subject: str) -> int:
        pattern = re.compile(rf"(?<![\w-]){re.escape(subject)}(?![\w-])", re.IGNORECASE)
        return sum(1 for d in self.documents if pattern.search(d))

    def usable(self, subject: str, share: float = 0.5) -> bool:
        """A subject a question can turn on: no unit ("MB"), and not in so many documents
        that it says nothing ("API" in a developer help centre): in at most `share` of
        them (or three)."""
        if subject.lower() in UNITS:
            return False
        return self.doc_count(subject) <= max(3, int(len(self.documents) * share))

    def says(self, subject: str, about: Iterable[str], share: float = 0.6) -> bool:
        """Whether some sentence of the corpus mentions `subject` together with at least
        `share` of the words `about` (at least one): the corpus says it, or may."""
        wanted = {w.lower() for w in about}
        pattern = re.compile(rf"(?<![\w-]){re.escape(subject)}(?![\w-])", re.IGNORECASE)
        for sentence in self.sentences:
            if not pattern.search(sentence):
                continue
            got = content_words(sentence) | {w.lower() for w in words(sentence)}
            if not wanted or len(wanted & got) >= max(1, share * len(wanted)):
                return True
        return False

    def mentions(self, subject: str, cues: Sequence[str]) -> bool:
        """Whether some sentence mentions `subject` with any of the `cues` (word stems)."""
        pattern = re.compile(rf"(?<![\w-]){re.escape(subject)}(?![\w-])", re.IGNORECASE)
        for sentence in self.sentences:
            if pattern.search(sentence):
                low = sentence.lower()
                if any(re.search(rf"(?<![a-z]){re.escape(c)}", low) for c in cues):
                    return True
        return False

    def specificity(self, subject: str) -> int:
        """How many sentences mention the subject (fewer: more specific)."""
        pattern = re.compile(rf"(?<![\w-]){re.escape(subject)}(?![\w-])", re.IGNORECASE)
        return sum(1 for s in self.sentences if pattern.search(s))
