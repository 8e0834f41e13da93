"""A claim that gives one thing's handler to another thing (claim-level alignment, session
26, issue #38's entity swaps): "For a password reset, contact HR" against "Password
resets are handled by the IT department" beside "Holiday requests go to HR"; "Get your
badge at reception" against "Badges are issued by the security office" beside "Parcels
can be collected from reception".

A sentence names the party that deals with its thing in a slot a careful reader knows:
the noun phrase after "by", "with", "through", "via", "from", "at", "to" (a "to" with a
determiner or a name after it: not "to cancel"; never a time: "from April"), or after a
verb of getting in touch ("contact", "ask", "call", "email", "phone", "ring", "speak
to"): its party (a run of content words, over an "and" or "of" between names: "the
National Compliance and Enforcement Service"). The claim keeps the thing of one context
sentence T (a content word of T no other sentence O says, that is no party of T's nor the
unit of a figure) but
names the party of O (every word of one of O's parties, one of them O's own, T lacks it)
and not all of T's party's own words (those O lacks); it says of O at most MAX_OF_OTHER
words besides its party (a verb: "report ... to the council"), no more than of T's
thing, and no context sentence says the claim's thing with O's party (then the claim may
restate it), and no sentence shares more of the claim's words besides O's party than T
(then the claim is about that one: the demo's "SAML SSO is available only on the
Enterprise plan, with Okta ... as supported identity providers" is not the support
sentence's "plan" given the SCIM sentence's "identity provider"). The verb may be
reworded: the party's slot, not the verb, is what the two sentences set apart. Left
alone: a denied claim, a comparison, a claim with a pronoun.
"""

from __future__ import annotations

from .clauses import DETERMINERS, Part
from .framed import COMPARES
from .scope import TIMES
from .units import Units
from .weeks import CALENDAR

_AFTER = frozenset({"by", "with", "through", "via", "from", "at"})
_TO = "to"
_CONTACT = frozenset({"contact", "ask", "call", "email", "phone", "ring", "speak", "tell"})
_LEADS = DETERMINERS | frozenset({"our", "your", "their", "its", "his", "her", "my"})
_LINKS = frozenset({"and", "of", "&"})
_REFERRING = frozenset({"he", "she", "it", "they", "this", "these", "those", "it's"})
_HOURS = frozenset({"dawn", "dusk", "noon", "midda", "midni", "sunri", "sunse"})  # stems
MAX_OF_OTHER = 2  # words of the other sentence's own the claim says besides its party


def parties(p: Part) -> list[frozenset[str]]:
    """The content stems of each party the sentence names (module docstring)."""
    toks, stems = p.info.tokens, dict(p.pairs)
    out: list[frozenset[str]] = []
    for i, t in enumerate(toks):
        if t in _CONTACT and i + 1 < len(toks) and toks[i + 1] in {"to", "with"}:
            continue  # ("speak to X": the "to" opens it)
        if t not in _AFTER and t not in _CONTACT and (t != _TO or i == 0):
            continue
        k = i + 1
        while k < len(toks) and toks[k] in _LEADS:
            k += 1
        if t == _TO and k == i + 1 and (k >= len(toks) or stems.get(toks[k], "")
                                        not in p.capitalised):
            continue  # ("to cancel": no determiner, no name)
        run: list[str] = []
        while k < len(toks):
            if toks[k] in stems:
                run.append(stems[toks[k]])
            elif not (run and toks[k] in _LINKS and k + 1 < len(toks)
                      and stems.get(toks[k + 1], "") in p.capitalised):
                break
            k += 1
        if run and not set(run) & (TIMES | CALENDAR | _HOURS):
            out.append(frozenset(run))  # (a time is no party: "from April", "at dawn")
    return out


def handler_swapped(claim: Part, units: Units, doc: int | None = None) -> int | None:
    """The context sentence whose thing the claim gives another sentence's party (module
    docstring), or None."""
    if any(claim.negations) or (COMPARES | _REFERRING) & set(claim.info.tokens):
        return None
    rows = units.rows_of(doc)
    said = claim.words
    units_of = frozenset(k for _, k in claim.figures if k)
    for t in rows:
        tw = units.sentence(t).words
        t_parties = parties(units.sentence(t).part)
        if not t_parties:
            continue
        for o in rows:
            if o == t:
                continue
            ow = units.sentence(o).words
            theirs = [q for q in parties(units.sentence(o).part) if q <= said and q - tw]
            kept = [q for q in t_parties if q - ow and (q - ow) - said]
            if not theirs or not kept:
                continue  # (the claim names no party of O's, or names T's own)
            named = frozenset().union(*theirs)
            t_party = frozenset().union(*kept)
            # (a figure's unit is no thing: "items over £50" is not T's "items up to £50")
            thing = (said & tw) - ow - t_party - units_of
            of_other = len((said & ow) - tw - named)
            if not thing or of_other > min(MAX_OF_OTHER, len(thing)):
                continue  # (not T's thing; or the claim is about O's)
            if any(thing | (named - tw) <= units.sentence(j).words for j in rows):
                continue  # (a sentence says T's thing with O's party)
            rest = said - named
            if any(len(rest & units.sentence(j).words) > len(rest & tw) for j in rows):
                continue  # (the claim is about the sentence sharing most of its words)
            return t
    return None
