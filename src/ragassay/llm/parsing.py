"""Tolerant extraction of a JSON value from a model's reply.

Models wrap JSON in code fences, put prose around it, emit raw newlines inside
strings or think aloud in `<think>` blocks. `parse_json_reply` copes with all of
these and otherwise says, in one line, why there is no JSON. Validation against a
schema is the judge layer's job, not this module's.
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any

_FENCE = re.compile(r"```[ \t]*(?:json|JSON|jsonc|javascript|js)?[ \t]*\r?\n?(.*?)```", re.S)
_THINK = re.compile(r"<think>.*?</think>", re.S | re.I)
_OPENER = re.compile(r"[\[{]")
_MAX_CANDIDATES = 64  # bound the work on pathological replies
# json_values looks at every value (a judge may quote many before its verdict); the scan
# budget (a few passes over the text) bounds its work as it does the first-value scan's
_MAX_VALUES = 512


def parse_json_reply(text: str) -> tuple[Any, str | None]:
    """Return `(data, None)` for the JSON value found in `text`, or `(None, error)`.

    Order: the whole text; each fenced block; then the first balanced top-level
    `{...}` that parses, else the first balanced `[...]` (objects first, so a
    citation like "[1]" in prose is not mistaken for the answer).
    """
    if not text or not text.strip():
        return None, "empty reply"
    cleaned = _THINK.sub("", text).strip().lstrip("\ufeff")
    if not cleaned:
        return None, "reply holds only a <think> block"

    direct = _loads(cleaned)
    if direct is not _FAIL:
        return direct, None

    first_error: str | None = None
    for block in _FENCE.findall(cleaned):
        data, error = _scan(block.strip())
        if error is None:
            return data, None
        first_error = first_error or error
    data, error = _scan(cleaned)
    if error is None:
        return data, None
    return None, _one_line(first_error or error)


class _Fail:
    pass


_FAIL = _Fail()


def _loads(candidate: str) -> Any:
    try:
        return json.loads(candidate, strict=False)
    except (ValueError, RecursionError):
        return _FAIL


def _scan(text: str) -> tuple[Any, str | None]:
    try:
        return _scan_bounded(text, [len(text) * 4 + 10_000])
    except RecursionError:  # JSON nested deeper than the interpreter allows
        return None, "JSON nested too deep"


def _scan_bounded(text: str, budget: list[int]) -> tuple[Any, str | None]:
    """Find the first top-level object in `text` that parses, else the first array.

    Values are visited in order, at top level only: a list nested in a broken object
    is not taken for the answer, nor is an object nested in a valid array. An
    unclosed `{` ends the scan (the reply was truncated); an unclosed or invalid `[`
    is prose ("[see note"), so the scan steps into it.
    """
    error: str | None = None
    fallback: Any = _FAIL
    for item in _top_level(text, budget, _MAX_CANDIDATES, past_unclosed=False):
        if isinstance(item, str):
            if item.endswith("(scan budget spent)"):
                return (fallback, None) if fallback is not _FAIL else (None, error or item)
            error = error or item
            continue
        if isinstance(item.value, dict):
            return item.value, None
        if fallback is _FAIL:
            fallback = item.value
    if fallback is not _FAIL:
        return fallback, None
    return None, error or "no JSON object found in reply"


@dataclass(frozen=True)
class Found:
    """A top-level JSON value found in a reply, with its span (`text[start:end]`)."""

    value: Any
    start: int
    end: int


def json_values(text: str) -> tuple[list[Found], str | None]:
    """Every top-level JSON value in `text`, in order, with its span; and the first
    reason a candidate did not parse (None when none failed).

    Unlike `parse_json_reply`, which takes the first object, this lets the caller choose
    (the judge takes the last one that validates and that it did not quote from the
    judged text). An unclosed `{` does not end the scan: a quoted fragment
    (`{"faithfulness": 10, "` in an answer the judge repeats) must not hide the verdict
    after it. `<think>` blocks are blanked, so spans are offsets into `text` itself.
    """
    blanked = _THINK.sub(lambda m: " " * len(m.group()), text).replace("\ufeff", " ")
    direct = _loads(blanked)
    if direct is not _FAIL:
        lead = len(blanked) - len(blanked.lstrip())
        return [Found(direct, lead, len(blanked.rstrip()))], None
    found: list[Found] = []
    error: str | None = None
    try:
        for item in _top_level(blanked, [len(blanked) * 4 + 10_000], _MAX_VALUES,
                               past_unclosed=True):
            if isinstance(item, str):
                error = error or item
            else:
                found.append(item)
    except RecursionError:
        error = error or "JSON nested too deep"
    return found, error


def _top_level(text: str, budget: list[int], limit: int, *,
               past_unclosed: bool) -> Iterator[Found | str]:
    """The top-level values of `text` that parse (as Found) and why others did not (as
    str), in order, spending `budget` (a string ending "(scan budget spent)" ends it).

    An unclosed `{` ends the scan unless `past_unclosed` (then the scan goes on from the
    next bracket); an unclosed or invalid `[` is prose ("[see note"), so the scan steps
    into it; an invalid `{` is skipped whole.
    """
    pos = 0
    for _ in range(limit):
        match = _OPENER.search(text, pos)
        if match is None:
            return
        start = match.start()
        opener = text[start]
        end = _balanced_end(text, start, budget)
        if budget[0] <= 0:
            yield "no JSON object found in reply (scan budget spent)"
            return
        if end is None:
            yield f"unterminated JSON {_kind(opener)} (reply truncated?)"
            if opener == "{" and not past_unclosed:
                return
            pos = start + 1
            continue
        try:
            value = json.loads(text[start : end + 1], strict=False)
        except ValueError as exc:
            yield f"invalid JSON {_kind(opener)}: {exc}"
            pos = end + 1 if opener == "{" else start + 1
            continue
        yield Found(value, start, end + 1)
        pos = end + 1


def _kind(opener: str) -> str:
    return "object" if opener == "{" else "array"


def _balanced_end(text: str, start: int, budget: list[int]) -> int | None:
    """Index of the bracket closing the one at `start`, skipping string contents. Each
    character looked at spends one unit of `budget` (shared by a whole scan, so that a
    reply of thousands of unclosed brackets costs a few passes, not one per bracket)."""
    depth = 0
    in_string = False
    escaped = False
    end = len(text)
    if end - start > budget[0]:
        end = start + budget[0]
    budget[0] -= end - start
    for i in range(start, end):
        ch = text[i]
        if in_string:
            if escaped:
                escaped = False
            elif ch == "\\":
                escaped = True
            elif ch == '"':
                in_string = False
            continue
        if ch == '"':
            in_string = True
        elif ch in "{[":
            depth += 1
        elif ch in "}]":
            depth -= 1
            if depth == 0:
                return i
    return None


def _one_line(message: str, limit: int = 200) -> str:
    line = " ".join(message.split())
    return line if len(line) <= limit else line[: limit - 1] + "…"
