"""Trial 78: `runs show` said a metric's agreement (right on, AUROC, kappa, the lexical
baseline, the judge's own offsets) in one wrapped paragraph that took several reads. The
parts are kept apart (`InRun`): the JSON's cell joins them as before, the console gives
each a line, a ranking figure with what it means."""

from __future__ import annotations

from ragassay.report.headline_agreement import RANK_MEANINGS, InRun


def test_the_cell_joins_the_parts_and_the_lines_say_each_with_its_meaning() -> None:
    got = InRun(verdict="right on 19 of 30 (63%): misses 1 of 15",
                ranks=(("AUROC", "AUROC 0.63 [0.50, 0.78]"),
                       ("kappa", "kappa 0.27 [0.00, 0.57]")),
                lexical="no better than the lexical baseline, reversed (...)")
    assert got.text() == ("right on 19 of 30 (63%): misses 1 of 15; in this run: AUROC 0.63 "
                          "[0.50, 0.78], kappa 0.27 [0.00, 0.57]; no better than the lexical "
                          "baseline, reversed (...)")
    assert got.lines() == [
        "right on 19 of 30 (63%): misses 1 of 15",
        f"in this run: AUROC 0.63 [0.50, 0.78]: {RANK_MEANINGS['AUROC']}",
        f"in this run: kappa 0.27 [0.00, 0.57]: {RANK_MEANINGS['kappa']}",
        "no better than the lexical baseline, reversed (...)"]
    assert "0.5 is chance" in RANK_MEANINGS["AUROC"] and "0 is chance" in RANK_MEANINGS["kappa"]


def test_a_score_says_the_labels_it_rests_on_after_its_figures_or_on_a_line() -> None:
    got = InRun(ranks=(("AUROC", "AUROC 0.81 [0.64, 0.95]"),), labels="30 labels")
    assert got.text() == "in this run: AUROC 0.81 [0.64, 0.95] (30 labels)"
    assert got.lines()[-1] == "on 30 labels"
