"""How the copy rule splits the FIT halves: answers whose every sentence is copied.

For each faithfulness set (fit half only), counts by label the answers whose every
sentence is a verbatim extract of the contexts (`features.copied`: copy coverage 1.0),
and, for comparison, those whose every sentence has copy coverage >= 0.9.

    cd scripts/devsets && ../../.venv/bin/python copy_rule.py
"""

from __future__ import annotations

from collections import Counter

from common import FAITH_SETS, load_rows, to_sample

from ragassay.judge.offline import Analyzer
from ragassay.judge.offline.features import copy_coverage


def main() -> None:
    an = Analyzer()
    for name in FAITH_SETS:
        rows = load_rows(name, "fit")
        counts: Counter[tuple[str, int]] = Counter()
        for r, p in zip(rows, an.prepare_many([to_sample(r) for r in rows]), strict=True):
            y = int(r["labels"]["faithful"])
            covs = [copy_coverage(i, p.ctx) for i in p.answer_infos]
            covs = [c for c in covs if c is not None]
            counts[("answers", y)] += 1
            if covs and min(covs) == 1.0:
                counts[("all copied", y)] += 1
            if covs and min(covs) >= 0.9:
                counts[("all coverage >= 0.9", y)] += 1
        print(f"{name} (fit half):")
        for kind in ("answers", "all copied", "all coverage >= 0.9"):
            print(f"  {kind:22s} faithful {counts[(kind, 1)]:5d}   not {counts[(kind, 0)]:5d}")


if __name__ == "__main__":
    main()
