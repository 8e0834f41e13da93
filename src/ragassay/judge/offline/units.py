"""The context units claim-level alignment (alignment.py) compares a claim with: every
context sentence and its clauses, indexed by content stem, and the alternatives the
contexts offer, all read once per sample (`Units.of`) and on first use.
"""

from __future__ import annotations

import re
from collections import Counter
from dataclasses import dataclass

from .asides import unbracketed
from .clauses import (
    Part,
    clause_parts,
    first_word,
    is_negation,
    lemma_stems,
    neighbours,
    part,
    subject_words,
)
from .conditions import conditioned
from .lexical import STOPWORDS, stem
from .normalise import normalise_text
from .sentences import ContextIndex, SentenceInfo
from .subjects import taken
from .weeks import week_days, year_months
from .words import word_vectors

# a list of three or more ("Basic, Plus and Pro"), or two at a sentence's start
# ("Ibuprofen and paracetamol are ..."); any two words joined by "and" / "or"
_LIST = re.compile(r"\b(\w+(?:,\s*\w+)+,?\s+(?:and|or)\s+\w+)\b")
_JOINED = re.compile(r"\b(\w+)\s+(?:and|or)\s+(\w+)\b")
_OPENING_PAIR = re.compile(r"^\W*(?:the\s+)?(\w+)\s+and\s+(\w+)\b", re.IGNORECASE)
_UNTIL = frozenset({"until", "till", "before"})
_REFERRING = frozenset({"it", "they"})  # a sentence's subject standing for the one before's
_BE = frozenset({"is", "was", "s", "it's", "isn't", "wasn't"})
_PERSONS = frozenset({"you", "we", "i", "they", "he", "she", "it", "us", "them"})
_REFERENT_WORDS = 3  # a subject's words, at most
# what follows an imperative's opening verb, never a subject's first word
_OBJECT_OPENERS = frozenset({"a", "an", "the", "your", "our", "their", "its", "my"})
SYNONYM_COSINE = 0.6  # two subjects this close by their static vectors are no alternatives


@dataclass(frozen=True, slots=True)
class Unit:
    """A context sentence or one of its clauses. A clause without a subject of its own
    ("..., has no device limit and includes 2 TB of storage") takes the words of the
    sentence's first clause as its own ("Pro costs $10 a month": pro), and a relative
    clause the words it refers to ("colds or flu, which are caused by viruses")."""

    part: Part
    row: int  # the context sentence
    clause: bool  # a clause of a sentence of several
    sentence: Part  # the whole sentence
    inherited: frozenset[str] = frozenset()

    @property
    def words(self) -> frozenset[str]:
        return self.part.words | self.inherited


@dataclass(frozen=True, slots=True)
class _Row:
    """What one context sentence says of alternatives: the words it lists (in a list of
    three or more, or two opening it), every pair it joins with "and" / "or" (it says
    both), and each content word's place: its nearest content words before ("<word")
    and after (">word"), stopwords and numbers skipped."""

    listed: frozenset[frozenset[str]]
    joined: frozenset[frozenset[str]]
    near: dict[str, frozenset[str]]
    heads: dict[str, frozenset[str]]  # each content word's next token, when a content word
    # (a word before "such as" / "including" / "for example", a word of what follows it):
    # a kind and its examples ("accidental damage such as new cracks or liquid damage")
    examples: frozenset[frozenset[str]] = frozenset()


def _pairs(groups: list[list[str]]) -> frozenset[frozenset[str]]:
    out: set[frozenset[str]] = set()
    for group in groups:
        items = [_lemma(x) for x in group if x.lower() not in ("and", "or")]
        items = [x for x in items if not x[:1].isdigit()]
        out.update(frozenset((a, b)) for a in items for b in items if a != b)
    return frozenset(out)


def _row(info: SentenceInfo) -> _Row:
    listed: frozenset[frozenset[str]] = frozenset()
    joined: frozenset[frozenset[str]] = frozenset()
    if "and" in info.tokens or "or" in info.tokens:
        text = normalise_text(info.text)
        groups = [re.findall(r"\w+", m.group(1)) for m in _LIST.finditer(text)]
        if m := _OPENING_PAIR.match(text):
            groups.append(list(m.groups()))
        listed = _pairs(groups)
        joined = listed | _pairs([list(m.groups()) for m in _JOINED.finditer(text)])
    stems = lemma_stems(info.tokens, info.all_stems)
    content = [t not in STOPWORDS and not x[:1].isdigit()
               for t, x in zip(info.tokens, stems, strict=True)]
    heads: dict[str, set[str]] = {}
    for k in range(len(stems) - 1):
        if content[k] and content[k + 1]:
            heads.setdefault(stems[k], set()).add(stems[k + 1])
    return _Row(listed, joined, neighbours(part(info.text)),
                {w: frozenset(h) for w, h in heads.items()},
                _examples(info.tokens, stems, content))


_EXAMPLE_OPENERS = (("such", "as"), ("including",), ("for", "example"), ("for", "instance"),
                    ("e.g",), ("eg",))
_KIND_WORDS = 2  # content words before an example opener that name the kind


def _examples(toks: tuple[str, ...], stems: list[str], content: list[bool]
              ) -> frozenset[frozenset[str]]:
    """Pairs of a word naming a kind (the last _KIND_WORDS content words before "such as",
    "including", "for example") and a word of the examples after it: one is an instance
    of the other, no alternative to it."""
    out: set[frozenset[str]] = set()
    for i in range(len(toks)):
        opener = next((o for o in _EXAMPLE_OPENERS if toks[i:i + len(o)] == o), None)
        if opener is None:
            continue
        kind = [stems[k] for k in range(i - 1, -1, -1) if content[k]][:_KIND_WORDS]
        after = [stems[k] for k in range(i + len(opener), len(toks)) if content[k]]
        out.update(frozenset((a, b)) for a in kind for b in after if a != b)
    return frozenset(out)


class Alternatives:
    """Words the contexts offer as alternatives to each other: words listed together
    ("Basic, Plus and Pro"; "Ibuprofen and paracetamol are ..."), modifiers of the same
    word ("monthly subscriptions" / "annual subscriptions", "free tier" / "paid tier"),
    and names in the same place beside the same word ("Nobel Prize in Physics" / "...
    in Chemistry", "the Authorization header" / "the Retry-After header"). Numbers are
    compared as figures. Read from the sentences that hold the words asked about, on
    first use (`rows`: the sentences holding each content stem)."""

    def __init__(self, infos: list[SentenceInfo], rows: dict[str, list[int]]) -> None:
        self.infos = infos
        self.rows = rows
        self.names = frozenset(stem(n) for i in infos for n in i.names)
        self._rows: dict[int, _Row] = {}

    def row(self, j: int) -> _Row:
        found = self._rows.get(j)
        if found is None:
            found = self._rows[j] = _row(self.infos[j])
        return found

    def together(self, w: str, v: str, j: int) -> bool:
        """Whether sentence j lists both ("singer, songwriter and musician"), or gives one
        as an example of the other ("accidental damage such as liquid damage")."""
        row = self.row(j)
        return frozenset((w, v)) in row.joined or frozenset((w, v)) in row.examples

    def _near(self, w: str) -> frozenset[str]:
        return frozenset().union(*(self.row(j).near.get(w, ()) for j in self.rows.get(w, ())))

    def _heads(self, w: str) -> frozenset[str]:
        return frozenset().union(*(self.row(j).heads.get(w, ()) for j in self.rows.get(w, ())))

    def __call__(self, w: str, v: str) -> bool:
        """Whether the contexts offer w and v as alternatives."""
        if w == v or len(w) < 2 or len(v) < 2:
            return False
        pair = frozenset((w, v))
        both = set(self.rows.get(w, ())) & set(self.rows.get(v, ()))
        if any(pair in self.row(j).listed for j in both):
            return True
        if not self._heads(w).isdisjoint(self._heads(v)):
            return True
        return (w in self.names and v in self.names
                and not self._near(w).isdisjoint(self._near(v)))

    def names_pair(self, w: str, v: str, p: Part) -> bool:
        """Whether the claim names w where the unit names v, both names ("taught by Anna"
        for "taught by Richard", Anna named elsewhere in the contexts): one person or
        place for another."""
        # (not when a context sentence names both: "Wembley is in London")
        return (w != v and v in self.names and w in self.rows and w in p.capitalised
                and not set(self.rows[w]) & set(self.rows.get(v, ())))

    def has_alternative(self, v: str) -> bool:
        """Whether the contexts offer any alternative to v."""
        if any(any(v in p for p in self.row(j).listed) for j in self.rows.get(v, ())):
            return True
        for h in self._heads(v):  # another word before one of v's next words
            for j in self.rows.get(h, ()):
                if any(h in hs for w, hs in self.row(j).heads.items() if w != v):
                    return True
        return False


def _lemma(word: str) -> str:
    w = word.lower()
    return lemma_stems([w], [stem(w)])[0]


SPANS = frozenset(stem(w) for w in ("minute", "hour", "day", "week", "month", "year"))


class Units:
    """A sample's context units, built once per ContextIndex (`of`): every sentence,
    indexed by content stem, and, for a sentence a claim shares words with, its clauses
    (read on first use); with the alternatives the contexts offer (on first use too)."""

    def __init__(self, ctx: ContextIndex) -> None:
        self.ctx = ctx
        self.stems = ctx.stems
        self.by_stem: dict[str, list[int]] = {}
        for j, info in enumerate(ctx.infos):
            # (a sentence read as empty, addressed to the evaluator, has no words)
            for w in set(lemma_stems(info.words, info.word_stems)):
                self.by_stem.setdefault(w, []).append(j)
        self._sentences: dict[int, Unit] = {}
        self._subjects: frozenset[str] | None = None
        self._clauses: dict[int, list[Unit]] = {}
        self._alternatives: Alternatives | None = None
        self._word_of: dict[str, str] | None = None
        self._calendar: frozenset[str] | None = None
        self._passages: dict[int, frozenset[str]] = {}

    def sentence(self, row: int) -> Unit:
        found = self._sentences.get(row)
        if found is None:
            whole = part(self.ctx.infos[row].text)
            found = self._sentences[row] = Unit(whole, row, False, whole, self._referred(row))
        return found

    @property
    def given(self) -> frozenset[str]:
        """The stems of what the question gives as known (none without a question)."""
        return self.ctx.given.stems if self.ctx.given is not None else frozenset()

    def rows_of(self, doc: int | None) -> list[int]:
        """The context sentences' rows: of document `doc` (`ContextIndex.rows`), or all
        when None."""
        return list(range(len(self.ctx.infos))) if doc is None else self.ctx.rows(doc)

    def closest(self, said: frozenset[str], rows: list[int], least: float) -> int | None:
        """The one sentence of `rows` sharing the most of the words `said`, at least
        `least` of them; None on a tie or short of it."""
        shared = {j: len(said & self.sentence(j).words) for j in rows}
        best = max(shared.values(), default=0)
        top = [j for j, k in shared.items() if k == best]
        return top[0] if len(top) == 1 and best >= least else None

    def passage(self, row: int) -> frozenset[str]:
        """The content stems of every sentence of the row's passage (its document)."""
        found = self._passages.get(row)
        if found is None:
            rows = self.ctx.rows(self.ctx.docs[row])
            found = self._passages[row] = frozenset().union(
                *(self.ctx.infos[j].word_stems for j in rows))
        return found

    def _referred(self, row: int) -> frozenset[str]:
        """What a sentence opening with "It" or "They" and a verb takes from the sentence
        before it in its passage: that sentence's subject ("Our simple cremation package
        costs £1,650 ... It does not include a service": simple, cremation, package), when
        it denies something (read everywhere, "They can be used at any Hilltop site" narrowed
        "Gift cards can be used at any site", test_review15). Not "It is ..." ("It is best
        to book early": no referent)."""
        toks = self.ctx.infos[row].tokens
        if (not row or len(toks) < 3 or toks[0] not in _REFERRING
                or not any(is_negation(t) for t in toks)
                or self.ctx.docs[row - 1] != self.ctx.docs[row]
                or (toks[0] == "it" and toks[1] in _BE)):
            return frozenset()
        before = clause_parts(self.ctx.infos[row - 1].text)[0]
        subject = subject_words(before)
        # (its first content words, up to a person or a third word: "Our app lets you book
        # a slot" gives app, lets, not the slot it books, review 20)
        toks = before.info.tokens
        stems = lemma_stems(toks, before.info.all_stems)
        out: list[str] = []
        for t, x in zip(toks[before.info.lead:], stems[before.info.lead:], strict=True):
            if t in _PERSONS or len(out) == _REFERENT_WORDS:
                break
            if x in subject:
                out.append(x)
        return frozenset(out)

    @property
    def calendar(self) -> frozenset[str]:
        """The days of the week and the months the contexts' sentences place what they say
        on (weeks.week_days, weeks.year_months), all the sample's retrieved passages: "Monday
        to Friday ..." and then "At weekends ..." (in the next passage too) bound no "every
        day", "April to October" and "November to March" no "all year" (scope.time_bound)."""
        if self._calendar is None:  # (clause by clause: "no tours on Sundays" places none;
            # "does not open until 9am" opens)
            parts = [c for info in self.ctx.infos for c in clause_parts(info.text)
                     if "closed" not in c.info.tokens and (_UNTIL & set(c.info.tokens) or not any(
                         h is not None for h in c.negations))]
            self._calendar = frozenset().union(
                *(week_days(x, None) for x in parts), *(year_months(x) for x in parts))
        return self._calendar

    @property
    def subjects(self) -> frozenset[str]:
        """The first content word of each context sentence, but an imperative's verb (the
        sentence's opening word before an article or a possessive: "Count the highest
        number ...", "Bring your ID": no subject)."""
        if self._subjects is None:
            self._subjects = frozenset(
                f for i in self.ctx.infos if (f := first_word(i)) is not None
                and not (len(i.tokens) > i.lead + 1 and i.tokens[i.lead + 1] in _OBJECT_OPENERS))
        return self._subjects

    @property
    def alternatives(self) -> Alternatives:
        if self._alternatives is None:
            self._alternatives = Alternatives(self.ctx.infos, self.by_stem)
        return self._alternatives

    def anchored(self, p: Part) -> bool:
        """Whether a figure of the clause, with what it counts, is one a context sentence
        states ("eat it no later than 24 hours after ..." against "... within a day":
        24 hours): the clause restates that sentence's fact in other words, no detail
        of its own."""
        for n, key in p.figures:
            if key is None or key[0] in "@#":
                continue
            rows = self.by_stem.get(key, ()) if key not in SPANS else range(len(self.ctx))
            if any(n in self.ctx.infos[j].values and any(
                    k == key or (key in SPANS and k in SPANS)
                    for _, k in self.sentence(j).part.figures) for j in rows):
                return True
        return False

    def clauses(self, row: int) -> list[Unit]:
        """The clauses of a context sentence (none when it has one), a clause without a
        subject of its own taking its sentence's (or, relative, what it refers to), and
        each condition with the clause it conditions (clauses.conditioned)."""
        found = self._clauses.get(row)
        if found is None:
            whole = self.sentence(row)
            pieces = clause_parts(unbracketed(whole.part.text))  # (asides.py)
            found = []
            if len(pieces) > 1:
                found = [Unit(p, row, True, whole.part, taken(pieces, k, gapped=True))
                         for k, p in enumerate(pieces)]
                # and each condition read with the clause it conditions
                found += [Unit(p, row, True, whole.part, next(
                    (taken(pieces, k, gapped=True) for k, q in enumerate(pieces)
                     if p.text.startswith(q.text)),
                    frozenset())) for p in conditioned(list(pieces)) if p not in pieces]
            self._clauses[row] = found
        return found

    def subject_pair(self, w: str, v: str) -> bool:
        """Whether two words are the subjects of context sentences (the first word of
        each) and not near-synonyms by their static vectors ("Contractors are not
        eligible ..." / "Employees may work remotely ...", not "staff" / "employees")."""
        if w not in self.subjects or v not in self.subjects:
            return False
        return self.distinct(w, v)

    def distinct(self, w: str, v: str) -> bool:
        """Whether two context stems are no near-synonyms by their static vectors (the
        words the contexts write them as)."""
        if self._word_of is None:
            self._word_of = {x: t for i in self.ctx.infos
                             for t, x in zip(i.words, i.word_stems, strict=True)}
        tw, tv = self._word_of.get(w), self._word_of.get(v)
        if tw is None or tv is None:
            return False
        vecs = word_vectors([tw, tv])
        return float(vecs[0] @ vecs[1]) < SYNONYM_COSINE

    @classmethod
    def of(cls, ctx: ContextIndex) -> Units:
        return ctx.derive("alignment", lambda: cls(ctx))

    def near(self, p: Part, doc: int | None, need: int) -> list[Unit]:
        """Units sharing at least `need` content words with the claim: the sentences that
        do (no question: it asserts nothing), and those of their clauses that do."""
        counts: Counter[int] = Counter()
        for w in p.words:
            for j in self.by_stem.get(w, ()):
                counts[j] += 1
        docs, infos = self.ctx.docs, self.ctx.infos
        out: list[Unit] = []
        for j, n in sorted(counts.items()):  # context order, not the set's hash order
            if n < need or (doc is not None and docs[j] != doc) or infos[j].asks:
                continue
            whole = self.sentence(j)
            if len(p.words & whole.words) >= need:
                out.append(whole)
            out += [u for u in self.clauses(j) if len(p.words & u.words) >= need]
        return out


def uncounted(p: Part, u: Unit) -> bool:
    """Whether the claim counts a span of time the unit names without a count ("24-hour
    access" against "access during staffed hours"): such a unit does not restate the
    claim's figure, so its agreement leaves the figure unchecked."""
    counted = {k for _, k in u.sentence.figures}
    return any(k in SPANS and k in u.part.words and k not in counted for _, k in p.figures)
