"""What a judge call costs: a price given by the user (`--price-in/--price-out`, US
dollars per million tokens), else LiteLLM's maintained price table where litellm is
installed (the `litellm` extra), else, for the common OpenAI chat models, ragassay's own
small packaged table (`openai_prices.json`, dated; made from LiteLLM's by
scripts/prices/openai_prices.py), else unknown (None: unpriced, not free).

LiteLLM's table is read from the JSON file the installed litellm ships
(`model_prices_and_context_window_backup.json`), without importing litellm: its import
takes seconds and fetches the newest table from GitHub unless told not to; the shipped
file is the table of the pinned version.
"""

from __future__ import annotations

import importlib.util
import json
from functools import lru_cache
from pathlib import Path
from typing import Any

from ragassay.types import Price, Usage, is_offline

LITELLM_TABLE = "model_prices_and_context_window_backup.json"
OPENAI_TABLE = Path(__file__).with_name("openai_prices.json")
PER_MILLION = 1_000_000


@lru_cache(maxsize=1)
def packaged_table() -> dict[str, Any]:
    """ragassay's packaged OpenAI prices: `as_of`, `source` and `models` (per million)."""
    table: dict[str, Any] = json.loads(OPENAI_TABLE.read_text(encoding="utf-8"))
    return table


def packaged_price(model: str) -> Price | None:
    """The packaged price of an OpenAI model (`gpt-4o-mini`, `openai/gpt-4o-mini`)."""
    name = model.removeprefix("openai/")
    entry = packaged_table()["models"].get(name)
    return None if entry is None else Price.model_validate(entry)


@lru_cache(maxsize=1)
def litellm_table() -> dict[str, Any]:
    """LiteLLM's price table as shipped with the installed litellm ({} without it)."""
    try:
        spec = importlib.util.find_spec("litellm")
    except (ImportError, ValueError):
        return {}
    if spec is None or not spec.submodule_search_locations:
        return {}
    for folder in spec.submodule_search_locations:
        path = Path(folder) / LITELLM_TABLE
        try:
            table = json.loads(path.read_text(encoding="utf-8"))
        except (OSError, ValueError):
            continue
        if isinstance(table, dict):
            return table
    return {}


def _per_million(value: Any) -> float | None:
    if isinstance(value, bool) or not isinstance(value, int | float) or value < 0:
        return None
    return float(value) * PER_MILLION


def litellm_price(model: str, *, batch: bool = False) -> Price | None:
    """The model's price in LiteLLM's table: by its name as given (`gpt-4o-mini`,
    `openai/gpt-4o-mini`), else without its provider prefix; None when the table (or
    litellm) has none. `batch`: its price through the provider's batch API, where the
    table gives one (`input_cost_per_token_batches`)."""
    table = litellm_table()
    suffix = "_batches" if batch else ""
    names = [model, model.split("/", 1)[-1]] if "/" in model else [model]
    for name in names:
        entry = table.get(name)
        if not isinstance(entry, dict):
            continue
        inp = _per_million(entry.get(f"input_cost_per_token{suffix}"))
        out = _per_million(entry.get(f"output_cost_per_token{suffix}"))
        if inp is None or out is None:
            continue
        cached = _per_million(entry.get("cache_read_input_token_cost"))
        if batch and cached is not None:
            cached /= 2
        return Price(input=inp, output=out, cached_input=cached)
    return None


BATCH_SHARE = 0.5
"""A batch call's price as a share of a direct one's, where the table has no batch
price: OpenAI's and Anthropic's batch APIs charge half."""


def batch_price(judge: str, given: Price | None = None) -> tuple[Price | None, str]:
    """The price of a judge's calls through its provider's batch API and where it came
    from: LiteLLM's batch price where the table has one, else half of the direct price
    (`resolve_price`); (None, why) when unknown."""
    if given is None and not is_offline(judge):
        found = litellm_price(model_name(judge), batch=True)
        if found is not None:
            return found, "LiteLLM's batch price table"
    direct, why = resolve_price(judge, given)
    if direct is None:
        return None, why
    half = Price(input=direct.input * BATCH_SHARE, output=direct.output * BATCH_SHARE,
                 cached_input=None if direct.cached_input is None
                 else direct.cached_input * BATCH_SHARE)
    return half, f"half of {why}"


def model_name(spec: str) -> str:
    """`openai:gpt-4o-mini` -> `gpt-4o-mini`; a bare name stays as it is."""
    return spec.split(":", 1)[1] if ":" in spec else spec


def resolve_price(judge: str, given: Price | None = None) -> tuple[Price | None, str]:
    """The price of a judge's calls and where it came from: free for the offline judge,
    the given price, else LiteLLM's table; (None, why) when unknown."""
    if is_offline(judge):
        return Price(input=0, output=0), "the offline judge makes no paid call"
    if given is not None:
        return given, "--price-in/--price-out"
    found = litellm_price(model_name(judge))
    if found is not None:
        return found, "LiteLLM's price table"
    if not litellm_table() and (found := packaged_price(model_name(judge))) is not None:
        return found, (f"ragassay's packaged OpenAI prices of {packaged_table()['as_of']}; "
                       "pip install 'ragassay[litellm]' for LiteLLM's current table")
    how = ("litellm has no price for it" if litellm_table()
           else "pip install 'ragassay[litellm]' for LiteLLM's price table")
    return None, f"no price for {model_name(judge)} ({how}; or give --price-in/--price-out)"


def priced(usage: Usage, price: Price | None) -> Usage:
    """The usage with its cost from `price` when the backend reported none."""
    if price is None or usage.cost_usd is not None or not usage.calls:
        return usage
    return usage.model_copy(update={"cost_usd": price.cost(
        usage.input_tokens, usage.output_tokens, usage.cached_tokens)})


def price_text(price: Price) -> str:
    """`$0.15 in / $0.60 out per 1M tokens`."""
    return f"${price.input:.2f} in / ${price.output:.2f} out per 1M tokens"


def usd_text(usd: float) -> str:
    """Dollars with enough digits for small runs: `$0.0123`, `$12.35`."""
    return f"${usd:.2f}" if usd >= 1 else f"${usd:.4f}"


__all__ = ["BATCH_SHARE", "Price", "batch_price", "litellm_price", "model_name",
           "packaged_price", "packaged_table", "price_text", "priced", "resolve_price",
           "usd_text"]
