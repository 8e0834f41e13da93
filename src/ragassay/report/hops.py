"""The report's `hops` section, tallied over the run's traced samples."""

from __future__ import annotations

from dataclasses import dataclass, field

from ragassay.dataset.traces.trace import SampleTrace
from ragassay.report.model import HopPosition, HopsSection, LostEntry
from ragassay.store import Store


@dataclass
class _Position:
    hops: int = 0
    kinds: dict[str, int] = field(default_factory=dict)
    relevance: list[float] = field(default_factory=list)
    utilization: list[float] = field(default_factory=list)


def _mean(values: list[float]) -> float | None:
    return sum(values) / len(values) if values else None


@dataclass
class HopTally:
    """Counts the hops of the trace samples it is shown (`add`); `section()` is None
    when none was read from a trace."""

    traces: int = 0
    judged: int = 0
    positions: dict[int, _Position] = field(default_factory=dict)
    samples_with_lost: int = 0
    lost: list[LostEntry] = field(default_factory=list)

    def add(self, sample_id: str, trace: SampleTrace) -> None:
        self.traces += 1
        self.judged += trace.judged
        for i, hop in enumerate(trace.hops, start=1):
            at = self.positions.setdefault(i, _Position())
            at.hops += 1
            at.kinds[hop.kind] = at.kinds.get(hop.kind, 0) + 1
            if hop.relevance is not None:
                at.relevance.append(hop.relevance)
            if hop.utilization is not None:
                at.utilization.append(hop.utilization)
        if trace.lost:
            self.samples_with_lost += 1
        for doc in trace.lost:
            if len(self.lost) < HopsSection.LOST_SHOWN:
                self.lost.append(LostEntry(sample_id=sample_id, trace_id=trace.trace_id,
                                           hop=doc.hop, span_id=doc.span_id,
                                           document=doc.document, relevance=doc.relevance))

    def section(self) -> HopsSection | None:
        if not self.traces:
            return None
        return HopsSection(
            traces=self.traces, judged=self.judged,
            by_position=[HopPosition(position=i, hops=p.hops, kinds=p.kinds,
                                     mean_relevance=_mean(p.relevance),
                                     mean_utilization=_mean(p.utilization))
                         for i, p in sorted(self.positions.items())],
            samples_with_lost=self.samples_with_lost, lost=self.lost)


def hops_section(store: Store, run_id: str) -> HopsSection | None:
    """The run's hops section (None unless some sample was read from a trace): only the
    traced samples' `metadata.trace` is read."""
    tally = HopTally()
    for sample_id, raw in store.iter_traces(run_id):
        tally.add(sample_id, SampleTrace.model_validate_json(raw))
    return tally.section()
