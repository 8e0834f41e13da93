"""The report of a run as one typed object: what every reader (the JSON, CSV, HTML and
Parquet writers, the CLI, the dashboard, the Python API, the pytest plugin and the
bench) reads by attribute, and what the JSON report is the dump of.

The fields are in the JSON's order; the statistics sections are `stats`' own results,
unrounded (`published` rounds them, `ROUNDED`, for the JSON and every rendering).
`schema()` is the published JSON Schema of the JSON report; `REPORT_VERSION` its version.

Adding a section: a section of computed statistics is a field of `stats.Sections` (after
`calibration`; `published` rounds every one of them), anything else a field of `Report`;
either way `omitted()` when only some runs have it (the JSON then leaves it out rather than
writing null). Then bump `REPORT_VERSION`'s minor number; tests/report/test_model.py checks
that the JSON satisfies the schema.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from typing import Annotated, Any, ClassVar, Literal

from pydantic import (
    Field,
    SerializerFunctionWrapHandler,
    field_serializer,
    model_serializer,
)

from ragassay.dataset.traces.trace import SampleTrace
from ragassay.report.bench import BenchFigures, LeaderboardRow
from ragassay.report.headline import Headline, headline
from ragassay.report.people import PeopleSection
from ragassay.report.rounding import rounded
from ragassay.report.usage import RunUsage, UsageSummary
from ragassay.stats import MetricAggregate, Result, Sections, StrategySummary
from ragassay.stats.corrected import Corrected
from ragassay.stats.groups import Groups
from ragassay.stats.result import omitted
from ragassay.types import (
    JudgeFailure,
    MetricSpec,
    RatingReading,
    RoutingSummary,
    RunReliability,
    SampleRouting,
    SentenceMarks,
    abstained_reason,
    default_label,
)

REPORT_VERSION = "2.26.0"
"""The version of the JSON report's schema (`evaluation_metadata.report_version`). It
began at the package version of its time and changes on its own: the minor number when
a section or field is added, the major number when one is renamed, retyped or removed.
1.0.0: a strategy's `overall` figure (the formula applied to its averages) is renamed
`overall_of_averages`; the strategy's overall is the composite metric's mean under its
`metrics`; `corrected` (people's figures corrected from human labels), `abstentions`
(per strategy abstention and false-abstention rates, with `MetricAggregate.abstained`
and `SampleEntry.abstained`) and `evaluation_metadata.suspicious_replies` are added.
1.1.0: `hops` and `detailed_results[].trace` (runs of samples read from traces).
1.2.0: `strategies.*.failed`, per suite the questions a metric of the suite failed on.
1.3.0: `usage.batch` (a run judged through provider batches: its batches, requests and
their cost at the batch price next to what the same tokens cost with direct calls).
1.4.0: `constant_across_strategies` (metrics every strategy scores each question alike
on); `metric_specs.*.equivalence` (the practical-equivalence margin); a leaderboard row's
`diff`, `diff_ci_low`, `diff_ci_high`, `effect_size` (Cohen's d_av), `margin`,
`tost_p_adjusted` and `constant` against the best, whose `vs_best` reads equivalent,
worse or unclear (rows stored before: "no detectable difference").
1.5.0: `detailed_results[].trace.lost[].hop` counts from 1 like `hops.lost[].hop` (was 0);
`strategies.*.failed` carries a description of what it counts; `calibration.pairs[] .kappa_ci` (a
boolean label's kappa interval) is added. 2.0.0 (made beside 1.3.0 and 1.4.0, on 1.2.0):
`metric_specs.*.labels`, the human labels each metric is compared with; `bench` is typed
(`report.bench.BenchFigures`: the same JSON); what readers used of a metric's details is typed on
`detailed_results[]` (`marks`, `ratings`, `failures`, `truncated`, `suspicious`) and no longer in
`details` (the keys `abstention`, `suspicious_reply`, `truncated`, `context_truncated`,
`rating_mode`, `rating_fallback`, `stated`, `distribution`, `mass`, `p_true`, `prompt`,
`raw_reply`, `relevant_keys`, `used_keys`, `unsupported`), which stays the suites' own record.
2.1.0: 2.0.0 with the fields and changes of 1.3.0, 1.4.0 and 1.5.0 (made beside it).
2.2.0: `routing` (a routed run: a cascade of judge tiers or a jury; per tier its judge,
confidence, threshold, `decided`/`judged` counts, calls, tokens, cost, agreement with the
labels; the guarantee's status), `detailed_results[].routing` (deciding tier, confidences).
2.3.0: `annotators` (when the store holds people's labels of the run's samples): the
rule making several people's labels one (`majority`, `annotator:NAME`), per label its
annotators, samples, the rule's sources (`source.by_count`, `source.ties`) and people's
agreement (`agreement`: Krippendorff's alpha with its interval, Cohen's kappa per pair)
or why absent (`absent`); `corrected.label_rule`, `corrected.label_sources` likewise.
2.4.0: a label of the data no metric is compared with is in `calibration.skipped` and
`corrected.skipped` with `metric` null and its reason (`near_miss`: the vocabulary label
a typo'd name is close to); a leaderboard row's `retrieval.n` (questions averaged).
2.5.0: `detailed_results[].metadata` (the sample's own metadata, its trace aside) and
`metadata_keys` (every key of them, in the order they first appear: the CSV's, the
Parquet results' and `to_pandas()`'s `metadata.<key>` columns).
2.6.0: `calibration.pairs[].abstained`, `.unscored` (labels left out of the agreement; on
`calibration.skipped[]` too when no labelled sample has a value) and, for a yes/no verdict (bool
metrics, `metric_specs.*.verdict`), `.verdicts` (`problem`: the label value marking a problem;
`agree`; `missed`: problems it calls fine; `flagged`: the others it calls a problem).
2.7.0: `metadata_json` (over 50 metadata keys: one `metadata` column of JSON text in the
per-sample tables, no `metadata_keys`); no `metadata_keys` either in a report built
without per-sample entries (`build_report(per_sample=False)`).
2.8.0: `groups` (built `--by KEY`: per value of a metadata key its samples, each metric's
mean or rate with its interval, the judge's agreement with people's labels);
`corrected.estimates[].judge_scale` (what `judge_mean` is: mean or rate, on which range).
2.9.0: `calibration.pairs[].abstained_positives` and `calibration.skipped[]
.abstained_positives` (a yes/no label: how many of the labelled samples whose answer
abstained, left out of the agreement, people labelled true).
2.10.0: `groups.groups[].metrics.*.abstained` (of `missing`, the answers that declined);
`diagnostics[].conditions[].on_scale`, `.text` (on the scale the metric is shown on).
2.11.0: `headline` (after `evaluation_metadata`, when some metric of the run is linked to
a label): what people would say, as every surface shows it (`Report.headline`): per
linked metric people's figure and interval, the judge's agreement and own figure, and
the words of each cell; the prompt to label samples. `groups.groups[].agreement[]
.unmeasured` (why no AUROC or Spearman: all one class, too few, ...).
2.12.0: `corrected.estimates[].n_abstained` (the samples whose answer abstained, which
`n_unscored` counted before: it now counts only the unscored);
`groups.groups[].agreement[].unmeasured` also when a group's labelled samples all lack a
value (`all 16 abstained: nothing to compare`; its `n` is 0).
2.13.0: `groups.groups[].agreement[].abstained`, `.unscored` (the group's labelled samples left out
of its agreement, as `calibration.pairs[]` counts them), `.abstained_positives` (a yes/no label:
how many of the abstained people labelled true) and `.positives` (of the `n` compared).
2.14.0: `calibration.pairs[].verdicts.same_as` (the metric linked to the same label,
earlier in the links, whose verdicts are this one's on every labelled sample) and
`headline.rows[].same_as` (the row whose cell says the agreement this row's would repeat:
its `agreement_text` names it).
2.15.0: `corrected.skipped[].samples` (a link's samples, the run's or a strategy's, where fewer
than an estimate needs labelled: labelling cannot give it one); `headline.rows[].label` names a
vocabulary label as the run's labels do (`hallucination`), no longer always by its vocabulary name.
2.16.0: `diagnostics[].unless` (a rule's exemption on its metrics' scales: retrieval_problem
does not count a sample whose answer its contexts support), `.exempt` (the samples it
cleared) and `.caveat` (where a metric the rule fires on comes from a judge whose
agreement with people held apart is weak, the gate's words); `metric_specs.*.rules[]
.unless` (the declared exemption, left out where a rule has none).
2.17.0: `calibration.pairs[].same_values` (a score's: the metric linked to the same label,
earlier in the links, whose values are this one's on all but a few labelled samples,
`metric`, and on how many, `samples`; its agreement is nearly that one's).
2.18.0: `groups.groups[].agreement[].verdicts.same_as` (the metric whose verdicts are this
one's on every labelled sample of the run, as `calibration.pairs[].verdicts.same_as`:
its `--by KEY` column is said in one line, not repeated).
2.19.0: `groups.groups[].agreement[].same_values` (a score's: the metric whose values are
this one's on all but a few labelled samples of the run, as `calibration.pairs[]
.same_values`: its `--by KEY` column is said in one line, not repeated).
2.20.0: `metric_specs.*.soft_target` (a score's target under a judge whose values are
soft, the offline judge's own line) and `metric_specs.*.soft` (true where `target`, the
one every reader and the gate use, is that soft target: a run of the offline judge).
2.21.0: `disagreements` (when a linked yes/no verdict was compared with people's labels,
or some abstention is counted false): per verdict the samples it misses and flags
(`id`, `strategy`, `value`, people's `label`), and the abstentions counted false;
`detailed_results[].labels` holds the labels the statistics read, people's stored labels
on top of the sample's own (before, the sample's own only).
2.22.0: `disagreements.verdicts[].declined` (`id`, `strategy`, people's `label`): the
answers that declined where people marked the problem (counted wrong by `right on N of M`).
2.23.0: `abstentions.*.basis`: what decided the abstentions false or correct (the judge's
basis, `offline: context relevance`), which every surface names beside the rate.
2.24.0: `calibration.pairs[].baseline` (the lexical baseline on a yes/no pair's samples:
`auroc`, `auroc_ci`, `verdict`, `beats`, `text`: the one statement every screen says,
`meaning` below chance); `headline.rows[].judge` the figure its cell shows (an inverted
0-1 rate in the label's direction: `judge_turned`), `judge_own` the metric's own.
2.25.0: `corrected.label_sources.*.data`, `annotators.labels.*.source.data` (the data's own
labels); `calibration.pairs[].read_as` (a score's samples read as the label at its line).
2.26.0: `routing.tiers[].ranking` (how well a tier's confidence ranks its own errors);
`detailed_results[].marks.*.claims[]` (`text`, `supported`, `probability`: each claim);
`calibration.pairs[]`, `.skipped[]`, `groups.groups[].agreement[]`: `.abstained_false`."""


class StrategyEntry(StrategySummary):
    """A strategy's statistics (`stats.StrategySummary`) and its judge usage."""

    usage: UsageSummary


class RunInfo(Result):
    """The run the report is of (`evaluation_metadata`): identity, status, data, judge,
    sample counts, versions. `judge_reliability`: the judge's measured agreement with
    people as stored with the run (None for runs from before it was stored)."""

    run_id: str
    timestamp: str
    finished: str | None
    status: str
    dataset: str
    dataset_hash: str | None
    judge: str
    method: Literal["offline", "llm"]
    judge_model: str
    embedding_model: str
    judge_reliability: RunReliability | None
    metrics: list[str]
    total_samples: int
    scored_samples: int
    invalid_samples: int
    package_version: str
    report_version: str
    prompt_versions: dict[str, str]
    generated: str
    complete: bool
    # results whose judge reply copied a verdict from the judged text (not taken)
    suspicious_replies: int = 0

    @field_serializer("judge_reliability")
    def _reliability(self, value: RunReliability | None):
        # no return annotation: the schema stays the field's; an unknown table is {}
        return {} if value is None else value.model_dump(mode="json")


class InvalidRowEntry(Result):
    """An input row that could not be read as a sample: where, and why."""

    id: str
    source: str
    reason: str


class SampleEntry(Result):
    """One evaluated sample (`detailed_results`): its texts, labels and metadata (its own: a
    trace it was read from is `trace`), every metric's value (None: unscored, with the reason
    in `unscored`, or abstained, with the outcome in `abstained`: "correct", "false" or
    "unknown"), the metrics' details (as each suite records them, for debugging) and their
    typed readings, the judge's reasoning and the sample's judge usage; `trace` only for a
    sample read from a trace (its ids, span tree, scored hops and the relevant documents
    later hops lost)."""

    id: str
    strategy: str
    status: Literal["ok"] = "ok"
    question: str
    answer: str
    contexts: list[str]
    reference: str | tuple[str, ...] | None
    labels: dict[str, Any]
    metadata: dict[str, Any] = Field(default_factory=dict)
    metrics: dict[str, bool | float | None]
    unscored: dict[str, str]
    details: dict[str, dict[str, Any]]
    reasoning: str | None
    usage: UsageSummary
    abstained: dict[str, str] | None = omitted()
    trace: SampleTrace | None = omitted()
    routing: SampleRouting | None = omitted()
    # what every reader may use of the metrics' results, typed (`MetricResult`): the
    # sentences each verdict points at, how an LLM judge read each value, each failed
    # judgment's prompt and raw reply, the texts cut to the budget, a suspicious reply
    marks: dict[str, SentenceMarks] | None = omitted()
    ratings: dict[str, RatingReading] | None = omitted()
    failures: dict[str, JudgeFailure] | None = omitted()
    truncated: list[str] | None = omitted()
    suspicious: str | None = omitted()

    @field_serializer("marks", "ratings")
    def _readings(self, value: dict[str, SentenceMarks] | dict[str, RatingReading] | None):
        # only what each says: no empty list of marks, no reading left unset
        return None if value is None else {
            m: r.model_dump(mode="json", exclude_defaults=True) for m, r in value.items()}

    def reason(self, metric: str) -> str | None:
        """Why the metric has no value: its unscored reason, or "abstained (correct)" /
        "abstained (false)" / "abstained (unknown)"; None when it has one (or is absent)."""
        if self.abstained and metric in self.abstained:
            return abstained_reason(self.abstained[metric])
        return self.unscored.get(metric)

    @property
    def hops(self) -> tuple[Any, ...]:
        """The sample's retrieval and rerank hops (none unless read from a trace)."""
        return self.trace.hops if self.trace is not None else ()

    @property
    def references(self) -> tuple[str, ...]:
        """The acceptable reference answers (none, one or several)."""
        ref = self.reference
        return (ref,) if isinstance(ref, str) else tuple(ref or ())


class HopPosition(Result):
    """The hops at one position of their traces (1: each trace's first retrieval or
    rerank): how many, of which kinds, the mean relevance of each hop's own documents
    (`TraceHop.relevance`, not the trace suite's context relevance) and utilization."""

    position: int
    hops: int
    kinds: dict[str, int]
    mean_relevance: float | None
    mean_utilization: float | None


class LostEntry(Result):
    """A relevant document an earlier hop found that the final contexts lack."""

    sample_id: str
    trace_id: str
    hop: int  # 1-based position of the hop that found it
    span_id: str
    document: str
    relevance: float


class HopsSection(Result):
    """The run's hops (`hops`; only when some sample was read from a trace): the trace
    samples, the hops by position, and "a later hop lost what an earlier hop found":
    how many samples lost a relevant document, and the first of them (`LOST_SHOWN`)."""

    LOST_SHOWN: ClassVar[int] = 50

    traces: int
    judged: int
    by_position: list[HopPosition]
    samples_with_lost: int
    lost: list[LostEntry]


class FailedEntry(Result):
    """An input row that was not evaluated (`detailed_results`), with the reason."""

    id: str
    strategy: str
    status: Literal["failed"] = "failed"
    error: str
    metrics: dict[str, bool | float | None] = Field(default_factory=dict)
    unscored: dict[str, str] = Field(default_factory=dict)
    details: dict[str, dict[str, Any]] = Field(default_factory=dict)
    reasoning: str | None = None


Entry = Annotated[SampleEntry | FailedEntry, Field(discriminator="status")]
"""A per-sample entry of the report: a sample, or an invalid row."""

METADATA_PREFIX = "metadata."
"""`metadata.domain`: a sample's metadata value as a column of the CSV, the Parquet results
and `to_pandas()` (the loader reads the same spelling back into `metadata`)."""

METADATA_KEYS_MAX = 50
"""At most this many `metadata.<key>` columns; beyond, one `metadata` column instead
(`METADATA_COLUMN`). Each column is on every row (a row per sample and metric), so keys
that differ per sample (a document id as the key, a CSV's sparse columns) made the table
grow as samples x keys: 800 such samples, 806 CSV columns; 100k, tens of GB."""

METADATA_COLUMN = "metadata"
"""The one metadata column of the CSV, the Parquet results and `to_pandas()` when the
samples' metadata has more than METADATA_KEYS_MAX keys: each sample's metadata as the
JSON text of its object (the loader reads it back into `metadata`)."""

METADATA_JSON_NOTE = (f"the samples' metadata has more than {METADATA_KEYS_MAX} keys: one "
                      f"'{METADATA_COLUMN}' column holds each sample's metadata as JSON text, "
                      f"not a '{METADATA_PREFIX}<key>' column per key")
"""Said once where the CLI writes such a table (`Report.metadata_json`)."""

Cell = str | int | float | bool | None


def metadata_columns(keys: Sequence[str] | None) -> list[str]:
    """The metadata columns of the per-sample tables for `keys` (`Report.table_keys`):
    `metadata.<key>` per key, or for None (more than METADATA_KEYS_MAX keys) the one
    `metadata` column."""
    return [METADATA_COLUMN] if keys is None else [METADATA_PREFIX + k for k in keys]


def metadata_cells(entry: SampleEntry | FailedEntry, keys: Sequence[str] | None
                   ) -> dict[str, Cell]:
    """An entry's metadata as the cells of `metadata_columns(keys)`: per key, a JSON
    scalar as it is, a list or object as its JSON text, None where the sample has no such
    key; for None keys, the sample's whole metadata as JSON text (None when it has none).
    A failed row has no metadata."""
    given = entry.metadata if isinstance(entry, SampleEntry) else {}
    if keys is None:
        return {METADATA_COLUMN: _cell(given) if given else None}
    return {METADATA_PREFIX + k: _cell(given.get(k)) for k in keys}


def _cell(value: Any) -> Cell:
    scalar: Cell = value  # JSON read back: str, int, float, bool or None (else list, dict)
    return json.dumps(value, ensure_ascii=False) if isinstance(value, dict | list) else scalar


class Report(Sections):
    """The report of one run: `evaluation_metadata`, the statistics sections (`stats.Sections`;
    `calibration` only when some sample has labels), `corrected` (only when some sample has
    labels: people's figures corrected from the labels and every judge score), the usage, the
    specs, the invalid rows; the bench sections (`leaderboard`, `bench`, `bench_config`,
    `leaderboard_error`) for a bench run; `routing` for a routed run (`--escalate`, `--jury`);
    `detailed_results` when built with the per-sample entries (else streamed by the writers)."""

    ROUNDED: ClassVar[tuple[str, ...]] = (*Sections.model_fields, "corrected", "annotators",
                                          "groups")
    """The sections of computed statistics, which `published` rounds."""

    strategies: dict[str, StrategyEntry]
    corrected: Corrected | None = omitted()
    annotators: PeopleSection | None = omitted()
    groups: Groups | None = omitted()  # built `by` a metadata key (`report.groups_for`)
    evaluation_metadata: RunInfo
    usage: RunUsage
    metric_specs: dict[str, MetricSpec]
    invalid_rows: list[InvalidRowEntry]
    leaderboard: list[LeaderboardRow] | None = None
    bench: BenchFigures | None = omitted()
    bench_config: dict[str, Any] | None = omitted()
    leaderboard_error: str | None = omitted()
    hops: HopsSection | None = omitted()
    routing: RoutingSummary | None = omitted()
    # the keys of the samples' metadata in the order they first appear (`build.metadata_keys`):
    # the per-sample tables' `metadata.<key>` columns, known before the entries are streamed;
    # None (left out of the JSON) for a report built with no per-sample table to write
    # (`build_report(per_sample=False)`: a summary, the dashboard) and over METADATA_KEYS_MAX
    metadata_keys: list[str] | None = Field(default_factory=list, exclude_if=lambda v: v is None)
    # true: the samples' metadata has more than METADATA_KEYS_MAX keys, and the per-sample
    # tables have one `metadata` column, each sample's metadata as JSON text
    metadata_json: bool | None = omitted()
    detailed_results: list[Entry] | None = omitted()

    @field_serializer("leaderboard")
    def _rows(self, rows: list[LeaderboardRow] | None):
        # as stored: the fields the row was stored with, by their JSON names
        return None if rows is None else [r.model_dump(by_alias=True, exclude_unset=True)
                                          for r in rows]

    @field_serializer("metric_specs")
    def _specs(self, specs: dict[str, MetricSpec]):
        # a spec is keyed by its name, which its entry leaves out
        return {n: s.model_dump(mode="json", exclude={"name"}) for n, s in specs.items()}

    @model_serializer(mode="wrap")
    def _sections(self, handler: SerializerFunctionWrapHandler):
        # no return annotation: the schema stays the fields' own
        out = handler(self)
        if self.bench is None:  # not a bench run: no leaderboard key at all
            out.pop("leaderboard", None)
        head = self.headline
        first = {"headline": head.section().model_dump()} if head.rows else {}
        return {"evaluation_metadata": out.pop("evaluation_metadata"), **first, **out}

    # -- reading ------------------------------------------------------------------------

    def table_keys(self) -> list[str] | None:
        """The keys of the per-sample tables' `metadata.<key>` columns, or None for the one
        `metadata` column (`metadata_json`; `metadata_columns` names them). ValueError for
        a report built without them (`per_sample=False`), so that no table of it silently
        lacks the samples' metadata."""
        if self.metadata_json:
            return None
        if self.metadata_keys is None:
            raise ValueError("this report was built without its samples' metadata keys "
                             "(build_report(per_sample=False)): build it with per_sample=True "
                             "to write per-sample rows")
        return self.metadata_keys

    @property
    def run(self) -> RunInfo:
        return self.evaluation_metadata

    @property
    def metrics(self) -> list[str]:
        """The run's metrics, in their declared order."""
        return list(self.metric_specs)

    def spec(self, metric: str) -> MetricSpec | None:
        return self.metric_specs.get(metric)

    def label(self, metric: str) -> str:
        """The metric's declared label (else one made from its name)."""
        spec = self.metric_specs.get(metric)
        return spec.display_label if spec is not None else default_label(metric)

    def aggregate(self, metric: str) -> MetricAggregate | None:
        return self.aggregate_metrics.metrics.get(metric)

    @property
    def headline(self) -> Headline:
        """What people would say (`report.headline`): the opening every surface shows,
        computed from this report's sections (the JSON's `headline` is its `section()`)."""
        return headline(self)

    @property
    def is_bench(self) -> bool:
        return self.bench is not None

    def note_lines(self) -> list[str]:
        """Said under the headline on every surface: how many measurements each label's
        metrics are (`verdicts.measurements_lines`), then `Calibration.note_lines`."""
        from ragassay.stats.verdicts import measurements_lines
        cal = self.calibration
        return measurements_lines(cal.pairs) + cal.note_lines() if cal is not None else []

    def constant_note(self) -> str | None:
        """What every reader says of the metrics constant across strategies (None: none)."""
        names = self.constant_across_strategies
        if not names:
            return None
        noun = "this metric" if len(names) == 1 else "these metrics"
        return (f"constant across strategies: {', '.join(names)}: every strategy scores each "
                f"question alike, so {noun} cannot separate the strategies")

    @property
    def entries(self) -> list[SampleEntry | FailedEntry]:
        """The per-sample entries ([] when the report was built without them)."""
        return list(self.detailed_results or [])


def published(report: Report) -> Report:
    """The report with its statistics as published: rounded (`rounding.rounded`), as the
    JSON holds them and every rendering shows them."""
    return report.model_copy(update={name: rounded(getattr(report, name))
                                     for name in Report.ROUNDED})
