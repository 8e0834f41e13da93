"""The polarity of a claim against a unit that restates it (alignment.py): negations
bearing on a word the other states, antonyms, and privatives ("slip-resistant",
"dairy-free": a negation of the word in other words, as "non-slip" is one). Also the
two conflicts of polarity alignment checks beyond a restating unit: `turned_elsewhere`
(a loose restatement with its polarity turned) and `even_so` ("even if C" against the
unit's "unless C").
"""

from __future__ import annotations

from collections.abc import Sequence
from functools import lru_cache

from .all_times import all_times_row
from .charges import charge_row, turned_charge
from .clauses import LIGHT_VERBS, Part, clause_parts, is_negation, lemma_stems, part
from .coverage import coverage_row, same_coverage, turned_coverage
from .deontic import same_ban, turned_row, turned_stance
from .inclusion import inclusion_row
from .inflection import bases, with_bases
from .lexical import STOPWORDS, antonyms_in, stem
from .modal_denial import denied_modality, joint_denials
from .necessity import need_row, same_denied_need, turned_need
from .one_denial import denies_too
from .placed import denied_bound
from .places import other_place
from .privative import balanced_by_privatives
from .sentences import token_view
from .units import Unit, Units
from .unless_without import must_as_without, only_if_as_without, unless_as_without
from .waived import turned_waiver, waiver_row

_PRIVATIVE = frozenset({"free", "resistant", "proof", "less"})
_SET_ASIDE = frozenset({("rather", "than"), ("instead", "of")})
# a negated light verb's object ("can't make the appointment") only pairs with a negation
# of it ("unable to climb" / "can't make the climb"), never turns by itself ("Patients who
# cannot attend their appointment should call ...")
_LIGHT_HEADS = frozenset(stem(w) for w in LIGHT_VERBS)
# a set-aside under a choice or preference excludes nothing ("you can opt for store credit
# instead of cash", "Members may choose monthly rather than annual billing")
_CHOICE = frozenset({"may", "can", "could", "choose", "chooses", "opt", "opts", "prefer",
                     "prefers", "option", "if", "wish", "like"})


def privative(p: Part) -> frozenset[str]:
    """The stems a clause says its subject is without ("slip resistant", "dairy free",
    "water proof": a hyphen is a space here) or sets aside ("encouraged rather than
    required", "instead of"): a negation of them in other words, as "non-slip" is one.
    Read only to cancel a negation of the same word on the other side, never to turn."""
    toks = p.info.tokens
    return _privative(p.info.text, not _CHOICE & set(toks)) if any(
        t in _PRIVATIVE for t in toks) or any(
        pair in _SET_ASIDE for pair in zip(toks, toks[1:], strict=False)) else frozenset()


@lru_cache(maxsize=4096)
def _privative(text: str, set_aside: bool = True) -> frozenset[str]:
    info = token_view(text)
    toks = info.tokens
    stems = lemma_stems(toks, info.all_stems)
    # (not a noun or a comparison: "need proof of address", "costs less than"; nor a verb
    # of having or giving, whose "free" is the price of what is had: "offers free tours")
    out = {stems[i] for i in range(len(toks) - 1) if toks[i + 1] in _PRIVATIVE
           and toks[i] not in STOPWORDS and toks[i + 2:i + 3] not in (("of",), ("than",))
           and toks[i] not in _HAS}
    out.update(stems[i + 2] for i in range(len(toks) - 2) if set_aside and (
        toks[i], toks[i + 1]) in _SET_ASIDE and toks[i + 2] not in STOPWORDS)
    return frozenset(out)


# "no charge" / "free of charge": a price denied is what "free" says
_PRICES = frozenset(stem(w) for w in ("charge", "cost", "fee", "price"))


_NO_PRICE = frozenset({"no", "extra", "additional", "of"})  # "free of charge", "no fee"


def free_price(head: str, other: Part) -> bool:
    """Whether a negation of a price (`head`: "at no charge") says what the other side's
    "free" says ("free of charge", "free"): it says "free", not negated, and names no
    price of its own ("free for members; guests pay a fee" says both)."""
    toks, stems = other.info.tokens, other.info.all_stems
    return head in _PRICES and "free" in toks and "free" not in other.negations and not any(
        x in _PRICES and not (k and toks[k - 1] in _NO_PRICE) for k, x in enumerate(stems))


_LAST = stem("last")
_DURATION_VERB = frozenset({"lasts", "lasted", "lasting"})
# before "last" as an adjective: "the last 10 minutes", "your last session"
_BEFORE_ADJECTIVE = frozenset({"the", "a", "an", "your", "our", "their", "its", "his",
                               "her", "my", "this", "that", "these", "those", "each",
                               "every", "very", "at"})


def antonym_pool(u: Part) -> frozenset[str]:
    """The unit's stems a claim's word may be the antonym of: all of them, less "last"
    where each "last" is the verb of a length of time ("An assessment lasts 45 minutes",
    "Sessions last 90 minutes" say nothing of a "first" visit; "the last 10 minutes"
    is the adjective)."""
    if _LAST not in u.stems:
        return u.stems
    toks = u.info.tokens
    verbs = all(t in _DURATION_VERB or (
        t == "last" and 0 < k < len(toks) - 1 and toks[k - 1] not in _BEFORE_ADJECTIVE
        and toks[k + 1][:1].isdigit()) for k, t in enumerate(toks) if stem(t) == _LAST)
    return u.stems - {_LAST} if verbs else u.stems


_HAS = frozenset({"have", "has", "had", "having", "include", "includes", "included",
                  "including", "offer", "offers", "offered", "provide",
                  "provides", "provided", "get", "gets", "available", "there", "option",
                  "run", "runs", "with", "give", "gives", "given", "need", "needs", "needed",
                  "require", "requires", "required"})


def _has(p: Part) -> bool:
    """Whether the claim says something exists, is had or is needed: only then does a
    unit's "no X Y" bear on its Y ("You need a licence" / "No boating licence is
    required"), not where the claim says a predicate of its own of Y ("Parking at the
    station costs £5" / "no free parking at the station", review 19c)."""
    return bool(_HAS & set(p.info.tokens))


def polarity(p: Part, u: Part, antonyms: int = 0, given: frozenset[str] = frozenset(),
             phrases: bool = False) -> str | None:
    """"negation" or "antonym" when the polarity of what both say differs: negations
    bearing on a word the other states (a negation of something the other does not say
    is not counted), and words replaced by their antonyms (`antonyms`: how many).
    `given`: the words the unit takes from its sentence (a clause without a subject of
    its own). `phrases`: a negation bears on any word of its reach ("no boating licence":
    the licence too), read for a unit that restates the claim (`unit_flip`); elsewhere
    a unit on another subject would turn by it ("no yearly fee" of the Classic card, "an
    annual fee" of the Gold card)."""
    # (a word the other side says is "-resistant", "-free" of: "non-slip" / "slip-resistant")
    # (but "not nut-free" against "nut-free" negates the same word: a flip)
    mine, theirs = privative(p), privative(u)
    # (a negated word the unit says by its antonym bears on it: "does not open" /
    # "is closed", a negation and an antonym, agree)
    turned = {w for t, w in p.pairs if antonyms_in(t, antonym_pool(u), u.info.tokens)}
    # (and the other way round: "is forbidden" / "is not allowed", the unit's negation
    # bears on the word the claim says by its antonym)
    turned_u = {w for t, w in u.pairs if antonyms_in(t, antonym_pool(p), p.info.tokens)}
    reach_p = p.reaches if phrases else tuple(frozenset({h} if h else ()) for h in p.negations)
    reach_u = u.reaches if phrases and _has(p) else tuple(
        frozenset({h} if h else ()) for h in u.negations)
    # (a verb in either form: "are logged" / "do not log", inflection.bases)
    u_stems, p_stems = u.stems | bases(u.info.tokens), p.stems | bases(p.info.tokens)
    n_p = sum(1 for h, reach in zip(p.negations, reach_p, strict=True) if h is not None
              and (with_bases(reach, p.pairs) & u_stems or h in given or h in turned)
              and not (h in _LIGHT_HEADS and h not in u.stems and h not in given
                       and h not in turned and not reach & set(u.negations))
              and (h not in theirs or h in mine) and not free_price(h, u))
    denied = [(with_bases(reach, u.pairs) & p_stems) or {h} for h, reach in zip(
        u.negations, reach_u, strict=True) if h is not None and (with_bases(
            reach, u.pairs) & p_stems or h in turned_u)
        and (h not in mine or h in theirs) and not free_price(h, p)]
    n_p, n_u = joint_denials(p, n_p), joint_denials(u, len(denied))
    # ("unless Y" / "only if Y" against a counted "not ... without Y": one condition)
    n_p, n_u = (max(0, n_p - unless_as_without(p, u, n_u)),
                max(0, n_u - unless_as_without(u, p, n_p)))
    n_p, n_u = n_p + only_if_as_without(p, u, n_u), n_u + only_if_as_without(u, p, n_p)
    # ("must have Y to X" against "can't X without Y": a double negative, one need)
    n_p, n_u = n_p + must_as_without(p, u, n_u), n_u + must_as_without(u, p, n_p)
    n_p += denied_modality(p, u, n_p, n_u)
    n_u += denied_modality(u, p, n_u, n_p)
    if n_u == 1 and n_p == 0 and len(denied) == 1 and denies_too(p, denied[0]):
        n_p = 1  # "aren't accepted in kerbside recycling" / "cannot be recycled"
    if (n_p + n_u + antonyms) % 2 == 0:
        return None
    if not antonyms and balanced_by_privatives(p, u, n_p, n_u):
        return None  # "exempt from duty" / "no duty is charged": one denial each (privative.py)
    if not antonyms and same_ban(p, u):
        return None  # "may not bring X" / "Bringing X is not allowed": one ban (deontic.py)
    return "negation" if (n_p + n_u) % 2 else "antonym"


def unit_flip(p: Part, u: Unit, antonyms: int, units: Units | None = None) -> str | None:
    """`polarity` of a claim against a unit that restates it, less the flips that are
    none: a negation the unit's sentence sets under a condition the clause lacks, "unless
    C" against "not ... if C", an elliptic "not for X" of a case the unit does not state,
    a denied comparison that is the unit's bound (`placed.denied_bound`), and a flip a
    "no" phrase's last word makes where another sentence of the unit's passage states
    that word ("We offer no express delivery to Northern Ireland. Standard delivery ...
    takes 5 days." for "We offer delivery to Northern Ireland", review 19d)."""
    flip = polarity(p, u.part, antonyms, u.inherited, phrases=True)
    if flip is None:
        # ("welcome" / "not permitted"; "optional" / "is required")
        return "negation" if turned_stance(p, u) or (units is not None and (
            turned_need(p, u, units.passage(u.row))
            or turned_charge(p, u, units.passage(u.row))
            or turned_coverage(p, u, units.passage(u.row)))
            or turned_waiver(p, u)) else None  # "must be accompanied" / "can go alone"
    if flip == "negation" and same_denied_need(p, u.part):
        return None  # "You don't have to reserve" / "Reservations are not required"
    if flip == "negation" and same_coverage(p, u):
        return None  # "X is not covered" / "covers Y but excludes X"
    if flip and units is not None and _stated_apart(u, units) and polarity(
            p, u.part, antonyms, u.inherited) is None:
        return None
    if flip and u.clause and "if" in u.sentence.info.tokens and "if" not in u.part.info.tokens \
            and not {"if", "unless"} & set(p.info.tokens) and not _grant_denied(p, u):
        return None  # "You should not have X if C": not having X is C's, not the claim's
    if flip and "unless" in p.info.tokens and "if" in u.part.info.tokens and any(
            h is not None for h in u.sentence.negations):
        return None  # "..., unless C" says what "not ... if C" says
    if flip and p.opening == "elliptic" and not part(p.text).words <= u.words:
        return None  # "..., not for damage to your own car": a case the unit does not state
    if flip and u.clause and _denied_beside(p, u):
        return None  # "IT does not issue them" / "issued by Facilities, not by IT"
    if flip == "negation" and (denied_bound(p, u.part) or denied_bound(u.part, p)):
        return None  # "can't weigh more than 95 kg" / "the maximum rider weight is 95 kg"
    return flip


def _grant_denied(p: Part, u: Unit) -> bool:
    """Whether the claim flatly denies what the unit's clause grants under its sentence's
    condition ("Guests may not bring wine" / "Guests may bring wine if they pay
    corkage"): the clause is not negated, the claim is, and the claim says no word its
    sentence lacks (a word of its own may name the case the condition leaves out:
    "Opened items can't be returned" / "Items can be returned if unopened"), nor a
    condition or a figure of its own ("not without a fee", "not after 30 days")."""
    return (all(h is None for h in u.part.negations) and any(h is not None for h in p.negations)
            and not (_CONDITIONAL | {"without"}) & set(p.info.tokens) and not p.figures
            and p.words <= u.sentence.words | bases(u.sentence.info.tokens))


# what opens an elliptic denial before what it denies ("but not by X", "not for Y")
_ELLIPSIS_OPENERS = frozenset({"but", "and", "not", "no", "by", "for", "at", "in", "on", "to",
                               "from", "with", "of", "the", "a", "an", "any"})


def _denied_beside(p: Part, u: Unit) -> bool:
    """Whether a negated claim restates the elliptic denial beside the unit's clause in
    its sentence ("A, not B": the sentence affirms its predicate of A and denies it of
    B): the claim denies the predicate of what that denial names, every word the
    denial holds past its opening being the claim's ("IT does not issue them" for
    "Badges are issued by the Facilities team, not by IT"). A claim denying it of what
    the unit's clause names keeps its flip."""
    if not p.negations:
        return False
    toks = set(p.info.tokens)
    for c in clause_parts(u.sentence.text):
        if c.opening != "elliptic" or not c.negations or c.text == u.part.text:
            continue
        named = [t for t in c.info.tokens[c.info.lead:] if t.isalnum()
                 and t not in _ELLIPSIS_OPENERS and not is_negation(t)]
        if named and set(named) <= toks:
            return True
    return False


def _stated_apart(u: Unit, units: Units) -> bool:
    """Whether another sentence of the unit's passage states a word only a "no" phrase's
    reach denies (`Part.reaches` beyond the heads)."""
    reached = frozenset().union(*u.part.reaches) - set(u.part.negations)
    ctx = units.ctx
    return bool(reached) and any(reached & units.sentence(j).part.stems
                                 for j in ctx.rows(ctx.docs[u.row]) if j != u.row)


# a claim under a condition says less than its clause alone ("You can X if C" against
# "You cannot X unless C"); "even if", "even with" deny the condition instead
_CONDITIONAL = frozenset({"if", "unless", "when", "provided", "long", "except", "only"})
MIN_SHARED = 3  # content words a claim and a unit share, its subject and the turned one among them
SHARED_SHARE = 0.6  # ... and this share of the claim's at least


def turned_elsewhere(p: Part, near: Sequence[Unit], loose: Sequence[Unit] = (),
                     units: Units | None = None) -> int | None:
    """The context sentence of a unit that says of the claim's subject what the claim
    says with its polarity turned, too loosely to restate it ("Pets are not welcome in
    the hotel's rooms" / "Pets are welcome in ground-floor rooms for ...", "Re-entry is
    not permitted, even with a hand stamp" / "Re-entry is permitted ... if you get your
    hand stamped"): they share the subject and MIN_SHARED words (SHARED_SHARE of the
    claim's), and no unit sharing as many says it with the claim's polarity, with the
    subject or without it; else one that takes the opposite deontic stance on what the
    claim is about (`deontic.turned_row`, among the `loose` units sharing a word with
    it: "pay by cheque" / "no longer accept cheques"); else one that says the opposite
    of whether it is needed (`necessity.need_row`: "optional" / "is required"). None
    when there is none."""
    row = _turned_loosely(p, near)
    if row is None:
        row = turned_row(p, loose or near)
    if row is None and units is not None:
        row = need_row(p, loose or near, units)
    if row is None and units is not None:
        row = charge_row(p, loose or near, units)
    if row is None and units is not None:
        row = coverage_row(p, loose or near, units)  # "covers X" / "excludes X"
    if row is None:
        row = waiver_row(p, loose or near)  # "must be accompanied" / "can go alone"
    if row is None:
        row = inclusion_row(p, loose or near)  # "can't join" / "open to all, including"
    if row is None:
        row = all_times_row(p, loose or near)  # "not staffed at night" / "around the clock"
    return row


def _turned_loosely(p: Part, near: Sequence[Unit]) -> int | None:
    toks = set(p.info.tokens)
    if p.first is None or (_CONDITIONAL & toks and "even" not in toks) or not _verbal(p):
        return None
    scored = []
    for u in near:
        if not _verbal(u.part) or other_place(p, u.part):
            continue  # (a unit on another place says nothing of the claim's: "in the lake")
        shared = p.words & u.words
        if len(shared) < max(MIN_SHARED, SHARED_SHARE * len(p.words)):
            continue
        antonyms = sum(1 for t, w in p.pairs if w not in u.words
                       and antonyms_in(t, antonym_pool(u.part), u.part.info.tokens))
        # (an elliptic denial, "but not at X", against a negated unit: both deny)
        kind = None if p.opening == "elliptic" and u.part.negations else polarity(
            p, u.part, antonyms, u.inherited)
        scored.append((len(shared), kind, u.row, p.first in u.words))
    # (a unit without the subject turns nothing, but one as close the claim's way
    # outweighs the turned one: "Entry to the main galleries is free" for "The museum
    # does not charge for entry to the main galleries", beside "The museum charges for
    # entry to special exhibitions")
    turned = [(n, row) for n, kind, row, subject in scored if kind is not None and subject]
    if not turned:
        return None
    most, row = max(turned)
    if any(kind is None and n >= most for n, kind, _, _ in scored):
        return None  # (a unit as close says it the claim's way)
    return row


# negations that are no verb's ("no experience", "costs nothing", "without consent"):
# what they bear on is read too loosely to set a unit against a claim by it alone
_NOMINAL = frozenset({"no", "nothing", "none", "nobody", "neither", "nor", "without",
                      "lack", "lacks", "fail", "fails", "failed", "unable"})


def _verbal(p: Part) -> bool:
    """Whether every negation of the clause is a verb's ("is not", "can't", "never")."""
    return not _NOMINAL & set(p.info.tokens[p.info.lead:])


# what "even" stresses a claim holds in spite of; what a unit's exception opens with
_EVEN_CASES = frozenset({"if", "when", "with", "though", "after", "once"})
_EXCEPTIONS = frozenset({"unless", "except", "if", "when", "with", "once", "provided"})
# content words after the unit's "unless" read as its condition, beyond the claim's
# case's own: "unless you get your hand stamped" for "even with a hand stamp"; not the
# rest of the sentence ("... unless there is a storm warning, and stalls have covers for
# when it rains" says nothing of running in the rain)
CASE_SLACK = 2


def even_so(p: Part, units: Units, doc: int | None, need: int) -> int | None:
    """The context sentence whose exception the claim says its statement holds in spite
    of ("..., even if you are ill and provide a doctor's note" against "..., unless you
    are ill and provide a doctor's note"), or whose condition it says the statement's
    opposite holds in spite of ("not permitted, even with a hand stamp" against
    "permitted ... if you get your hand stamped"): the claim's words after "even if"
    are mostly the first words after the unit's "unless" / "if" (CASE_SLACK more than
    they are), and its other words the unit's (read among the units sharing `need` of
    its words, only for a claim with "even if": every claim sentence passes here). None
    when there is none."""
    toks = p.info.tokens
    at = next((i for i in range(len(toks) - 1)
               if toks[i] == "even" and toks[i + 1] in _EVEN_CASES), None)
    if at is None:
        return None
    stems = lemma_stems(toks, p.info.all_stems)
    case = {stems[k] for k in range(at + 2, len(toks)) if stems[k] in p.words}
    main = p.words - case
    if not case or len(main) < MIN_SHARED - 1:
        return None
    denied = any(is_negation(t) for t in toks[:at])
    for u in units.near(p, doc, need):
        theirs = u.sentence.info.tokens
        if "even" in theirs or not main <= u.sentence.words:
            continue
        ustems = lemma_stems(theirs, u.sentence.info.all_stems)
        for i, t in enumerate(theirs):
            if t not in _EXCEPTIONS:
                continue
            after = [ustems[k] for k in range(i + 1, len(theirs)) if ustems[k] in u.sentence.words]
            if len(case & set(after[:len(case) + CASE_SLACK])) * 2 < len(case):
                continue
            # "X unless C" against "X even if C"; "X if C" against "not X even if C"
            # ("X unless C1, and Y when C2": the "unless" denies no statement of "when")
            same = denied == any(is_negation(x) and x not in _UNLESS for x in theirs[:i])
            if same == (t in _UNLESS):
                return u.row
    return None


_UNLESS = frozenset({"unless", "except"})
