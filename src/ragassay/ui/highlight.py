"""Safe Markdown for user text on the dashboard: `md_escape` keeps user text in a
Markdown label text. The sentence marks (safe HTML) are the report's
(`ragassay.report.highlight`), shared with the HTML report."""

from __future__ import annotations

import re

MD_SPECIAL = re.compile(r"([\\`*_{}\[\]()<>#+\-.!|~$:])")
WORD_JOINER = "\u2060"
# what GitHub-flavoured Markdown links by itself, whatever is escaped: a URL's "://",
# "www." and the "@" of an e-mail address (Streamlit autolinks them after unescaping)
_AUTOLINK = re.compile(r"(?<=:)(?=//)|(?<=www)(?=\.)|(?<=@)", re.IGNORECASE)


def md_escape(text: str) -> str:
    """User text for a Markdown label or message, shown as written: Markdown and
    Streamlit's directives (`:red[...]`, `:material/x:`) backslash-escaped, and what
    GitHub-flavoured Markdown would link by itself (`http://`, `www.`, `a@b.c`) broken by
    an invisible word joiner, so that no image is fetched and no link is live."""
    return MD_SPECIAL.sub(r"\\\1", _AUTOLINK.sub(WORD_JOINER, text))


__all__ = ["md_escape"]
