"""Write ragassay's packaged OpenAI price table (src/ragassay/llm/openai_prices.json) from
the price table the installed litellm ships, for the common OpenAI chat models, so that
`--dry-run` prices them without the litellm extra (`llm.pricing`).

    .venv/bin/python scripts/prices/openai_prices.py --as-of 2026-11-20

`--as-of`: the date of the table (the litellm release's upload date on PyPI).
"""

from __future__ import annotations

import argparse
import importlib.metadata
import json
from pathlib import Path

from ragassay.llm.pricing import OPENAI_TABLE, litellm_table

MODELS = ("gpt-5.2", "gpt-5.1", "gpt-5", "gpt-5-mini", "gpt-5-nano", "gpt-4.1",
          "gpt-4.1-mini", "gpt-4.1-nano", "gpt-4o", "gpt-4o-mini", "o4-mini", "o3",
          "o3-mini", "o1", "gpt-4-turbo", "gpt-4", "gpt-3.5-turbo")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--as-of", required=True, help="YYYY-MM-DD")
    args = parser.parse_args()
    table = litellm_table()
    if not table:
        raise SystemExit("needs litellm installed (pip install 'ragassay[litellm]')")
    models = {}
    for name in MODELS:
        entry = table[name]
        price = {"input": round(entry["input_cost_per_token"] * 1e6, 6),
                 "output": round(entry["output_cost_per_token"] * 1e6, 6)}
        cached = entry.get("cache_read_input_token_cost")
        if cached:
            price["cached_input"] = round(cached * 1e6, 6)
        models[name] = price
    version = importlib.metadata.version("litellm")
    out = {"as_of": args.as_of,
           "source": f"LiteLLM {version}'s model_prices_and_context_window_backup.json",
           "unit": "US dollars per million tokens", "models": models}
    Path(OPENAI_TABLE).write_text(json.dumps(out, indent=1) + "\n", encoding="utf-8")
    print(f"{len(models)} models written to {OPENAI_TABLE}")


if __name__ == "__main__":
    main()
