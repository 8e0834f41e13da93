""""Both X" said of two cases where the contexts say it of one: "Both of our branches are
open 24 hours" against "The Oak Lane branch is open 24 hours a day. Our Mill Street branch
is open 7am-10pm". "both" quantifies no word the scope rules read (scope.py reads "all",
"every", "any"), and the claim's own noun ("branches") is often in no context, so its
predicate is the evidence: one context sentence states it, of a case the claim does not
name, and another sentence of that passage sets a case apart (it restricts, denies, or
gives a figure of its own): the claim widens what the one says to both. Not "both A and
B" (the two named), nor a sentence that states the predicate of two cases itself ("The
main pool and the learner pool are heated") or two sentences that each do.
"""

from __future__ import annotations

from .clauses import Part, is_negation
from .lexical import STOPWORDS, crude_root
from .units import Units

_TWO = frozenset({"both", "two", "each", "all", "every", "and"})


def both_head(p: Part) -> str | None:
    """The content stem "both" quantifies ("both of our laundrettes": laundrette), or None
    (no "both", or "both A and B": an "and" anywhere after it, so "both X, and ..." too)."""
    toks, stems = p.info.tokens, p.info.all_stems
    for i, t in enumerate(toks):
        if t != "both" or "and" in toks[i + 1:]:
            continue  # ("both out on the course and in the clubhouse": any "and" after)
        return next((stems[j] for j in range(i + 1, len(toks))
                     if toks[j] not in STOPWORDS and not toks[j][:1].isdigit()), None)
    return None


def _sets_apart(s: Part, pred: frozenset[str]) -> bool:
    """Whether a sentence limits or denies what it says, or gives a figure (but where it
    restates two words of the predicate itself: "The York office has a free car park
    for guests with 10 spaces", its own case put in other words)."""
    said = sum(crude_root(w) in {crude_root(x) for x in s.words} for w in pred)
    return s.restricted or any(is_negation(t) for t in s.info.tokens) or bool(
        s.figures) and said < 2


def both_widened(p: Part, units: Units, doc: int | None = None) -> int | None:
    """The one context sentence that states the predicate of a "both X" claim (all its
    content words but X, and but one more of three or more) of one case, where another
    sentence of its passage sets a case apart; None otherwise. `p` is a whole sentence
    (dropped_case: a clause's "both" may have its "and" in the next clause)."""
    head = both_head(p)
    if head is None:
        return None
    pred = p.words - {head}
    if len(pred) < 2:
        return None
    rows = units.ctx.rows(doc) if doc is not None else range(len(units.ctx.infos))
    need = len(pred) - (len(pred) > 2)  # (one word of three or more put otherwise)
    full = [j for j in rows if len(pred & units.sentence(j).part.words) >= need]
    if len(full) != 1:
        return None  # (none, or two sentences each stating it: both cases said)
    row = full[0]
    s = units.sentence(row).part
    first = min((k for k, x in enumerate(s.info.all_stems) if x in pred), default=0)
    if (_TWO & set(s.info.tokens[:first]) or "both" in s.info.tokens
            or list(s.info.all_stems).count(head) > 1):
        return None  # "The main pool and the learner pool are heated": the two said
    passage = units.ctx.rows(units.ctx.docs[row])
    return row if any(j != row and _sets_apart(units.sentence(j).part, pred)
                      and (pred | {head}) & units.sentence(j).part.words
                      for j in passage) else None
