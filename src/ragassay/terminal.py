"""Text that is printed to a terminal: control characters made visible, never obeyed.

Strategy names, sample ids, dataset paths, labels and a judge server's error excerpts
are user (or attacker) text. Printed raw, `\\x1b[2J` clears the screen and
`\\x1b]0;owned\\x07` retitles the window; a carriage return or a bidi override can hide
what is really there. `clean` is the one sanitiser every console output path uses
(the CLI's rich consoles, its plain messages and its one-line errors): each C0/C1
control character (tab and newline kept), DEL, and each bidi embedding / override /
isolate character is replaced by its escaped form, so the text stays readable and
the terminal receives no control sequence. `storable` is the other way: text read from
a terminal (bytes that are not UTF-8) made storable.
"""

from __future__ import annotations

import re
from typing import IO, Any

_UNSAFE = re.compile("[\x00-\x08\x0b-\x1f\x7f-\x9f\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069]")


def _visible(match: re.Match[str]) -> str:
    code = ord(match.group())
    return f"\\x{code:02x}" if code <= 0xFF else f"\\u{code:04x}"


def clean(text: str) -> str:
    """`text` with every terminal control character replaced by its escape (`\\x1b`)."""
    return _UNSAFE.sub(_visible, text) if _UNSAFE.search(text) else text


def has_controls(text: str) -> bool:
    """Whether `clean` would change `text`."""
    return _UNSAFE.search(text) is not None


class CleanWriter:
    """A text stream wrapper that cleans everything written through it (for exports
    printed to a terminal rather than redirected to a file)."""

    def __init__(self, stream: IO[str]) -> None:
        self._stream = stream

    def write(self, text: str) -> int:
        self._stream.write(clean(text))
        return len(text)

    def flush(self) -> None:
        self._stream.flush()

    def __getattr__(self, name: str) -> Any:
        return getattr(self._stream, name)


def storable(text: str) -> str:
    """Text typed at a terminal (or given on its command line), storable and showable as
    UTF-8: bytes that were not UTF-8 (escaped by Python as lone surrogates) and any other
    lone surrogate become U+FFFD; valid text is unchanged."""
    try:
        raw = text.encode("utf-8", "surrogateescape")
    except UnicodeEncodeError:  # a surrogate that is not an escaped byte
        raw = text.encode("utf-8", "surrogatepass")
    return raw.decode("utf-8", "replace")


def counted(n: int, noun: str, plural: str | None = None) -> str:
    """A count with its noun, singular for 1 (`1 sample`, `2 samples`, `1 strategy`,
    `3 strategies` with `plural` given): every printed count of the CLI and the report
    says it so, never "1 documents"."""
    return f"{n} {noun if n == 1 else plural or noun + 's'}"
