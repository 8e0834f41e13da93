"""Why the offline judge flags faithful probes: of the faithful paraphrases and cited
answers it gets wrong with no conflict found (no contradiction, unstated clause, missing
figure or decline in the reasoning), how many draw on a second passage, i.e. whose weakest
claim has 15% or more of its content words only in a passage other than its best one.
What docs/judges.md's "Known limits" says of cited answers rests on this.

    .venv/bin/python benches/probe_misses.py --batches a,b,c,d,e,f,g,h,i,j,k,l,m,n,o,p,q,r
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "src"))
sys.path.insert(0, str(Path(__file__).resolve().parent))

from probes import judge_probes, load  # noqa: E402

SECOND_PASSAGE = 0.15  # share of the claim's words only another passage has, at least
DETECTED = ("contradicts", "stated in no", "not found", "declines")


def main() -> None:
    from ragassay.judge.offline import Analyzer
    from ragassay.judge.offline.features import support_features
    from ragassay.types import Sample

    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--batches", default="a,b")
    args = ap.parse_args()
    probes = [p for b in args.batches.split(",") for p in load(b)
              if p.kind in ("paraphrase", "cited")]
    rows = judge_probes(probes, "offline", None, {})
    an = Analyzer()
    two = one = 0
    for p, r in zip(probes, rows, strict=True):
        if r["right_faithfulness"] or any(d in (r["reasoning"] or "") for d in DETECTED):
            continue
        prep = an.prepare_many([Sample(id=p.id, question=p.question, contexts=p.contexts,
                                       answer=p.answer)])[0]
        ctx, worst = prep.ctx, None
        for info, emb in zip(prep.answer_infos, prep.answer_emb, strict=True):
            feats, m = support_features(info, emb, ctx)
            z = float(an.calibration.support.logits(np.asarray([feats]))[0])
            if worst is None or z < worst[0]:
                words = set(info.stems)
                best = set().union(*(ctx.infos[j].stem_set for j in ctx.rows(m.doc)))
                every = set().union(*(x.stem_set for x in ctx.infos))
                gain = (len(words & every) - len(words & best)) / max(1, len(words))
                worst = (z, gain)
        if worst is not None and worst[1] >= SECOND_PASSAGE:
            two += 1
        else:
            one += 1
    print(f"batches {args.batches}: {one + two} faithful paraphrases and cited answers "
          f"flagged with no conflict found; {two} draw on a second passage "
          f"(>= {SECOND_PASSAGE:.0%} of their weakest claim's words), {one} do not")


if __name__ == "__main__":
    main()
