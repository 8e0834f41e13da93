"""`ragassay runs show RUN --disagree`: the samples behind the headline's counts, a line
each (trial 66): per linked yes/no verdict every sample its `right on N of M` counts
wrong (those it misses and flags of people's labels, with the judge's value), and the
declines people marked the problem (said apart from it), with the judge's reasoning on
one line; then, apart, the abstentions counted false (by the judge's reading of the
contexts, with its basis: `report.false_said`; not by people, whose labels of each are
said). `--json` prints the same for scripts."""

from __future__ import annotations

import json
import re
from collections.abc import Callable, Mapping, Sequence
from typing import Any, Protocol, TypeVar

from rich.console import Console
from rich.markup import escape

from ragassay.judge.offline.reasoning import KEYS_LEGEND, uses_keys
from ragassay.report import Report, false_said, people_on_false
from ragassay.stats import BooleanAgreement
from ragassay.stats.disagreements import (
    SIDES,
    Declined,
    Disagreement,
    Disagreements,
    FalseAbstention,
    VerdictDisagreements,
)
from ragassay.stats.result import Result
from ragassay.stats.table import Row
from ragassay.stats.verdicts import marked, same_verdicts_text, verdict_cell

NOTHING = ("no yes/no verdict compared with people's labels and no abstention counted false "
           "(labels: ragassay labels import FILE, or ragassay annotate RUN)")


EXCERPT = 48
"""How many characters of a question a line shows (`About.said`), an ellipsis after."""


class _Listed(Protocol):
    id: str


_Row = TypeVar("_Row", bound=_Listed)


class About:
    """What a listed sample's line says of it after its id: its `--by KEY` value (`key`:
    `kind=entity`, the lists sorted by it), else a short excerpt of its question
    (`EXCERPT` characters, in quotes); nothing for a sample not in `of`."""

    def __init__(self, of: Mapping[str, str] | None = None, key: str | None = None) -> None:
        self.of, self.key = dict(of or {}), key

    def said(self, sample: str) -> str:
        text = self.of.get(sample)
        if text is None:
            return ""
        if self.key is not None:
            return f"  {self.key}={text}"
        return f"  {_excerpt(text)}"

    def ordered(self, rows: Sequence[_Row]) -> list[_Row]:
        """`rows` sorted by their key's value (stable: the run's order within a value);
        as they are without a key."""
        if self.key is None:
            return list(rows)
        return sorted(rows, key=lambda r: self.of.get(r.id, ""))


AGREE = " (people agree with the judge here)"
"""What a listed abstention counted false says where people labelled the decline right."""


_SUPPORTED = re.compile(r"supported by ((?:\d+[a-z]+)(?:, \d+[a-z]+)*)")


def miss_check(reason: str | None) -> str | None:
    """What to check in an answer people marked a problem that the judge passed, where its
    reasoning names the sentences it found the answer in (trial 89: "supported by 0b"
    pointed at a sentence without saying why that matters): `the judge found it
    restated by 0b: compare the figures and names there`; None otherwise."""
    keys = [k for m in _SUPPORTED.finditer(reason or "") for k in m.group(1).split(", ")]
    if not keys:
        return None
    return (f"the judge found it restated by {', '.join(dict.fromkeys(keys))}: compare the "
            "figures and names there")


def disagreements_json(report: Report, found: Disagreements | None,
                       about: About | None = None,
                       declines: Sequence[ReadDecline] = ()) -> str:
    """The listing as JSON: the run id, the verdicts' samples and the false abstentions
    (empty lists when there are none), `read_as_declines` (every answer the judge read
    as a decline, `declines_of`); with `--by KEY`, `"by": {"key": KEY, "values":
    {sample id: its value}}` of the samples listed."""
    data = found.model_dump(mode="json") if found is not None else {
        "verdicts": [], "false_abstentions": []}
    for v in data["verdicts"]:  # each miss: what to check (trial 89), where it says
        for d in v["missed"]:
            d["check"] = miss_check(d.get("reason"))
    by = ({"by": {"key": about.key, "values": about.of}}
          if about is not None and about.key is not None else {})
    read = [d.model_dump(mode="json") for d in declines]
    return json.dumps({"run_id": report.run.run_id, **data, "read_as_declines": read, **by},
                      indent=2, ensure_ascii=False)


def print_disagreements(report: Report, found: Disagreements | None,
                        console: Console, about: About | None = None,
                        declines: Sequence[ReadDecline] | None = None) -> None:
    """Per verdict, the headline's cell, then the samples it counts wrong: missed, flagged
    and declined, one line each (`  ID [STRATEGY]  METRIC VALUE; people LABEL:
    REASONING`, the strategy where the run has several); then the abstentions counted
    false, titled apart (the contexts decide them, not people's labels). Where a
    reasoning names sentences by key, what the keys mean, once (`KEYS_LEGEND`). `about`
    (session 25: a user checking the judge per kind joined the JSON report back to the
    input): each sample's `--by KEY` value, its lines sorted by it, or a short excerpt of
    its question, said after its id. Last, `declines` (trial 87): every answer the judge
    read as a decline, with people's label and its opening words (`print_declines`)."""
    def say(text: str) -> None:
        console.print(escape(text), highlight=False, soft_wrap=True)

    say(f"run {report.run.run_id}: the samples behind the headline's counts")
    _print_found(report, found, say, about or About())
    if declines is not None:
        print_declines(declines, say, about or About(), len(report.strategies) > 1)


def _print_found(report: Report, found: Disagreements | None, say: Callable[[str], None],
                 about: About) -> None:
    if found is None:
        say(NOTHING)
        return
    reasons = [d.reason for v in found.verdicts for side in SIDES for d in v.side(side)]
    if any(uses_keys(r) for r in reasons + [a.reason for a in found.false_abstentions]):
        say(KEYS_LEGEND)  # once, before the lines that use the keys
    several = len(report.strategies) > 1
    if about.key is not None:
        say(f"each sample with its {about.key}, the lines of each list sorted by it")
    for v in found.verdicts:
        _print_verdict(report, v, several, say, about)
    if found.false_abstentions:
        _print_false(report, found, several, say, about)


def _print_false(report: Report, found: Disagreements, several: bool,
                 say: Callable[[str], None], about: About) -> None:
    """The abstentions counted false, with people's count of them (`people_on_false`);
    those people labelled right apart, as no disagreement (trial 81: a decline the
    headline counts right was listed as a possible false abstention with no word on
    which reading to trust: people's, where they labelled it)."""
    on_false = people_on_false(report)
    say(f"declined where {false_said(report)}: abstentions counted false by the "
        f"judge's reading, not by people: {len(found.false_abstentions)}"
        + (f" ({on_false})" if on_false else ""))
    listed = about.ordered(found.false_abstentions)
    agree = [a for a in listed if a.people_right()]
    for a in listed:
        if not a.people_right():
            say(_false_line(a, several, about))
    if agree:
        say("of them, not disagreements: declines people marked no problem in, which the "
            "headline counts right (listed for the judge's heuristic only): "
            f"{len(agree)}")
        for a in agree:
            say(_false_line(a, several, about))


def _false_line(a: FalseAbstention, several: bool, about: About) -> str:
    """`  p20  judge.hallucination; people hallucination yes: REASONING`, where people
    labelled the decline right `... no (people agree with the judge here): ...`."""
    where = f" [{a.strategy}]" if several else ""
    people = "".join(f"; people {k} {_said(v)}" for k, v in a.labels.items())
    return (f"  {a.id}{where}{about.said(a.id)}  {', '.join(a.metrics)}{people}"
            + (AGREE if a.people_right() else "") + (f": {a.reason}" if a.reason else ""))


def _print_verdict(report: Report, v: VerdictDisagreements, several: bool,
                   say: Callable[[str], None], about: About) -> None:
    pair = next((p for p in (report.calibration.pairs if report.calibration else ())
                 if p.metric == v.metric and p.label == v.label), None)
    if v.same_as is not None and pair is not None:
        say(f"{v.metric}: {same_verdicts_text(v.same_as, pair.labelled)}: the same samples")
        return
    cell = verdict_cell(pair, v.label) if isinstance(pair, BooleanAgreement) else ""
    say(f"{v.metric} against people's {v.label}" + (f": {cell}" if cell else ""))
    problem = marked(v.label, v.problem)
    titles = {"missed": f"missed (people marked {problem}, the judge's verdict did not)",
              "flagged": f"flagged (the judge's verdict is {problem}, people did not mark it)",
              "declined": f"declined (the answer declined, people marked {problem})"}
    for side in SIDES:
        rows: list[Disagreement | Declined] = list(v.side(side))
        if side == "declined" and not rows:
            continue  # most runs have none: no empty heading
        say(f"{titles[side]}: {len(rows)}")
        for d in about.ordered(rows):
            say(_line(report, v, d, several, about))


def _line(report: Report, v: VerdictDisagreements, d: Disagreement | Declined,
          several: bool, about: About) -> str:
    """`  a013  METRIC no; people hallucinated yes: 2 of 2 claims ...`; a decline's
    `METRIC declined`."""
    spec = report.spec(v.metric)
    value = ("declined" if not isinstance(d, Disagreement)
             else ("yes" if d.value else "no") if spec is not None and spec.kind == "bool"
             else f"{d.value:g}")
    where = f" [{d.strategy}]" if several else ""
    check = miss_check(d.reason) if d in v.missed else None
    return (f"  {d.id}{where}{about.said(d.id)}  {v.metric} {value}; people {v.label} "
            f"{_said(d.label)}"
            + (f": {d.reason}" if d.reason else "") + (f"; {check}" if check else ""))


def _said(label: object) -> str:
    """People's label as the line says it: yes / no, else its value."""
    return ("yes" if label else "no") if isinstance(label, bool) else str(label)


def listed_ids(found: Disagreements) -> list[str]:
    """The ids of the samples the listing names, once each, in order."""
    ids = [d.id for v in found.verdicts for side in SIDES for d in v.side(side)]
    return list(dict.fromkeys(ids + [a.id for a in found.false_abstentions]))


class ReadDecline(Result):
    """An answer the judge read as a decline (no verdict on it): its id, strategy, the
    judge's reading of the contexts (`Row.abstention`: "false" where they looked
    relevant), people's labels of it, and the answer's opening words."""

    id: str
    strategy: str
    outcome: str
    labels: dict[str, Any]
    answer: str = ""


DECLINES = ("answers the judge read as declines (no verdict: one people marked no problem in "
            "counts right, so check each really declines)")


def declines_of(rows: Sequence[Row], answers: Mapping[str, str]) -> list[ReadDecline]:
    """Every answer the judge read as a decline (trial 87: a right, substantive answer read
    as one counted right and appeared in no list), with the answer of each (`answers`:
    sample id -> answer)."""
    return [ReadDecline(id=r.id, strategy=r.strategy, outcome=r.abstention or "",
                        labels=dict(r.labels), answer=answers.get(r.id, ""))
            for r in rows if r.abstention is not None]


def print_declines(declines: Sequence[ReadDecline], say: Callable[[str], None],
                   about: About, several: bool = False) -> None:
    """The answers the judge read as declines, titled apart, a line each: `  g07
    kind=declined  people hallucination no; answer "Sorry, I can't find that…"`; one line
    `...: none` where there are none."""
    if not declines:
        say(f"{DECLINES}: none")
        return
    say(f"{DECLINES}: {len(declines)}")
    for d in about.ordered(declines):
        where = f" [{d.strategy}]" if several else ""
        people = "; ".join(f"people {k} {_said(v)}" for k, v in d.labels.items()) or (
            "no people's label")
        say(f"  {d.id}{where}{about.said(d.id)}  {people}; answer {_excerpt(d.answer)}")


def _excerpt(text: str) -> str:
    text = " ".join(text.split())
    return f'"{text[:EXCERPT - 1].rstrip()}…"' if len(text) > EXCERPT else f'"{text}"'
