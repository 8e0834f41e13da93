"""Probability-weighted judge values read from token log-probabilities (G-Eval's method).

A judge that answers `{"faithfulness": 9}` knows more than "9": the next-token
distribution at the rating says how sure it was. For a rating on an integer scale the
soft value is the expected rating over the digit tokens at the value's position,
renormalised over the valid options; for a boolean it is P(true) over "true"/"false"
tokens (any case). Pure functions, no model: the input is the reply text and one
`TokenLogprob` per generated token, from any backend (in-process logits, or an
OpenAI-compatible server's `logprobs` + `top_logprobs`).

Two-token values: where the tokenizer writes "10" as "1" + "0", the "1" at the
rating position is either 1 or 10. The split comes from the next token's
distribution when the model chose "1" ("observed"), from the alternative's probed
continuation (`TokenLogprob.after`, "probed"), or otherwise from the neighbours of
each candidate (P(2) for 1, P(9) for 10: ratings are unimodal; "neighbours").

Alternatives outside the top-k are unknown: the reading renormalises over the
valid options that are present and records their total probability (`mass`); with
none present (or less than `MIN_MASS` on them) there is no reading and the caller
keeps the greedy value.
"""

from __future__ import annotations

import math
import re
from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, Literal

from ragassay.llm.wire import TokenLogprob

Kind = Literal["rating", "flag"]
_DIGITS = re.compile(r"\d+")
_NUMBER = re.compile(r"-?\d+(?:\.\d+)?(?:[eE][+-]?\d+)?")
_MAX_SCALE = 100  # an integer field with a wider declared range is not read as a rating
# below this total probability on the valid options a reading is noise (the model's mass
# is elsewhere, e.g. on text a grammar forbids): the stated value is kept instead
MIN_MASS = 1e-3
# a log-probability a little above 0 is rounding (servers report 0.0 as 1e-7); more is junk
_LOGPROB_SLACK = 1e-4


@dataclass(frozen=True)
class SoftField:
    """What a leaf of the output schema is: an integer rating (with its range) or a flag."""

    kind: Kind
    low: int = 0
    high: int = 1


@dataclass(frozen=True)
class SoftValue:
    """One probability-weighted reading of a reply value."""

    kind: Kind
    value: float  # expected rating, or P(true)
    greedy: float | bool  # the value the reply states
    distribution: dict[str, float] = field(default_factory=dict)  # option -> probability
    mass: float = 1.0  # probability of the valid options present, before renormalising
    split: str | None = None  # how an ambiguous first digit ("1": 1 or 10) was divided

    def as_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {"kind": self.kind, "value": self.value, "greedy": self.greedy,
                               "distribution": self.distribution, "mass": self.mass}
        if self.split is not None:
            out["split"] = self.split
        return out

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> SoftValue:
        return cls(kind=data["kind"], value=float(data["value"]), greedy=data["greedy"],
                   distribution={str(k): float(v) for k, v in data["distribution"].items()},
                   mass=float(data.get("mass", 1.0)), split=data.get("split"))


# -- which leaves to read: from the output schema ---------------------------------------


def soft_fields(schema: Mapping[str, Any] | None) -> dict[str, SoftField]:
    """Leaf paths of a JSON schema that carry a rating or a flag.

    Paths join property names with "." and use "*" for array items:
    {"faithfulness": rating 1-10, "sentences.*.supported": flag}. A rating is an
    integer with both `minimum` and `maximum` (at most 100 apart); a flag a boolean.
    """
    if not schema:
        return {}
    defs = {**schema.get("$defs", {}), **schema.get("definitions", {})}
    out: dict[str, SoftField] = {}

    def walk(node: Mapping[str, Any], path: str, depth: int) -> None:
        if depth > 12:
            return
        ref = node.get("$ref")
        if isinstance(ref, str):
            target = defs.get(ref.rsplit("/", 1)[-1])
            if isinstance(target, Mapping):
                walk(target, path, depth + 1)
            return
        for key in ("anyOf", "oneOf", "allOf"):
            for option in node.get(key, ()):
                if isinstance(option, Mapping):
                    walk(option, path, depth + 1)
        kind = node.get("type")
        kinds = set(kind) if isinstance(kind, list) else {kind}
        if "boolean" in kinds and path:
            out[path] = SoftField("flag")
        lo, hi = node.get("minimum"), node.get("maximum")
        if "integer" in kinds and path and isinstance(lo, int) and isinstance(hi, int) \
                and 0 < hi - lo <= _MAX_SCALE:
            out[path] = SoftField("rating", lo, hi)
        for name, sub in (node.get("properties") or {}).items():
            if isinstance(sub, Mapping):
                walk(sub, f"{path}.{name}" if path else name, depth + 1)
        items = node.get("items")
        if isinstance(items, Mapping):
            walk(items, f"{path}.*" if path else "*", depth + 1)

    walk(schema, "", 0)
    return out


def pattern_of(path: str) -> str:
    """"sentences.3.supported" -> "sentences.*.supported"."""
    return ".".join("*" if part.isdigit() else part for part in path.split("."))


# -- where each value sits in the reply ------------------------------------------------


@dataclass(frozen=True)
class Leaf:
    path: str
    start: int  # character offsets of the value in the reply text
    end: int
    value: Any


class _Malformed(Exception):
    pass


def leaves(text: str, start: int = 0) -> list[Leaf]:
    """Scalar leaves (numbers, booleans) of the first JSON object in `text` from offset
    `start` (where the judge's verdict is), with spans.

    Tolerant like `parse_json_reply` for the shapes a judge writes (leading prose, a
    code fence, raw newlines in strings); returns [] when no object parses.
    """
    pos = text.find("{", start)
    while pos != -1:
        found: list[Leaf] = []
        try:
            _value(text, pos, "", found)
            return found
        except _Malformed:
            pos = text.find("{", pos + 1)
    return []


def _skip_ws(text: str, i: int) -> int:
    while i < len(text) and text[i] in " \t\r\n":
        i += 1
    return i


def _value(text: str, i: int, path: str, out: list[Leaf]) -> int:
    i = _skip_ws(text, i)
    if i >= len(text):
        raise _Malformed
    ch = text[i]
    if ch == "{":
        return _object(text, i, path, out)
    if ch == "[":
        return _array(text, i, path, out)
    if ch == '"':
        return _string(text, i)[1]
    for word, val in (("true", True), ("false", False), ("null", None)):
        if text.startswith(word, i):
            if val is not None:
                out.append(Leaf(path, i, i + len(word), val))
            return i + len(word)
    m = _NUMBER.match(text, i)
    if not m:
        raise _Malformed
    raw = m.group()
    num: float = float(raw) if any(c in raw for c in ".eE") else int(raw)
    out.append(Leaf(path, i, m.end(), num))
    return m.end()


def _string(text: str, i: int) -> tuple[str, int]:
    j = i + 1
    chars: list[str] = []
    while j < len(text):
        ch = text[j]
        if ch == "\\":
            chars.append(text[j: j + 2])
            j += 2
            continue
        if ch == '"':
            return "".join(chars), j + 1
        chars.append(ch)
        j += 1
    raise _Malformed


def _after_item(text: str, i: int, close: str) -> tuple[int, bool]:
    """Past the separator after an object member or array item: (index, False) after a
    comma, (index, True) after the closing bracket."""
    i = _skip_ws(text, i)
    if i < len(text) and text[i] in (",", close):
        return i + 1, text[i] == close
    raise _Malformed


def _object(text: str, i: int, path: str, out: list[Leaf]) -> int:
    i = _skip_ws(text, i + 1)
    if i < len(text) and text[i] == "}":
        return i + 1
    while True:
        i = _skip_ws(text, i)
        if i >= len(text) or text[i] != '"':
            raise _Malformed
        key, i = _string(text, i)
        i = _skip_ws(text, i)
        if i >= len(text) or text[i] != ":":
            raise _Malformed
        i, done = _after_item(text, _value(text, i + 1, f"{path}.{key}" if path else key, out),
                              "}")
        if done:
            return i


def _array(text: str, i: int, path: str, out: list[Leaf]) -> int:
    i = _skip_ws(text, i + 1)
    if i < len(text) and text[i] == "]":
        return i + 1
    n = 0
    while True:
        i, done = _after_item(text, _value(text, i, f"{path}.{n}" if path else str(n), out), "]")
        n += 1
        if done:
            return i


# -- reading one position ------------------------------------------------------------


def _alternatives(tok: TokenLogprob) -> Iterator[tuple[str, float]]:
    """(text, probability) of the alternatives at a position, the chosen token included."""
    seen = False
    for text, lp in tok.top:
        seen = seen or text == tok.token
        yield text, math.exp(lp)
    if not seen:
        yield tok.token, math.exp(tok.logprob)


def _rest(alt: str, prefix: str) -> str | None:
    """The alternative's text at the value's position, or None when it writes something
    else there. `prefix` is the chosen token's lead-in before the value (": " in ": 7");
    whitespace around it is optional in JSON, so " 8" and "8" both read as 8."""
    core = prefix.strip(" \t\r\n")
    text = alt.lstrip(" \t\r\n")
    if not text.startswith(core):
        return None
    return text[len(core):].lstrip(" \t\r\n")


def read_flag(tok: TokenLogprob, prefix: str = "") -> tuple[dict[str, float], float] | None:
    """({"true": p, "false": 1 - p}, mass) at a boolean's position, or None."""
    got = {"true": 0.0, "false": 0.0}
    for alt, p in _alternatives(tok):
        rest = _rest(alt, prefix)
        if not rest:
            continue
        word = rest.lower()
        for option in got:
            if option.startswith(word) or word.startswith(option):
                got[option] += p
                break
    mass = got["true"] + got["false"]
    if mass < MIN_MASS:
        return None
    return {k: v / mass for k, v in got.items()}, min(mass, 1.0)


def _continuation(dist: Sequence[tuple[str, float]], digits: str,
                  low: int, high: int) -> dict[int, float]:
    """After the digits `digits`: value -> probability, from the next token's options."""
    out: dict[int, float] = {}
    for alt, p in dist:
        m = _DIGITS.match(alt)
        if m:
            value = int(digits + m.group())
        elif alt[:1] in (".", "e", "E"):
            continue  # not an integer
        else:
            value = int(digits)  # anything else ends the number
        if low <= value <= high:
            out[value] = out.get(value, 0.0) + p
    return out


def read_rating(tokens: Sequence[TokenLogprob], index: int, low: int, high: int,
                prefix: str = "") -> tuple[dict[int, float], float, str | None] | None:
    """({rating: probability}, mass, split) for a rating whose first digit is token
    `index`, or None when no valid option is among the alternatives."""
    tok = tokens[index]
    chosen = _rest(tok.token, prefix) or ""
    probs: dict[int, float] = {}
    ambiguous: dict[str, float] = {}
    for alt, p in _alternatives(tok):
        rest = _rest(alt, prefix)
        m = _DIGITS.match(rest or "")
        if rest is None or m is None:
            continue
        digits = m.group()
        tail = rest[len(digits):]
        if tail[:1] in (".", "e", "E"):
            continue
        if tail:  # the token itself ends the number: "7," or "10"
            if low <= int(digits) <= high:
                probs[int(digits)] = probs.get(int(digits), 0.0) + p
            continue
        fits = [v for v in range(low, high + 1) if str(v).startswith(digits)]
        if len(fits) == 1:
            probs[fits[0]] = probs.get(fits[0], 0.0) + p
        elif fits:
            ambiguous[digits] = ambiguous.get(digits, 0.0) + p
    splits: list[str] = []
    for digits, p in ambiguous.items():
        shares, how = _split(tokens, index, chosen, digits, probs, low, high)
        splits.append(how)
        total = sum(shares.values())
        for value, share in shares.items():
            probs[value] = probs.get(value, 0.0) + p * share / total
    mass = sum(probs.values())
    if mass < MIN_MASS:
        return None
    dist = {v: probs[v] / mass for v in sorted(probs)}
    return dist, min(mass, 1.0), ("+".join(sorted(set(splits))) if splits else None)


def _split(tokens: Sequence[TokenLogprob], index: int, chosen: str, digits: str,
           probs: Mapping[int, float], low: int, high: int) -> tuple[dict[int, float], str]:
    """How the probability of an ambiguous first digit divides among its ratings."""
    fits = [v for v in range(low, high + 1) if str(v).startswith(digits)]
    if chosen == digits and index + 1 < len(tokens):
        shares = _continuation(list(_alternatives(tokens[index + 1])), digits, low, high)
        if sum(shares.values()) > 0:
            return shares, "observed"
    for alt, dist in tokens[index].after:
        if alt.strip() == digits:
            shares = _continuation([(t, math.exp(lp)) for t, lp in dist], digits, low, high)
            if sum(shares.values()) > 0:
                return shares, "probed"
    weights = {v: probs.get(v - 1, 0.0) + probs.get(v + 1, 0.0) for v in fits}
    if sum(weights.values()) <= 0:
        weights = dict.fromkeys(fits, 1.0)
    return weights, "neighbours"


# -- the whole reply ------------------------------------------------------------------


def token_starts(text: str, tokens: Sequence[TokenLogprob]) -> list[int] | None:
    """Character offset in `text` where each token starts; None if they do not add up."""
    raw = text.encode("utf-8")
    pieces = [bytes(t.bytes) if t.bytes is not None else t.token.encode("utf-8") for t in tokens]
    if b"".join(pieces) != raw:
        return None
    starts: list[int] = []
    pos = 0
    for piece in pieces:
        starts.append(pos)
        pos += len(piece)
    # byte offsets -> character offsets (only ASCII values are read, but text may not be)
    chars = [len(raw[:b].decode("utf-8", "ignore")) for b in starts]
    return chars


def malformed(tokens: Sequence[TokenLogprob]) -> str | None:
    """Why a server's token probabilities cannot be read (a byte outside 0-255, a
    log-probability that is not a finite number <= 0), or None when they can."""
    def bad_lp(lp: float) -> bool:
        return not (math.isfinite(lp) and lp <= _LOGPROB_SLACK)

    for tok in tokens:
        if tok.bytes is not None and any(not 0 <= b <= 255 for b in tok.bytes):
            return "malformed token probabilities in the reply (a byte outside 0-255)"
        lps = [tok.logprob, *(lp for _, lp in tok.top),
               *(lp for _, dist in tok.after for _, lp in dist)]
        if any(bad_lp(lp) for lp in lps):
            return ("malformed token probabilities in the reply (a log-probability that "
                    "is not a finite number <= 0)")
    return None


def read_soft_values(text: str, tokens: Sequence[TokenLogprob] | None,
                     fields: Mapping[str, SoftField], start: int = 0
                     ) -> tuple[dict[str, SoftValue], str | None]:
    """Soft values for the rating and flag leaves of the reply's verdict (the object at
    or after offset `start`), by path; and, when none could be read, why (the caller then
    keeps the greedy values). Token probabilities come from an untrusted server:
    malformed ones give no reading and say so, never an error."""
    if not fields:
        return {}, None
    if not tokens:
        return {}, "no token probabilities in the reply"
    why = malformed(tokens)
    if why is not None:
        return {}, why
    starts = token_starts(text, tokens)
    if starts is None:
        return {}, "token texts do not add up to the reply"
    out: dict[str, SoftValue] = {}
    for leaf in leaves(text, start):
        spec = fields.get(pattern_of(leaf.path))
        if spec is None:
            continue
        index = _token_at(starts, leaf.start)
        if index is None:
            continue
        prefix = text[starts[index]: leaf.start]
        reading = _read(tokens, index, prefix, spec, leaf.value)
        if reading is not None:
            out[leaf.path] = reading
    if not out:
        return {}, "no rating or flag token among the top alternatives"
    return out, None


def _token_at(starts: Sequence[int], offset: int) -> int | None:
    index = None
    for i, s in enumerate(starts):
        if s > offset:
            break
        index = i
    return index


def _read(tokens: Sequence[TokenLogprob], index: int, prefix: str, spec: SoftField,
          greedy: Any) -> SoftValue | None:
    if spec.kind == "flag":
        if not isinstance(greedy, bool):
            return None
        flag = read_flag(tokens[index], prefix)
        if flag is None:
            return None
        dist, mass = flag
        return SoftValue("flag", dist["true"], greedy, dist, mass)
    if isinstance(greedy, bool) or not isinstance(greedy, int | float):
        return None
    rating = read_rating(tokens, index, spec.low, spec.high, prefix)
    if rating is None:
        return None
    dist_int, mass, split = rating
    expected = sum(v * p for v, p in dist_int.items())
    return SoftValue("rating", expected, greedy, {str(k): v for k, v in dist_int.items()},
                     mass, split)
