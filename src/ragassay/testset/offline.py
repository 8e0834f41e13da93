"""The offline extractive generator: no LLM, so `ragassay generate` always works.

Questions are rewritten corpus sentences (labelled `offline-extractive` in every row):
a sentence with a number, a date or a name becomes a question by putting the question
word in place of that fact ("Employees get 27 days of annual leave." -> "Employees get
how many days of annual leave?"), and its reference answer is the sentence itself, which
is also the gold passage. Multi-hop items join two facts from two chunks of different
documents; unanswerable ones ask about a topic no word of which occurs in the corpus.
They read less naturally than an LLM's (`--judge`), but every answer is in the corpus,
quoted verbatim.
"""

from __future__ import annotations

import random
import re
from collections.abc import Iterator, Sequence

from ragassay.corpus.chunking import Chunk
from ragassay.testset.drafts import OFFLINE_LABEL, Draft, SourceChunk, words
from ragassay.text import split_sentences

MONTHS = frozenset(["january", "february", "march", "april", "may", "june", "july",
                    "august", "september", "october", "november", "december"])
_NUMBER = re.compile(r"^[$€£]?\d[\d,.]*(%|k|m)?$", re.IGNORECASE)
_EDGE = re.compile(r"^[\"'(\[]+|[\"'),.;:!?\]]+$")
TOPICS = (
    "pet insurance", "company cars", "stock options", "parking permits", "gym memberships",
    "tuition reimbursement", "relocation bonuses", "jury duty", "military leave",
    "sabbaticals", "childcare vouchers", "bicycle leasing", "lunch vouchers",
    "volunteering days", "crypto payments", "drone usage", "wine tastings",
    "helicopter travel", "yacht charters", "submarine access", "moon missions",
    "llama grooming", "quantum licences", "glacier trips",
)
TEMPLATES = ("What does {title} say about {topic}?", "What is the rule for {topic}?",
             "Who approves {topic}?", "Is there a policy on {topic}?")
MIN_WORDS = 5
MAX_WORDS = 28
PREPOSITIONS = frozenset(["in", "via", "through", "at", "to", "from", "with", "by", "on",
                          "into", "using"])


def _plain(word: str) -> str:
    return _EDGE.sub("", word)


def _prose(text: str) -> Iterator[str]:
    """The chunk's prose, block by block: headings (lines without an end mark, or `#`
    lines) dropped, each list item on its own, wrapped lines joined."""
    for block in re.split(r"\n\s*\n", text):
        lines = [ln.strip() for ln in block.splitlines() if ln.strip()]
        while lines and (lines[0].startswith("#") or (
                len(lines[0].split()) <= 8 and not lines[0].endswith((".", ":", ";")))):
            lines.pop(0)  # a heading
        if any(ln.startswith(("- ", "* ", "• ")) for ln in lines):
            yield from (ln.lstrip("-*• ").strip() for ln in lines)
        elif lines:
            yield " ".join(lines)


def fact_sentences(text: str) -> list[str]:
    """The chunk's sentences that can carry a question: prose ending with a full stop,
    MIN_WORDS to MAX_WORDS words, with a number or a name in them."""
    out = []
    for prose in _prose(text):
        for sentence in split_sentences(prose):
            n = len(sentence.split())
            if sentence.endswith(".") and MIN_WORDS <= n <= MAX_WORDS \
                    and _fact_index(sentence.split()) is not None:
                out.append(sentence)
    return out


def _fact_index(tokens: Sequence[str]) -> int | None:
    """Where the fact is: the first number other than 1, else a name right after a
    preposition ("reconciled in Ledgerly")."""
    for i, t in enumerate(tokens):
        w = _plain(t)
        if _NUMBER.match(w) and w not in ("1", "0"):
            return i
    for i in range(1, len(tokens)):
        w = _plain(tokens[i])
        if w[:1].isupper() and w.isalpha() and len(w) > 2 \
                and tokens[i - 1].lower() in PREPOSITIONS \
                and (i + 1 >= len(tokens) or not _plain(tokens[i + 1])[:1].isupper()):
            return i
    return None


def to_question(sentence: str) -> str | None:
    """The sentence with its fact replaced by a question word, or None."""
    tokens = sentence.split()
    i = _fact_index(tokens)
    if i is None:
        return None
    fact = _plain(tokens[i])
    after = _plain(tokens[i + 1]).lower() if i + 1 < len(tokens) else ""
    take = 1
    if _NUMBER.match(fact) and i > 0 and _plain(tokens[i - 1]).lower() in MONTHS:
        i, word, take = i - 1, "what date", 2  # "on March 31" (not "on March what")
    elif _NUMBER.match(fact):
        if after in MONTHS:
            word, take = "what date", 2
        elif fact.endswith("%"):
            word = "what percentage"
        elif re.fullmatch(r"(19|20)\d\d", fact):
            word = "what year"
        elif fact[:1] in "$€£":
            word = "how much"
        elif after.isalpha() and any(_plain(t).lower().endswith("s") and _plain(t).isalpha()
                                     for t in tokens[i + 1:i + 3]):
            word = "how many"
        else:
            word = "what"
    else:
        word = "what"
    text = " ".join([*tokens[:i], word, *tokens[i + take:]]).rstrip(" .;:!")
    text = text[0].upper() + text[1:]
    return text + "?" if len(text.split()) >= 3 else None


def _join_lower(question: str) -> str:
    """The second question of a pair, lower-cased at its start unless that is a name."""
    first = question.split(" ", 1)[0]
    return question if not first[1:].islower() else first.lower() + question[len(first):]


class OfflineGenerator:
    """Makes drafts from chunks with no LLM (see the module's docstring)."""

    label = OFFLINE_LABEL

    def __init__(self, corpus_text: str, no_answer: str, seed: int = 0) -> None:
        self.vocabulary = words(corpus_text)
        self.no_answer = no_answer
        self.rng = random.Random(seed)
        self.topics = [t for t in TOPICS if not words(t) & self.vocabulary]

    def _fact(self, chunk: Chunk) -> tuple[str, str] | None:
        """(question, sentence) from a random fact sentence of the chunk."""
        candidates = fact_sentences(chunk.text)
        self.rng.shuffle(candidates)
        for sentence in candidates:
            question = to_question(sentence)
            if question:
                return question, sentence
        return None

    async def single(self, chunk: Chunk) -> Draft | str:
        fact = self._fact(chunk)
        if fact is None:
            return "no sentence with a fact in the chunk"
        question, sentence = fact
        return Draft(kind="single-fact", question=question, reference=sentence,
                     quotes=((chunk.doc_id, sentence),), sources=(SourceChunk.of(chunk),))

    async def multi(self, a: Chunk, b: Chunk) -> Draft | str:
        first, second = self._fact(a), self._fact(b)
        if first is None or second is None:
            return "no sentence with a fact in one of the chunks"
        question = f"{first[0][:-1]}, and {_join_lower(second[0])}"
        return Draft(kind="multi-hop", question=question,
                     reference=f"{first[1]} {second[1]}",
                     quotes=((a.doc_id, first[1]), (b.doc_id, second[1])),
                     sources=(SourceChunk.of(a), SourceChunk.of(b)))

    async def unanswerable(self, chunk: Chunk, title: str) -> Draft | str:
        if not self.topics:
            return "no topic absent from the corpus"
        topic = self.rng.choice(self.topics)
        template = self.rng.choice(TEMPLATES)
        question = template.format(title=title or "the documents", topic=topic)
        return Draft(kind="unanswerable", question=question[0].upper() + question[1:],
                     reference=self.no_answer, sources=(SourceChunk.of(chunk),))

    async def aclose(self) -> None:
        return None
