"""New-user trial 60 (`make demo`: 24 samples, every one labelled `hallucination` and
`correct`), the report's side:

1. The footer asked for more labels (`label more: ragassay annotate RUN`) on a run whose
   every sample is labelled: a run of fewer samples than a corrected estimate needs now
   says labelling cannot give one, on the HTML page too; and the headline names the
   label as the data does (`hallucination`), as the footer does.
4. The HTML navigation said "Corrected by labels" where nothing was corrected: its link
   says the section's title."""

from __future__ import annotations

import re

import pytest

from ragassay.api import EvalResult
from ragassay.dataset import demo_dataset_path
from ragassay.report import to_html


@pytest.fixture(scope="module")
def demo(tmp_path_factory: pytest.TempPathFactory) -> EvalResult:
    import ragassay

    db = tmp_path_factory.mktemp("demo") / "r.db"
    return ragassay.evaluate(str(demo_dataset_path()), "judge", store=db, progress=False)


def test_the_headline_names_the_label_as_the_data_does(demo: EvalResult) -> None:
    report = demo.report()
    prompt = report.headline.prompt or ""
    assert "(hallucination and correct are on all 24 samples" in prompt, prompt
    assert {r.label for r in report.headline.rows if r.labelled} == {"hallucination",
                                                                      "correct"}
    assert report.corrected is not None
    assert {s.label for s in report.corrected.skipped} <= {"hallucination", "correct"}


def test_the_html_says_labelling_cannot_give_an_estimate(demo: EvalResult) -> None:
    page = to_html(demo.report())
    section = page.split('<section id="corrected">', 1)[1].split("</section>", 1)[0]
    assert "label more" not in section
    # trial 70: every sample labelled: people's figure, as a large run says it
    assert "every sample labelled, nothing corrected" in section
    assert "fewer than the 30" not in section and "No corrected estimate" not in section


def test_the_navigation_link_says_the_sections_title(demo: EvalResult) -> None:
    page = to_html(demo.report())
    link = re.search(r'<a href="#corrected">([^<]*)</a>', page)
    title = re.search(r'<section id="corrected"><h2>([^<]*)</h2>', page)
    assert link is not None and title is not None
    assert link.group(1) == title.group(1)
    assert "corrected from" not in title.group(1).lower()  # nothing is corrected here
