"""The monitor's event stream: one JSON object per line on stdout (`{"event": "alarm",
...}`, `window`, `baseline`, `recovery`, `stats`, `start`, `stopped`, `error`), the
drift events stored once each (a restart replaying its last windows prints nothing
twice), and alarms POSTed to a webhook (https, or http to this machine only).
"""

from __future__ import annotations

import asyncio
import contextlib
import ipaddress
import json
import sys
from datetime import UTC, datetime
from typing import Any, TextIO
from urllib.parse import urlsplit

import httpx

from ragassay.store import Store
from ragassay.version import __version__

WEBHOOK_TRIES = 4
WEBHOOK_TIMEOUT_S = 10.0


def now_iso() -> str:
    return datetime.now(UTC).isoformat(timespec="milliseconds")


def webhook_problem(url: str) -> str | None:
    """Why a webhook URL is refused (None: accepted): https, or http to a loopback
    address (127.0.0.0/8, ::1, localhost) only, so that alarms never cross a network
    in clear text."""
    try:
        parts = urlsplit(url)
        host = parts.hostname or ""
        parts.port  # noqa: B018  (raises ValueError on a bad port)
    except ValueError:
        return f"--webhook: not a URL: {shown_url(url)}"
    if parts.scheme not in ("http", "https") or not host:
        return f"--webhook must be an https:// URL, not {shown_url(url)}"
    if parts.username or parts.password:
        return "--webhook: credentials in the URL are refused (they would be logged)"
    if parts.scheme == "http" and not is_loopback(host):
        return (f"--webhook {shown_url(url)}: http only to this machine (127.0.0.1, ::1, "
                "localhost); use https:// for any other host")
    return None


def is_loopback(host: str) -> bool:
    if host.lower() == "localhost":
        return True
    try:
        return ipaddress.ip_address(host.strip("[]")).is_loopback
    except ValueError:
        return False


def shown_url(url: str) -> str:
    """A webhook URL as printed: scheme and host only (its path often holds a token)."""
    try:
        parts = urlsplit(url)
        return f"{parts.scheme}://{parts.netloc.rpartition('@')[2]}/..." if parts.netloc \
            else "(not a URL)"
    except ValueError:
        return "(not a URL)"


class Webhook:
    """POSTs alarms as JSON to one URL in the background: retried (timeouts, 429, 5xx)
    with backoff, redirects not followed; a delivery that fails is said on stderr and
    as an `error` event, never raised."""

    def __init__(self, url: str, on_failure: Any = None) -> None:
        self.url = url
        self.on_failure = on_failure
        self._client = httpx.AsyncClient(timeout=WEBHOOK_TIMEOUT_S, follow_redirects=False,
                                         headers={"User-Agent": f"ragassay/{__version__}"})
        self._tasks: set[asyncio.Task[None]] = set()
        self.delivered = 0

    def post(self, event: dict[str, Any]) -> None:
        task = asyncio.get_running_loop().create_task(self._deliver(event))
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)

    async def _deliver(self, event: dict[str, Any]) -> None:
        why = ""
        for attempt in range(WEBHOOK_TRIES):
            try:
                reply = await self._client.post(self.url, json=event)
                if reply.status_code < 300:
                    self.delivered += 1
                    return
                why = f"HTTP {reply.status_code}"
                if reply.status_code < 500 and reply.status_code != 429:
                    break
            except httpx.HTTPError as exc:
                why = type(exc).__name__
            await asyncio.sleep(min(2.0 ** attempt, 30.0))
        if self.on_failure is not None:
            self.on_failure(f"webhook {shown_url(self.url)} refused the alarm: {why}")

    async def close(self, timeout: float = 10.0) -> None:
        """Wait (at most `timeout`) for deliveries in flight, then close."""
        if self._tasks:
            with contextlib.suppress(asyncio.TimeoutError):
                await asyncio.wait_for(asyncio.gather(*self._tasks, return_exceptions=True),
                                       timeout)
        await self._client.aclose()


class EventSink:
    """Writes events: a JSON line each on `out`; drift events (with a `key`) stored in
    the run first and written only when new; alarms to the webhook too."""

    def __init__(self, store: Store, run_id: str, out: TextIO | None = None,
                 webhook: Webhook | None = None) -> None:
        self.store = store
        self.run_id = run_id
        self.out = out if out is not None else sys.stdout
        self.webhook = webhook
        self.counts: dict[str, int] = {}

    def emit(self, event: dict[str, Any], *, key: str | None = None,
             metric: str | None = None) -> bool:
        """Write one event (`event["event"]` is its kind); with `key`, only the first
        time that key is seen in the run. Returns whether it was written."""
        kind = str(event["event"])
        line = {"event": kind, "run": self.run_id, "time": now_iso(),
                **{k: v for k, v in event.items() if k != "event"}}
        if key is not None and not self.store.add_monitor_event(self.run_id, key, kind,
                                                                metric, line):
            return False
        self.counts[kind] = self.counts.get(kind, 0) + 1
        try:
            self.out.write(json.dumps(line, ensure_ascii=False, allow_nan=False) + "\n")
            self.out.flush()
        except (BrokenPipeError, ValueError):  # a reader gone: the store still has it
            pass
        if kind == "alarm" and self.webhook is not None:
            self.webhook.post(line)
        return True
