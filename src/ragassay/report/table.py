"""A run's score table as the statistics read it: every sample's values and labels
(its own, with the people's labels stored under its content key on top, made one value
per label by the chosen rule: `LabelRule`, majority by default), without parsing a
result document (`Store.iter_scores`). What the report, the corrected
estimates, the annotation queue and every command that computes statistics start from.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from ragassay.labels import PeopleLabels, Resolved, by_key, canonical, resolve_all
from ragassay.stats import ScoreTable
from ragassay.stats.lexical import lexical_score
from ragassay.stats.table import Row
from ragassay.store import RunRecord, ScoreRecord, Store
from ragassay.types import HumanLabel, InvalidRow, LabelRule, MetricSpec, Sample, Usage


@dataclass
class RunTable:
    """A run's score table and what a report adds to it, read by streaming the store:
    memory grows with one small row per sample, not with the samples' texts."""

    run: RunRecord
    table: ScoreTable
    specs: dict[str, MetricSpec]
    invalid: list[InvalidRow] = field(default_factory=list)
    total: int = 0  # samples and invalid rows
    usage_by_strategy: dict[str, Usage] = field(default_factory=dict)
    content_keys: dict[tuple[str, str], str] = field(default_factory=dict)  # row key -> key
    stored_labels: int = 0  # labels that came from the store (not the dataset)
    people: PeopleLabels = field(default_factory=PeopleLabels)  # the rule, per person

    @property
    def rule(self) -> LabelRule:
        """The rule that made people's labels one value per sample."""
        return self.people.rule


LABEL_PAGE = 500  # samples whose stored labels are read in one query


def label_spelling(names: Iterable[str]) -> dict[str, str]:
    """The vocabulary's name -> the spelling a run's data uses for it (its first), so that
    a person's `hallucinated` joins the data's `hallucination` as one label."""
    out: dict[str, str] = {}
    for name in names:
        out.setdefault(canonical(name), name)
    return out


def respell(own: Mapping[str, Any], spelling: Mapping[str, str]) -> dict[str, Any]:
    """A sample's own labels, each named as the run's data first names its meaning
    (`spelling`): a file with `hallucination` on some rows and `hallucinated` or
    `has_hallucination` on others has one label, not three counted apart. Two spellings
    on one row are one label: with the same value, that value; with different values,
    none (the row contradicts itself, as a tie between people leaves a label out)."""
    out: dict[str, Any] = {}
    clash: set[str] = set()
    for name, value in own.items():
        key = spelling.get(canonical(name), name)
        if key in out and out[key] != value:
            clash.add(key)
        out.setdefault(key, value)
    return {k: v for k, v in out.items() if k not in clash}


def overlay_labels(own: Mapping[str, Any], stored: Mapping[str, Resolved],
                   spelling: Mapping[str, str]) -> dict[str, Any]:
    """A sample's own labels (`respell`: one name per meaning) with the store's on top
    (each one value under the rule, `labels.resolve`): a stored label replaces the label
    of the same meaning, named as the run's data names it (`spelling`), else as the
    vocabulary does; a tie (None) leaves that label out."""
    merged = respell(own, spelling)
    for name, label in stored.items():
        key = spelling.get(canonical(name), canonical(name))
        if label.value is None:
            for mine in [k for k in merged if canonical(k) == canonical(name)]:
                del merged[mine]
            continue
        merged[key] = label.value
    return merged


@dataclass
class LabelPages:
    """People's labels laid on samples a page at a time, the one place that does it
    (`run_table`'s rows, `with_people`'s samples, an annotation queue's table): each
    sample's own labels with the store's on top (`overlay_labels`, several people's made
    one value by `rule`)."""

    store: Store
    rule: LabelRule
    spelling: Mapping[str, str]

    def page(self, keys: Sequence[str], own: Sequence[Mapping[str, Any]]
             ) -> tuple[list[HumanLabel], list[dict[str, Resolved]], list[dict[str, Any]]]:
        """People's labels of the samples whose content keys are `keys` (as stored), each
        sample's resolved ones and its `own` labels with those on top, in `keys`' order."""
        people = self.store.people_labels(keys)
        found = resolve_all(people, self.rule)
        stored = [found.get(k, {}) for k in keys]
        return people, stored, [overlay_labels(o, st, self.spelling)
                                for o, st in zip(own, stored, strict=True)]


def _relabelled(sample: Sample, labels: dict[str, Any]) -> Sample:
    """`sample` with `labels` as its labels, copied only where they differ."""
    return sample if labels == sample.labels else sample.model_copy(update={"labels": labels})


def with_people(store: Store, run_id: str, samples: Iterable[Sample | InvalidRow],
                rule: LabelRule | None = None) -> Iterator[Sample | InvalidRow]:
    """The samples, each with people's labels stored under its content key on top of its
    own (`LabelPages`), a page at a time: the labels the run's statistics read
    (`run_table`), for the per-sample outputs (trial 66: the CSV and the HTML lacked the
    labels the headline counted), each label under the run's spelling of it (`respell`);
    as they are when the store holds no labels and the data one spelling per label."""
    spelling = label_spelling(store.sample_label_names(run_id))
    if store.count_labels() == 0:
        yield from (_relabelled(s, respell(s.labels, spelling)) if isinstance(s, Sample)
                    else s for s in samples)
        return
    pages = LabelPages(store, rule or LabelRule(), spelling)
    page: list[Sample | InvalidRow] = []

    def flush() -> Iterator[Sample | InvalidRow]:
        valid = [s for s in page if isinstance(s, Sample)]
        _, _, merged = pages.page([s.content_key for s in valid], [s.labels for s in valid])
        laid = iter(merged)  # the valid samples', in page order
        for s in page:
            yield _relabelled(s, next(laid)) if isinstance(s, Sample) else s
        page.clear()

    for item in samples:
        page.append(item)
        if len(page) >= LABEL_PAGE:
            yield from flush()
    yield from flush()


def run_table(store: Store, run_id: str,
              labels: Mapping[str, Mapping[str, Any]] | None = None,
              keys: bool = False, rule: LabelRule | None = None) -> RunTable:
    """A run's ScoreTable from its stored values (`Store.iter_scores`: no result
    document is parsed). The samples' labels are their own with the store's human labels
    on top (`LabelPages`, by content key: read when the store holds labels or the run
    an annotation plan, or with `keys`; then `content_keys` has every sample's), several
    people's made one value by `rule` (default: majority; `people` keeps each person's
    and where the values came from); `labels` (sample id -> labels) go on top of both,
    for calibrating against a separate file. Where the run has labels (its texts are
    read), each row holds the lexical baseline's score (`Row.lexical`), which the
    calibration ranks beside the judge's."""
    run = store.get_run(run_id)
    out = RunTable(run=run, table=ScoreTable(rows=(), specs={}), specs=run.spec_map(),
                   people=PeopleLabels(rule=rule or LabelRule()))
    keys = keys or store.count_labels() > 0 or store.get_plan(run.id) is not None
    own_names = store.sample_label_names(run.id)
    spelling = label_spelling(own_names)
    pages = LabelPages(store, out.people.rule, spelling)
    texts = keys or bool(labels) or bool(own_names)
    rows: list[Row] = []
    pending: list[ScoreRecord] = []

    def flush() -> None:
        people, stored, merged = (pages.page([r.content_key for r in pending],
                                             [r.labels for r in pending]) if keys
                                  else ([], [{}] * len(pending),
                                        [respell(r.labels, spelling) for r in pending]))
        for key, labs in by_key(people).items():
            out.people.add_key(key, labs)
        for item, found, mine in zip(pending, stored, merged, strict=True):
            if keys:
                out.content_keys[(item.strategy, item.sample_id)] = item.content_key
                out.stored_labels += sum(r.value is not None for r in found.values())
                out.people.add_row(found, item.labels)
            if labels and item.sample_id in labels:
                mine = {**mine, **labels[item.sample_id]}
            lexical = lexical_score(*item.texts) if item.texts is not None else None
            rows.append(Row(id=item.sample_id, strategy=item.strategy, question=item.question,
                            question_id=item.question_id, labels=mine, values=item.values,
                            reasons=item.reasons, abstained=item.abstained, lexical=lexical))
        pending.clear()

    for item in store.iter_scores(run.id, keys=keys, texts=texts):
        out.total += 1
        if isinstance(item, InvalidRow):
            out.invalid.append(item)
            continue
        pending.append(item)
        if len(pending) >= LABEL_PAGE:
            flush()
    flush()
    present = store.metrics_present(run.id)  # metric -> whether boolean
    names = [n for n in out.specs if n in present] + [n for n in present
                                                       if n not in out.specs]
    out.table = ScoreTable.from_rows(rows, {
        n: out.specs.get(n) or MetricSpec(name=n, kind="bool" if present[n] else "score")
        for n in names})
    usage = store.usage(run.id, by="strategy")
    out.usage_by_strategy = {k: v for k, v in usage.items() if k != "total"}
    return out
