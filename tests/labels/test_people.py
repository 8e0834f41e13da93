"""Several people's labels of one sample as one value under a rule: majority (a tie left
out and counted) or one annotator's."""

from __future__ import annotations

import pytest

from ragassay.labels import PeopleLabels, resolve, resolve_all
from ragassay.types import HumanLabel, LabelRule, LabelSource


def _lab(who: str, value: bool | float, name: str = "hallucinated", key: str = "k"
         ) -> HumanLabel:
    return HumanLabel(content_key=key, name=name, value=value, annotator=who)


def test_majority_takes_the_value_most_annotators_gave() -> None:
    got = resolve([_lab("ana", True), _lab("bo", True), _lab("cy", False)], LabelRule())
    assert (got["hallucinated"].value, got["hallucinated"].count) == (True, 3)
    grades = resolve([_lab("ana", 2.0, "relevance"), _lab("bo", 3.0, "relevance"),
                      _lab("cy", 2.0, "relevance")], LabelRule())
    assert grades["relevance"].value == 2.0


def test_a_majority_tie_is_left_out() -> None:
    got = resolve([_lab("ana", True), _lab("bo", False)], LabelRule())
    assert (got["hallucinated"].value, got["hallucinated"].count) == (None, 2)


def test_one_annotators_rule_reads_only_their_labels() -> None:
    labels = [_lab("ana", True), _lab("bo", False), _lab("cy", False)]
    assert resolve(labels, LabelRule(annotator="ana"))["hallucinated"].value is True
    assert resolve(labels, LabelRule(annotator="dee")) == {}


def test_aliases_are_one_label() -> None:
    got = resolve([_lab("ana", True, "hallucination"), _lab("bo", True)], LabelRule())
    assert list(got) == ["hallucinated"] and got["hallucinated"].count == 2


def test_the_rule_parses_and_prints() -> None:
    assert str(LabelRule.parse("majority")) == "majority"
    assert LabelRule.parse("annotator:ana").annotator == "ana"
    assert str(LabelRule.parse(" annotator:ana ")) == "annotator:ana"
    for bad in ("", "annotator:", "mean", "ana"):
        with pytest.raises(ValueError, match="is not 'majority' or 'annotator:NAME'"):
            LabelRule.parse(bad)


def test_people_count_where_the_values_came_from() -> None:
    labels = [_lab("ana", True, key="a"), _lab("bo", True, key="a"),
              _lab("ana", False, key="b"), _lab("ana", True, key="c"), _lab("bo", False, key="c")]
    people = PeopleLabels()
    found = resolve_all(labels, people.rule)
    for key in ("a", "b", "c", "a"):  # "a" in two rows (two strategies)
        people.add_row(found[key])
    src = people.sources()["hallucinated"]
    assert src == LabelSource(by_count={"1": 1, "2": 2}, ties=1)
    assert src.describe() == "3 samples: 1 from 1 label, 2 from 2 labels; 1 tie left out"


def test_the_docs_say_the_rule_decides_a_disagreement_not_the_latest_label() -> None:
    """Trial 53: docs/trust.md's "Known limits" said "Two people disagreeing on a sample:
    the latest label counts", against its own "Labels" section, docs/annotate.md and the
    code: the rule decides, the later label of two never wins by being later."""
    from pathlib import Path

    # the code: bo's later False neither wins a tie nor beats a majority
    assert resolve([_lab("ana", True), _lab("bo", False)], LabelRule())["hallucinated"].value \
        is None
    assert resolve([_lab("ana", True), _lab("cy", True), _lab("bo", False)],
                   LabelRule())["hallucinated"].value is True
    repo = Path(__file__).resolve().parents[2]
    for path in [repo / "README.md", *sorted((repo / "docs").glob("*.md"))]:
        text = " ".join(path.read_text(encoding="utf-8").split())
        assert "latest label counts" not in text, path
    trust = " ".join((repo / "docs" / "trust.md").read_text(encoding="utf-8").split())
    limits = trust.split("## Known limits")[1]
    assert "disagreeing on a sample" in limits and "`--label-rule` makes one value" in limits
