import csv
import io

import pytest

from ragassay.report import Report, to_csv
from tests.report.conftest import entry, make_report


def _report(sample_id: str, reason: str = "") -> Report:
    return make_report([entry(sample_id, {"judge.faithfulness": -0.5 if not reason else None,
                                          "judge.hallucination": True},
                              {"judge.faithfulness": reason} if reason else {})])


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


@pytest.mark.parametrize("payload", [
    " =1+1", "  +cmd|' /C calc'!A0", "\n=HYPERLINK(\"http://x\")", "\t-2+3", "\r@SUM(A1)",
    "\uff1dHYPERLINK(\"http://x\")", "\uff0b1", "\uff0d1", "\uff20SUM(A1)",
    "\u3000=1+1", "\u00a0=1+1",
])
def test_formulas_behind_blanks_or_in_full_width_are_defused(payload: str) -> None:
    """A spreadsheet skips leading blanks and may fold full-width ＝＋－＠: still a formula."""
    rows = list(csv.DictReader(io.StringIO(to_csv(_report(payload, payload)))))
    assert rows[0]["sample_id"] == "'" + payload
    assert rows[0]["unscored_reason"] == "'" + payload


@pytest.mark.parametrize("text", ["plain id", " leading space", "a=b", "x@y.z", "1-2"])
def test_ordinary_text_is_left_alone(text: str) -> None:
    rows = list(csv.DictReader(io.StringIO(to_csv(_report(text, text)))))
    assert rows[0]["sample_id"] == text


def test_an_abstention_has_its_own_column_and_no_unscored_reason() -> None:
    """Trial 69: abstained declines read `abstained (correct)` in `unscored_reason`,
    though an abstention is not unscored; it is the `abstained` column's now."""
    report = make_report([entry("q1", {"judge.faithfulness": None, "judge.overall": None},
                                {"judge.overall": "no contexts"},
                                abstained={"judge.faithfulness": "correct"})])
    rows = {r["metric"]: r for r in csv.DictReader(io.StringIO(to_csv(report)))}
    assert rows["judge.faithfulness"]["unscored_reason"] == ""
    assert rows["judge.faithfulness"]["abstained"] == "correct"
    assert rows["judge.overall"]["unscored_reason"] == "no contexts"
    assert rows["judge.overall"]["abstained"] == ""
