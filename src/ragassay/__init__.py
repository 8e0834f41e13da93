"""ragassay: trustworthy, frugal evaluation of retrieval-augmented generation.

`ragassay.evaluate(data, metrics=..., judge=...)` (and `await ragassay.aevaluate(...)`)
is the Python API; the names are imported on first use, so `import ragassay` stays cheap.
"""

from __future__ import annotations

from typing import Any

from ragassay.version import __version__

_API = ("evaluate", "aevaluate", "EvalResult", "EvalOptions", "RoutingPlan", "Tier")


def __getattr__(name: str) -> Any:
    if name in _API:
        from ragassay import api

        return getattr(api, name)
    raise AttributeError(f"module 'ragassay' has no attribute {name!r}")


def __dir__() -> list[str]:
    return sorted([*globals(), *_API])


__all__ = ["EvalOptions", "EvalResult", "RoutingPlan", "Tier", "__version__", "aevaluate",
           "evaluate"]
