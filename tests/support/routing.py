"""A scripted judge for routing tests: each model's verdict on each sample is seeded.

`routing_data(path, n)` writes n samples, "item i", each with a seeded truth (does the
answer hallucinate?) and, for the first `labelled`, that truth as a `hallucinated`
label (or none: `labels_file` writes them apart). `ScriptedJudge` answers the judge
suite's prompt for any model: a model's confidence in sample i is drawn from its
`MODELS` range (seeded by model and sample), its verdict is right with exactly that
probability (a calibrated judge; `blind` is right 3 times in 4 whatever its
confidence, `sharp` with probability 2 * confidence - 1), and the reply carries the
token probability of the hallucination flag (`p_true`), so the routing reads the
confidence from it. The model `nologprobs` gives no token probabilities."""

from __future__ import annotations

import json
import random
import re
import threading
from collections import Counter
from pathlib import Path
from typing import Any

from tests.support.logprobs import logprobs_content
from tests.support.scripted_server import ScriptedReply

MODELS = {"weak": (0.5, 1.0), "strong": (0.75, 1.0), "nologprobs": (0.75, 1.0),
          "blind": (0.5, 1.0), "sharp": (0.5, 1.0),
          "juror-a": (0.6, 1.0), "juror-b": (0.6, 1.0), "juror-c": (0.6, 1.0)}
ITEM = re.compile(r"item (\d+)\b")


def truth(i: int, seed: int = 0) -> bool:
    """Whether sample i's answer hallucinates (seeded)."""
    return random.Random(f"truth:{seed}:{i}").random() < 0.4


def verdict(model: str, i: int, seed: int = 0) -> tuple[bool, float]:
    """(the model's hallucination flag for sample i, its confidence in it)."""
    low, high = MODELS[model]
    rng = random.Random(f"{model}:{seed}:{i}")
    conf = rng.uniform(low, high)
    # "blind": right 3 times in 4 whatever its confidence (it ranks its errors at chance);
    # "sharp": seldom right when unsure (it ranks its errors well)
    odds = {"blind": 0.75, "sharp": 2 * conf - 1}.get(model, conf)
    right = rng.random() < odds
    return (truth(i, seed) if right else not truth(i, seed)), conf


def _answer(i: int, bad: bool, hard: bool) -> str:
    """Easy: a copy of the context, or a copy with an unsupported claim; hard: a
    paraphrase, or the context with a detail changed (the offline judge is less sure,
    and for 40% of the hard ones people judged otherwise than the text suggests)."""
    if not hard:
        return f"The item {i} ships in May." + (" It costs 40 euros." if bad else "")
    return (f"Shipping of item {i} happens in June from the northern depot." if bad
            else f"Item {i} is dispatched during May by the warehouse.")


def _row(i: int, seed: int, label: bool) -> dict[str, Any]:
    bad = truth(i, seed)
    rng = random.Random(f"hard:{seed}:{i}")
    hard = rng.random() < 0.5
    looks_bad = (not bad) if hard and rng.random() < 0.4 else bad  # people saw otherwise
    row: dict[str, Any] = {
        "id": f"s{i}", "question": f"When does item {i} ship?",
        "contexts": [f"The item {i} ships in May from the warehouse in the north."],
        "answer": _answer(i, looks_bad, hard)}
    if label:
        row["labels"] = {"hallucinated": bad}
    return row


def routing_data(path: Path, n: int, *, labelled: int = 0, seed: int = 0) -> Path:
    """n samples, the first `labelled` with their truth as a `hallucinated` label."""
    path.write_text("".join(json.dumps(_row(i, seed, i < labelled)) + "\n"
                            for i in range(n)))
    return path


def labels_file(path: Path, ids: range, seed: int = 0) -> Path:
    """A label file (JSONL: id, hallucinated) for samples `ids`."""
    path.write_text("".join(json.dumps({"id": f"s{i}", "hallucinated": truth(i, seed)})
                            + "\n" for i in ids))
    return path


class ScriptedJudge:
    """The handler: answers the judge suite's prompt as the requested model would;
    counts requests per model and per (model, sample)."""

    def __init__(self, seed: int = 0) -> None:
        self.seed = seed
        self.lock = threading.Lock()
        self.calls: Counter[str] = Counter()
        self.seen: Counter[tuple[str, int]] = Counter()
        self.down: set[tuple[str, int]] = set()  # (model, sample) answered 503

    def __call__(self, request: dict[str, Any], n: int) -> ScriptedReply:
        model = str(request.get("model", ""))
        text = request["messages"][-1]["content"]
        m = ITEM.search(text)
        i = int(m.group(1)) if m else 0
        with self.lock:
            self.calls[model] += 1
            self.seen[(model, i)] += 1
        if (model, i) in self.down:
            return ScriptedReply.error(503, "overloaded")
        flag, conf = verdict(model, i, self.seed)
        reply = json.dumps({"faithfulness": 3 if flag else 9, "hallucination": flag,
                            "context_relevance": 8, "reasoning": f"{model} on item {i}"})
        if model == "nologprobs":
            return ScriptedReply.chat(reply, usage=(100, 20))
        p_true = conf if flag else 1 - conf
        alts: list[dict[str, float] | None] = [
            {"3" if flag else "9": 1.0},
            {"true": p_true, "false": 1 - p_true},
            {"8": 1.0}]
        return ScriptedReply.chat(reply, logprobs=logprobs_content(reply, alts),
                                  usage=(100, 20))
