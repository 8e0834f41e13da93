"""A claim that restates one context sentence in other words (issue #38, round 4).

Support's soft recall reads a paraphrase word by word, and static word vectors place
many synonyms far apart ("beneath" / "under" 0.7, "reserved" / "placed a hold" 0.3), so
a faithful restatement in other words ("You can return items up to 21 days after they
arrive" for "Returns are accepted within three weeks of delivery") reads as
unsupported. `restated_in_other_words` checks what can be checked instead: the claim
and one context sentence agree on every **checkable slot**, and the claim says no more
than the sentence does:

- anchors: the claim states a figure, and every figure (by value, any unit of time
  written one way: measures.py) and every name of it is the sentence's (a name alone
  anchors nothing: on the dev sets it mostly names the topic, "Stuart Russell argues
  ...", and the rule then lifted more unfaithful claims than faithful ones; a claim
  with no figure, tried in session 13, lifted word swaps too: judges-history.md);
- polarity: as many negations on each side (a price denied, "at no charge", counts none
  against a "free": polarity.free_price), no word of the claim whose antonym the sentence
  has (by its token or its stem: "ends" for "begins"; not "lasts 45 minutes" for "first":
  polarity.antonym_pool), no relation turned ("after" for "before",
  relations.relation_turned);
- scope: a universal claim ("every", "all") only for a universal sentence or one saying
  "per" the word it quantifies ("per calendar year" / "in each calendar year"), and none
  for a sentence that restricts ("only", "unless", "except") unless the claim restricts
  too ("restricted to", "limited to" before no figure, "exclusive to", "reserved for");
- substitution, not addition: the claim's words the sentence lacks are no more than
  the sentence's words the claim lacks, plus two (a word replaced by two or three:
  "placed a hold" / "reserved"), and it shares some content word with the sentence or
  is close to it as a whole (sentence embeddings, PARAPHRASE_COSINE; ANCHORED_COSINE
  where the sentence holds the claim's subject and each of its figures counting the
  same thing, `anchored`, session 27); each clause of the
  claim shares a content word or a figure with the sentence. The question's own words
  the claim echoes count as given, not added (asked.py, session 28).
An invented detail adds words the sentence has no counterpart for ("..., and shipping
back is free"), so it fails the last check; a changed figure or name fails the first.
Such a claim's support is raised to at least PARAPHRASE_SUPPORT (features.rule_logits);
a contradiction, a missing key term or a clause no context states (alignment's invented
detail) still caps it.

A claim may restate **two** sentences at once ("Courses are on Saturdays, 10 am to 4 pm,
with a maximum of 8 people" for "Courses run on Saturdays from 10 am to 4 pm." and
"Places are limited to 8 people per course.", often in two passages): `restated_across`
reads the two context sentences closest to it as one, and asks the checks above of that,
and more, because joining two sentences is how a figure or a name of one gets said of
the other (the number and entity swaps of issue #38):
- each clause of the claim draws on one of the two (the one it shares more content
  words with; a tie counts only if both hold its figures and names; a clause sharing
  none draws on the one holding its figures, a clock time as a clock time), and every figure
  and name of the clause is that sentence's, so "You can withdraw up to 2,000 EUR a day
  from ATMs" over "The daily ATM withdrawal limit is 500 EUR." and "... card payments to
  2,000 EUR a day." fails: the clause draws on the first and its figure is the second's;
- the claim draws on both (else the one-sentence check applies);
- the two sentences do not each name something the other does not ("The Green Line
  ... to the airport" beside "The Blue Line ..."): then a claim joining them says of one
  what the other says, which no word of it shows.
"""

from __future__ import annotations

import re

import numpy as np

from .asked import echoed
from .clauses import Part, clause_parts, part
from .converted import working_days
from .lexical import TermPool, antonyms_in, name_present, stem
from .necessity import needless_in_one_word
from .negated_clause import unrelated_negation_dropped
from .normalise import quantity_present
from .polarity import antonym_pool, free_price
from .privative import balanced_by_privatives
from .ranged import ranges_as_said
from .relations import relation_turned
from .sentences import ContextIndex, SentenceInfo, sentence_info

PARAPHRASE_COSINE = 0.6  # sentence-embedding closeness of claim and sentence at least
SPARE_WORDS = 2  # claim words beyond the sentence's replaced ones allowed
# closeness enough where the sentence holds the claim's subject and each of its figures
# counting the same thing (`anchored`)
ANCHORED_COSINE = 0.5


# a price denied in other words: "at no extra cost", "costs nothing" (what "free" says)
_NO_COST = re.compile(r"\b(?:no (?:extra |additional )?(?:charge|cost|fee)|costs? nothing)\b",
                      re.IGNORECASE)


def _denied_root(word: str) -> set[str]:
    """What an "un-" word denies, as the first four letters of its stem, with a final "d"
    dropped too ("unused": "used", "use"; "unopened": "open")."""
    s = stem(word)
    return {s[:4], s.removesuffix("d")[:4]}


def negations_of(p: Part, other: Part) -> int:
    """The part's negations, less a price's that the other's "free" says ("at no extra
    cost", "costs nothing" too), plus what it denies in a word: "unused" where the other
    has "used" (denied or not: "haven't used" says it, "have used" turns it; "unlimited" /
    "limited" too), "without collecting" where the other says "not collected"."""
    free = "free" in other.info.tokens and "free" not in other.negations
    heads = [h for h in p.negations if h is not None and not free_price(h, other)]
    if free and heads and _NO_COST.search(p.text):
        heads.pop()
    theirs = {h[:4] for h in other.negations if h is not None}
    toks, said = p.info.tokens, {w[:4] for w in other.stems}
    implied = sum(1 for k, t in enumerate(toks) if (
        t.startswith("un") and len(t) > 4 and _denied_root(t[2:]) & said) or (
        t == "without" and any(stem(x)[:4] in theirs for x in toks[k + 1:k + 3])))
    return len(heads) + implied


# "exclusive to the Pro plan", "restricted to Lane 8": "only" in other words
LIMITED = re.compile(r"\b(?:exclusive(?:ly)?|restricted|limited|reserved)\s+(?:to|for)\s+"
                      r"(?!\d)", re.IGNORECASE)  # ("limited to 2 hours" bounds a figure)


def distributes(u: Part, p: Part) -> bool:
    """Whether the sentence quantifies over all of what the claim does (module
    docstring, scope): a universal, or "per" before the claim's quantified word ("two
    months per calendar year" / "in each calendar year"; "£8 per session" is not said
    of "all classes")."""
    toks = u.info.tokens
    return u.universal or any(t == "per" and k + 1 < len(toks) and stem(
        toks[k + 1]) in p.quantified for k, t in enumerate(toks))


def _restricts(p: Part) -> bool:
    """Whether the claim limits what it says: a restrictor, or "exclusive to",
    "restricted to", "limited to", "reserved for"."""
    return p.restricted or bool(LIMITED.search(p.text))


def anchored(p: Part, u: Part) -> bool:
    """Whether the sentence holds the claim's own subject (its first content word, the
    claim opening with a subject of its own) and each figure of the claim with the same
    thing counted where both say what ("8 minutes" / "8 minutes", not the runners-up's
    "8" for the winners): a rewording less close as a whole may then still restate it
    (a figure said of another subject is what a swap looks like); it shares a word beyond
    them too (what it says of the subject, not only whom)."""
    if p.opening is not None or p.first is None or p.first not in u.stems or not p.figures:
        return False
    if not {w for w in p.words & u.words if w != p.first and not any(c.isdigit() for c in w)}:
        return False  # (subject and figure alone: "Locker 12 was removed" / "... is on deck 2")
    return all(any(v == w and (k is None or j is None or k == j) for w, j in u.figures)
               for v, k in p.figures)


def restated_in_other_words(s: SentenceInfo, c: SentenceInfo, cosine: float,
                            given: TermPool | None = None) -> bool:
    """Whether the claim `s` restates the context sentence `c` in other words (module
    docstring); `cosine`: their sentence embeddings' cosine; `given`: the question's
    terms (its words the claim echoes are no addition: asked.py)."""
    if s.asks or not s.words or cosine < ANCHORED_COSINE:
        return False
    if not s.numbers:
        return False  # nothing to check a restatement by (a name mostly says the topic)
    if any(not quantity_present(q, c.values) for q in s.numbers):
        return False
    if any(not name_present(n, c.stem_set) for n in s.names):
        return False
    p, u = part(s.text), part(c.text)
    if cosine < PARAPHRASE_COSINE and not anchored(p, u):
        return False
    if not balanced_by_privatives(p, u, negations_of(p, u), negations_of(u, p)) and not (
            needless_in_one_word(p, u, negations_of(p, u), negations_of(u, p))):
        # ("optional" for "not required": necessity.py)
        # (a denial held in one word, "exempt from duty" for "no duty is charged",
        # counts as the spelled-out one: privative.py)
        # (a "not" in a clause of its own, which the claim draws no word from, is no
        # polarity of the claim's: "... on a dedicated circuit; do not plug it into an
        # extension lead", negated_clause.py)
        kept = unrelated_negation_dropped(p.words, c.text)
        if kept is None:
            return False
        u = part(kept)
        if not balanced_by_privatives(p, u, negations_of(p, u), negations_of(u, p)):
            return False
    if any(antonyms_in(t, antonym_pool(u), u.info.tokens) or antonyms_in(
            w, antonym_pool(u), u.info.tokens) for t, w in p.pairs
           if w not in u.words and w not in p.negations):  # (the stem too: "ends" is "end",
        # whose antonym is "begin"; "haven't used" says what "unused" does, the counts agree)
        return False
    if (p.universal and not distributes(u, p) and not ranges_as_said(p, u)) or (
            u.restricted and not _restricts(p) and not working_days(s.text, c.text)):
        return False  # ("two working days" / "48 hours, excluding weekends": converted.py;
        # "every 180 days" read as no universal was withdrawn in session 28, held out)
    if relation_turned(p, u):
        return False
    figures = {str(int(n)) if n == int(n) else str(n) for n, _ in p.figures}
    asked = echoed(p.words, u.words, given)
    extra = [w for w in p.words - u.words if w not in figures and w not in asked]
    spare = [w for w in u.words - p.words if w not in figures]
    # (a claim let in by `anchored` alone replaces words, adds none: "Locker 12 was
    # removed for repairs" is no rewording of "Locker 12 is on deck 2")
    allowed = SPARE_WORDS if cosine >= PARAPHRASE_COSINE else 0
    if len(extra) > len(spare) + allowed or not p.words & u.words:
        return False
    # each clause of it restates part of the sentence: shares a word or a figure with it
    # ("..., and shipping back is free" shares none: an addition, not a rewording)
    values = {v for v, _ in u.figures}
    return all(len(c.words) < 2 or c.words & u.words or any(
        v in values for v, _ in c.figures)
        for c in clause_parts(s.text))


def _draws_on_both(s: SentenceInfo, a: SentenceInfo, b: SentenceInfo) -> bool:
    """Whether each clause of the claim draws on one of the sentences, figures and
    names included, and the claim draws on both (module docstring)."""
    if set(a.names) - set(b.names) and set(b.names) - set(a.names):
        return False  # two named things: joining them says of one what the other says
    words = (part(a.text).words, part(b.text).words)
    drawn: set[int] = set()
    for c in clause_parts(s.text):
        shared = [len(c.words & w) for w in words]
        own = sentence_info(c.text)  # the clause's own figures and names
        holds = [all(quantity_present(q, x.values) for q in own.numbers) and all(
            name_present(n, x.stem_set) for n in own.names) for x in (a, b)]
        if max(shared) == 0:
            if not own.numbers:
                return False
            # a figure alone: where it is, with what it counts ("finishing at 6 pm" is
            # no "6 participants")
            sources = [i for i in (0, 1) if holds[i] and _counted_alike(c, (a, b)[i])]
        else:
            sources = [i for i in (0, 1) if shared[i] == max(shared)]
        if not sources or not all(holds[i] for i in sources):
            return False
        if len(sources) == 1:
            drawn.add(sources[0])
    return len(drawn) == 2


_CLOCK = "time"  # the key of a clock time among a part's figures (counts.figures)


def _counted_alike(c: Part, x: SentenceInfo) -> bool:
    """Whether each figure of the clause is one of the sentence's, a clock time only as
    a clock time ("finishing at 6 pm" is no "6 participants"; the thing a bare figure
    counts is often a word before it, "another 20", so only the clock is told apart)."""
    theirs = part(x.text).figures
    return all(any(v == w and (k == _CLOCK) == (key == _CLOCK) for w, key in theirs)
               for v, k in c.figures)


def restated_across(s: SentenceInfo, s_emb: np.ndarray, ctx: ContextIndex,
                    doc: int | None = None) -> bool:
    """Whether the claim `s` restates the two context sentences (of `doc`, if given)
    closest to it by their embeddings in other words, drawing on both (module
    docstring)."""
    rows = np.arange(len(ctx)) if doc is None else np.asarray(ctx.rows(doc))
    if len(rows) < 2:
        return False
    sims = ctx.emb[rows] @ s_emb
    j, k = sorted(int(rows[i]) for i in np.argsort(-sims, kind="stable")[:2])
    a, b = ctx.infos[j], ctx.infos[k]
    joined = ctx.emb[j] + ctx.emb[k]
    norm = float(np.linalg.norm(joined))
    if not norm:
        return False
    cosine = float(joined @ s_emb) / norm
    return restated_in_other_words(s, sentence_info(f"{a.text} {b.text}"), cosine,
                                   ctx.given) and (
        _draws_on_both(s, a, b))
