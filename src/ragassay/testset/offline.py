"""The offline extractive generator: no LLM, so `ragassay generate` always works.

Questions are rewritten corpus sentences (labelled `offline-extractive` in every row):
a sentence with a number, a date or a name becomes a question by putting the question
word in place of that fact ("Employees get 27 days of annual leave." -> "Employees get
how many days of annual leave?"), and its reference answer is the sentence itself, which
is also the gold passage. Multi-hop items join two facts about one name or topic that
two chunks of different documents share (`entities`: "Ledgerly", "annual leave"), each
fact sentence mentioning it. Unanswerable ones ask about the corpus's own names and
topics what no sentence of it says: a fact sentence with its name swapped for another
name of the same kind ("Hotels in Toronto cost at most 220 euros" -> "Hotels in Lisbon
cost at most how much per night?", when nothing says what hotels in Lisbon cost), else
a question about one of the chunk's names or topics on a matter the corpus never
mentions with it (who approves exceptions, a fee, when its rules changed, whom to ask).
They read less naturally than an LLM's (`--judge`), but every answer is in the corpus,
quoted verbatim.
"""

from __future__ import annotations

import random
import re
from collections import Counter
from collections.abc import Iterator, Sequence

from ragassay.corpus.chunking import Chunk
from ragassay.testset.drafts import OFFLINE_LABEL, Draft, SourceChunk
from ragassay.testset.entities import Corpus, content_words
from ragassay.text import split_sentences

MONTHS = frozenset(["january", "february", "march", "april", "may", "june", "july",
                    "august", "september", "october", "november", "december"])
_NUMBER = re.compile(r"^[$€£]?\d[\d,.]*(%|k|m)?$", re.IGNORECASE)
_EDGE = re.compile(r"^[\"'(\[]+|[\"'),.;:!?\]]+$")
# questions about a name or topic on a matter a corpus may not mention with it: the
# template, and the word stems that would say it (any of them near the subject: skipped);
# a name (a product, a tool, a place) and a topic ("sick leave") are asked differently
_APPROVAL = ("approv", "exception", "sign off")
_FEE = ("fee", "cost", "price", "charge", "free", "paid", "$", "€", "£", "euro", "dollar")
_CHANGE = ("chang", "updat", "effective", "introduc", "since", "revis")
_CONTACT = ("contact", "email", "e-mail", "phone", "ask", "reach", "@")
ASK_NAME = (("Is there a fee for {s}?", _FEE),
            ("Whom do I contact with a question about {s}?", _CONTACT))
ASK_TOPIC = (("Who approves exceptions to the rules on {s}?", _APPROVAL),
             ("When did the rules on {s} last change?", _CHANGE),
             ("Whom do I contact with a question about {s}?", _CONTACT))
MAX_MULTI_WORDS = 40  # a two-part question longer than this reads as two questions
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


_LABEL = re.compile(r"^[A-Z][^:.()]{0,40}:\s+(?=\S)")  # "File uploads: the maximum ..."
# a sentence that leans on the one before it ("They are booked ...") makes no question
_LEANS = frozenset(["they", "it", "this", "these", "those", "that", "he", "she", "such"])


def fact_sentences(text: str) -> list[str]:
    """The chunk's sentences that can carry a question: prose ending with a full stop,
    MIN_WORDS to MAX_WORDS words, with a number or a name in them; a help-centre entry's
    leading label ("File uploads: ") left out (the rest is still the chunk's words)."""
    out = []
    for prose in _prose(text):
        for sentence in split_sentences(prose):
            label = _LABEL.match(sentence)
            if label and len(label.group(0).split()) <= 4:
                sentence = sentence[label.end():]
            n = len(sentence.split())
            if sentence.split()[0].lower() in _LEANS:
                continue
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


def _join_lower(question: str, names: frozenset[str] = frozenset()) -> str:
    """The second question of a pair, lower-cased at its start unless that is a name (an
    acronym, or a word of one of the corpus's `names`)."""
    first = question.split(" ", 1)[0]
    if not first[1:].islower() or first.strip(",.:;") in names:
        return question
    return first.lower() + question[len(first):]


class OfflineGenerator:
    """Makes drafts from chunks with no LLM (see the module's docstring)."""

    label = OFFLINE_LABEL

    def __init__(self, corpus: Corpus, no_answer: str, seed: int = 0) -> None:
        self.corpus = corpus
        self.no_answer = no_answer
        self.rng = random.Random(seed)
        self.joined: set[str] = set()  # fact sentences a multi-hop question already used
        self.asked: Counter[str] = Counter()  # templates used so far: the least used next

    def _fact(self, chunk: Chunk, about: str | None = None) -> tuple[str, str] | None:
        """(question, sentence) from a random fact sentence of the chunk (one that names
        `about`, when given, in its question too)."""
        candidates = fact_sentences(chunk.text)
        self.rng.shuffle(candidates)
        for sentence in candidates:
            if about is not None and (sentence in self.joined or not _names(about, sentence)):
                continue
            question = to_question(sentence)
            if question and (about is None or _names(about, question)):
                return question, sentence
        return None

    async def single(self, chunk: Chunk) -> Draft | str:
        fact = self._fact(chunk)
        if fact is None:
            return "no sentence with a fact in the chunk"
        question, sentence = fact
        return Draft(kind="single-fact", question=question, reference=sentence,
                     quotes=((chunk.doc_id, sentence),), sources=(SourceChunk.of(chunk),))

    async def multi(self, a: Chunk, b: Chunk, shared: tuple[str, ...]) -> Draft | str:
        """Two facts, one from each chunk, about the same shared name or topic (the
        first of `shared`, best first, that both chunks state a fact about)."""
        why = "no fact about a shared name or topic in one of the chunks"
        for subject in shared:
            first, second = self._fact(a, subject), self._fact(b, subject)
            if first is None or second is None:
                continue
            if len(first[0].split()) + len(second[0].split()) > MAX_MULTI_WORDS:
                why = "the two facts make too long a question"
                continue
            break
        else:
            return why
        self.joined.update((first[1], second[1]))
        name_words = frozenset(w for n in self.corpus.names for w in n.split())
        question = f"{first[0][:-1]}, and {_join_lower(second[0], name_words)}"
        return Draft(kind="multi-hop", question=question,
                     reference=f"{first[1]} {second[1]}",
                     quotes=((a.doc_id, first[1]), (b.doc_id, second[1])),
                     sources=(SourceChunk.of(a), SourceChunk.of(b)))

    async def unanswerable(self, chunk: Chunk, title: str) -> Draft | str:
        question = self._swapped(chunk) or self._unasked(chunk)
        if question is None:
            return "no name or topic of the chunk to ask about what the corpus does not say"
        return Draft(kind="unanswerable", question=question, reference=self.no_answer,
                     sources=(SourceChunk.of(chunk),))

    def _swapped(self, chunk: Chunk) -> str | None:
        """A fact of the chunk asked of another name of the same kind, when no sentence
        of the corpus gives that name the fact's words."""
        candidates = fact_sentences(chunk.text)
        self.rng.shuffle(candidates)
        for sentence in candidates:
            for name in self.corpus.names_in(sentence):
                others = sorted(self.corpus.kinds.get(name, ()))
                self.rng.shuffle(others)
                for other in others:
                    if _names(other, sentence):
                        continue
                    swapped = re.sub(rf"(?<![\w-]){re.escape(name)}(?![\w-])", other, sentence)
                    question = to_question(swapped)
                    about = content_words(sentence) - content_words(name)
                    if (question and _names(other, question)
                            and not self.corpus.says(other, about)):
                        return question
        return None

    def _unasked(self, chunk: Chunk) -> str | None:
        """A question about one of the chunk's names or topics on a matter no sentence of
        the corpus mentions with it."""
        subjects = self.corpus.subjects_in(chunk.text, share=0.25)  # specific ones only
        self.rng.shuffle(subjects)
        for subject in subjects:
            named = subject in self.corpus.names
            if named and (subject.isupper() or any(ch.isdigit() for ch in subject)):
                continue  # "Whom do I contact about PATCH?": an acronym, a code, a format
            asks = [ask for ask in (ASK_NAME if named else ASK_TOPIC)
                    if ask[1] is not _FEE or _product_like(subject)]
            self.rng.shuffle(asks)
            asks.sort(key=lambda ask: self.asked[ask[0]])
            for template, cues in asks:
                if not self.corpus.mentions(subject, cues):
                    self.asked[template] += 1
                    return template.format(s=subject)
        return None

    async def aclose(self) -> None:
        return None


def _names(subject: str, text: str) -> bool:
    """Whether `text` mentions `subject` (case-insensitive, whole words)."""
    return re.search(rf"(?<![\w-]){re.escape(subject)}(?![\w-])", text, re.IGNORECASE) \
        is not None


def _product_like(name: str) -> bool:
    """A name a fee is asked about: several words or an internal capital ("Meridian
    Health", "DeskBook"), not a single plain word ("Toronto" may be a place)."""
    return " " in name or any(ch.isupper() for ch in name[1:])
