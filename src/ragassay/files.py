"""Writing a file atomically and safely: the one helper every report and cache write uses.

The content goes to a temporary file created exclusively (`mkstemp`: `O_CREAT | O_EXCL`,
a random name, in the target's folder so that the final rename stays on one file
system), which is renamed over the target only when complete. A partial file is never
left under the final name, and a planted `NAME.part` (or any other) symlink next to
the target is never opened, followed or removed: the temporary name is not guessable
and an existing path is never reused. The file gets the usual permissions (0666 less
the umask), not mkstemp's 0600.

An output must never be an input: `replaced_input` says which input (the run store or
one of its SQLite companion files, the dataset, a config) writing a path would replace,
by the path resolved through links and by inode (a hard link), so that every command
refuses such an output before it writes anything (`cli.common.refuse_overwrites`).

A CSV cell a spreadsheet would read as a formula is written defused (`defuse_cell`: a
leading `'`), by every CSV writer (the report's, `labels export`); `restore_cell` undoes
it for a CSV read back (`labels import`).
"""

from __future__ import annotations

import contextlib
import fnmatch
import os
import tempfile
from collections.abc import Iterable, Iterator
from pathlib import Path
from typing import IO, Any


def _umask() -> int:
    mask = os.umask(0)
    os.umask(mask)
    return mask


@contextlib.contextmanager
def atomic_write(path: str | os.PathLike[str], *, binary: bool = False,
                 encoding: str = "utf-8") -> Iterator[IO[Any]]:
    """Open a fresh temporary file beside `path`; rename it to `path` on success.

    On any exception the temporary file is removed and the exception propagates
    (OSError for the caller to report). The parent folder is created if needed.
    """
    target = Path(path)
    target.parent.mkdir(parents=True, exist_ok=True)
    fd, tmp = tempfile.mkstemp(prefix=f".{target.name}.", suffix=".part",
                               dir=target.parent)
    try:
        os.fchmod(fd, 0o666 & ~_umask())
        fh: IO[Any] = os.fdopen(fd, "wb") if binary else os.fdopen(fd, "w", encoding=encoding)
        with fh:
            fd = -1  # owned by fh now
            yield fh
        os.replace(tmp, target)
    except BaseException:
        if fd >= 0:
            os.close(fd)
        with contextlib.suppress(OSError):
            os.unlink(tmp)
        raise


STORE_COMPANIONS = ("", "-wal", "-shm", "-journal")
"""The files SQLite keeps a database in: the file itself, its write-ahead log, its
shared-memory index and its rollback journal."""


def store_files(db: str | os.PathLike[str]) -> tuple[Path, ...]:
    """Every file of the SQLite store at `db` (existing or not)."""
    return tuple(Path(f"{os.fspath(db)}{suffix}") for suffix in STORE_COMPANIONS)


def _identity(path: Path) -> tuple[str, tuple[int, int] | None]:
    """The path resolved through links, and (device, inode) when it exists."""
    try:
        st = os.stat(path)
        inode: tuple[int, int] | None = (st.st_dev, st.st_ino)
    except OSError:
        inode = None
    return os.path.realpath(path), inode


def same_file(a: str | os.PathLike[str], b: str | os.PathLike[str]) -> bool:
    """Whether two paths name one file: the same path once links are resolved, or the
    same inode (a hard link, another mount of the folder)."""
    real_a, inode_a = _identity(Path(a))
    real_b, inode_b = _identity(Path(b))
    return real_a == real_b or (inode_a is not None and inode_a == inode_b)


def replaced_input(output: str | os.PathLike[str],
                   inputs: Iterable[tuple[str, str | os.PathLike[str]]],
                   parts: str | None = None) -> str | None:
    """What of `inputs` ((what, path) pairs) writing `output` would replace or delete,
    or None. `parts`: the output is a folder whose files matching this glob are written
    or removed (a Parquet dataset's `part-*.parquet`)."""
    for what, path in inputs:
        if same_file(output, path):
            return what
        if parts is not None:
            real, _ = _identity(Path(path))
            if (os.path.dirname(real) == os.path.realpath(output)
                    and fnmatch.fnmatch(os.path.basename(real), parts)):
                return what
    return None


# What a spreadsheet may read as the start of a formula, after the blanks it skips:
# = + - @ and their full-width forms (＝ ＋ － ＠, which some spreadsheets normalise).
_FORMULA = ("=", "+", "-", "@", "\uff1d", "\uff0b", "\uff0d", "\uff20")
_LEADING = " \t\r\n\u3000\u00a0"  # blanks a spreadsheet may skip before a formula


def _formula_like(text: str) -> bool:
    return bool(text) and (text[0] in "\t\r\n" or text.lstrip(_LEADING).startswith(_FORMULA))


def defuse_cell(value: Any) -> Any:
    """A CSV cell a spreadsheet shows as text: user text that would start a formula
    (`=HYPERLINK(...)` in an id, also behind leading blanks and in full-width forms) gets
    a leading `'`; anything else as given."""
    if isinstance(value, str) and _formula_like(value):
        return "'" + value
    return value


def restore_cell(value: Any) -> Any:
    """A cell as it was before `defuse_cell` (a CSV read back)."""
    if isinstance(value, str) and value.startswith("'") and _formula_like(value[1:]):
        return value[1:]
    return value
