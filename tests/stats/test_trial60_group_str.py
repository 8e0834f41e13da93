"""New-user trial 60: `print(groups.group('quantifier'))` printed only the metric
figures, while `runs show --by kind` showed the group's agreement with people ("right on
N of 16"), which was only in `.agreement`. A printed group says it too, in the tables'
words (`group_cell`), one line per linked metric and label."""

from __future__ import annotations

from ragassay.stats import group_by
from ragassay.stats.groups import group_cell
from ragassay.stats.table import Row, ScoreTable
from ragassay.types import LinkedLabel, MetricSpec

FLAG = MetricSpec(name="toy.flag", kind="bool", higher_is_better=False,
                  labels=(LinkedLabel(label="hallucinated"),))


def test_a_printed_group_says_its_agreement_with_people() -> None:
    flags = [1.0, 0.0, 0.0, 1.0, 1.0, 0.0]
    rows = [Row(id=f"s{i}", values={"toy.flag": f}, labels={"hallucinated": i in (0, 3, 5)})
            for i, f in enumerate(flags)]
    kinds = {("default", f"s{i}"): "quantifier" if i < 4 else "other" for i in range(6)}
    groups = group_by(ScoreTable.from_rows(rows, {FLAG.name: FLAG}), kinds, "kind",
                      n_resamples=50)
    group = groups.group("quantifier")
    assert group is not None
    agreement = group.agreement_of("hallucinated", "toy.flag")
    assert agreement is not None
    cell = group_cell(agreement)
    assert cell == ("right on 4 of 4 (100%): misses 0 of 2 people marked hallucinated, "
                    "flags 0 of 2 they did not")
    lines = str(group).splitlines()
    assert lines[0] == "quantifier (4 samples)"
    assert lines[-1] == f"  toy.flag vs people (hallucinated): {cell}"
