"""Writing a file atomically and safely: the one helper every report and cache write uses.

The content goes to a temporary file created exclusively (`mkstemp`: `O_CREAT | O_EXCL`,
a random name, in the target's folder so that the final rename stays on one file
system), which is renamed over the target only when complete. A partial file is never
left under the final name, and a planted `NAME.part` (or any other) symlink next to
the target is never opened, followed or removed: the temporary name is not guessable
and an existing path is never reused. The file gets the usual permissions (0666 less
the umask), not mkstemp's 0600.
"""

from __future__ import annotations

import contextlib
import os
import tempfile
from collections.abc import Iterator
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
