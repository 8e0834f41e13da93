"""`ragassay monitor`: traces per second accepted and scored through the real receiver,
detection delay for a 10-point drop in faithfulness, and false alarms over long
unchanged streams, in simulation (many seeds) and through the real receiver.

The traces are the synthetic production traces of the tests (`tests/support/
monitor_traces.py`): a question, a retrieval of three documents (one holds the fact),
an answer that restates the fact (good) or states what no document holds (bad). The
offline judge scores them; the simulation draws judge.faithfulness values from what it
gave good and bad traces, mixed: before the change a share q0 = 5% of bad answers, after
it q1, chosen so that the mean drops by exactly 0.1 of the metric's range (0.9 on its
1-10 scale: "10 points"). Detection delay = scored traces after the change until the
first faithfulness alarm. Alarms at the monitor's defaults: alpha 0.01 for the monitor,
split over its 7 watched metrics (faithfulness gets 0.01/7), windows of 200, a test
following 10 windows.

    .venv/bin/python benches/monitor.py              # every part (~30 min on 2 cores)
    .venv/bin/python benches/monitor.py --quick      # a smoke run (~3 min)
    .venv/bin/python benches/monitor.py --part throughput|delay|false-alarms
"""

from __future__ import annotations

import argparse
import json
import os
import random
import sys
import tempfile
import time
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from benches._common import machine  # noqa: E402
from ragassay.stats.drift import Crossing, DriftSettings, DriftTest  # noqa: E402
from tests.support.monitor_process import MonitorProcess  # noqa: E402
from tests.support.monitor_traces import export, rag_trace, trace_ids  # noqa: E402

WATCHED = 7  # the headline metrics of judge and trace: the monitor's default
ALPHA = 0.01
Q0 = 0.05
FAITH = "judge.faithfulness"


def cpu_s(pid: int) -> float:
    """User + system CPU seconds of a process so far."""
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def bodies(ids: list[str], rng: random.Random, bad: list[bool], per: int = 50) -> list[bytes]:
    return [json.dumps(export([rag_trace(t, rng, b) for t, b in
                               zip(ids[i:i + per], bad[i:i + per], strict=True)])).encode()
            for i in range(0, len(ids), per)]


# -- throughput -------------------------------------------------------------------------


def throughput(n_accept: int, n_score: int) -> None:
    rng = random.Random(1)
    rows = []
    with tempfile.TemporaryDirectory() as tmp:
        mon = MonitorProcess(Path(tmp) / "a.db", "--sample", "0.0001", "--settle", "0.05",
                             "--max-queue", "100000")
        ids = trace_ids(1, n_accept)
        payload = bodies(ids, rng, [False] * n_accept)
        cpu0, t0 = cpu_s(mon.proc.pid), time.perf_counter()
        for body in payload:
            mon.send(body)
        wall, cpu = time.perf_counter() - t0, cpu_s(mon.proc.pid) - cpu0
        mon.stop()
        rows.append(("accepted (stored, acknowledged), JSON, 50 traces a request", n_accept,
                     wall, cpu))
        mon = MonitorProcess(Path(tmp) / "s.db", "--sample", "1", "--settle", "0.05")
        ids = trace_ids(2, n_score)
        payload = bodies(ids, rng, [False] * n_score)
        cpu0, t0 = cpu_s(mon.proc.pid), time.perf_counter()
        for body in payload:
            mon.send(body)
        mon.wait_scored(n_score, timeout=3600)
        wall, cpu = time.perf_counter() - t0, cpu_s(mon.proc.pid) - cpu0
        mon.stop()
        rows.append(("scored (offline judge, judge + trace suites, sample 1)", n_score,
                     wall, cpu))
    print("\n### Throughput through the real receiver\n")
    print("| what | traces | wall s | traces/s | monitor CPU s | CPU ms/trace |")
    print("|---|---|---|---|---|---|")
    for what, n, wall, cpu in rows:
        print(f"| {what} | {n:,} | {wall:.1f} | {n / wall:.0f} | {cpu:.1f} | "
              f"{1000 * cpu / n:.1f} |")


# -- the empirical faithfulness of good and bad traces ----------------------------------


def faithfulness_draws(n: int) -> tuple[np.ndarray, np.ndarray]:
    """judge.faithfulness (0-1) the offline judge gives n good and n bad synthetic
    traces, through the same monitor path (in-process)."""
    from ragassay.store import Store
    from tests.support.monitor_inproc import monitor_run

    with tempfile.TemporaryDirectory() as tmp:
        db = Path(tmp) / "f.db"
        run = monitor_run(db, good=n, bad=n, seed=99)
        with Store(db) as store:
            spec = store.get_run(run).spec_map()[FAITH]
            got = store.position_values(run, FAITH, 0, 2 * n - 1)
    values = np.array([np.nan if v is None else spec.normalise(v) for _, v in got])
    good, bad = values[:n], values[n:]
    return good[~np.isnan(good)], bad[~np.isnan(bad)]


def q_after(good: np.ndarray, bad: np.ndarray, drop: float = 0.1) -> float:
    """The bad share after the change that lowers the mean by `drop` (0-1 scale)."""
    return Q0 + drop / (good.mean() - bad.mean())


def mixture(rng: np.random.Generator, good: np.ndarray, bad: np.ndarray, q: float,
            n: int) -> np.ndarray:
    is_bad = rng.random(n) < q
    return np.where(is_bad, rng.choice(bad, n), rng.choice(good, n))


# -- detection delay --------------------------------------------------------------------


def delay(good: np.ndarray, bad: np.ndarray, streams: int, receiver_seeds: int) -> None:
    q1 = q_after(good, bad)
    settings = DriftSettings(alpha=ALPHA / WATCHED, window=200, horizon=10)
    print(f"\n### Detection delay: a 10-point drop in faithfulness (bad share {Q0:.0%} -> "
          f"{q1:.1%}; mean {Q0 * bad.mean() + (1 - Q0) * good.mean():.3f} -> "
          f"{q1 * bad.mean() + (1 - q1) * good.mean():.3f} on 0-1)\n")
    print("| where | baseline | streams | detected within 5,000 | median delay | "
          "90th percentile | alarms before the change |")
    print("|---|---|---|---|---|---|---|")
    for base_n in (200, 1000):
        delays, early = [], 0
        for seed in range(streams):
            rng = np.random.default_rng(seed)
            pre = mixture(rng, good, bad, Q0, base_n + 1000)
            post = mixture(rng, good, bad, q1, 5000)
            test = DriftTest.from_values(pre[:base_n], settings, start=base_n)
            events = [e for e in test.add_many(base_n, np.concatenate([pre[base_n:], post]))
                      if isinstance(e, Crossing)]
            early += any(e.position < base_n + 1000 for e in events)
            late = [e.position - (base_n + 1000) for e in events
                    if e.position >= base_n + 1000]
            delays.append(late[0] if late else np.inf)
        _delay_row("simulation", base_n, delays, early)
    if receiver_seeds:
        delays, early = receiver_delay(good, bad, q1, receiver_seeds)
        _delay_row("real receiver", 1000, delays, early)


def _delay_row(where: str, base_n: int, delays: list[float], early: int) -> None:
    d = np.array(delays, dtype=float)
    found = d[np.isfinite(d)]

    def shown(v: float) -> str:
        return f"{v:.0f}" if np.isfinite(v) else "-"

    ordered = np.sort(d)
    median, p90 = ordered[(len(d) - 1) // 2], ordered[int(0.9 * (len(d) - 1))]
    print(f"| {where} | {base_n} | {len(d)} | {len(found) / len(d):.0%} | "
          f"{shown(float(median))} | {shown(float(p90))} | {early} |")


def receiver_delay(good: np.ndarray, bad: np.ndarray, q1: float, seeds: int
                   ) -> tuple[list[float], int]:
    """The same drop through the real receiver (`--baseline-traces 1000`): 1,500 traces
    with 5% bad answers, then 3,000 with q1; each trace bad by a coin."""
    delays, early = [], 0
    pre, post = 1500, 3000
    for seed in range(seeds):
        rng, coin = random.Random(seed), np.random.default_rng(seed)
        with tempfile.TemporaryDirectory() as tmp:
            mon = MonitorProcess(Path(tmp) / "d.db", "--settle", "0.05",
                                 "--baseline-traces", "1000")
            ids = trace_ids(100 + seed, pre + post)
            flags = list(coin.random(pre) < Q0) + list(coin.random(post) < q1)
            for body in bodies(ids[:pre], rng, flags[:pre]):
                mon.send(body)
            mon.wait_scored(pre, timeout=3600)
            for body in bodies(ids[pre:], rng, flags[pre:]):
                mon.send(body)
            mon.wait_scored(pre + post, timeout=3600)
            mon.stop()
        alarms = [e["traces"]["positions"][1] for e in mon.events
                  if e["event"] == "alarm" and e["metric"] == FAITH]
        early += any(p < pre for p in alarms)
        after = [p - pre for p in alarms if p >= pre]
        delays.append(after[0] if after else np.inf)
    return delays, early


# -- false alarms -----------------------------------------------------------------------


def false_alarms(good: np.ndarray, bad: np.ndarray, streams: int, length: int,
                 receiver: int) -> None:
    print(f"\n### False alarms over long unchanged streams ({Q0:.0%} bad answers throughout)"
          "\n")
    print("| where | metric's alpha | streams x scored traces | streams with an alarm | "
          "rate | each window tested at alpha (for contrast) |")
    print("|---|---|---|---|---|---|")
    for alpha in (ALPHA / WATCHED, ALPHA, 0.1):
        settings = DriftSettings(alpha=alpha, window=200, horizon=10)
        alarms = naive = 0
        for seed in range(streams):
            rng = np.random.default_rng(10_000 + seed)
            x = mixture(rng, good, bad, Q0, 200 + length)
            test = DriftTest.from_values(x[:200], settings, start=200)
            alarms += any(isinstance(e, Crossing) for e in test.add_many(200, x[200:]))
            naive += _naive(x, alpha)
        print(f"| simulation | {alpha:.4g} | {streams:,} x {length:,} | {alarms} | "
              f"{alarms / streams:.2%} | {naive / streams:.0%} |")
    if receiver:
        with tempfile.TemporaryDirectory() as tmp:
            mon = MonitorProcess(Path(tmp) / "f.db", "--settle", "0.05")
            rng, coin = random.Random(7), np.random.default_rng(7)
            ids = trace_ids(777, receiver)
            for body in bodies(ids, rng, list(coin.random(receiver) < Q0)):
                mon.send(body)
            mon.wait_scored(receiver, timeout=7200)
            mon.stop()
        alarms = [e for e in mon.events if e["event"] == "alarm"]
        windows = sum(e["event"] == "window" for e in mon.events)
        print(f"| real receiver, all {WATCHED} metrics | {ALPHA} for the monitor | 1 x "
              f"{receiver:,} ({windows} windows) | {len(alarms)} alarm(s) | - | - |")


def _naive(x: np.ndarray, alpha: float) -> bool:
    """Each window of 200 against the baseline by a one-sided two-sample z-test."""
    from scipy.stats import norm

    z = norm.ppf(1 - alpha)
    base = x[:200]
    for start in range(200, x.size, 200):
        w = x[start:start + 200]
        se = np.sqrt(base.var(ddof=1) / base.size + w.var(ddof=1) / w.size)
        if se > 0 and (base.mean() - w.mean()) / se > z:
            return True
    return False


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--quick", action="store_true")
    ap.add_argument("--part", choices=["throughput", "delay", "false-alarms"], default=None)
    args = ap.parse_args()
    q = args.quick
    print(f"<!-- {machine()} -->", flush=True)
    started = time.perf_counter()
    try:
        run(args.part, q)
    finally:
        MonitorProcess.kill_left()
    print(f"\n({time.perf_counter() - started:.0f} s)")


def run(part: str | None, q: bool) -> None:
    if part in (None, "throughput"):
        throughput(500 if q else 5000, 200 if q else 2000)
    if part in (None, "delay", "false-alarms"):
        good, bad = faithfulness_draws(100 if q else 500)
        print(f"\nfaithfulness (0-1) the offline judge gives the synthetic traces: good "
              f"{good.mean():.3f} (sd {good.std():.3f}, n={good.size}), bad {bad.mean():.3f} "
              f"(sd {bad.std():.3f}, n={bad.size})")
        if part in (None, "delay"):
            delay(good, bad, 20 if q else 300, 0 if q else 2)
        if part in (None, "false-alarms"):
            false_alarms(good, bad, 20 if q else 300, 2000 if q else 10_000,
                         0 if q else 6000)


if __name__ == "__main__":
    main()
