"""New-user trial 73: the offline judge's wrong verdicts carried the same confidence as its
right ones, and nothing in a routed run said that escalating its unsure cases would catch
few of its errors. A routed run with labels says per tier, in one line (console, JSON,
HTML), how well its confidence ranks its own errors on the labels (AUROC with its 95%
interval) and how many samples went past it: a scripted tier whose confidence is
uninformative (`blind`: right 3 times in 4 whatever its confidence) against one whose
confidence ranks its errors well (`sharp`)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner

from ragassay.cli import cli
from tests.support.routing import ScriptedJudge, labels_file, routing_data

N = 240


@pytest.fixture
def url(scripted_server: Any) -> str:
    return str(scripted_server(ScriptedJudge()).base_url)


def _routed(tmp_path: Path, url: str, first: str) -> tuple[str, dict[str, Any], str]:
    data = routing_data(tmp_path / "d.jsonl", N)
    labels = labels_file(tmp_path / "labels.jsonl", range(0, N, 2))
    out, db = tmp_path / "r.json", tmp_path / "s.db"
    got = CliRunner().invoke(cli, [
        "eval", str(data), "--metrics", "judge", "--db", str(db), "--base-url", url,
        "--timeout", "5", "--judge", f"openai:{first}", "--escalate", "openai:strong",
        "--labels", str(labels), "--agreement", "0.9", "--out", str(out)],
        env={"COLUMNS": "250"})
    assert got.exit_code == 0, got.output
    html = tmp_path / "r.html"
    shown = CliRunner().invoke(cli, ["report", "--db", str(db), "--format", "html",
                                     "--out", str(html)])
    assert shown.exit_code == 0, shown.output
    return got.output, json.loads(out.read_text()), html.read_text()


def _line(output: str, tier: int) -> str:
    """The tier's line, its wraps joined (the console wraps at its width, at spaces)."""
    lines = output.splitlines()
    at = next(i for i, x in enumerate(lines) if x.startswith(f"tier {tier} (")
              and "ranks its own errors" in x)
    end = next((i for i in range(at + 1, len(lines)) if lines[i].startswith(
        ("tier ", "escalated past"))), len(lines))
    return " ".join(x.strip() for x in lines[at:end])


def test_an_uninformative_confidence_is_said_to_rank_errors_at_chance(
        tmp_path: Path, url: str) -> None:
    output, doc, html = _routed(tmp_path, url, "blind")
    ranking = doc["routing"]["tiers"][0]["ranking"]
    assert ranking["labelled"] == N // 2 and ranking["wrong"] > 10
    assert ranking["auroc_low"] <= 0.5 <= ranking["auroc_high"]
    line = _line(output, 0)
    assert line.startswith(f"tier 0 (openai:blind) confidence ranks its own errors at AUROC "
                           f"{ranking['auroc']:.2f} [{ranking['auroc_low']:.2f}, ")
    assert f"on {N // 2} labelled verdicts ({ranking['wrong']} wrong): no better than " \
           "chance" in line
    past = doc["routing"]["tiers"][1]["decided"]
    assert line.endswith(f"; {past} of {N} samples ({past / N:.1%}) went past it to meet "
                         "the target agreement 0.9")
    assert "Tier 0 (openai:blind) confidence ranks its own errors" in html


def test_an_informative_confidence_is_said_to_hold_its_errors(tmp_path: Path,
                                                              url: str) -> None:
    output, doc, _ = _routed(tmp_path, url, "sharp")
    ranking = doc["routing"]["tiers"][0]["ranking"]
    assert ranking["auroc_low"] > 0.5 and ranking["auroc"] >= 0.7
    assert "its least sure verdicts hold most of its errors" in _line(output, 0)
    assert "went past it" not in _line(output, 1)  # the last tier decides what reaches it
