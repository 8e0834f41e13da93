"""Write the corrected-estimates example: 240 answers of a support bot about a fictional
product, and a person's `hallucinated` labels for 150 of them, drawn at random.

The answers are made from templates, so the truth is known: an answer is hallucinated when
it states a figure the contexts do not give, adds a claim they do not make, or turns one
qualifier around ("billed monthly" where the context says annually); a faithful answer
may say it in other words. The offline judge catches wrong figures, misses some turned
qualifiers and doubts some paraphrases: its own hallucination rate is off, which is what
`ragassay labels import` then corrects.

    python examples/labels/make_example.py      # rewrites data.jsonl and labels.jsonl
"""

from __future__ import annotations

import json
import random
from pathlib import Path

HERE = Path(__file__).resolve().parent

PLANS = ["Starter", "Team", "Business", "Enterprise", "Education", "Nonprofit"]
# (question, the context that answers it, a faithful answer, a faithful paraphrase, a
# subtly wrong answer: same words, one qualifier the context contradicts, the number)
FACTS = [
    ("How much does the {p} plan cost per month?",
     "The {p} plan costs ${n} per user per month, billed annually.",
     "The {p} plan costs ${n} per user per month.",
     "You pay ${n} a month for each person on {p}, with yearly billing.",
     "The {p} plan costs ${n} per user per month, billed monthly.",
     lambda r: r.choice([8, 12, 15, 19, 25, 39])),
    ("How many projects can a {p} workspace have?",
     "A {p} workspace can hold up to {n} active projects; archived projects do not count.",
     "A {p} workspace can have up to {n} active projects.",
     "On {p} you get room for {n} live projects, and anything archived is free of that cap.",
     "A {p} workspace can hold up to {n} projects, archived projects included.",
     lambda r: r.choice([5, 10, 25, 50, 100])),
    ("How long is the {p} plan's free trial?",
     "New {p} workspaces get a free trial of {n} days with every feature enabled.",
     "The {p} plan comes with a {n}-day free trial.",
     "Trying {p} costs nothing for {n} days, and nothing is locked during that time.",
     "The {p} plan comes with a {n}-day free trial with some features disabled.",
     lambda r: r.choice([7, 14, 21, 30])),
    ("How much storage does each {p} user get?",
     "Each {p} user gets {n} GB of file storage, pooled across the workspace.",
     "Each {p} user gets {n} GB of storage.",
     "Storage on {p} is {n} GB a head, shared by everyone in the workspace.",
     "Each {p} user gets {n} GB of file storage that cannot be shared.",
     lambda r: r.choice([2, 5, 10, 20, 50])),
]
DISTRACTORS = [
    "Invoices are sent on the first business day of each month to the billing contact.",
    "Single sign-on with SAML is configured under Settings, then Security.",
    "Support answers tickets in English, German and Spanish, Monday to Friday.",
    "Exports are delivered as a ZIP archive of CSV files within one hour.",
    "Guests can view and comment on shared projects but cannot create new ones.",
]
ADDED = [" It also includes a dedicated account manager.",
         " Unused storage rolls over to the next year.",
         " The price is locked for three years.",
         " Phone support is available around the clock."]


def _row(i: int, rng: random.Random) -> tuple[dict, bool]:
    q, context, answer, paraphrase, subtle, number = rng.choice(FACTS)
    plan, n = rng.choice(PLANS), number(rng)
    contexts = [context.format(p=plan, n=n), *rng.sample(DISTRACTORS, 2)]
    rng.shuffle(contexts)
    kind = rng.random()
    text = answer.format(p=plan, n=n)
    if kind < 0.10:  # a wrong figure
        text = answer.format(p=plan, n=n * 2)
    elif kind < 0.20:  # a claim the contexts do not make
        text += rng.choice(ADDED)
    elif kind < 0.35:  # one qualifier the context contradicts
        text = subtle.format(p=plan, n=n)
    elif kind < 0.42:  # faithful, in other words
        text = paraphrase.format(p=plan, n=n)
    row = {"id": f"a{i:03d}", "question": q.format(p=plan), "contexts": contexts,
           "answer": text, "strategy": "bot-v2"}
    return row, kind < 0.35


def main() -> None:
    rng = random.Random(20261202)
    rows, truth = zip(*(_row(i, rng) for i in range(240)), strict=True)
    with (HERE / "data.jsonl").open("w") as fh:
        for r in rows:
            fh.write(json.dumps(r) + "\n")
    chosen = sorted(rng.sample(range(240), 150))  # a uniform random sample of 150
    with (HERE / "labels.jsonl").open("w") as fh:
        for i in chosen:
            fh.write(json.dumps({"id": rows[i]["id"], "hallucinated": truth[i],
                                 "annotator": "support-lead"}) + "\n")


if __name__ == "__main__":
    main()
