"""Trial 74: a new user saw the demo's `right on 21 of 22 (95%)` first and the offline
judge's held-out figures only deep in docs/judges.md. The README says, beside the demo's
figure, the held-out range and the answer styles it misreads, with a link to the
section; its range is the one docs/judges.md's "Known limits" gives for T to ZD (session
20; T to ZB before)."""

from __future__ import annotations

import re
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def _flat(text: str) -> str:
    return " ".join(text.split())


def test_the_readme_gives_the_held_out_figures_beside_the_demos() -> None:
    readme = _flat((ROOT / "README.md").read_text(encoding="utf-8"))
    judges = _flat((ROOT / "docs" / "judges.md").read_text(encoding="utf-8"))
    demo = readme.index("right on 22 of 23 (96%)")  # trial 75: its abstention counted
    said = readme.index("the offline judge is right on ")
    assert said - demo < 1500, "the held-out figures are not near the demo's"
    got = re.search(r"the offline judge is right on (\d+)-(\d+)% \(batches T to ZD\)",
                    readme)
    assert got is not None
    # docs/judges.md's figures for T..ZD after the latest changes: "T 126/144 (88%; ..."
    limits = judges.split("### Known limits", 1)[1].split("- U (", 1)[0]
    shares = [int(x) for x in re.findall(r"\b(?:T|V|W|X|Y|Z|ZA|ZB|ZC|ZD) \d+/144 \((\d+)%", limits)]
    assert len(shares) == 10, shares
    assert (int(got[1]), int(got[2])) == (min(shares), max(shares))
    assert ("the two newest, first contact: batch ZU 125 of 144 (87%), batch ZV 124 of 144 "
            "(86%)") in readme
    for style in ("reworded in other words", "two named things swapped within one sentence",
                  "followed by a referral"):
        assert style in readme[said:said + 600], style
    assert "(docs/judges.md#known-limits)" in readme and "### Known limits" in judges
