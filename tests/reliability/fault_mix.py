"""The fault-mix scenario: N samples judged through a server that injects every fault kind.

Runs the judge suite twice over the same samples, once against a fault-free server and
once with faults at `rate`, and gathers the figures that docs/reliability.md reports.
`tests/reliability/test_fault_mix.py` asserts on them; this module also runs alone:

    python -m tests.reliability.fault_mix --report

prints the figures as Markdown and writes test-artifacts/reliability.json (and, with
`--update-docs`, replaces the figures block of docs/reliability.md).
"""

from __future__ import annotations

import argparse
import json
import sys
import tempfile
import time
from collections import Counter
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any

from ragassay.report import build_report, report_json
from ragassay.runner import evaluate
from ragassay.store import Store
from ragassay.types import BackendOptions, RunConfig, Sample
from tests.support.faults import (
    CONTENT_FAULTS,
    FAULT_KINDS,
    TRANSPORT_FAULTS,
    FaultPlan,
    FaultServer,
    fenced,
    judge_scores,
    judged_key,
)

REPO = Path(__file__).resolve().parents[2]
ARTIFACT = REPO / "test-artifacts" / "reliability.json"
DOC = REPO / "docs" / "reliability.md"
# The timeout only has to end the "slow" fault (held until the client hangs up), and must
# never end a reply meant to arrive: on a loaded two-core machine those took up to 1 s, and
# a 0.5 s timeout abandoned some, so the server's history named replies (an out-of-range
# one: 17 suspicious results counted against 18 served) that the client never read.
BACKEND = {"timeout_s": 5.0, "max_retries": 3, "backoff_base_s": 0.01, "backoff_max_s": 0.05}
METRICS_PER_SAMPLE = 5  # the judge suite's metrics
PROBE_EXTRA = 2  # structured-output probe: json_schema -> json_object -> prompt


def make_samples(n: int) -> list[Sample]:
    """Distinct, complete samples (contexts, answer, reference): only faults unscore them."""
    return [Sample(id=f"m{i:04d}", question=f"What does setting {i} control?",
                   contexts=(f"Setting {i} controls the size of buffer {i % 7}.",
                             "Unrelated text about billing."),
                   answer=f"It controls buffer {i % 7}.", reference=f"The size of buffer {i % 7}.")
            for i in range(n)]


def config(base_url: str, concurrency: int) -> RunConfig:
    return RunConfig(dataset="fault-mix", judge="openai:fault-mix", base_url=base_url,
                     metrics=("judge",), concurrency=concurrency, use_cache=False,
                     backend=BackendOptions(**BACKEND))


@dataclass
class Figures:
    """What the run did, as docs/reliability.md reports it."""

    samples: int
    metrics_per_sample: int
    fault_rate: float
    seed: int
    concurrency: int
    backend: dict[str, float]
    requests: int = 0
    faults: int = 0
    faults_by_kind: dict[str, int] = field(default_factory=dict)
    retries: int = 0
    repairs: int = 0
    metric_values: int = 0
    scored: int = 0
    unscored: int = 0
    unscored_samples: int = 0
    unscored_by_cause: dict[str, int] = field(default_factory=dict)
    lost: int = 0
    max_requests_per_sample: int = 0
    request_bound: int = 0
    over_bound: int = 0
    same_scores_as_clean: int = 0
    out_of_range_unscored: int = 0  # samples whose last reply rated outside the scale
    suspicious_results: int = 0  # results the run counts as suspicious (out of scale)
    score_mismatches: int = 0
    outcome_mismatches: int = 0
    server_exhausted: bool = False
    report_written: bool = False
    seconds_clean: float = 0.0
    seconds_faulty: float = 0.0


@dataclass
class MixResult:
    figures: Figures
    clean: dict[str, dict[str, Any]]  # sample id -> metric -> value
    faulty: dict[str, dict[str, Any]]
    reasons: dict[str, dict[str, str]]  # sample id -> metric -> unscored reason
    history: dict[str, list[str]]  # sample id -> kinds served
    report: dict[str, Any]


def _values(store: Store, run_id: str) -> tuple[dict[str, dict[str, Any]],
                                                dict[str, dict[str, str]]]:
    values: dict[str, dict[str, Any]] = {}
    reasons: dict[str, dict[str, str]] = {}
    for r in store.iter_results(run_id):
        for m in r.results:
            values.setdefault(r.sample_id, {})[m.name] = m.value
            if m.value is None:
                reasons.setdefault(r.sample_id, {})[m.name] = m.unscored_reason or ""
    return values, reasons


def _mode(request: dict[str, Any]) -> str:
    """The structured-output form a request used."""
    fmt = request.get("response_format")
    return str(fmt.get("type")) if isinstance(fmt, dict) else "prompt"


def _close(a: Any, b: Any) -> bool:
    if isinstance(a, float) or isinstance(b, float):
        return a is not None and b is not None and abs(float(a) - float(b)) < 1e-9
    return bool(a == b)


def run_mix(workdir: Path, *, n: int = 500, rate: float = 0.3, seed: int = 7,
            concurrency: int = 16) -> MixResult:
    """Judge `n` samples without and with faults; compare, count and write the report."""
    samples = make_samples(n)
    fig = Figures(samples=n, metrics_per_sample=METRICS_PER_SAMPLE, fault_rate=rate, seed=seed,
                  concurrency=concurrency, backend=dict(BACKEND))
    question_of = {s.question: s.id for s in samples}

    with FaultServer(judge_scores) as clean_server, Store(workdir / "clean.db") as store:
        started = time.perf_counter()
        run = evaluate(samples, config(clean_server.base_url, concurrency), store=store)
        fig.seconds_clean = round(time.perf_counter() - started, 2)
        clean, _ = _values(store, run.run_id)

    plan = FaultPlan(rate=rate, seed=seed)
    with FaultServer(judge_scores, plan, max_seconds=240) as server, \
            Store(workdir / "faulty.db") as store:
        started = time.perf_counter()
        run = evaluate(samples, config(server.base_url, concurrency), store=store)
        fig.seconds_faulty = round(time.perf_counter() - started, 2)
        faulty, reasons = _values(store, run.run_id)
        report = report_json(build_report(store, run.run_id))
        fig.suspicious_results = store.suspicious_replies(run.run_id)
        out = workdir / "fault-mix-report.json"
        out.write_text(json.dumps(report, indent=2, allow_nan=False), encoding="utf-8")
        fig.report_written = json.loads(out.read_text(encoding="utf-8")) == report
        # per sample: the kinds served, mapped from the judged question
        history: dict[str, list[str]] = {}
        per_sample: Counter[str] = Counter()
        modes: dict[str, set[str]] = {}
        key_of: dict[str, str] = {}
        for request in server.requests:
            sid = question_of.get(fenced(request, "QUESTION") or "", "?")
            per_sample[sid] += 1
            modes.setdefault(sid, set()).add(_mode(request))
            key_of[judged_key(request)] = sid
        for key, kinds in server.history.items():
            history[key_of.get(key, "?")] = kinds
        fig.requests = server.count
        fig.faults_by_kind = {k: server.faults.get(k, 0) for k in FAULT_KINDS}
        fig.faults = sum(fig.faults_by_kind.values())
        fig.retries, fig.repairs = server.retries, server.repairs
        fig.server_exhausted = server.exhausted

    bound = (BACKEND["max_retries"] + 1) * 2
    fig.request_bound = bound
    fig.max_requests_per_sample = max(per_sample.values(), default=0)
    # a sample that probed the structured-output form may add one request per downgrade
    fig.over_bound = sum(c > bound + len(modes[sid]) - 1 for sid, c in per_sample.items())

    causes: Counter[str] = Counter()
    for sid in (s.id for s in samples):
        got = faulty.get(sid)
        if got is None:
            fig.lost += METRICS_PER_SAMPLE
            continue
        fig.metric_values += len(got)
        scored = sum(v is not None for v in got.values())
        fig.scored += scored
        fig.unscored += len(got) - scored
        last = (history.get(sid) or ["?"])[-1]
        if scored < len(got):
            fig.unscored_samples += 1
            causes[last] += 1
        if last == "ok":
            ok = all(_close(got[m], clean[sid][m]) for m in clean[sid])
            fig.same_scores_as_clean += ok
            fig.score_mismatches += not ok
        elif last in TRANSPORT_FAULTS or last in CONTENT_FAULTS:
            fig.out_of_range_unscored += last == "out_of_range"
            fig.outcome_mismatches += any(v is not None for v in got.values())
        else:
            fig.outcome_mismatches += 1
        for reason in reasons.get(sid, {}).values():
            if not reason:
                fig.outcome_mismatches += 1
    fig.unscored_by_cause = dict(sorted(causes.items()))
    return MixResult(fig, clean, faulty, reasons, history, report)


def markdown(fig: Figures) -> str:
    """The figures as the Markdown block of docs/reliability.md."""
    b = fig.backend
    causes = ", ".join(f"{k} {v}" for k, v in fig.unscored_by_cause.items()) or "none"
    rows = [
        ("samples x metrics", f"{fig.samples} x {fig.metrics_per_sample} = "
                              f"{fig.samples * fig.metrics_per_sample}"),
        ("fault rate, seed, concurrency", f"{fig.fault_rate:.0%}, {fig.seed}, {fig.concurrency}"),
        ("backend options", f"timeout {b['timeout_s']} s, max_retries {b['max_retries']}, "
                            f"backoff {b['backoff_base_s']}-{b['backoff_max_s']} s"),
        ("requests served", fig.requests),
        ("faults injected", fig.faults),
        ("retries (requests after a transport fault)", fig.retries),
        ("repair re-asks (after an unusable reply)", fig.repairs),
        ("metric values stored", fig.metric_values),
        ("scored / unscored", f"{fig.scored} / {fig.unscored}"),
        ("samples unscored (cause = last reply)", f"{fig.unscored_samples} ({causes})"),
        ("lost (no row at all)", fig.lost),
        ("most requests for one sample (bound)",
         f"{fig.max_requests_per_sample} ({fig.request_bound}, +{PROBE_EXTRA} for the probe)"),
        ("samples over the bound", fig.over_bound),
        ("same scores as the fault-free run", f"{fig.same_scores_as_clean} samples"),
        ("unscored after out-of-range replies (never clamped)",
         f"{fig.out_of_range_unscored} samples"),
        ("results counted suspicious (a reply out of scale)", fig.suspicious_results),
        ("score or outcome mismatches", fig.score_mismatches + fig.outcome_mismatches),
        ("wall time without / with faults", f"{fig.seconds_clean} s / {fig.seconds_faulty} s"),
    ]
    table = "\n".join(f"| {k} | {v} |" for k, v in rows)
    kinds = "\n".join(f"| {k} | {v} |" for k, v in fig.faults_by_kind.items())
    return (f"| figure | value |\n|---|---|\n{table}\n\n"
            f"| fault kind | injected |\n|---|---|\n{kinds}\n")


def write_artifact(fig: Figures, path: Path = ARTIFACT) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(json.dumps(asdict(fig), indent=2) + "\n", encoding="utf-8")


def update_docs(fig: Figures, path: Path = DOC) -> None:
    """Replace the block between the figures markers of docs/reliability.md."""
    start, end = "<!-- figures:start -->", "<!-- figures:end -->"
    text = path.read_text(encoding="utf-8")
    head, _, rest = text.partition(start)
    _, _, tail = rest.partition(end)
    path.write_text(f"{head}{start}\n{markdown(fig)}{end}{tail}", encoding="utf-8")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--report", action="store_true", help="print the figures as Markdown")
    parser.add_argument("--update-docs", action="store_true", help=f"rewrite figures in {DOC}")
    parser.add_argument("-n", type=int, default=500)
    parser.add_argument("--rate", type=float, default=0.3)
    parser.add_argument("--seed", type=int, default=7)
    args = parser.parse_args(argv)
    with tempfile.TemporaryDirectory() as tmp:
        fig = run_mix(Path(tmp), n=args.n, rate=args.rate, seed=args.seed).figures
    write_artifact(fig)
    if args.report:
        print(markdown(fig))
    if args.update_docs:
        update_docs(fig)
    return 0


if __name__ == "__main__":
    sys.exit(main())
