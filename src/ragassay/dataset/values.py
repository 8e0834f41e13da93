"""Decoding and checking untrusted values: JSON text, Python-style list cells, and the
limits every row is held to before it is used.

Hostile files must give a one-line row problem, never a crash: an integer of more
than 4,300 digits (Python refuses to convert it, in either direction), JSON nested
deeper than the interpreter's stack, a lone surrogate. Every decoder here turns those
into `ValueProblem`s, and `value_problem` walks a decoded row iteratively (no
recursion, so no depth can crash it) to enforce `MAX_DEPTH` and the digit limit.
"""

from __future__ import annotations

import ast
import json
import re
import sys
from collections.abc import Mapping
from typing import Any

MAX_DEPTH = 64
"""Deepest nesting of lists and objects accepted inside a row (a row itself is level 0)."""

MAX_DIGITS = sys.get_int_max_str_digits() or 4300
"""Longest integer accepted: Python's own limit on converting integers to and from text."""

_MAX_BITS = int(MAX_DIGITS * 3.3219280948873626)  # log2(10): bits of a MAX_DIGITS integer
_SURROGATE = re.compile("[\ud800-\udfff]")


class ValueProblem(ValueError):
    """A value that cannot be accepted; the message is one line."""


class TooLongInt:
    """What the JSON decoder yields for an integer of more than MAX_DIGITS digits, so that
    the rest of the document still decodes and the row is rejected by `value_problem`."""

    __slots__ = ("digits",)

    def __init__(self, text: str) -> None:
        self.digits = len(text.lstrip("-"))

    def __repr__(self) -> str:
        return f"<integer of {self.digits} digits>"


def _parse_int(text: str) -> int | TooLongInt:
    return int(text) if len(text) <= MAX_DIGITS else TooLongInt(text)


DECODER = json.JSONDecoder(parse_int=_parse_int)
"""The JSON decoder every reader uses (huge integers become `TooLongInt`)."""

TOO_DEEP = f"nested more than {MAX_DEPTH} levels deep"


def loads(text: str) -> Any:
    """Decode one JSON document: JSONDecodeError for bad JSON, ValueProblem for JSON
    nested too deeply for the decoder (the interpreter's recursion limit)."""
    try:
        return DECODER.decode(text)
    except RecursionError:
        raise ValueProblem(f"JSON {TOO_DEEP}") from None


def raw_decode(text: str, pos: int) -> tuple[Any, int]:
    """`JSONDecoder.raw_decode` with the same limits as `loads`."""
    try:
        return DECODER.raw_decode(text, pos)
    except RecursionError:
        raise ValueProblem(f"JSON {TOO_DEEP}") from None


def python_string_list(text: str) -> list[str] | None:
    """A Python list (or tuple) of string literals as pandas writes it, `['a', 'b']`,
    else None. Parsed with `ast`: only a list/tuple node of string constants is
    accepted and only then evaluated with `ast.literal_eval`; nothing is ever run."""
    try:
        node = ast.parse(text.strip(), mode="eval").body
    except (SyntaxError, ValueError, RecursionError, MemoryError):
        return None
    if not isinstance(node, ast.List | ast.Tuple):
        return None
    if not all(isinstance(e, ast.Constant) and isinstance(e.value, str) for e in node.elts):
        return None
    value = ast.literal_eval(node)
    return list(value)


def text_contexts(text: str) -> list[str]:
    """A contexts value given as one string, read as a CSV cell is (`readers.read_csv`):
    a JSON list or a Python list of strings (`["a", "b"]`, `['a', 'b']` as pandas writes
    it) is that list; any other text is one plain-text context (a passage may start with
    "[": only a list that parses is a list); empty or blank text is no context, as an
    empty CSV cell is."""
    stripped = text.strip()
    if stripped.startswith("["):
        try:
            parsed = loads(stripped)
        except (json.JSONDecodeError, ValueProblem):
            parsed = python_string_list(stripped)
        if isinstance(parsed, list) and all(isinstance(x, str) for x in parsed):
            return parsed
    return [text] if stripped else []


_LITERAL_NODES = (ast.Dict, ast.List, ast.Tuple, ast.Constant, ast.UnaryOp, ast.USub,
                  ast.UAdd, ast.Load)


def python_literal(text: str) -> Any:
    """A Python literal as pandas writes an object cell (`{'hallucination': True}`): dicts,
    lists and tuples of strings, numbers, booleans and None, at most MAX_DEPTH deep; else
    None. Every node is checked before `ast.literal_eval`; nothing is ever run."""
    try:
        tree = ast.parse(text.strip(), mode="eval").body
    except (SyntaxError, ValueError, RecursionError, MemoryError):
        return None
    stack: list[tuple[ast.AST, int]] = [(tree, 0)]
    while stack:
        node, depth = stack.pop()
        if not isinstance(node, _LITERAL_NODES) or depth > MAX_DEPTH:
            return None
        if isinstance(node, ast.Constant) and not isinstance(
                node.value, str | int | float | bool | type(None)):
            return None  # bytes, complex, Ellipsis
        if isinstance(node, ast.UnaryOp) and not (
                isinstance(node.operand, ast.Constant)
                and isinstance(node.operand.value, int | float)):
            return None
        if not isinstance(node, ast.UnaryOp):
            stack.extend((child, depth + 1) for child in ast.iter_child_nodes(node))
    try:
        return ast.literal_eval(tree)
    except (ValueError, TypeError, SyntaxError, RecursionError, MemoryError):
        return None


def value_problem(value: Any) -> str | None:
    """Why `value` (a decoded field) cannot be accepted, or None.

    Checks, without recursion: nesting deeper than MAX_DEPTH, integers beyond
    MAX_DIGITS digits, lone surrogates in strings and keys.
    """
    stack: list[tuple[Any, int]] = [(value, 0)]
    while stack:
        item, depth = stack.pop()
        if isinstance(item, str):
            if _SURROGATE.search(item):
                return "contains an invalid Unicode escape (lone surrogate)"
        elif isinstance(item, bool) or item is None or isinstance(item, float):
            continue
        elif isinstance(item, TooLongInt):
            return f"holds an integer of {item.digits} digits (more than {MAX_DIGITS})"
        elif isinstance(item, int):
            if item.bit_length() > _MAX_BITS:
                return f"holds an integer of more than {MAX_DIGITS} digits"
        elif isinstance(item, Mapping | list | tuple):
            if depth >= MAX_DEPTH:
                return f"is {TOO_DEEP}"
            children = (list(item.keys()) + list(item.values())
                        if isinstance(item, Mapping) else item)
            stack.extend((child, depth + 1) for child in children)
    return None


def has_surrogate(text: str) -> bool:
    """Whether a string holds a lone surrogate (not storable as UTF-8 text)."""
    return _SURROGATE.search(text) is not None
