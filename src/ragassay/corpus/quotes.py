"""Where a quoted passage sits in a document: its words in order, any whitespace
between, case-insensitive (gold passages of the bench's questions, a test set's
verified quotes)."""

from __future__ import annotations

import re


def quote_pattern(quote: str) -> re.Pattern[str]:
    """Regex for a quote: its words in order, any whitespace between, case-insensitive."""
    return re.compile(r"\s+".join(re.escape(w) for w in quote.split()), re.IGNORECASE)


def locate(quote: str, text: str) -> tuple[int, int] | None:
    """Character span of the quote's first occurrence in `text`, or None."""
    m = quote_pattern(quote).search(text)
    return m.span() if m else None
