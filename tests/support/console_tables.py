"""Reading the console's tables back in the CLI tests."""

from __future__ import annotations


def headline_cell(out: str, metric: str, column: int = 3) -> str:
    """One cell of the headline table ("What people would say"; 2: people's figure, 3: the
    agreement, 4: the judge's own), its wrapped lines joined; `metric` as named, with or
    without the " (inverted)" of a metric the label reads the other way."""
    table = out[out.index("What people would say"):].split("└", 1)[0]
    cells: list[str] = []
    found = False
    for line in table.splitlines():
        parts = line.split("│")
        if len(parts) < 5:
            continue
        if parts[1].strip():  # a new row
            if found:
                break
            found = parts[1].strip().removesuffix(" (inverted)") == metric
        if found:
            cells.append(parts[column].strip())
    assert found, f"no headline row for {metric}"
    return " ".join(" ".join(cells).split())
