"""How the offline judge's rules split the dev sets' answers by their human label.

The rules are not fitted (docs/judges.md): a sentence copied from the contexts has its
support raised to at least COPY_SUPPORT, one that contradicts the context sentence it
restates (alignment.align: a negation or an antonym flipped, an entity replaced by its
alternative, a figure changed, a quantifier widened, two names' roles swapped) has it
lowered to at most CONTRADICTION_SUPPORT, and one that states a key term (number, date,
name) found in no context and not in the question, or a clause no context states, to at
most MISSING_TERM_SUPPORT. For each faithfulness set, all rows, counts by label the
answers whose every claim is copied, the answers with a contradicting claim (by kind),
those with a claim stating a missing key term, and those with an unstated clause.

    cd scripts/devsets && ../../.venv/bin/python rules.py [--split fit]
"""

from __future__ import annotations

import argparse
from collections import Counter

from common import FAITH_SETS, blank_calibration, load_rows, to_sample

from ragassay.judge.offline import Analyzer
from ragassay.judge.offline.answer import answer_rows

KINDS = ("negation", "antonym", "entity", "number", "quantifier", "role swap")


def _share(bad: int, good: int, counts: Counter[tuple[str, int]]) -> str:
    """How unfaithful the rule's answers are, and the set: " (84% not faithful; the set 65%)"."""
    if bad + good == 0:
        return ""
    base = counts[("answers", 0)] / (counts[("answers", 0)] + counts[("answers", 1)])
    return f" ({bad / (bad + good):.0%} not faithful; the set {base:.0%})"


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--split", default=None, help="fit or eval (default: all rows)")
    ap.add_argument("--sets", default=",".join(FAITH_SETS))
    args = ap.parse_args()
    an = Analyzer(calibration=blank_calibration())
    print(
        "| set | answers (faithful / not) | all claims copied | a claim contradicts "
        "| a claim states a missing key term or clause | ... an unstated clause |"
    )
    print("|---|---|---|---|---|---|")
    for name in args.sets.split(","):
        rows = load_rows(name, args.split)
        counts: Counter[tuple[str, int]] = Counter()
        for i in range(0, len(rows), 256):
            chunk = rows[i : i + 256]
            for r, p in zip(chunk, an.prepare_many([to_sample(x) for x in chunk]), strict=True):
                y = int(r["labels"]["faithful"])
                counts[("answers", y)] += 1
                # the analyzer's own rows: its claims, and the rules on each
                claims = answer_rows(p) if p.ctx.infos and p.answer_infos else None
                kept = claims.claims if claims is not None else []
                if claims is None or not kept:
                    continue
                if all(claims.copied[j] for j in kept):
                    counts[("copied", y)] += 1
                kinds = {kind for j in kept if (kind := claims.contradicts[j])}
                for kind in kinds:
                    counts[(kind, y)] += 1
                if kinds:
                    counts[("contradicts", y)] += 1
                if any(claims.missing[j] for j in kept):
                    counts[("missing", y)] += 1
                if any(claims.unstated[j] for j in kept):
                    counts[("unstated", y)] += 1
        kinds_txt = ", ".join(
            f"{k} {counts[(k, 1)]}/{counts[(k, 0)]}"
            for k in KINDS
            if counts[(k, 1)] + counts[(k, 0)]
        )
        print(
            f"| {name} | {counts[('answers', 1)]} / {counts[('answers', 0)]} "
            f"| {counts[('copied', 1)]} / {counts[('copied', 0)]} "
            f"| {counts[('contradicts', 1)]} / {counts[('contradicts', 0)]}"
            f"{f' ({kinds_txt})' if kinds_txt else ''} "
            f"| {counts[('missing', 1)]} / {counts[('missing', 0)]}"
            f"{_share(counts[('missing', 0)], counts[('missing', 1)], counts)} "
            f"| {counts[('unstated', 1)]} / {counts[('unstated', 0)]}"
            f"{_share(counts[('unstated', 0)], counts[('unstated', 1)], counts)} |"
        )


if __name__ == "__main__":
    main()
