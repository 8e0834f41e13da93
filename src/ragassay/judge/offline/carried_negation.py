"""Negations carried by a verb or a phrase rather than by "not": "refuses to process"
denies the processing as "does not process" does, "declined to renew" the renewal,
"barred from trading" the trading (an act: "banned from the park" names a place the
ban holds in, which the antonym lexicon reads), "stopped collecting" the collecting,
"waives the fee" the fee, "are denied access" the access, and "no longer sent" the
sending ("no longer" is no bound as "no later than" is: no "than" follows it).
clauses.py reads them as predicate negations, so a claim that states the same thing
plainly ("The bank processes ...") turns against them, and one that denies it in other
words ("won't be processed") agrees."""

from __future__ import annotations

from .lexical import STOPWORDS

# a verb whose "to" complement is what it denies
_REFUSALS = frozenset({"refuse", "refuses", "refused", "refusing", "decline", "declines",
                       "declined", "declining"})
# a participle or adjective whose "from" complement, an act, is what it denies
_BARRED = frozenset({"barred", "banned", "prohibited", "precluded",
                     "prevented", "forbidden", "disqualified"})
# a verb that sets aside what it names: "waives the fee" is "no fee"
_WAIVERS = frozenset({"waive", "waives", "waived", "waiving"})
_DENIED = frozenset({"denied", "refused"})  # "are denied access", "were refused entry"
_BE = frozenset({"is", "are", "was", "were", "be", "been", "being", "get", "gets", "got"})
_STILL = frozenset({"longer"})  # "no longer": what follows is denied from now on
# a verb that ends an act, whose "-ing" complement is what it denies from now on, as "no
# longer" does ("stopped collecting X" / "collects X"); a finite form, not the bare
# imperative ("Stop taking the tablets if ...": an instruction, no state of affairs)
_ENDED = frozenset({"stopped", "stops", "ceased", "ceases", "discontinued", "quit"})


def carried_negation(toks: tuple[str, ...], i: int) -> int | None:
    """Where the negation that `toks[i]` opens ends (the index after which what it bears
    on is sought), when it is one a verb or a phrase carries; None otherwise."""
    t = toks[i]
    nxt = toks[i + 1] if i + 1 < len(toks) else ""
    if t == "no" and nxt in _STILL and toks[i + 2:i + 3] != ("than",):
        return i + 1
    if t in _ENDED and len(nxt) > 4 and nxt.endswith("ing") and nxt not in STOPWORDS:
        return i  # "has stopped offering paper tickets"
    if t in _WAIVERS and not (i and toks[i - 1] in _BE):
        return i  # "The bank waives the transfer fee" (not the passive "is waived for X")
    if t in _REFUSALS and nxt == "to":
        return i + 1
    if t in _BARRED and nxt == "from" and toks[i + 2:i + 3] and toks[i + 2].endswith("ing"):
        return i + 1  # an act denied ("barred from trading"), not a place ("from the park")
    if t in _DENIED and i and toks[i - 1] in _BE and nxt and nxt not in STOPWORDS:
        return i  # passive with its object: "Minors are denied entry"
    return None


# determiners before which "still" is the adjective ("the still water"), not the aspect
_STILL_ADJ = frozenset({"a", "an", "the", "any", "this", "that", "our", "your", "their"})


def aspect_marker(toks: tuple[str, ...], i: int, lead: int = 0) -> bool:
    """Whether `toks[i]` marks only that a state goes on or has ended, no content of its
    own: the "longer" of "no longer" (not "no longer than", a bound), and an adverb
    "still" ("We still offer X"; not "Still water ...", "the still air"). "We no longer
    offer X" and "We still offer X" then align on what they say of X, and their
    polarity alone differs."""
    t = toks[i]
    if t == "longer":
        return i > 0 and toks[i - 1] == "no" and toks[i + 1:i + 2] != ("than",)
    # (before a verb or what it says: "still offer", "still stops"; "still in print" keeps
    # it, a state's span the other side may not say)
    return t == "still" and i > lead and toks[i - 1] not in _STILL_ADJ and i + 1 < len(
        toks) and toks[i + 1] not in STOPWORDS

