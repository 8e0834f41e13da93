"""Every dev set in ../shared/data converts to valid ragassay rows (skipped without the data).

Counts are those of shared/data/README.md, so a mapping that drops or duplicates rows fails.
"""

from __future__ import annotations

from collections import Counter
from types import ModuleType

import pytest

from ragassay.dataset import sample_from_mapping
from tests.support.devsets import DATA, convert_module

pytestmark = pytest.mark.skipif(not DATA.is_dir(), reason="dev data (../shared/data) absent")


@pytest.fixture(scope="module")
def convert() -> ModuleType:
    return convert_module()


# set -> (rows, task label, its value counts) from the data README
EXPECTED = {
    "wice": (707, "faithful", {1: 226, 0: 481}),
    "factcheck_gpt": (92, "faithful", {1: 24, 0: 68}),
    "factcheck_gpt_stance": (3305, "faithful", {1: 696, 0: 2609}),
    "q2": (1088, "faithful", {1: 358 + 270, 0: 186 + 274}),
    "dialfact": (300, "faithful", {1: 99, 0: 201}),
    "trec_dl2020": (2859, "relevance", {3: 303, 2: 310, 1: 664, 0: 1582}),
    "sas": (1364, "answer_similarity", {2: 210, 1: 506, 0: 648}),
}


@pytest.mark.parametrize("name", sorted(EXPECTED))
def test_set_converts_with_task_label(convert: ModuleType, name: str) -> None:
    n, label, counts = EXPECTED[name]
    rows = list(convert.SETS[name](DATA))
    assert len(rows) == n
    assert Counter(r["labels"][label] for r in rows) == counts
    assert {r["metadata"]["source"] for r in rows} == {name}
    assert {r["metadata"]["split"] for r in rows} == {"fit", "eval"}
    assert len({r["id"] for r in rows}) == n
    for r in rows:
        s = sample_from_mapping(r, where=r["id"])
        assert s.question.strip()


def test_finer_labels_kept(convert: ModuleType) -> None:
    wice = list(convert.SETS["wice"](DATA))
    assert Counter(r["labels"]["wice_label"] for r in wice) == {
        "supported": 226,
        "partially_supported": 406,
        "not_supported": 75,
    }
    dial = list(convert.SETS["dialfact"](DATA))
    assert Counter(r["labels"]["type_label"] for r in dial) == {"factual": 261, "personal": 39}
    trec = list(convert.SETS["trec_dl2020"](DATA))
    assert all(r["answer"] == "" and len(r["contexts"]) == 1 for r in trec)


def test_groups_never_straddle_the_split(convert: ModuleType) -> None:
    rows = list(convert.SETS["trec_dl2020"](DATA))
    by_query: dict[int, set[str]] = {}
    for r in rows:
        by_query.setdefault(r["metadata"]["qid"], set()).add(r["metadata"]["split"])
    assert all(len(s) == 1 for s in by_query.values())


def test_factcheck_questions_choice_set(convert: ModuleType) -> None:
    """The relevance choice set: each (question, passage) once, graded by the passage's
    best stance on the question's claims (3,305 claim-passage stances of 92 answered
    questions, of which 2,412 distinct pairs)."""
    rows = list(convert.SETS["factcheck_gpt_questions"](DATA))
    assert len(rows) == 2412
    assert Counter(r["labels"]["relevance"] for r in rows) == {0: 1462, 1: 276, 2: 674}
    assert len({(r["question"], r["contexts"][0]) for r in rows}) == len(rows)
    assert len({r["question"] for r in rows}) == 92
    assert all(r["answer"] == "" and len(r["contexts"]) == 1 for r in rows)
    stance = list(convert.SETS["factcheck_gpt_stance"](DATA))
    supported = {r["contexts"][0].strip() for r in stance
                 if r["labels"]["stance"] in ("completely-support", "refute")}
    assert all(r["contexts"][0] in supported for r in rows if r["labels"]["relevance"] == 2)
