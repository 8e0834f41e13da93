"""Safe Markdown for user text on the dashboard: `md_escape` keeps user text in a
Markdown label text. The sentence marks (safe HTML) are the report's
(`ragassay.report.highlight`), shared with the HTML report."""

from __future__ import annotations

import re

MD_SPECIAL = re.compile(r"([\\`*_{}\[\]()<>#+\-.!|~$:])")


def md_escape(text: str) -> str:
    """Backslash-escape Markdown so that user text in a label or message stays text."""
    return MD_SPECIAL.sub(r"\\\1", text)


__all__ = ["md_escape"]
