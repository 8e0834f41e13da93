"""Trial 75: README.md's Usage was one long shell listing whose comments carried most of
the reference; the input format and the label names came only after ~200 lines. Usage is
now short headed sections in the order a newcomer needs them (the input format and
people's labels first), the long reference in docs/cli.md and docs/bench.md. The README
says which label columns `eval` reads and what it does with a top-level `hallucination`
column; these tests hold it to the CLI's behaviour, and every command and link the
README and those two pages show to the CLI and the files."""

from __future__ import annotations

import json
import re
from pathlib import Path

from click.testing import CliRunner

from ragassay.cli import cli

ROOT = Path(__file__).resolve().parents[2]
PAGES = (ROOT / "README.md", ROOT / "docs" / "cli.md", ROOT / "docs" / "bench.md")
GROUPS = {"runs", "labels", "models", "batches"}  # commands whose first word is a group


def _readme() -> str:
    return (ROOT / "README.md").read_text(encoding="utf-8")


def test_usage_is_headed_sections_in_a_newcomers_order() -> None:
    readme = _readme()
    usage = readme[readme.index("\n## Usage\n"):readme.index("\n## Python API")]
    assert readme.index("## Quick start") < readme.index("\n## Usage\n")
    heads = re.findall(r"^### (\d)\. (.*)$", usage, re.M)
    assert [n for n, _ in heads] == ["1", "2", "3", "4", "5", "6"], heads
    for (_, head), word in zip(heads, ("data", "eval", "results", "labels", "Judges",
                                       "Gate"), strict=True):
        assert word in head, head
    first = usage[usage.index("### 1."):usage.index("### 2.")]
    for said in ("`labels.hallucination`", "which way true points", "`hallucinated`",
                 "`faithful`", "contexts"):
        assert said in first, said
    # no shell listing longer than a screen's worth of commands
    for block in re.findall(r"```sh\n(.*?)```", usage, re.S):
        assert len(block.splitlines()) <= 12, block


def test_the_label_columns_read_as_the_readme_says(tmp_path: Path) -> None:
    flat = " ".join(_readme().split())
    note = re.search(r"`(note: column 'hallucination' is not read as a human label[^`]*)`",
                     flat)
    assert note is not None
    rows = [{"id": f"q{i}", "question": "How long do refunds take?",
             "contexts": ["Refunds take 30 days."],
             "answer": f"Refunds take {30 if i % 2 else 10} days.", **label}
            for i, label in enumerate([{"hallucination": True}, {"hallucination": False}])]
    top = tmp_path / "top.jsonl"
    top.write_text("\n".join(json.dumps(r) for r in rows) + "\n", encoding="utf-8")
    ran = CliRunner().invoke(cli, ["eval", str(top), "--metrics", "judge", "--db",
                                   str(tmp_path / "r.db")], env={"COLUMNS": "250"})
    assert ran.exit_code == 0, ran.output
    assert note[1] in " ".join(ran.output.split())
    assert "right on" not in ran.output  # kept as metadata: no label compared
    flat_rows = [{("labels.hallucination" if k == "hallucination" else k): v
                  for k, v in r.items()} for r in rows]
    given = tmp_path / "flat.jsonl"
    given.write_text("\n".join(json.dumps(r) for r in flat_rows) + "\n", encoding="utf-8")
    ran = CliRunner().invoke(cli, ["eval", str(given), "--metrics", "judge", "--db",
                                   str(tmp_path / "r.db")], env={"COLUMNS": "250"})
    assert ran.exit_code == 0, ran.output
    assert "right on 2 of 2" in ran.output and "not read as a human label" not in ran.output


def _commands(page: Path) -> list[str]:
    blocks = re.findall(r"```sh\n(.*?)```", page.read_text(encoding="utf-8"), re.S)
    lines = [x for b in blocks for x in b.replace("\\\n", " ").splitlines()]
    return [re.split(r"\s#", x)[0] for x in lines if x.startswith("ragassay ")]


def test_every_command_shown_names_options_the_command_has() -> None:
    helps: dict[tuple[str, ...], str] = {}
    shown = [(page.name, c) for page in PAGES for c in _commands(page)]
    assert len(shown) > 40, len(shown)
    for page, command in shown:
        words = command.split()[1:]
        sub = () if words[0].startswith("--") else (
            tuple(words[:2]) if words[0] in GROUPS else (words[0],))
        if sub not in helps:
            ran = CliRunner().invoke(cli, [*sub, "--help"])
            assert ran.exit_code == 0, (page, command, ran.output)
            helps[sub] = ran.output
        for option in re.findall(r"(?<![\w-])(--[a-z][a-z0-9-]*)", command):
            assert option in helps[sub], (page, command, option)


def _slug(heading: str) -> str:
    return re.sub(r"[^\w\- ]", "", heading.strip().lower()).replace(" ", "-")


def test_every_link_of_the_readme_and_its_reference_pages_resolves() -> None:
    for page in PAGES:
        for target in re.findall(r"\]\(([^)\s]+)\)", page.read_text(encoding="utf-8")):
            if target.startswith("http"):
                continue
            path, _, anchor = target.partition("#")
            dest = page.parent / path if path else page
            assert dest.exists(), (page.name, target)
            if anchor:
                heads = re.findall(r"^#+ (.*)$", dest.read_text(encoding="utf-8"), re.M)
                assert anchor in {_slug(h) for h in heads}, (page.name, target)
