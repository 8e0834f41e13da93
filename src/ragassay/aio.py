"""One way to run a coroutine from synchronous code, inside a running event loop or not."""

from __future__ import annotations

import asyncio
import contextvars
import threading
from collections.abc import Coroutine
from typing import Any, TypeVar

T = TypeVar("T")


def loop_running() -> bool:
    """Whether this thread already runs an event loop (Jupyter, an async app)."""
    try:
        asyncio.get_running_loop()
    except RuntimeError:
        return False
    return True


def run_sync(coro: Coroutine[Any, Any, T]) -> T:
    """`asyncio.run(coro)`; when this thread already runs a loop (Jupyter, an async app),
    the coroutine runs on a fresh loop in a helper thread and this call waits for it."""
    if not loop_running():
        return asyncio.run(coro)
    result: list[T] = []
    error: list[BaseException] = []
    ctx = contextvars.copy_context()

    def target() -> None:
        try:
            result.append(ctx.run(asyncio.run, coro))
        except BaseException as exc:  # re-raised in the caller's thread
            error.append(exc)

    thread = threading.Thread(target=target, name="ragassay-run", daemon=True)
    thread.start()
    thread.join()
    if error:
        raise error[0]
    return result[0]
