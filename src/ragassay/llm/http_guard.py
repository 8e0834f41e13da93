"""What the OpenAI-compatible backend lets a judge server do to its HTTP client.

A judge server is untrusted. The client's response hook (`guard_response`) stops two
things before the SDK sees the response:

- a redirect to another origin (scheme, host or port): it would re-send the POST, the
  `--header` values and Azure's `api-key` there (httpx strips only `Authorization`);
  one within the endpoint's origin is followed;
- an error reply's body is read by the SDK to the end, decompressed, before it raises:
  a gzip bomb in a 500 took gigabytes and minutes per attempt. Here at most
  `MAX_ERROR_BYTES` of it are read, and the connection is closed.

A successful reply is read with `read_capped` (at most `MAX_REPLY_BYTES`, decompressed);
either way the body's iterator is closed at once, so nothing is left to drain later.
"""

from __future__ import annotations

import contextlib
from typing import Any

MAX_REPLY_BYTES = 4_000_000  # a judge reply is a few kB; read no further than this
MAX_ERROR_BYTES = 64_000  # of an error reply: its message is shown as a short excerpt


class Refused(Exception):
    """Raised by the response hook (the backend turns it into a BackendError)."""


class CrossOriginRedirect(Refused):
    """A redirect to another scheme, host or port, not followed."""

    def __init__(self, target: str) -> None:
        self.target = target
        super().__init__(target)


class ErrorReply(Refused):
    """A 4xx/5xx reply: its status, headers and (capped) body text."""

    def __init__(self, status: int, headers: dict[str, str], text: str) -> None:
        self.status, self.headers, self.text = status, headers, text
        super().__init__(f"HTTP {status}")


class TooLarge(Exception):
    """A body over its cap (the caller says which)."""


async def guard_response(response: Any) -> None:
    """The HTTP client's response hook (see the module's docstring)."""
    if response.has_redirect_location:
        source = response.request.url
        target = source.join(response.headers["Location"])
        if (target.scheme, target.host, target.port) != (source.scheme, source.host,
                                                          source.port):
            port = f":{target.port}" if target.port is not None else ""
            raise CrossOriginRedirect(f"{target.scheme}://{target.host}{port}")
        return
    if response.status_code >= 400:
        try:
            body = await read_capped(response.aiter_bytes(), MAX_ERROR_BYTES, truncate=True)
        except Exception as exc:  # a body broken mid-way: the status still says enough
            if not type(exc).__module__.startswith("httpx"):
                raise
            body = b""
        finally:
            await response.aclose()
        try:
            headers = dict(response.headers)
        except Exception:  # a malformed header must not hide the status
            headers = {}
        raise ErrorReply(response.status_code, headers, body.decode("utf-8", "replace"))


async def read_capped(chunks: Any, limit: int, *, truncate: bool = False) -> bytes:
    """The bytes of an async iterator of chunks, at most `limit` of them: past it,
    TooLarge (or, with `truncate`, the first `limit` bytes). The iterator is closed
    before this returns, so no half-read body is left to drain."""
    parts: list[bytes] = []
    size = 0
    async with contextlib.aclosing(chunks) as stream:
        async for chunk in stream:
            if size + len(chunk) > limit:
                if not truncate:
                    raise TooLarge
                parts.append(chunk[: limit - size])
                break
            parts.append(chunk)
            size += len(chunk)
    return b"".join(parts)
