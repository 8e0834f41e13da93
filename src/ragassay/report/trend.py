"""Which runs a dataset's trend follows: one rule for `ragassay trend` and the dashboard's
trend chart."""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass
from pathlib import Path

from ragassay.store import RunRecord, Store
from ragassay.terminal import counted


@dataclass(frozen=True)
class TrendRuns:
    """A dataset's complete eval runs, oldest first (`runs`); its complete runs of other
    kinds, left out (`others`); the file's content hash when it is a file here."""

    runs: list[RunRecord]
    others: list[RunRecord]
    digest: str | None

    def left_out(self) -> str | None:
        """The line that names the runs a trend leaves out, by kind (None: none):
        `left out 2 meta-eval runs of this dataset (ID ID): a trend follows eval runs
        (...)`."""
        if not self.others:
            return None
        kinds = Counter(r.config.kind for r in self.others)
        listed = ", ".join(counted(n, f"{kind} run") for kind, n in sorted(kinds.items()))
        ids = " ".join(r.id for r in self.others[-3:]) + (" ..." if len(self.others) > 3
                                                           else "")
        return (f"left out {listed} of this dataset ({ids}): a trend follows eval runs (a "
                "meta-eval run measures the judge, perhaps on part of the data)")


def trend_runs(store: Store, dataset: str) -> TrendRuns:
    """The complete runs of one dataset, eval runs apart from the rest (`TrendRuns`).

    A run belongs when it judged the same content (its dataset hash equals the file's,
    however the path was typed), or the same file in another version (the path it
    recorded resolves to this file), or the same content as one of those runs (a copy
    of an earlier version); when DATASET is not a file here, a file of that name. A trend
    follows eval runs: a meta-eval run measures the judge (on a split or the first N
    samples, perhaps), a bench's run answers its own way, a monitor's takes live traffic;
    a point of those beside the eval runs would not compare like with like.
    """
    from ragassay.dataset import dataset_fingerprint

    path = Path(dataset)
    is_file = path.is_file()
    digest = dataset_fingerprint(path) if is_file else None
    target = str(path.resolve()) if is_file else None
    complete = [r for r in store.list_runs() if r.status == "complete"]

    def direct(r: RunRecord) -> bool:
        recorded = r.meta.dataset_path or str(Path(r.dataset).resolve())
        if is_file:
            return (digest is not None and r.dataset_hash == digest) or recorded == target
        return r.dataset == dataset or Path(r.dataset).name == path.name

    members = [r for r in complete if direct(r)]
    hashes = {r.dataset_hash for r in members if r.dataset_hash}
    chosen = [r for r in complete if r in members or r.dataset_hash in hashes]
    chosen.sort(key=lambda r: (r.created, r.id))
    return TrendRuns([r for r in chosen if r.config.kind == "eval"],
                     [r for r in chosen if r.config.kind != "eval"], digest)


@dataclass(frozen=True)
class TrendMark:
    """What a trend's point says beside its figure: the run's dataset hash and judge
    (`RunRecord.judge`, the spec it ran with: `offline`, `offline:accurate`), and whether
    each differs from the previous point's (trial 68: an offline and an offline:accurate
    run of one file read as two rows of "change 0.000", nothing saying the judge changed,
    so a change there may be the judge's)."""

    dataset_hash: str | None
    dataset_changed: bool
    judge: str
    judge_changed: bool

    def cells(self) -> tuple[str, str]:
        """The dataset and judge columns: `cd0259b86165 changed`, `offline:accurate
        changed` (where it changed)."""
        return ((self.dataset_hash or "?")[:12] + (" changed" if self.dataset_changed else ""),
                self.judge + (" changed" if self.judge_changed else ""))


def trend_marks(run_ids: list[str], runs: list[RunRecord]) -> list[TrendMark]:
    """Each point's mark (`TrendMark`), for the points' run ids in their order."""
    by_id = {r.id: r for r in runs}
    out: list[TrendMark] = []
    for run_id in run_ids:
        r = by_id.get(run_id)
        digest, judge = (r.dataset_hash, r.judge) if r is not None else (None, "?")
        out.append(TrendMark(digest, bool(out) and digest != out[-1].dataset_hash, judge,
                             bool(out) and judge != out[-1].judge))
    return out


def judge_changes_text(changes: int, marked: str) -> str:
    """What `ragassay trend` and the dashboard's trend chart say of `changes` points whose
    judge changed, each marked `marked` there."""
    return (f"the judge changed at {changes} point(s), marked '{marked}' (a change there "
            "may be the judge's, not the system's)")


def run_dataset(run: RunRecord) -> str:
    """The dataset a run's trend follows: the file it recorded reading (its resolved
    path), else the dataset as it was named."""
    return run.meta.dataset_path or run.dataset
