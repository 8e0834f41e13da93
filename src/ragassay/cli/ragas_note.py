"""What the `ragas` suite is, said where the console first names one of its metrics in
a note (trial 84: "a metric called 'ragas.faithfulness' that is not the RAGAS method
invites wrong comparisons with real RAGAS numbers"). No metric is renamed."""

from __future__ import annotations

from collections.abc import Iterable

RAGAS_SAID = ("the ragas suite is ragassay's offline reading of RAGAS's metric definitions "
              "(with an LLM judge, ragassay's own prompts for them), not RAGAS's LLM-based "
              "numbers: its figures are not comparable with the RAGAS library's "
              "(docs/metrics.md, \"Suite ragas\")")
"""The sentence, as the console says it after a note naming a `ragas.` metric."""


def ragas_lines(lines: Iterable[str]) -> list[str]:
    """`[RAGAS_SAID]` where one of `lines` names a metric of the ragas suite, else []."""
    return [RAGAS_SAID] if any("ragas." in line for line in lines) else []
