"""A restriction on whom or what a fact applies to, dropped so that it becomes everyone's
(alignment.py; each rule needs the claim to state only the unit's words and figures):

- `subject_widened`: a rule or benefit of a subject the unit narrows ("Members of the
  Rewards Club get free gift wrapping on every order", "Landlords letting more than
  three rooms pay ...") said of its bare noun ("landlords pay ...") or of no one ("gift
  wrapping is free on every order"). The restriction is read from structure: after the
  subject's noun a post-modifier ("with", "who", "over", "aged"), a long "-ing"
  participle, a place or a participle with its preposition, or "of" and a name or a
  membership word;
- `bound_dropped`: "every/any/all" of a noun the unit bounds by a figure ("bookings of
  12 weeks or more", "booked at least 7 days ahead");
- (a ranked one of a kind, "the first Sunday of each month", said of the kind, "on
  Sundays", was read too in session 24 and withdrawn: it flagged a faithful cited answer
  of a held-out set);
- `condition_dropped`: "if ...; otherwise ..." said without the condition;
- `season_dropped`: a recurring time narrowed by "during ..." said without it;
- (only_who.py) `only_dropped`: "Only members can book ..." said of no one or of "you";
- (partial_subject.py) `partial_widened`: "Some food items may ..." said of "Food items".

A question that names the restriction ("Do members get ...?") makes it the answer's
case: the rules stand down when the question has a word of what the claim leaves out;
so does another clause of the claim's own sentence ("Stay three nights or more and
airport transfers are free": the claim is "airport transfers are free").
"""

from __future__ import annotations

from .ceilings import maximum_fixed
from .clauses import POST_MODIFIERS, UNIVERSAL, Part, clause_parts, lemma_stems
from .holders import age_group_dropped, own_words, premodified_dropped
from .lexical import STOPWORDS, stem
from .occasions import ranked_day_dropped
from .only_who import only_dropped
from .partial_subject import partial_widened
from .scope import DEONTIC, GENERIC_SUBJECTS, MEMBERSHIP, NOT_LIMITING, TIMES, placed_after

# verbs that carry a benefit or a rule from the subject to its object; leaving them out
# of a claim ("... is free") drops no restriction of the subject
_LIGHT = frozenset(stem(w) for w in ("get", "gets", "receive", "receives", "have", "has",
                                     "enjoy", "enjoys", "can", "may", "pay", "pays"))

_PREDICATE = 2  # content words a claim states beyond the subject, at least
# what makes a sentence a rule or a benefit of whom it names (no report of what they did)
_RULES = DEONTIC | frozenset({"get", "gets", "receive", "receives", "pay", "pays", "free",
                              "qualify", "qualifies", "earn", "earns", "enjoy", "enjoys"})


def restriction_dropped(p: Part, u: Part, given: frozenset[str] = frozenset(),
                        said: frozenset[str] = frozenset(),
                        known: frozenset[str] | None = None) -> bool:
    """Whether the claim drops the unit's restriction of its subject (`subject_widened`)
    or of what it quantifies by a figure (`bound_dropped`), or a condition whose other
    case the unit states (`condition_dropped`), or a time narrowed by "during"
    (`season_dropped`); `given`: the question's stems; `said`: the words of the claim's
    whole sentence when the claim is a clause of it; `known`: the contexts' stems."""
    if any(t[:1].isdigit() and t not in u.info.tokens for t in p.info.tokens):
        return False  # a figure of the claim's own: about another bearer ("Platform 3")
    if only_dropped(p, u, given, said, known) or partial_widened(p, u, given):
        return True  # "You can book online" for "Only members can book online"
    # a restriction another clause of the claim's sentence states is the clause's case:
    # "Stay three nights or more and airport transfers are free" (a conditional
    # imperative); the unit's subject noun alone restricts nothing ("Place an order and
    # delivery is free" against "Orders over £50 get free delivery")
    given = given | (said - {u.first})
    return (subject_widened(p, u, given) or bound_dropped(p, u, given)
            or age_group_dropped(p, u, _RULES, given)
            or condition_dropped(p, u, given)
            or season_dropped(p, u, given)
            or ranked_day_dropped(p, u, given) or maximum_fixed(p, u))


def subject_widened(p: Part, u: Part, given: frozenset[str] = frozenset()) -> bool:
    """Whether the claim states all it says in the unit's words, and the unit says it of
    a subject it restricts while the claim keeps its bare noun or drops it; `given`: the
    question's stems (a restriction the question names is the answer's case)."""
    s = u.first
    if (s is None or s in TIMES or s in GENERIC_SUBJECTS or not p.words
            or not own_words(p, u) <= u.words or p.restricted
            or u.universal and not p.universal):
        return False
    toks = u.info.tokens
    if not _RULES & set(toks):
        return False  # a report, no rule or benefit: "Shares in the chain rose 4 percent"
    lead = u.info.lead
    if lead >= len(toks) or stem(toks[lead]) != s:
        return False  # the unit opens on something else than its subject's noun
    if s in p.words and p.first != s:
        return False  # the claim keeps the noun elsewhere than as its subject
    left = (u.words - p.words) - _LIGHT
    if not left or left & given or s in given:
        return False
    stems = lemma_stems(toks, u.info.all_stems)
    k = lead  # the subject's head: past the claim's own words ("registered businesses")
    while (s in p.words and k + 1 < len(toks) and stems[k + 1] in p.words
           and toks[k + 1] not in STOPWORDS):
        k += 1
    if len(p.words - set(stems[lead:k + 1])) < _PREDICATE:
        return False  # the claim restates no predicate of it ("the Winter Specials")
    pieces = clause_parts(u.text)
    if len(pieces) > 1 and not p.words <= pieces[0].words:
        return False  # what another clause says, of its own subject ("...; adults pay ...")
    return (_of_name(toks, k, u, p) or _modified(toks, stems, k + 1, p)
            or placed_after(toks, stems, k + 1, p, subject=True)
            or premodified_dropped(p, u, lead, stems, given))


def _modified(toks: tuple[str, ...], stems: list[str], at: int, p: Part) -> bool:
    """Whether the subject's noun is followed at `at` by a post-modifier ("with", "who",
    "over", "aged") or a long "-ing" participle ("landlords letting ..."), and then by a
    content word the claim lacks: a restriction of it the claim leaves out."""
    if at + 1 >= len(toks) or toks[at] in set(p.info.tokens):
        return False
    t = toks[at]
    if not (t in POST_MODIFIERS or (t.endswith("ing") and len(t) > 5
                                    and t not in NOT_LIMITING)):
        return False
    j = at + 1
    while j < len(toks) and toks[j] in STOPWORDS:
        j += 1
    return j < len(toks) and stems[j] not in p.words


def _of_name(toks: tuple[str, ...], at: int, u: Part, p: Part) -> bool:
    """Whether the subject at `at` is followed by "of" and, past determiners, a name or a
    membership word the claim lacks ("Members of the Rewards Club", "holders of an
    annual pass" is no name: "pass" must be a membership word)."""
    if at + 1 >= len(toks) or toks[at + 1] != "of":
        return False
    j = at + 2
    while j < len(toks) and toks[j] in STOPWORDS:
        j += 1
    if j >= len(toks):
        return False
    w = stem(toks[j])
    return w not in p.words and (w in u.capitalised or bool(MEMBERSHIP & set(toks[j:j + 4])))


# after a figure, words that make it a lower bound ("12 weeks or more", "18 and over")
_OR_MORE = frozenset({("or", "more"), ("or", "over"), ("or", "longer"), ("and", "over"),
                      ("or", "above"), ("and", "above"), ("or", "older")})
_WINDOW = 3  # tokens either side of a universal word that name what it quantifies
_RUN = 4  # the claim's own tokens skipped after the noun in the unit, at most
_COMMON = 3  # content words a claim shares with the unit, at least


def bound_dropped(p: Part, u: Part, given: frozenset[str] = frozenset()) -> bool:
    """Whether a claim says "every/any/all" of a noun ("every booking", "groups of any
    size") that the unit bounds by a figure the claim lacks: "of 12 weeks or more", "at
    least 7 days in advance" after the noun, past the claim's own words ("lessons booked
    online at least ..."); the claim states the rest of the unit's fact (three content
    words in common, at least)."""
    ct = p.info.tokens
    marks = [i for i, t in enumerate(ct) if t in UNIVERSAL]
    if not marks or len(p.words & u.words) < _COMMON:
        return False
    cstems = lemma_stems(ct, p.info.all_stems)
    nouns = {cstems[j] for i in marks for j in range(max(0, i - _WINDOW),
                                                     min(len(ct), i + _WINDOW + 1))
             if cstems[j] in p.words}
    ut = u.info.tokens
    us = lemma_stems(ut, u.info.all_stems)
    mine = set(ct)
    for i in range(len(ut)):
        if us[i] not in nouns:
            continue
        j = i + 1
        while j < len(ut) and j - i <= _RUN and ut[j] in mine and not ut[j][:1].isdigit():
            j += 1
        at = _bound_figure(ut, j)
        if at is not None and ut[at] not in mine and ut[at] not in given:
            return True
    return False


def _bound_figure(toks: tuple[str, ...], j: int) -> int | None:
    """Where the figure of a lower bound starting at `j` stands ("of 84 days or more",
    "10 or more", "at least 7 days"), or None."""
    if toks[j:j + 2] == ("at", "least") and toks[j + 2:j + 3] and toks[j + 2][:1].isdigit():
        return j + 2
    if toks[j:j + 1] in (("of",), ("aged",)):
        j += 1  # (the claim's own "of" is skipped before: "groups of | 10 or more")
    if toks[j:j + 1] and toks[j][:1].isdigit():
        after = toks[j + 1:j + 4]
        if any(pair in _OR_MORE for pair in zip(after, after[1:], strict=False)):
            return j
    return None


_OTHERWISE = frozenset({"otherwise", "else"})


def condition_dropped(p: Part, u: Part, given: frozenset[str] = frozenset()) -> bool:
    """Whether the unit says a thing under "if" and then what holds otherwise ("Bag
    storage is free if you have a ticket; otherwise it costs £3") and the claim, not
    restricted itself, restates what comes before "if" (two content words at least) and
    no word of the condition ("Bag storage is free"): it drops the case the unit sets
    apart from the other. A condition the question names (`given`) is the answer's."""
    toks = u.info.tokens
    if p.restricted or "if" not in toks or not p.words <= u.words:
        return False
    at = toks.index("if")
    end = next((j for j in range(at, len(toks)) if toks[j] in _OTHERWISE), None)
    if end is None:
        return False
    stems = lemma_stems(toks, u.info.all_stems)
    head = {stems[j] for j in range(at)} & u.words
    cond = ({stems[j] for j in range(at + 1, end)} & u.words) - head
    return bool(cond) and not cond & (p.words | given) and len(p.words & head) >= 2


def season_dropped(p: Part, u: Part, given: frozenset[str] = frozenset()) -> bool:
    """Whether the unit places a recurring time of the claim's within a longer one ("on
    Tuesday evenings during the summer term") and the claim, in the unit's words only
    (three at least), keeps the time and drops the "during" phrase ("on Tuesday
    evenings"): what it says holds at fewer times than the claim says."""
    toks = u.info.tokens
    if "during" not in toks or "during" in p.info.tokens or len(p.words) < _COMMON or (
            not p.words <= u.words):
        return False
    stems = lemma_stems(toks, u.info.all_stems)
    for d in range(1, len(toks) - 1):
        if toks[d] != "during" or stems[d - 1] not in TIMES or stems[d - 1] not in p.words:
            continue
        j = d + 1
        while j < len(toks) and toks[j] in STOPWORDS:
            j += 1
        if j < len(toks) and stems[j] not in p.words | given:
            return True
    return False
