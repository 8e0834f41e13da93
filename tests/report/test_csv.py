import csv
import io

from ragassay.report import to_csv


def _report(sample_id: str, reason: str = "") -> dict:
    return {"evaluation_metadata": {"run_id": "r1"}, "detailed_results": [
        {"id": sample_id, "strategy": "s", "status": "ok",
         "metrics": {"judge.faithfulness": -0.5 if not reason else None,
                     "judge.hallucination": True},
         "unscored": {"judge.faithfulness": reason} if reason else {}}]}


def test_one_row_per_sample_and_metric_with_booleans_as_0_1():
    rows = list(csv.DictReader(io.StringIO(to_csv(_report("q1")))))
    assert [(r["metric"], r["value"]) for r in rows] == [("judge.faithfulness", "-0.5"),
                                                           ("judge.hallucination", "1")]


def test_unscored_rows_keep_the_reason_and_an_empty_value():
    rows = list(csv.DictReader(io.StringIO(to_csv(_report("q1", "no contexts")))))
    assert rows[0]["value"] == "" and rows[0]["unscored_reason"] == "no contexts"


def test_spreadsheet_formulas_in_user_text_are_defused():
    rows = list(csv.DictReader(io.StringIO(to_csv(_report('=HYPERLINK("http://x")', "@evil")))))
    assert rows[0]["sample_id"] == "'=HYPERLINK(\"http://x\")"
    assert rows[0]["unscored_reason"] == "'@evil"
