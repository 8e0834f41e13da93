"""A relation turned in stopwords: "after" for "before", "below" for "above", "without"
for "with", with the same things on the same side, which the polarity checks of content
words do not see (issue #38, session 10): claim alignment's antonym conflict
(alignment.py) and no restatement in other words (paraphrase.py)."""

from __future__ import annotations

from .clauses import Part, lemma_stems
from .lexical import STOPWORDS

# relations in time and place whose words are stopwords, so that the polarity checks of
# content words do not see them turned: "after the first away game" for "before the
# first home game" ("over"/"under" and "more"/"less" have other senses: "over the phone",
# "no more than 3" for "less than 3")
_TURNED = (("before", "after"), ("above", "below"), ("with", "without"),
           ("inside", "outside"))


def _sides(p: Part, word: str) -> tuple[frozenset[str], frozenset[str]] | None:
    """The content stems before and after the first `word` of the part, or None."""
    toks = p.info.tokens
    if word not in toks:
        return None
    i = toks.index(word)
    stems = lemma_stems(toks, p.info.all_stems)
    content = [k for k in range(len(toks)) if toks[k] not in STOPWORDS]
    return (frozenset(stems[k] for k in content if k < i),
            frozenset(stems[k] for k in content if k > i))


def relation_turned(p: Part, u: Part) -> bool:
    """Whether the claim says one of a relation's two words where the sentence says the
    other and not the claim's (`_TURNED`), with the same things on the same side: "30
    minutes after departure" for "30 minutes before departure", but not the converse
    "the dinner is after the drinks" for "the drinks are before the dinner" (what comes
    before the word in the claim comes after it in the sentence)."""
    mine, theirs = set(p.info.tokens), set(u.info.tokens)
    for a, b in _TURNED:
        for x, y in ((a, b), (b, a)):
            if x in mine and x not in theirs and y in theirs and y not in mine:
                claim, unit = _sides(p, x), _sides(u, y)
                if claim and unit and len(claim[0] & unit[0]) > len(claim[0] & unit[1]):
                    return True
    return False
