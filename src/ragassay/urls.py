"""URLs as they may be stored or shown: no query string, no user name or password, no
key in the path.

A base URL typed as `http://user:pw@host/v1?api-key=...&token=...` carries secrets in
its userinfo and query. The judge still receives the URL as given (a query such as
Azure's `api-version` is sent), but everything that keeps or prints a URL (the run
store, reports, error reasons, the terminal) goes through `redact_url` /
`redact_urls`, which drop both parts. `credential_parts` names what looks like a
credential, so that the CLI can refuse it and point at `--header` or a key variable.
"""

from __future__ import annotations

import re
from urllib.parse import parse_qsl, urlsplit, urlunsplit

_URL = re.compile(r"\b[A-Za-z][A-Za-z0-9+.\-]*://[^\s\"'<>]+")
SECRET_PATTERNS = (
    re.compile(r"(?i)(bearer\s+)[^\s\"',;]+"),
    re.compile(r"\bsk-[A-Za-z0-9_\-]{6,}"),
)
"""What looks like a key in text: masked in server error excerpts and in URL paths."""


def mask_secrets(text: str) -> str:
    """`text` with every key-looking part (`sk-...`, `Bearer ...`) replaced by `***`."""
    for pattern in SECRET_PATTERNS:
        text = pattern.sub(lambda m: (m.group(1) if m.groups() else "") + "***", text)
    return text
_CREDENTIAL_WORDS = ("key", "token", "secret", "password", "passwd", "pwd", "auth", "sig",
                     "signature", "credential", "session", "code")


def redact_url(url: str) -> str:
    """`url` without its query string, fragment and userinfo (`scheme://host:port/path`),
    and with a key in its path (`/sk-.../v1`, as some gateways take it) masked as
    server error excerpts are: `/***/v1`.

    Text that is not a URL with a host comes back masked, and without anything after
    `?` or `#`.
    """
    try:
        parts = urlsplit(url)
        host = parts.hostname
        port = parts.port
    except ValueError:  # e.g. an invalid port: keep only what precedes a query
        return mask_secrets(re.split(r"[?#]", url, maxsplit=1)[0])
    if not parts.netloc or host is None:
        return mask_secrets(re.split(r"[?#]", url, maxsplit=1)[0])
    netloc = f"[{host}]" if ":" in host else host
    if port is not None:
        netloc += f":{port}"
    return urlunsplit((parts.scheme, netloc, mask_secrets(parts.path), "", ""))


def redact_urls(text: str) -> str:
    """Every URL inside `text` redacted (for error messages that quote a URL)."""
    if "://" not in text:
        return text
    return _URL.sub(lambda m: redact_url(m.group()), text)


def credential_parts(url: str) -> list[str]:
    """What in `url` looks like a credential: "user:password" and query parameter names
    such as `api_key`, `token` or `sig`. Empty for a clean URL."""
    try:
        parts = urlsplit(url)
    except ValueError:
        return []
    found = []
    if parts.username or parts.password:
        found.append("user:password")
    for name, _ in parse_qsl(parts.query, keep_blank_values=True):
        low = name.lower()
        if any(word in low for word in _CREDENTIAL_WORDS):
            found.append(name)
    return found


def base_url_problem(url: str | None, option: str = "--base-url") -> str | None:
    """None for a URL without credentials, else the one-line reason to refuse it
    (userinfo, a key or token in the query): credentials go in headers, never in a URL
    that could be stored or printed. The CLI and the Python API both ask this."""
    found = credential_parts(url) if url else []
    if not found:
        return None
    return (f"{option} {redact_url(url or '')} carries credentials ({', '.join(found)}); "
            "pass them with --header NAME=VALUE (headers= in Python) or OPENAI_API_KEY "
            "instead, so that they are never stored or printed")



def connection_failure(exc: BaseException) -> str:
    """What a failed request to a URL met, in words a user acts on: "connection refused"
    (nothing listens on that port), "host not found", "timed out", else the error's
    type. Reads the exception's causes (an HTTP library wraps the socket's error)."""
    import socket

    seen: BaseException | None = exc
    for _ in range(8):  # a bounded walk down the cause chain
        if seen is None:
            break
        if isinstance(seen, ConnectionRefusedError):
            return "connection refused"
        if isinstance(seen, socket.gaierror):
            return "host not found"
        if isinstance(seen, TimeoutError) or "Timeout" in type(seen).__name__:
            return "timed out"
        if isinstance(seen, ConnectionResetError):
            return "connection reset"
        seen = seen.__cause__ or seen.__context__
    return type(exc).__name__
