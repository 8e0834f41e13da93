"""How many of 50 generated questions a reader would keep (benches/RESULTS.md, "Test-set
generation: what a reader keeps"), on two corpora: the handbook of examples/handbook
and a SaaS help centre (the 35 passages of the bundled demo's contexts, one document
each). `ragassay generate CORPUS --n 50` (offline, seed 0), then the reader's rules:

every question
  R1  reads as a question: ends with "?", starts with a capital, 4 to 40 words, no word
      twice in a row;
single-fact
  S1  answerable from its gold passage: every content word of the question is in it;
multi-hop
  M1  two gold passages from two different documents;
  M2  the two passages share something the question asks about: a capitalised word
      (not a passage's first) or two adjacent content words found in both passages and
      in the question (two facts that share nothing are two questions, not one);
unanswerable
  U1  about the corpus: every content word of the question but a support question's
      own frame words ("approve", "policy", "contact", "question", ...; FRAME) occurs
      in it, and there is at least one;
  U2  not said by it: no sentence of the corpus holds every capitalised word of the
      question (after its first) and 60% of its other content words.

Content words: 3+ letters, not a stop word, the question phrase ("how many", "what
date") left out. The rules are a reader's
checks made mechanical; they see only the rows and the corpus, never how a question
was made. Prints each kind's kept/made, the total kept of 50, and every rejected
question with the rule it breaks.

    .venv/bin/python benches/testset_quality.py
    PYTHONPATH=../main/src .venv/bin/python benches/testset_quality.py   # another version
"""

from __future__ import annotations

import json
import re
import tempfile
from collections import Counter
from pathlib import Path

from ragassay.corpus import load_corpus
from ragassay.dataset import demo_dataset_path
from ragassay.testset import GenerateOptions, generate

ROOT = Path(__file__).resolve().parents[1]
N = 50
_STOP_TEXT = """
    a about above after again against all am an and any are as at be because
    been before being below between both but by can could did do does doing down during
    each few for from further had has have having here how i if in into is
    it its just me more most my no nor not now of off on once only
    or other our out over own same should so some such than that the their them
    then there these they this those through to too under until up very was we were
    what when where which while who whom why will with would you your also may might
    must per get one whose
"""
STOP = frozenset(_STOP_TEXT.split())
_FRAME_TEXT = """
    approve approves approved approval exception exceptions rule rules policy policies fee
    fees change changed changes last contact question questions say says apply applies
    allowed need happens there whom
"""
FRAME = frozenset(_FRAME_TEXT.split())
"""A support question's own words, about no corpus: "Who approves ...", "Is there a
policy on ...", "Whom do I contact with a question about ..." (the old and the new
generator's frames alike)."""
_TOKEN = re.compile(r"[A-Za-z][A-Za-z0-9'-]*")
_ASKED = re.compile(r"\b(?:how (?:many|much|long|often)|what (?:date|year|percentage|time))\b",
                    re.IGNORECASE)


def content(text: str) -> list[str]:
    """The content words of a text, its question phrase ("how many") left out."""
    return [w.lower() for w in _TOKEN.findall(_ASKED.sub(" ", text))
            if len(w) >= 3 and w.isalpha() and w.lower() not in STOP]


def capitalised(text: str) -> set[str]:
    """Capitalised words after the first (names, as a reader sees them)."""
    return {w for w in _TOKEN.findall(text)[1:] if w[0].isupper()}


def bigrams(text: str) -> set[str]:
    toks = [t.lower().strip(",.;:()") for t in text.split()]
    return {f"{a} {b}" for a, b in zip(toks, toks[1:], strict=False)
            if a.isalpha() and b.isalpha() and len(a) >= 3 and len(b) >= 3
            and a not in STOP and b not in STOP}


def reads(q: str) -> str | None:
    toks = q.split()
    if not q.endswith("?") or not q[:1].isupper() or not 4 <= len(toks) <= 40:
        return "R1 not a readable question (shape or length)"
    if any(a.lower() == b.lower() for a, b in zip(toks, toks[1:], strict=False)):
        return "R1 a word twice in a row"
    return None


def verdict(row: dict, vocabulary: set[str], sentences: list[str]) -> str | None:
    """The rule the row breaks, or None: a reader keeps it."""
    q, kind = row["question"], row["metadata"]["kind"]
    broken = reads(q)
    if broken:
        return broken
    passages = [p["quote"] for p in row["gold_passages"]]
    if kind == "single-fact":
        missing = set(content(q)) - set(content(passages[0]))
        return f"S1 not in its passage: {', '.join(sorted(missing))}" if missing else None
    if kind == "multi-hop":
        if len({p["doc"] for p in row["gold_passages"]}) != 2:
            return "M1 not two documents"
        a, b = passages
        shared = ({w.lower() for w in capitalised(a) & capitalised(b)}
                  | (bigrams(a) & bigrams(b)))
        low = q.lower()
        if not any(re.search(rf"(?<![\w-]){re.escape(s)}(?![\w-])", low) for s in shared):
            return "M2 the two facts share nothing the question asks about"
        return None
    words = content(q)
    topic = [w for w in words if w not in FRAME]
    unknown = [w for w in topic if w not in vocabulary]
    if not topic or unknown:
        return f"U1 not about the corpus: {', '.join(unknown) or 'no subject'}"
    names = {w.lower() for w in capitalised(q)}
    others = set(words) - names
    for sentence in sentences:
        got = set(content(sentence)) | {w.lower() for w in _TOKEN.findall(sentence)}
        if names <= got and len(others & got) >= 0.6 * max(1, len(others)):
            return f"U2 the corpus may say it: {sentence[:90]!r}"
    return None


def demo_corpus(folder: Path) -> Path:
    """The demo's 35 help-centre passages, one document each, titled by their label."""
    seen: list[str] = []
    for line in demo_dataset_path().read_text(encoding="utf-8").splitlines():
        for c in json.loads(line)["contexts"]:
            if c not in seen:
                seen.append(c)
    for i, text in enumerate(seen):
        slug = re.sub(r"[^a-z0-9]+", "-", text.split(":", 1)[0].lower()).strip("-")
        (folder / f"{i:02d}-{slug}.txt").write_text(text + "\n", encoding="utf-8")
    return folder


def measure(name: str, corpus: Path) -> None:
    docs = load_corpus(corpus)
    text = "\n".join(d.text for d in docs)
    vocabulary = set(content(text))
    sentences = [s for line in text.splitlines() for s in re.split(r"(?<=[.!?])\s+", line)
                 if s.strip()]
    rows, _ = generate(docs, GenerateOptions(n=N, seed=0))
    made: Counter[str] = Counter()
    kept: Counter[str] = Counter()
    rejected = []
    for row in rows:
        kind = row["metadata"]["kind"]
        made[kind] += 1
        why = verdict(row, vocabulary, sentences)
        if why is None:
            kept[kind] += 1
        else:
            rejected.append((kind, why, row["question"]))
    print(f"\n== {name}: {len(docs)} documents; {len(rows)} of {N} questions made, "
          f"a reader keeps {sum(kept.values())} of {N}")
    for kind in ("single-fact", "multi-hop", "unanswerable"):
        print(f"  {kind:<13} kept {kept[kind]:>2} of {made[kind]:>2} made")
    for kind, why, q in rejected:
        print(f"  - {kind}: {why}\n      {q}")


def main() -> None:
    import ragassay

    print(f"ragassay from {Path(ragassay.__file__).parent}")
    measure("handbook (examples/handbook/corpus)", ROOT / "examples" / "handbook" / "corpus")
    with tempfile.TemporaryDirectory() as tmp:
        measure("help centre (the demo's 35 passages)", demo_corpus(Path(tmp)))


if __name__ == "__main__":
    main()
