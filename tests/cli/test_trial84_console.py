"""Trial 84's product findings, through the real CLI on 30 labelled rows of this file's
own words (faithful answers reworded, unfaithful ones near-copies of their passage with
one fact changed, so that word overlap gets the labels the wrong way round):

1. the lexical baseline's "reversed" sentence came five times on one screen: now once in
   full per screen, later lines pointing to it, each line still naming its metrics;
2. at 80 columns and in a pipe the calibrate and meta-eval tables squeezed or split their
   figures (and eval's table cut `6.773 [6.214, 7.`): no figure or interval is broken,
   at 80 and 60 columns and piped;
3. the gate's default bars gave a long list of FAILs with little guidance: a short
   `what next` block ends its notes, rows and exit code unchanged;
4. README led with the probe sets' 74-92% while gate and eval print 0.50 on unseen sets:
   it leads with labelling one's own rows and says what each figure is;
5. `ragas.faithfulness` invited comparisons with RAGAS's own numbers: the console's note
   and docs/metrics.md say the suite is not RAGAS's numbers."""

from __future__ import annotations

import json
import re
from functools import partial
from pathlib import Path
from typing import Any

import pytest

from ragassay.cli.ragas_note import RAGAS_SAID
from ragassay.dataset import demo_dataset_path
from ragassay.stats.baseline import REVERSED_SAID, REVERSED_SHORT
from ragassay.store import Store
from tests.support.cli import cli_output

ROOT = Path(__file__).resolve().parents[2]

# (passage, question, a faithful answer in other words, an unfaithful near-copy)
ROWS = [
    ("The pottery studio runs wheel classes on Tuesdays and glazing classes on Fridays.",
     "When are glazing classes?", "Glazing is taught at the end of the week.",
     "The pottery studio runs wheel classes on Tuesdays and glazing classes on Mondays."),
    ("A kayak hire lasts 3 hours and life vests are included at no charge.",
     "Are life vests extra?", "Buoyancy aids come with the hire for free.",
     "A kayak hire lasts 3 hours and life vests are included at 4 dollars."),
    ("The allotment society charges 40 pounds a year and water is supplied from April.",
     "When is water supplied?", "Taps are turned on in spring, from the fourth month.",
     "The allotment society charges 40 pounds a year and water is supplied from June."),
    ("The choir rehearses in the chapel, and the orchestra rehearses in the main hall.",
     "Where does the choir rehearse?", "Singers practise inside the chapel.",
     "The choir rehearses in the main hall, and the orchestra rehearses in the chapel."),
    ("The tool library lends drills for 7 days and ladders for 2 days.",
     "How long can I keep a ladder?", "Ladders go back after a couple of days.",
     "The tool library lends drills for 7 days and ladders for 7 days."),
    ("Night buses do not stop at Elm Road after midnight, but day buses stop there.",
     "Do night buses stop at Elm Road after midnight?", "No, they skip that stop then.",
     "Night buses do stop at Elm Road after midnight, and day buses stop there."),
    ("The escape room holds up to 6 players and a session lasts 60 minutes.",
     "How many players fit?", "Groups of at most six can play.",
     "The escape room holds up to 10 players and a session lasts 60 minutes."),
    ("Laundry pickup is free for orders above 25 euros and costs 3 euros otherwise.",
     "What does pickup cost for a small order?", "Smaller orders pay three euros for it.",
     "Laundry pickup is free for orders above 25 euros and costs 5 euros otherwise."),
    ("The observatory opens on clear Saturday nights from 8 pm to 11 pm.",
     "When does the observatory close?", "Viewing ends at eleven in the evening.",
     "The observatory opens on clear Saturday nights from 8 pm to 1 am."),
    ("Chess club members pay no entry fee for the spring tournament.",
     "Do members pay to enter the spring tournament?", "Entry is free for people in the club.",
     "Chess club members pay a 10 dollar entry fee for the spring tournament."),
    ("The florist delivers within the city on weekdays and does not deliver on Sundays.",
     "Can I get a Sunday delivery?", "Sunday drop-offs are not offered.",
     "The florist delivers within the city on weekdays and also delivers on Sundays."),
    ("Swimming lessons for toddlers need a parent in the water, unlike the junior lessons.",
     "Must a parent swim with a toddler?", "Yes, an adult joins the little ones in the pool.",
     "Swimming lessons for juniors need a parent in the water, unlike the toddler lessons."),
    ("The repair cafe fixes lamps and toasters, and it does not fix phones.",
     "Will they repair my phone?", "Mobiles are outside what they mend.",
     "The repair cafe fixes lamps and toasters, and it also fixes phones."),
    ("Season tickets for the rowing regatta cost 90 dollars and day tickets cost 15.",
     "What is a day ticket?", "A single day costs fifteen dollars.",
     "Season tickets for the rowing regatta cost 90 dollars and day tickets cost 90."),
    ("The seed bank opens on the first Monday of each month at the town library.",
     "Where is the seed bank?", "You will find it inside the town's library.",
     "The seed bank opens on the first Monday of each month at the town museum."),
]
FIGURE = re.compile(r"\d\.\d+ \[-?\d\.\d+, -?\d\.\d+\]")
# an interval cut at a line's end or start ("6.773 [6.214," / "7.332]"); a prose line
# ending on a whole number and a comma ("from 0 to 10,") cuts no figure
BROKEN = re.compile(r"\[-?\d?\.?\d*,?\s*$|^\s*[\d.]*\]|\d\.\d*,\s*$")


def _write(path: Path) -> Path:
    with path.open("w", encoding="utf-8") as f:
        for i, (passage, question, good, bad) in enumerate(ROWS):
            for j, (answer, wrong) in enumerate(((good, False), (bad, True))):
                f.write(json.dumps({"id": f"t{i}{j}", "question": question,
                                    "contexts": [passage], "answer": answer,
                                    "labels": {"hallucination": wrong}}) + "\n")
    return path


_run = partial(cli_output, columns="80")


@pytest.fixture(scope="module")
def trial(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Any]:
    tmp = tmp_path_factory.mktemp("trial84")
    data, db = _write(tmp / "rows.jsonl"), tmp / "r.db"
    printed = _run("eval", str(data), "--db", str(db))
    with Store(db, readonly=True) as store:
        run_id = store.list_runs()[0].id
    return {"data": str(data), "db": str(db), "run": run_id, "eval": printed}


def _screens(trial: dict[str, Any], columns: str | None) -> dict[str, str]:
    """The four screens at `columns`, run once per width for the module (each test reads
    them; meta-eval judges the data again on every call)."""
    key = f"screens {columns}"
    if key not in trial:
        trial[key] = _run_screens(trial, columns)
    return dict(trial[key])


def _run_screens(trial: dict[str, Any], columns: str | None) -> dict[str, str]:
    db, run = trial["db"], trial["run"]
    return {"calibrate": _run("calibrate", run, "--db", db, columns=columns),
            "gate": _run("gate", run, "--db", db, columns=columns, code=1),
            "runs show": _run("runs", "show", run, "--db", db, columns=columns),
            "meta-eval": _run("meta-eval", trial["data"], "--judge", "offline",
                              "--db", db, columns=columns)}


def test_the_reversed_baseline_sentence_is_said_once_a_screen(trial: dict[str, Any]) -> None:
    for name, out in _screens(trial, "80").items():
        flat = " ".join(out.split())
        assert flat.count(REVERSED_SAID) == 1, name
        assert REVERSED_SHORT in flat, name  # the later lines point to it
        # each line still says its verdict against the baseline, with its own figures
        assert flat.count("reversed baseline 1.000)") >= 2, name
    calibrate = " ".join(_screens(trial, None)["calibrate"].split())
    for metric in ("judge.hallucination", "judge.faithfulness", "ragas.faithfulness"):
        assert f"{metric} vs people (hallucination): no better than the lexical" in calibrate


@pytest.mark.parametrize("columns", ["80", "60", None])
def test_no_figure_of_calibrate_or_meta_eval_is_split(trial: dict[str, Any],
                                                      columns: str | None) -> None:
    screens = _screens(trial, columns)
    for name in ("calibrate", "meta-eval"):
        out = screens[name]
        lines = out.splitlines()
        assert not [x for x in lines if BROKEN.search(x)], name
        assert "…" not in out
        shown = [x for x in lines if FIGURE.search(x) and "AUROC" not in x.split("[")[0]
                 or re.search(r"│.*\d\.\d{3} \[\d\.\d{3}, \d\.\d{3}\]", x)
                 or "AUROC [95% CI]: " in x]
        assert len(shown) >= 5, (name, out)  # an AUROC with its interval per metric
        if columns is not None:  # every line holding a figure fits the console
            assert not [x for x in lines if FIGURE.search(x) and len(x) > int(columns)], name


def test_a_left_out_column_is_named(trial: dict[str, Any]) -> None:
    out = _screens(trial, "80")["calibrate"]
    assert "note: columns left out to fit 80 columns: " in out
    assert "lexical baseline [95% CI]" in out.split("columns left out", 1)[1].splitlines()[0]


@pytest.mark.parametrize("columns", ["80", "60", None])
def test_eval_figures_are_whole(tmp_path: Path, columns: str | None) -> None:
    out = _run("eval", str(demo_dataset_path()), "--db", str(tmp_path / "d.db"),
               columns=columns)
    assert "…" not in out
    assert not [x for x in out.splitlines() if BROKEN.search(x)]
    assert len(FIGURE.findall(out)) >= 14  # each metric's mean with its interval
    if columns is not None:  # every line holding a figure fits the console
        assert not [x for x in out.splitlines() if FIGURE.search(x) and len(x) > int(columns)]


def test_the_gate_ends_with_guidance_and_keeps_rows_and_code(trial: dict[str, Any]) -> None:
    out = _run("gate", trial["run"], "--db", trial["db"], columns=None, code=1)
    lines = out.splitlines()
    assert lines[-1] == "NOT READY"
    fails = len(re.findall(r"│ FAIL \(", out))
    assert fails >= 3
    guide = out[out.index("what next: "):]
    assert guide.startswith(f"what next: {fails} of ")
    assert "on the judge's own reading" in guide and "data problems" in guide
    assert '[thresholds]' in guide and "ragassay.toml" in guide
    assert f"ragassay gate {trial['run']}" in guide and "docs/cli.md" in guide
    assert len(guide.splitlines()) <= 9  # short


def test_a_passing_gate_has_no_guidance(trial: dict[str, Any], tmp_path: Path) -> None:
    config = tmp_path / "bars.toml"
    config.write_text('[thresholds]\n"ragas.answer_relevancy" = 0.1\n', encoding="utf-8")
    out = _run("gate", trial["run"], "--db", trial["db"], "--config", str(config))
    assert "what next" not in out and out.splitlines()[-1].startswith("READY")


def test_the_console_says_ragas_is_not_ragass_numbers(trial: dict[str, Any]) -> None:
    piped = _screens(trial, None)
    for out in (trial["eval"], piped["runs show"], piped["calibrate"]):
        flat = " ".join(out.split())
        assert RAGAS_SAID in flat
        assert "ragas.faithfulness" in flat  # not renamed
        # what the note says, read off the screen (not off the constant it prints)
        assert "offline reading of RAGAS's metric definitions" in flat
        assert "not comparable" in flat
    metrics = " ".join((ROOT / "docs" / "metrics.md").read_text(encoding="utf-8").split())
    assert "The `ragas` suite is ragassay's offline reading of RAGAS's metric definitions" \
        in metrics and "are not comparable with them" in metrics


def test_the_readme_leads_with_labelling_and_reconciles_its_figures() -> None:
    readme = " ".join((ROOT / "README.md").read_text(encoding="utf-8").split())
    judges = " ".join((ROOT / "docs" / "judges.md").read_text(encoding="utf-8").split())
    lead = readme.index("Label your own rows before you trust the judge.")
    assert lead < readme.index("## Quick start")
    assert readme.index("of our constructed checks, probe sets") < readme.index(
        "What to expect on real data is the judge's range on 7 unseen human-labelled sets")
    assert "`judge.hallucination` balanced accuracy 0.50-0.77" in readme
    assert "balanced accuracy 0.50-0.77 on 7 unseen human-labelled sets" in judges
    assert "AUROC 0.65-0.94 on 7 unseen human-labelled sets" in judges
    # (session 27, trial 91: the README says per command where this line is printed)
    assert "`weak agreement with people: balanced accuracy 0.50, the lowest of 7 unseen " \
        "sets (0.50-0.77)" in readme
