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
  ...", and the rule then lifted more unfaithful claims than faithful ones);
- polarity: as many negations on each side, no word of the claim whose antonym the
  sentence has;
- scope: a universal claim ("every", "all") only for a universal sentence, and none for
  a sentence that restricts ("only", "unless", "except");
- substitution, not addition: the claim's words the sentence lacks are no more than
  the sentence's words the claim lacks, plus two (a word replaced by two or three:
  "placed a hold" / "reserved"), and it shares some content word with the sentence or
  is close to it as a whole (sentence embeddings, PARAPHRASE_COSINE); each clause of the
  claim shares a content word or a figure with the sentence.
An invented detail adds words the sentence has no counterpart for ("..., and shipping
back is free"), so it fails the last check; a changed figure or name fails the first.
Such a claim's support is raised to at least PARAPHRASE_SUPPORT (features.rule_logits);
a contradiction, a missing key term or a clause no context states (alignment's invented
detail) still caps it.
"""

from __future__ import annotations

from .clauses import Part, clause_parts, part
from .lexical import antonym_stems, name_present
from .normalise import quantity_present
from .sentences import SentenceInfo

PARAPHRASE_COSINE = 0.6  # sentence-embedding closeness of claim and sentence at least
SPARE_WORDS = 2  # claim words beyond the sentence's replaced ones allowed


def _negations(p: Part) -> int:
    return sum(1 for h in p.negations if h is not None)


def restated_in_other_words(s: SentenceInfo, c: SentenceInfo, cosine: float) -> bool:
    """Whether the claim `s` restates the context sentence `c` in other words (module
    docstring); `cosine`: their sentence embeddings' cosine."""
    if s.asks or not s.words or cosine < PARAPHRASE_COSINE:
        return False
    if not s.numbers:
        return False  # nothing to check a restatement by (a name mostly says the topic)
    if any(not quantity_present(q, c.values) for q in s.numbers):
        return False
    if any(not name_present(n, c.stem_set) for n in s.names):
        return False
    p, u = part(s.text), part(c.text)
    if _negations(p) != _negations(u):
        return False
    if any(antonym_stems(t) & u.stems for t, w in p.pairs if w not in u.words):
        return False
    if (p.universal and not u.universal) or (u.restricted and not p.restricted):
        return False
    figures = {str(int(n)) if n == int(n) else str(n) for n, _ in p.figures}
    extra = [w for w in p.words - u.words if w not in figures]
    spare = [w for w in u.words - p.words if w not in figures]
    if len(extra) > len(spare) + SPARE_WORDS or not p.words & u.words:
        return False
    # each clause of it restates part of the sentence: shares a word or a figure with it
    # ("..., and shipping back is free" shares none: an addition, not a rewording)
    values = set(u.figures)
    return all(len(c.words) < 2 or c.words & u.words or any(
        f in values or (f[0], None) in values for f in c.figures)
        for c in clause_parts(s.text))
