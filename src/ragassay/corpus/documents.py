"""Corpus loading: a folder of .txt/.md/.html/.pdf files, or a JSONL of documents.

Every document keeps its id (the path relative to the corpus folder, or the JSONL
`id`) so that chunks, gold labels and reports all name documents the same way.
HTML is flattened with its structure kept: headings become markdown `#` lines and
block elements become paragraphs, so the heading-aware chunker works on it too.
"""

from __future__ import annotations

import json
import re
from pathlib import Path

from pydantic import BaseModel, ConfigDict

from ragassay.extras import MissingExtra, require

SUFFIXES = (".txt", ".md", ".markdown", ".html", ".htm", ".pdf")
_HEADINGS = ("h1", "h2", "h3", "h4", "h5", "h6")
_BLOCKS = (*_HEADINGS, "p", "li", "pre", "blockquote", "td", "th", "dt", "dd")


class Document(BaseModel):
    """One corpus document: its id, a title and the plain text that chunks index into."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    id: str
    text: str
    title: str = ""
    format: str = "txt"


class CorpusError(ValueError):
    """A corpus that cannot be loaded (missing path, unreadable file, bad JSONL row)."""


def html_to_text(html: str) -> tuple[str, str]:
    """Flatten HTML to (title, text): headings as `#` lines, blocks as paragraphs."""
    BeautifulSoup = require("bs4", "bench", "reading HTML documents").BeautifulSoup
    soup = BeautifulSoup(html, "html.parser")
    for tag in soup(["script", "style", "noscript"]):
        tag.decompose()
    title = soup.title.get_text(" ", strip=True) if soup.title else ""
    body = soup.body or soup
    parts: list[str] = []
    for tag in body.find_all(_BLOCKS):
        if tag.find_parent(_BLOCKS):
            continue  # nested block: its text is part of the enclosing block
        text = " ".join(tag.get_text(" ", strip=True).split())
        if not text:
            continue
        if tag.name and tag.name[0] == "h" and tag.name[1:].isdigit():
            text = "#" * int(tag.name[1:]) + " " + text
        elif tag.name == "li":
            text = "- " + text
        parts.append(text)
    if not parts:  # no block structure: fall back to the plain text
        parts = [" ".join(body.get_text(" ", strip=True).split())]
    if not title:
        title = next((p.lstrip("# ") for p in parts if p.startswith("#")), "")
    return title, "\n\n".join(p for p in parts if p)


def pdf_to_text(path: Path) -> str:
    """Extract a PDF's text page by page (pypdf), pages separated by blank lines."""
    PdfReader = require("pypdf", "bench", "reading PDF documents").PdfReader
    reader = PdfReader(str(path))
    pages = [(page.extract_text() or "").strip() for page in reader.pages]
    return "\n\n".join(p for p in pages if p)


TITLE_WORDS = 12  # a first line longer than this, or a sentence, is no title


def _first_line_title(text: str, doc_id: str = "") -> str:
    """The first line when it reads as a title (short, no full stop at its end), else
    the file's name ("remote-work.txt" -> "remote work"): a plain-text file is often one
    paragraph per line, and its first line is no title."""
    line = next((ln.strip() for ln in text.splitlines() if ln.strip()), "")
    heading = line.startswith("#")
    line = line.lstrip("# ").strip()
    if line and (heading or (len(line.split()) <= TITLE_WORDS
                             and not line.endswith((".", "!", "?", ";", ":")))):
        return line
    stem = Path(doc_id).stem if doc_id else ""
    return " ".join(re.split(r"[-_\s]+", stem)).strip()


def load_file(path: Path, doc_id: str) -> Document:
    """Load one file by its suffix."""
    suffix = path.suffix.lower()
    try:
        if suffix == ".pdf":
            text = pdf_to_text(path)
            return Document(id=doc_id, text=text, title=_first_line_title(text, doc_id),
                            format="pdf")
        raw = path.read_text(encoding="utf-8")
    except MissingExtra:
        raise
    except Exception as exc:  # pypdf and decoding raise many types
        raise CorpusError(f"{doc_id}: cannot read ({exc})") from exc
    if suffix in (".html", ".htm"):
        title, text = html_to_text(raw)
        return Document(id=doc_id, text=text, title=title, format="html")
    fmt = "md" if suffix in (".md", ".markdown") else "txt"
    return Document(id=doc_id, text=raw, title=_first_line_title(raw, doc_id), format=fmt)


def load_jsonl(path: Path) -> list[Document]:
    """Load documents from JSONL rows {id, title?, text}."""
    docs: list[Document] = []
    seen: set[str] = set()
    for n, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
        if not line.strip():
            continue
        try:
            row = json.loads(line)
        except json.JSONDecodeError as exc:
            raise CorpusError(f"{path.name}:{n}: invalid JSON ({exc.msg})") from exc
        if not isinstance(row, dict) or not isinstance(row.get("text"), str):
            raise CorpusError(f"{path.name}:{n}: a document needs a string 'text'")
        doc_id = str(row.get("id", n))
        if doc_id in seen:
            raise CorpusError(f"{path.name}:{n}: duplicate document id {doc_id!r}")
        seen.add(doc_id)
        docs.append(
            Document(id=doc_id, text=row["text"], title=str(row.get("title") or ""), format="jsonl")
        )
    return docs


def load_corpus(path: str | Path) -> list[Document]:
    """Load a corpus folder (recursively, sorted by path) or a JSONL file.

    Empty documents are skipped; a corpus with no documents at all is an error.
    """
    root = Path(path)
    if not root.exists():
        raise CorpusError(f"corpus not found: {root}")
    if root.is_file():
        is_jsonl = root.suffix.lower() == ".jsonl"
        docs = load_jsonl(root) if is_jsonl else [load_file(root, root.name)]
    else:
        files = sorted(
            p for p in root.rglob("*") if p.is_file() and p.suffix.lower() in SUFFIXES
        )
        docs = [load_file(p, p.relative_to(root).as_posix()) for p in files]
    docs = [d for d in docs if d.text.strip()]
    if not docs:
        raise CorpusError(f"corpus has no documents with text: {root}")
    return docs
