"""A restatement read by the transformer: the accurate mode's support floor (issue #38).

Static word vectors place many rewordings far apart ("a month and a half" / "six
weeks", "roll over" / "carried over"), so a faithful restatement in other words reads
as unsupported, and paraphrase.py lifts one only when it states a figure. In the
accurate mode (`offline:accurate`) the all-MiniLM-L6-v2 transformer is loaded anyway
(relevance); `restated_by_transformer` asks it, per claim, whether one of the context
sentences the claim is aligned with (`Match.top`) says the same, and raises that
claim's support to the paraphrase floor (features.PARAPHRASE_SUPPORT) where:

- the two sentences' transformer cosine is at least RESTATEMENT_COSINE;
- every figure (by value) and every name of the claim is that sentence's;
- both say as many negations (paraphrase.negations_of);
- a hedge ("may", "can", "usually", "some", ...) on one side meets one on the other;
- a claim for every thing ("all", "every") meets a universal sentence, and one for
  every time ("always", "at any time") a universal or one with no restrictor,
  condition or hedge;
- no word of the claim meets its antonym or turned relation in the sentence ("first" /
  "last", "minimum" / "maximum", "more" / "less", "before" / "after": lexical.ANTONYMS,
  paraphrase's content-word check, relations.relation_turned), no bound turned ("up
  to" / "at least") and no time relation ("before", "after", "until") on one side only;
- both state as many conditions ("if", "unless", "when", "as long as", ...) and both
  restrict or neither does ("only", "exclusive to");
- each clause of the claim shares a content word or a figure with the sentence (an
  added clause is an addition, not a rewording).

The words are closed classes (hedges, conditions, quantifiers, relations), none a
text's. A contradiction, a missing key term or a clause no context states still caps
the support (features.rule_logits), so the floor never outranks a rule's conflict. The
default mode never calls this: its verdicts are unchanged.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence

from ragassay.embed import Embedder

from .clauses import ONLY, Part, clause_parts, part
from .lexical import ANTONYMS, antonyms_in, name_present, stem
from .normalise import quantity_present
from .paraphrase import LIMITED, distributes, negations_of
from .polarity import antonym_pool
from .relations import relation_turned
from .sentences import SentenceInfo

RESTATEMENT_COSINE = 0.75  # transformer cosine of claim and sentence, at least (dev)

# hedges of modality, frequency and quantity: one side's needs one on the other
HEDGES = frozenset({
    "may", "might", "can", "could", "usually", "normally", "generally", "typically",
    "often", "sometimes", "occasionally", "mostly", "frequently", "rarely", "some",
    "most", "possibly", "perhaps", "probably", "likely", "maybe",
})
# a claim for every thing ("all", "every") and for every time ("always", "at any time")
_EVERY = frozenset({"every", "all", "each", "everyone", "everything", "everybody"})
_ALWAYS = frozenset({"always", "anytime", "whenever"})
_ALWAYS_PHRASES = (("any", "time"),)
# a condition on what is said (counted: one added or dropped blocks the floor)
_CONDITIONS = frozenset({"if", "unless", "when", "whenever", "provided", "providing",
                         "except", "excluding", "once"})
_CONDITION_PHRASES = (("as", "long", "as"), ("so", "long", "as"), ("on", "condition"))
# relations and ordinals that lexical.ANTONYMS does not pair
_TURNED = (("fewer", "more"), ("earliest", "latest"), ("longer", "shorter"),
           ("over", "under"), ("min", "max"), ("highest", "lowest"), ("top", "bottom"),
           ("initial", "final"), ("least", "most"))


def _has_phrase(toks: Sequence[str], phrases: Sequence[tuple[str, ...]]) -> int:
    """How many times the tokens hold one of the phrases."""
    return sum(1 for h in phrases for i in range(len(toks) - len(h) + 1)
               if tuple(toks[i:i + len(h)]) == h)


def _conditions(toks: Sequence[str]) -> int:
    """The conditions the tokens state ("as long as" once, not "as" and "as")."""
    return sum(1 for t in toks if t in _CONDITIONS) + _has_phrase(toks, _CONDITION_PHRASES)


def _only(p: Part) -> bool:
    """Whether it restricts what it says: "only", or "exclusive to", "restricted to",
    "limited to", "reserved for" (paraphrase.LIMITED; not a condition's "if")."""
    return not ONLY.isdisjoint(p.info.tokens) or bool(LIMITED.search(p.text))


def _hedged(toks: Iterable[str]) -> bool:
    return not HEDGES.isdisjoint(toks)


def _for_every_case(p: Part, u: Part) -> bool:
    """Whether the sentence covers every case the claim does: a claim for every thing
    needs a sentence universal over the same things (a list, "in English and French",
    is not "all languages"; "each event" is no "every entrant"); one for every time
    needs that, or a sentence with no restrictor, condition or hedge ("opens at 7am"
    is "always opens at 7am")."""
    toks, theirs = p.info.tokens, u.info.tokens
    said = set(p.quantified) - {None}  # what the claim quantifies: the sentence's too
    universal = distributes(u, p) and (not said or said <= set(u.quantified) or any(
        t == "per" and stem(theirs[k + 1]) in said for k, t in enumerate(theirs[:-1])))
    always = not _ALWAYS.isdisjoint(toks) or bool(_has_phrase(toks, _ALWAYS_PHRASES))
    if not _EVERY.isdisjoint(toks) or (p.universal and not always):
        return universal
    if not always:
        return True
    return universal or not (u.restricted or _conditions(theirs) or _hedged(theirs))


# a time relation one side states and the other does not
_WHEN = frozenset({"before", "after", "until", "till", "since", "prior", "afterwards",
                   "beforehand"})
# a bound's direction as the normaliser writes it ("maximum 12" is "up to 12")
_UPPER = (("up", "to"), ("at", "most"), ("no", "more", "than"))
_LOWER = (("at", "least"), ("no", "less", "than"), ("no", "fewer", "than"))


def _bounds(toks: Sequence[str]) -> tuple[bool, bool]:
    """Whether the tokens bound a figure from above, and from below."""
    return bool(_has_phrase(toks, _UPPER)), bool(_has_phrase(toks, _LOWER))


def _turned(s: SentenceInfo, c: SentenceInfo) -> bool:
    """Whether a word of the claim meets its antonym or opposite relation in the
    sentence, neither side saying both (lexical.ANTONYMS and `_TURNED`), a bound
    turned ("up to" where the sentence says "at least"), or a time relation
    ("before", "after", "until") on one side only."""
    (up, low), (c_up, c_low) = _bounds(s.tokens), _bounds(c.tokens)
    if (up and c_low and not low and not c_up) or (low and c_up and not up and not c_low):
        return True
    mine, theirs = frozenset(s.tokens), frozenset(c.tokens)
    if (mine ^ theirs) & _WHEN:
        return True  # "after the class" for "in the class": another time, no rewording
    pairs = {(a, b) for a in mine - theirs for b in ANTONYMS.get(a, ())}
    pairs |= {x for a, b in _TURNED for x in ((a, b), (b, a))}
    return any(a in mine and a not in theirs and b in theirs and b not in mine
               for a, b in pairs)


def agrees(s: SentenceInfo, c: SentenceInfo) -> bool:
    """Whether the claim `s` and the context sentence `c` agree on every checkable slot
    (module docstring), the cosine aside."""
    if s.asks or not s.words:
        return False
    if any(not quantity_present(q, c.values) for q in s.numbers):
        return False
    if any(not name_present(n, c.stem_set) for n in s.names):
        return False
    p, u = part(s.text), part(c.text)
    mine, theirs = frozenset(s.tokens), frozenset(c.tokens)
    if negations_of(p, u) != negations_of(u, p) or _hedged(mine) != _hedged(theirs):
        return False
    if _conditions(s.tokens) != _conditions(c.tokens) or _only(p) != _only(u):
        return False
    if not _for_every_case(p, u):
        return False
    if _turned(s, c) or relation_turned(p, u) or any(
            antonyms_in(w, antonym_pool(u), u.info.tokens) for _, w in p.pairs
            if w not in u.words):
        return False
    values = {v for v, _ in u.figures}
    return all(len(x.words) < 2 or x.words & u.words or any(v in values for v, _ in x.figures)
               for x in clause_parts(s.text))


def restated_by_transformer(claims: Sequence[SentenceInfo | None],
                            candidates: Sequence[Sequence[SentenceInfo]],
                            embedder: Embedder) -> list[bool]:
    """Per claim (None: not one to lift), whether one of its `candidates` (the context
    sentences it is aligned with) agrees with it (`agrees`) and the transformer reads
    the two as a restatement (cosine >= RESTATEMENT_COSINE). Only the pairs that agree
    are embedded, in one call."""
    owner: list[int] = []
    pairs: list[tuple[SentenceInfo, SentenceInfo]] = []
    for i, s in enumerate(claims):
        if s is None:
            continue
        for c in candidates[i]:
            if agrees(s, c):
                owner.append(i)
                pairs.append((s, c))
    out = [False] * len(claims)
    if not pairs:
        return out
    texts = sorted({t for s, c in pairs for t in (s.text, c.text)})
    row = {t: k for k, t in enumerate(texts)}
    emb = embedder.embed(texts)
    for i, (s, c) in zip(owner, pairs, strict=True):
        if float(emb[row[s.text]] @ emb[row[c.text]]) >= RESTATEMENT_COSINE:
            out[i] = True
    return out
