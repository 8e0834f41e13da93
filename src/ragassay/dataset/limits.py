"""Bounds on reading a dataset file: what it may be, how far it may inflate, how long a
line (or a JSON list element) may be.

A dataset path must be a regular file: a device (`/dev/zero`), a FIFO or a socket would
grow or block forever, so it is refused before it is opened. A `.gz` file may inflate to
at most `MAX_INFLATION` times its size (at least `MIN_INFLATED_BYTES`): a 1 MB file of
one 1 GB line, or of 2 GB of blank lines, is a decompression bomb, refused in one line.
A line (a JSONL row, a CSV line, a JSON list element) may hold at most `MAX_LINE_BYTES`:
a JSONL line over it is a row problem (skipped with `--skip-invalid`), read past without
holding it; the other formats stop there. The CLI and the dashboard's Evaluate page read
through the same loader, so the same bounds hold for both.
"""

from __future__ import annotations

import gzip
import os
import re
import stat
from collections.abc import Iterator
from pathlib import Path
from typing import IO, cast

from ragassay.dataset.errors import DatasetError

MAX_LINE_BYTES = 64 * 1024 * 1024
"""The longest line (or JSON list element, or CSV cell) read: far above any real row (a
20 MB answer loads), far below what would exhaust memory."""
MAX_INFLATION = 100
"""How many times its own size a .gz dataset may inflate to (text compresses 3-20x)."""
MIN_INFLATED_BYTES = 64 * 1024 * 1024
"""A small .gz may always inflate this far."""
BLOCK = 1 << 16  # read at a time by the JSONL reader (a small prefix for the first row)
_BLANK = re.compile(rb"[ \t\r\n]*")


def mb(n: int) -> str:
    """A byte count in MB, as the messages say it."""
    return f"{n / (1024 * 1024):.0f} MB"


TOO_LONG = f"line longer than {mb(MAX_LINE_BYTES)} (not read)"


def inflation_bound(path: Path) -> int:
    """How many bytes a compressed file (a .gz, a Parquet file) may decode to."""
    return max(MIN_INFLATED_BYTES, MAX_INFLATION * path.stat().st_size)


def check_regular(path: Path, where: str) -> None:
    """DatasetError unless `path` (followed through links) is a regular file."""
    try:
        mode = os.stat(path).st_mode
    except OSError as exc:
        raise DatasetError(f"cannot read file ({exc.strerror or exc})", where=where) from None
    if stat.S_ISDIR(mode):
        raise DatasetError("is a directory, not a dataset file", where=where)
    if not stat.S_ISREG(mode):
        kind = ("a FIFO" if stat.S_ISFIFO(mode) else "a socket" if stat.S_ISSOCK(mode)
                else "a device")
        raise DatasetError(f"is {kind}, not a regular file: give a dataset file", where=where)


class _Inflating:
    """A gzip file whose reads stop with DatasetError past the inflation bound."""

    def __init__(self, path: Path, name: str) -> None:
        self._fh = gzip.open(path, "rb")  # noqa: SIM115 (closed by close/__exit__)
        self._name = name
        self._left = self.limit = inflation_bound(path)

    def _count(self, data: bytes) -> bytes:
        self._left -= len(data)
        if self._left < 0:
            raise DatasetError(
                f"inflates to more than {mb(self.limit)} ({MAX_INFLATION} times its size, "
                f"at least {mb(MIN_INFLATED_BYTES)}): a decompression bomb? Unpack it and "
                "give the unpacked file", where=self._name)
        return data

    def read(self, n: int = -1) -> bytes:
        return self._count(self._fh.read(n if n >= 0 else self._left + 1))

    def readline(self, limit: int = -1) -> bytes:
        return self._count(self._fh.readline(limit if limit >= 0 else self._left + 1))

    def close(self) -> None:
        self._fh.close()

    def __enter__(self) -> _Inflating:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()


def open_bounded(path: Path, gz: bool, name: str) -> IO[bytes]:
    """The file for reading, a .gz one inflating within its bound."""
    if gz:
        return cast(IO[bytes], _Inflating(path, name))
    return open(path, "rb")  # noqa: SIM115


def physical_lines(fh: IO[bytes], name: str) -> Iterator[bytes]:
    """The file's lines (newline kept), each at most MAX_LINE_BYTES; a longer one stops
    the file with DatasetError (a CSV cell may span lines: no resynchronising)."""
    lineno = 0
    while True:
        raw = fh.readline(MAX_LINE_BYTES + 1)
        if not raw:
            return
        lineno += 1
        if len(raw) > MAX_LINE_BYTES and not raw.endswith(b"\n"):
            raise DatasetError(TOO_LONG, where=f"{name}:{lineno}")
        yield raw


def content_lines(fh: IO[bytes]) -> Iterator[tuple[int, bytes | None]]:
    """(line number, bytes with the newline) of every line that is not blank, read a block
    at a time so that runs of blank lines are skipped at C speed; None in place of a line
    longer than MAX_LINE_BYTES (read past, never held). A long line grows the buffer by
    appending (no copy per block), and is searched for its end only in the new bytes."""
    buf = bytearray()
    lineno = 1  # the line that starts at buf[0]
    searched = 0  # buf[:searched] holds no line end (a line still going on)
    skipping = False  # inside a line too long to hold
    while True:
        block = fh.read(BLOCK)
        eof = not block
        if skipping:
            nl = block.find(b"\n")
            if not eof and nl == -1:
                continue
            skipping, block, lineno = False, block[nl + 1:] if not eof else b"", lineno + 1
        buf += block
        pos = 0
        while True:
            end = _BLANK.match(buf, pos).end()  # type: ignore[union-attr]
            last = buf.rfind(b"\n", pos, end)
            if last != -1:  # whole blank lines: skipped
                lineno += buf.count(b"\n", pos, end)
                pos = last + 1
            nl = buf.find(b"\n", max(end, searched)) if end < len(buf) else -1
            if nl == -1:
                break  # the line goes on in the next block
            yield lineno, (bytes(buf[pos:nl + 1]) if nl - pos <= MAX_LINE_BYTES else None)
            lineno, pos, searched = lineno + 1, nl + 1, 0
        del buf[:pos]
        searched = len(buf)
        if len(buf) > MAX_LINE_BYTES:
            if buf.strip():
                yield lineno, None
                skipping = True
            buf.clear()  # a blank prefix that long is dropped (the line goes on)
            searched = 0
        elif eof:
            if buf.strip():
                yield lineno, bytes(buf)
            return
