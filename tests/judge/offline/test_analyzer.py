"""The offline judge's evidence on small hand-written samples."""

from __future__ import annotations

import json
import math

import pytest

from ragassay.judge.offline import (
    CALIBRATION_PATH,
    HALLUCINATION_THRESHOLD,
    Analyzer,
    Evidence,
    is_noncommittal,
    load_calibration,
    reasoning,
    to_ten_point,
)
from ragassay.types import Sample

CONTEXTS = (
    "The Eiffel Tower was completed in 1889 for the World's Fair in Paris. "
    "It was designed by the engineering company of Gustave Eiffel.",
    "The tower is 330 metres tall. It was the tallest man-made structure until 1930.",
)


def _s(answer: str, **kw: object) -> Sample:
    base: dict[str, object] = {
        "id": "t",
        "question": "When was the Eiffel Tower completed?",
        "contexts": CONTEXTS,
    }
    base.update(kw)
    return Sample(answer=answer, **base)  # type: ignore[arg-type]


def _unit(x: float | None) -> bool:
    return x is not None and 0.0 <= x <= 1.0 and not math.isnan(x)


def test_supported_answer_beats_swapped_number_and_name(an: Analyzer) -> None:
    good, num, name = an.analyze_many(
        [
            _s("The Eiffel Tower was completed in 1889. It was designed by Eiffel's company."),
            _s("The Eiffel Tower was completed in 1898. It was designed by Eiffel's company."),
            _s(
                "The Eiffel Tower was completed in 1889. It was designed by Antoni Gaudi's company."
            ),
        ]
    )
    assert good.support[0] > num.support[0]
    assert good.support[1] > name.support[1]
    assert good.faithfulness is not None and num.faithfulness is not None
    assert good.faithfulness > num.faithfulness
    assert name.faithfulness is not None and good.faithfulness > name.faithfulness
    assert "1898" in num.hallucinated_terms and "1889" not in num.hallucinated_terms
    assert any("Gaudi" in t for t in name.hallucinated_terms)
    assert good.hallucinated_terms == []
    assert good.support_keys[0] and good.support_keys[0][0] == "0a"


def test_evidence_shapes_and_ranges(an: Analyzer) -> None:
    ev = an.analyze(_s("It was completed in 1889.", reference="The tower was completed in 1889."))
    assert [k.key for k in ev.answer_sentences] == ["a"]
    assert [k.key for k in ev.context_sentences] == ["0a", "0b", "1a", "1b"]
    assert len(ev.support) == len(ev.support_keys) == 1
    assert len(ev.relevance) == len(ev.used) == 4
    assert len(ev.chunk_usefulness) == 2 and len(ev.reference_attribution) == 1
    values = [*ev.support, *ev.relevance, *ev.used, *ev.chunk_usefulness]
    values += [*ev.reference_attribution, ev.faithfulness, ev.reference_match]
    values += [ev.context_relevance, ev.answer_relevance]
    assert all(_unit(v) for v in values)
    assert all(type(v) is float for v in values)
    # the completion sentence is more relevant and more used than the height one
    assert ev.relevance[0] > ev.relevance[2]
    assert ev.used[0] > ev.used[2]
    assert ev.chunk_usefulness[0] > ev.chunk_usefulness[1]


def test_noncommittal(an: Analyzer) -> None:
    for text in (
        "I don't know.",
        "The context does not mention when it was completed.",
        "I cannot answer that based on the information provided.",
    ):
        assert is_noncommittal(text), text
    assert not is_noncommittal("It was completed in 1889.")
    ev = an.analyze(_s("I'm not sure, I cannot answer that."))
    direct = an.analyze(_s("The Eiffel Tower was completed in 1889."))
    assert ev.noncommittal and not direct.noncommittal
    assert ev.answer_relevance is not None and direct.answer_relevance is not None
    assert ev.answer_relevance < direct.answer_relevance


def test_reference_match_exact_alias_wrong(an: Analyzer) -> None:
    q = "Who wrote Hamlet?"
    refs = ("William Shakespeare", "Shakespeare", "The Bard")
    exact, alias, wrong = an.analyze_many(
        [
            Sample(id="1", question=q, answer="William Shakespeare.", reference=refs),
            Sample(
                id="2", question=q, answer="It was written by the Bard of Avon.", reference=refs
            ),
            Sample(id="3", question=q, answer="Christopher Marlowe wrote it.", reference=refs),
        ]
    )
    assert exact.reference_match is not None and exact.reference_match > 0.8
    assert alias.reference_match is not None and alias.reference_match > 0.5
    assert alias.best_reference == 2
    assert wrong.reference_match is not None and wrong.reference_match < 0.5
    assert exact.faithfulness is None and exact.context_relevance is None  # no contexts


def test_empty_answer_and_empty_contexts_give_none(an: Analyzer) -> None:
    empty = an.analyze(_s("", reference="1889"))
    assert empty.faithfulness is None and empty.reference_match is None
    assert empty.answer_relevance is None and empty.support == []
    assert empty.context_relevance is not None
    noctx = an.analyze(_s("It was completed in 1889.", contexts=()))
    assert noctx.faithfulness is None and noctx.context_relevance is None
    assert noctx.support == [] and noctx.hallucinated_terms == []
    assert isinstance(reasoning(empty), str) and isinstance(reasoning(noctx), str)
    blank = an.analyze(Sample(id="b", question="", contexts=("", "  "), answer="  "))
    assert isinstance(blank, Evidence) and blank.faithfulness is None


def test_huge_context_does_not_crash(an: Analyzer) -> None:
    para = (
        "Researchers measured the river flow at station {i} during the spring of {y}. "
        "The average discharge was {i}{y} cubic metres per second.\n\n"
    )
    big = "".join(para.format(i=i, y=1900 + i % 100) for i in range(2200))  # ~50k tokens
    ev = an.analyze(
        Sample(
            id="big",
            question="What was measured?",
            contexts=(big,),
            answer="The river flow was measured at station 7 in 1907.",
        )
    )
    assert ev.faithfulness is not None and ev.truncated
    assert 0 < len(ev.context_sentences) < 4400  # capped (see test_limits.py)
    assert len(ev.relevance) == len(ev.context_sentences)


def test_calibration_loads_and_is_used(tmp_path) -> None:  # type: ignore[no-untyped-def]
    cal = load_calibration()
    data = json.loads(CALIBRATION_PATH.read_text())
    assert list(cal.support.features) == data["support"]["features"]
    # a paraphrase, not a copy (a copied sentence's support has a floor), with no figure
    # (one restating a sentence's figures in other words has a floor too: paraphrase.py)
    sample = _s("The Eiffel Tower was finished for the World's Fair.")
    base = Analyzer(calibration=cal).analyze(sample).support[0]
    data["support"]["intercept"] -= 10.0
    alt = tmp_path / "cal.json"
    alt.write_text(json.dumps(data))
    shifted = Analyzer(calibration=load_calibration(str(alt))).analyze(sample).support[0]
    assert shifted < base - 0.3


def test_reasoning_mentions_missing_term(an: Analyzer) -> None:
    ev = an.analyze(_s("The Eiffel Tower was completed in 1998 by Gustave Eiffel's company."))
    text = reasoning(ev)
    assert "'1998'" in text and "not found in the context" in text
    assert "claims supported" in text


@pytest.mark.parametrize(("answer", "shown"), [
    # trial 52: "a day or two" against "1-2 days" was said as "'24' not found", a figure
    # the answer does not write
    ("The lift was repaired within a day.", "'a day (read as 24)'"),
    ("The tower cost $4.2B to build.", "'$4.2B (read as 4.2 billion)'"),
    ("The Eiffel Tower was completed in 1998.", "'1998'"),  # written so: itself
])
def test_a_missing_figure_is_named_as_the_answer_writes_it(
        an: Analyzer, answer: str, shown: str) -> None:
    ev = an.analyze(_s(answer))
    assert shown in reasoning(ev) and len(ev.hallucinated_terms) == 1


def test_ten_point_and_threshold() -> None:
    assert to_ten_point(0.0) == 1.0 and to_ten_point(1.0) == 10.0
    assert to_ten_point(0.5) == 5.5 and to_ten_point(2.0) == 10.0
    assert 0.0 < HALLUCINATION_THRESHOLD < 1.0


def test_antonym_swap_lowers_support(an: Analyzer) -> None:
    ctx = ("Quarterly revenue increased by 4 percent, and the board approved the dividend.",)
    good, bad = an.analyze_many(
        [
            Sample(id="g", question="q", contexts=ctx, answer="Revenue increased by 4 percent."),
            Sample(id="b", question="q", contexts=ctx, answer="Revenue decreased by 4 percent."),
        ]
    )
    assert good.support[0] > bad.support[0]


def test_mismatched_calibration_is_refused(tmp_path) -> None:  # type: ignore[no-untyped-def]
    data = json.loads(CALIBRATION_PATH.read_text())
    data["support"]["features"][0] = "something_else"
    alt = tmp_path / "cal.json"
    alt.write_text(json.dumps(data))
    with pytest.raises(ValueError, match="refit"):
        Analyzer(calibration=load_calibration(str(alt)))


def test_long_reference_is_compared_claim_by_claim(an: Analyzer) -> None:
    q = "When was the Eiffel Tower completed and how tall is it?"
    ref = "It was completed in 1889 and is 330 metres tall."
    right, para, wrong, evasive = an.analyze_many(
        [
            Sample(id=str(i), question=q, answer=a, reference=ref)
            for i, a in enumerate(
                [
                    "The Eiffel Tower was completed in 1889 and it is 330 metres tall.",
                    "It was finished in 1889; its height is 330 m.",
                    "It was completed in 1925 and is 120 metres tall.",
                    "I do not know.",
                ]
            )
        ]
    )
    scores = [e.reference_match for e in (right, para, wrong, evasive)]
    assert all(s is not None for s in scores)
    assert min(scores[0], scores[1]) > 0.5 > scores[2]  # type: ignore[operator]
    assert scores[2] > scores[3]  # type: ignore[operator]
