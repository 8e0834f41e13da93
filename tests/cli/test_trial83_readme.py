"""Trial 83's findings on the docs: README's "Check the judge on your own labelled data"
(what to label, the commands, what the output means) against the CLI's own options;
docs/cli.md's `eval --judge-check`, the two wordings of the abstentions line as the
source words them, the scale sentence as the demo prints it, and `judge.overall`'s 0 on a
flagged answer said in README, docs/cli.md and docs/metrics.md."""

from __future__ import annotations

import re
from pathlib import Path

import click
from click.testing import CliRunner

from ragassay.cli import cli

ROOT = Path(__file__).resolve().parents[2]


def _flat(text: str) -> str:
    return " ".join(text.split())


def _doc(name: str) -> str:
    return (ROOT / name).read_text(encoding="utf-8")


def _section(text: str, heading: str) -> str:
    """From `heading`'s line to the next heading of its level or above."""
    start = text.index(heading)
    level = len(heading) - len(heading.lstrip("#"))
    rest = text[start + len(heading):]
    ends = [m.start() for m in re.finditer(r"^(#+) ", rest, re.M) if len(m[1]) <= level]
    return heading + rest[:ends[0] if ends else len(rest)]


def _options(*path: str) -> set[str]:
    command: click.Command = cli
    for name in path:
        assert isinstance(command, click.Group)
        command = command.commands[name]
    return {o for p in command.params for o in getattr(p, "opts", [])}


CHECK = "#### Check the judge on your own labelled data"


def test_the_readme_says_how_to_check_the_judge_on_labelled_data() -> None:
    section = _section(_doc("README.md"), CHECK)
    said = _flat(section)
    # what to label
    assert '"labels": {"hallucination": true}' in said and "A correct decline is `false`" in said
    assert "`metadata.kind`" in said
    # the commands, each with options the CLI has
    commands = re.findall(r"^ragassay (.+?)(?:\s+#.*)?$", section, re.M)
    assert len(commands) >= 3, commands
    for line in commands:
        words = line.split()
        path = words[:2] if words[0] == "runs" else words[:1]
        for opt in (w for w in words if w.startswith("--")):
            assert opt in _options(*path), (opt, line)
    assert "ragassay eval labelled.jsonl --judge-check" in section
    # what the output means: the figures the console prints
    for words in ("`right on 22 of 23 (96%)`", "`misses`", "`flags`", "`AUROC`", "`repeats`"):
        assert words in said, words


def test_readme_and_docs_link_the_judge_check_to_each_other() -> None:
    readme, docs = _doc("README.md"), _doc("docs/cli.md")
    heading = "## `eval --judge-check`: checking the judge against people's labels"
    assert heading in docs
    anchor = "eval---judge-check-checking-the-judge-against-peoples-labels"
    assert f"docs/cli.md#{anchor}" in _section(readme, CHECK)
    said = _flat(_section(docs, heading))
    assert "Check the judge on your own labelled data" in said
    assert "ragassay eval labelled.jsonl --judge-check" in said
    assert "judge check: 3 warnings on the RAG system's own figures left out" in said
    assert "--judge-check" in _options("eval")


def test_docs_explain_both_abstention_wordings_as_the_console_says_them() -> None:
    from ragassay.stats.abstention import basis_text, looked_words

    said = _flat(_section(_doc("docs/cli.md"), "### The abstentions line"))
    for basis in ("offline: context relevance", "offline: reference attributable to the "
                  "contexts", "judge: abstains, context_has_answer"):
        looked = looked_words([basis])[0].removeprefix("contexts ")
        assert f"`{looked}`" in said, looked  # the words the console prints
        assert basis_text([basis]) in said, basis  # and the basis it names
    assert "Both count the same thing" in said
    # a mix of bases reads as the second wording, as the docs say
    assert looked_words(["offline: context relevance", "offline: reference attributable "
                         "to the contexts"])[0] == "contexts looked to answer the question"
    assert "A run whose samples mix both bases uses this wording" in said


def test_docs_give_the_scale_sentence_the_demo_prints(tmp_path: Path) -> None:
    from ragassay.dataset import demo_dataset_path

    out = CliRunner(env={"COLUMNS": "300"}).invoke(
        cli, ["eval", str(demo_dataset_path()), "--db", str(tmp_path / "r.db")]).stdout
    lines = out.splitlines()
    at = next(i for i, x in enumerate(lines) if x.startswith("Scales: "))
    end = next(i for i in range(at, len(lines)) if lines[i].rstrip().endswith("."))
    sentence = _flat(" ".join(lines[at:end + 1]))
    assert sentence.count(". ") == 0 and sentence.endswith("judge.hallucination.")
    assert sentence in _flat(_doc("docs/cli.md")), sentence


def test_overall_zero_on_a_flagged_answer_is_said_in_the_docs() -> None:
    from ragassay.cli.fmt import penalty_note
    from ragassay.metrics import all_specs, suite_names

    note = penalty_note(all_specs(suite_names())["judge.overall"])
    assert note is not None and "0 on every answer judge.hallucination flags, by design" in note
    assert ("0 on every answer `judge.hallucination` flags, by design"
            in _flat(_doc("docs/cli.md")))
    assert "**0 on every answer `judge.hallucination` flags, by design**" in _doc(
        "docs/metrics.md")
    assert "so 0 on every answer `hallucination` flags, by design" in _doc("README.md")


def test_the_readme_warning_example_is_the_console_s_wording() -> None:
    from ragassay.report.flag_base import base_text
    from ragassay.stats import MetricAggregate

    agg = MetricAggregate(mean=0.318, ci_low=0.139, ci_high=0.549, count=22, unscored=1,
                          abstained=1, higher_is_better=False)
    said = f"judge.hallucination rate 0.318 {base_text(agg)}"
    assert said in _flat(_doc("README.md")).replace("`", "")
    assert said in _flat(_doc("docs/cli.md")).replace("`", "")
