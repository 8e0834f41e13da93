"""How long each dashboard page takes to render over a big run, cold.

A store is filled with one complete run of N samples (realistic texts: 5 contexts of
~150 words, a ~100-word answer; judge, trace and ragas results of a real offline
evaluation of 50 of them, re-used round-robin under each sample's id, details and
reasoning included), as `benches/report_memory.py` does. A child process then renders
every page of the dashboard with Streamlit's AppTest, Streamlit's caches cleared before
each page (a first visit), and prints the seconds each took; a page still rendering
after `--timeout` seconds is cut there. `--click csv` also times the Downloads page's
CSV button (since issue 33 the file is built on that click).

    .venv/bin/python benches/dashboard_pages.py [--samples 50000] [--src DIR] [--keep DIR]

`--src` renders with another checkout's `src` (e.g. the revision before a change, from
`git archive`), for a before/after comparison over the same store; `--keep DIR` keeps
the store there and reuses it on the next call.
"""

from __future__ import annotations

import argparse
import json
import random
import subprocess
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from _common import PY, REPO, machine, md_table  # noqa: E402
from report_memory import WORDS, _text  # noqa: E402  (the same texts)

sys.path.insert(0, str(REPO / "src"))

PAGES = ("runs", "overview", "charts", "compare", "leaderboard", "samples", "evaluate",
         "downloads")


def fill(db: Path, n: int) -> str:
    """A complete run of n samples in a fresh store (2,000 a transaction); its id."""
    from ragassay import __version__
    from ragassay.runner import evaluate
    from ragassay.store import Store, prepare_result
    from ragassay.types import RunConfig, Sample

    rng = random.Random(0)

    def sample(i: int) -> Sample:
        return Sample(id=f"s{i:07d}", question=f"What is the {rng.choice(WORDS)} for case {i}?",
                      contexts=[_text(rng, 150) for _ in range(5)], answer=_text(rng, 100),
                      reference=_text(rng, 40), strategy=f"k{i % 2 + 3}")

    config = RunConfig(dataset="synthetic.jsonl", judge="offline",
                       metrics=("judge", "trace", "ragas"))
    with Store(db.with_suffix(".seed.db")) as seed_store:
        stats = evaluate([sample(i) for i in range(50)], config, store=seed_store)
        template = list(seed_store.iter_results(stats.run_id))
    with Store(db) as store:
        run_id = store.create_run(config, package_version=__version__, dataset_hash=None,
                                  judge_model="offline")
        for start in range(0, n, 2000):
            chunk = [sample(i) for i in range(start, min(n, start + 2000))]
            store.add_samples(run_id, chunk)
            store.save_results(run_id, [
                prepare_result(r.model_copy(update={"sample_id": s.id,
                                                    "strategy": s.strategy}), [])
                for j, s in enumerate(chunk, start)
                for r in template[j % 50 * 3:j % 50 * 3 + 3]])
        store.finish_run(run_id, "complete")
    return run_id


CHILD = r"""
import json, sys, time
sys.path.insert(0, sys.argv[1])
import streamlit as st
from streamlit.testing.v1 import AppTest
app, db, run_id, timeout = sys.argv[2], sys.argv[3], sys.argv[4], float(sys.argv[5])
click = sys.argv[7]
out = {}
for page in sys.argv[6].split(","):
    st.cache_data.clear()
    at = AppTest.from_file(app, default_timeout=timeout)
    at.session_state["db"], at.session_state["run_id"] = db, run_id
    t0 = time.perf_counter()
    try:
        at.run()
        if page != "runs":
            at.switch_page(f"screens/{page}.py").run()
        out[page] = time.perf_counter() - t0
        if at.exception:
            out[page] = "error: " + str(at.exception[0].value)[:200]
        elif page == "downloads" and click != "none":
            wanted = [b for b in at.button if click.upper() in str(b.label)]
            if wanted:
                t1 = time.perf_counter()
                wanted[0].click().run()
                out[f"downloads: {click.upper()} on click"] = time.perf_counter() - t1
    except RuntimeError as exc:  # AppTest's own timeout
        out[page] = f"> {timeout:.0f}" if "timed out" in str(exc).lower() else str(exc)[:200]
    print(json.dumps({page: out[page]}), flush=True)
print("RESULT", json.dumps(out))
"""


def render(src: Path, db: Path, run_id: str, pages: list[str], timeout: float, click: str
           ) -> dict[str, float | str]:
    """Seconds to render each page in a child process importing `src`."""
    app = src / "ragassay" / "ui" / "app.py"
    proc = subprocess.run([PY, "-c", CHILD, str(src), str(app), str(db), run_id, str(timeout),
                           ",".join(pages), click], capture_output=True, text=True,
                          check=False)
    line = next((x for x in proc.stdout.splitlines() if x.startswith("RESULT ")), None)
    if line is None:
        raise SystemExit(f"render child failed: {proc.stderr[-3000:]}")
    return json.loads(line.removeprefix("RESULT "))


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--samples", type=int, default=50_000)
    ap.add_argument("--pages", default=",".join(PAGES))
    ap.add_argument("--timeout", type=float, default=300.0, help="per page, seconds")
    ap.add_argument("--src", action="append", default=[],
                    help="a src/ folder to render with (repeatable; default: this checkout's)")
    ap.add_argument("--keep", default=None, help="keep (and reuse) the store in this folder")
    ap.add_argument("--click", choices=["none", "csv", "json", "html"], default="none",
                    help="also time this Downloads button")
    args = ap.parse_args()
    srcs = [Path(s).resolve() for s in args.src] or [REPO / "src"]
    print(machine())
    with tempfile.TemporaryDirectory() as tmp:
        folder = Path(args.keep or tmp)
        folder.mkdir(parents=True, exist_ok=True)
        db = folder / f"dashboard{args.samples}.db"
        id_file = db.with_suffix(".run")
        if not (db.exists() and id_file.exists()):
            db.unlink(missing_ok=True)
            t0 = time.perf_counter()
            id_file.write_text(fill(db, args.samples))
            print(f"filled {args.samples:,} samples in {time.perf_counter() - t0:.0f} s "
                  f"({db.stat().st_size / 2**20:.0f} MiB)")
        run_id = id_file.read_text()
        pages = args.pages.split(",")
        figures = {str(src): render(src, db, run_id, pages, args.timeout, args.click)
                   for src in srcs}
    names = list(dict.fromkeys(k for f in figures.values() for k in f))
    rows = [[name, *(_fmt(f.get(name)) for f in figures.values())] for name in names]
    print(md_table(["page", *(f"s ({src})" for src in figures)], rows))


def _fmt(value: float | str | None) -> str:
    if value is None:
        return "-"
    return f"{value:.1f}" if isinstance(value, float) else value


if __name__ == "__main__":
    main()
