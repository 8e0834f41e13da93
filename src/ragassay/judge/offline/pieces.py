"""How a sentence is cut into clause pieces: at semicolons, brackets, dashes, commas and
the words that open a clause ("but", "although", "which", "unless", "if", "and" ...); a
piece of fewer than MIN_CLAUSE_TOKENS tokens stays with its neighbour ("Yes, ...", "Basic
and Plus ..."), a range's bounds ("between 9 | and 11am") and verbs coordinated under one
modal ("must live | or work within the borough") stay together. clauses.py reads each
piece into a `Part`.
"""

from __future__ import annotations

import re
from functools import lru_cache

from .lexical import STOPWORDS, is_filler

MIN_CLAUSE_TOKENS = 3  # a shorter piece ("Yes", "In 2019", "Basic") is no clause of its own
_OPENS = (r"but|although|though|while|whereas|which|who|so|unless|except|yet|and|or|if|"
          r"because|since|as long as|provided|unlike|however|then|along with|together with|"
          r"as well as")
# "10 minutes or more", "two nights or longer": a bound of a figure, no alternative (a
# bare figure's "18 or over" is one too: `BREAK`)
OR_BOUND = r"or\s+(?:more|less|fewer|longer|shorter)\b"
BREAK = re.compile(
    r"\s*(?:[;()\[\]]|(?<!\d):(?!\d))\s*"  # semicolons, brackets, colons (not "18:00")
    r"|\s+[-\u2013\u2014]\s+|\u2014"  # a dash set off by spaces, an em dash
    r"|\s*,(?=\s)(?!\s*\d)\s*"  # a comma before a space and no digit (not "1,000", "1 , 000")
    # a word that opens a clause (not "not if"; not the "or" of a bound: "18 or over")
    rf"|(?<!\bnot)\s+(?=(?:{_OPENS})\s)(?!(?<=\d\s)or\s+(?:over|more|older|above|under|less|"
    rf"fewer|younger|later|earlier|so|thereabouts)\b)(?!{OR_BOUND})", re.IGNORECASE)

AUXILIARIES_TEXT = """
    is are was were be been has have had can could may might must will would should
    shall does do did cannot
"""
AUXILIARIES = frozenset(AUXILIARIES_TEXT.split())


# a sentence's first piece opened by one of these is a fronted phrase, no clause: it
# qualifies the clause it is set before ("On the Premium plan, listings stay live ...";
# "For contractors, the limit is ..."), and a clause cut from it would drop who or what
# it is about
FRONTED = frozenset({"on", "in", "for", "under", "at", "during", "after", "before", "from",
                     "within", "outside", "inside", "across", "throughout", "over", "with"})


_PERSONS = frozenset({"i", "you", "we", "they", "he", "she", "it"})


def fronted(toks: list[str]) -> bool:
    """A short first piece opened by a preposition, without a verb or a subject of its
    own ("On the Premium plan", not "With the card you pay no fee")."""
    return (bool(toks) and toks[0] in FRONTED and len(toks) <= 6
            and not any(t in AUXILIARIES or t in _PERSONS for t in toks))


_LIST_NO = 12  # tokens of a verbless "No ..." piece (and its list so far), at most


def listed_no(toks: list[str]) -> bool:
    """A sentence's first piece that is a "no" and a noun phrase, no verb: the first
    item of its subject's list ("No browsing activity, | DNS queries or IP addresses are
    logged"), no clause: cut from the verb, its "no" bore on nothing the claim's source
    says ("We do not log browsing activity, ...")."""
    words = [t.strip(".,;:!?") for t in toks]
    return (1 < len(words) <= _LIST_NO and words[0] == "no"
            and not any(w in AUXILIARIES or w.endswith(("n't", "n’t")) for w in words))


def _opener(toks: list[str]) -> int:
    """The tokens of a sentence's first piece when it is conversational filler ("Yes",
    "Sure"): they count toward no clause's length."""
    words = [w for t in toks if (w := t.strip(".,!?;:\u2014-"))]
    return len(toks) if words and is_filler(words) else 0


# a break after which a clause starts afresh, as a sentence does: a semicolon, a colon, a
# dash ("...; for glazing, please ask the studio": the phrase qualifies what follows)
_FRESH = re.compile(r"[;:\u2013\u2014-]")


def fresh(cut: str) -> bool:
    """Whether a break (BREAK's match) opens a clause afresh (`_FRESH`)."""
    return bool(_FRESH.search(cut))


def _cut(text: str) -> tuple[list[str], list[bool]]:
    """The sentence's pieces split at the breaks, and per piece whether the break before
    it opens a clause afresh."""
    pieces: list[str] = []
    opens: list[bool] = []
    at, after = 0, False
    for m in (*BREAK.finditer(text), None):
        piece = text[at:m.start() if m is not None else len(text)].strip()
        if piece:
            pieces.append(piece)
            opens.append(after)
        if m is not None:
            at, after = m.end(), fresh(m.group()) if piece else after or fresh(m.group())
    return pieces, opens


@lru_cache(maxsize=16384)
def clause_texts(text: str) -> tuple[str, ...]:
    """The sentence's clauses (the sentence itself when it has one): pieces split at the
    breaks, a piece under MIN_CLAUSE_TOKENS tokens joined to the one before ("nausea
    and diarrhoea"), or to the next at the start ("Yes, ...") or when it is listed with
    it ("...; Basic and Plus subscribers get ..."). An opening interjection ("Yes —")
    counts no token: "Yes — delivery, set-up and collection are included" is one clause,
    its list not cut after "set-up"."""
    pieces, opens = _cut(text)
    comma_first = (first := BREAK.search(text)) is not None and "," in first.group()
    merged: list[str] = []
    carry = ""
    opener = _opener([t.lower() for t in pieces[0].split()]) if len(pieces) > 1 else 0
    for k, p in enumerate(pieces):
        if carry:
            p, carry = f"{carry} {p}", ""
        nxt = pieces[k + 1].split(maxsplit=1)[0].lower() if k + 1 < len(pieces) else ""
        if nxt == "and" and _open_range([t.lower() for t in p.split()]):
            carry = p  # "between 9 | and 11am": one range
        elif _open_verb([t.lower() for t in p.split()], pieces[k + 1].lower().split()
                        if k + 1 < len(pieces) else []):
            carry = p  # "must live | or work within the borough": one predicate
        elif nxt and (((not k or opens[k]) and fronted([t.lower() for t in p.split()]))
                      or (not merged and comma_first and listed_no(
                          [t.lower() for t in p.split()]))):
            carry = p  # "On the Premium plan, listings ...": the phrase qualifies the clause
        elif len(p.split()) - (opener if not merged else 0) >= MIN_CLAUSE_TOKENS:
            merged.append(p)
        elif merged and (nxt not in ("and", "or") or p.split()[0].lower() in ("and", "or")):
            merged[-1] = f"{merged[-1]} {p}"
        else:  # "Basic and Plus subscribers ...": a short piece joins what it is listed with
            carry = p
    if carry:
        merged.append(carry)
    return tuple(merged) if len(merged) > 1 else (text,)


# a modal, "to" or a negated one before a piece's last word: a verb the next piece's
# "or" coordinates ("You don't need to live | or work in the borough")
MODALS = frozenset({"must", "can", "may", "might", "should", "will", "would", "could",
                    "shall", "cannot"})
_VERB_BEFORE = MODALS | {"not"}
# ... "to" after one of these ("need to live", not "from October to April")
_TO_VERB = frozenset({"need", "needs", "have", "has", "had", "able", "allowed", "permitted",
                      "required", "want", "wants", "ought", "got", "going", "free"})


def _open_verb(toks: list[str], nxt: list[str]) -> bool:
    """Whether a piece ends with a bare verb after a modal or "to" and the next piece
    offers another verb in its place ("must live | or work within the borough"): one
    predicate, no clauses, so a claim and a unit that both say the pair align on it. Only
    "or": an "and" may open a clause of its own ("You must not swim | and lifeguards
    patrol every beach"). (A negation is still read on the first verb only: "must not run
    or dive" denies no "dive".)"""
    return (len(toks) >= 2 and len(nxt) >= 2 and nxt[0] == "or"
            and (toks[-2] in _VERB_BEFORE or toks[-2].endswith(("n't", "n’t")) or (
                toks[-2] == "to" and len(toks) >= 3 and toks[-3] in _TO_VERB))
            and toks[-1].isalpha() and toks[-1] not in STOPWORDS and nxt[1] not in STOPWORDS
            and nxt[1].isalpha() and not any(t in AUXILIARIES for t in nxt[2:4]))


_RANGE_TAIL = 3  # tokens after "between" that can be its first bound ("9", "9 am")


def _open_range(toks: list[str]) -> bool:
    """Whether a piece ends with the first bound of a range ("... between 9am", "between
    9"): the "and" after it joins the range's bounds, no clauses."""
    if "between" not in toks[-_RANGE_TAIL - 1:]:
        return False
    at = len(toks) - 1 - toks[::-1].index("between")
    return 0 < len(toks) - at - 1 <= _RANGE_TAIL and toks[at + 1][:1].isdigit()


def merge_pieces(pieces: list[list[int]], toks: tuple[str, ...], comma_first: bool = False,
                 opens: list[bool] | None = None) -> list[list[int]]:
    """Pieces of token indices merged as clause_texts merges its pieces (`comma_first`:
    a comma cuts the first piece from the second, as `listed_no` asks; `opens`: per
    piece, whether the break before it opens a clause afresh, `fresh`)."""
    merged: list[list[int]] = []
    carry: list[int] = []
    opener = _opener([toks[i] for i in pieces[0]]) if len(pieces) > 1 else 0
    for k, p in enumerate(pieces):
        if carry:
            p, carry = carry + p, []
        nxt = toks[pieces[k + 1][0]] if k + 1 < len(pieces) else ""
        head = [toks[i] for i in p]
        if (nxt == "and" and _open_range(head)) or (
                (not k or opens is not None and opens[k]) and nxt and fronted(head)) or (
                not merged and nxt and comma_first and listed_no(head)) or (
                k + 1 < len(pieces) and _open_verb(head, [toks[i] for i in pieces[k + 1]])):
            carry = p  # "between 9 | and 11am"; "On the Premium plan, | ..."
        elif len(p) - (opener if not merged else 0) >= MIN_CLAUSE_TOKENS:
            merged.append(p)
        elif merged and (nxt not in ("and", "or") or toks[p[0]] in ("and", "or")):
            merged[-1] = merged[-1] + p
        else:
            carry = p
    if carry:
        merged.append(carry)
    return merged
