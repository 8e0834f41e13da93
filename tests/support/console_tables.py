"""Reading the console's tables back in the CLI tests."""

from __future__ import annotations


def table_cell(out: str, title: str, first: str, column: int) -> str:
    """One cell of the console table titled `title`: the row whose first cell is `first`
    (a metric named with or without " (inverted)"), its `column` (1: the first), its
    wrapped lines joined."""
    table = out[out.index(title):].split("└", 1)[0]
    cells: list[str] = []
    found = False
    for line in table.splitlines():
        parts = line.split("│")
        if len(parts) <= column + 1:
            continue
        if parts[1].strip() and not parts[1].strip().startswith("("):  # a new row (a
            # metric's second line, the row it repeats, is its own: "(same verdicts ...")
            if found:
                break
            found = parts[1].strip().removesuffix(" (inverted)") == first
        if found:
            cells.append(parts[column].strip())
    assert found, f"no row {first} in {title}"
    return " ".join(" ".join(cells).split())


def headline_cell(out: str, metric: str, column: int = 3) -> str:
    """One cell of the headline table ("What people would say"; 2: people's figure, 3: the
    agreement, 4: the judge's own), its wrapped lines joined; `metric` as named, with or
    without the " (inverted)" of a metric the label reads the other way."""
    return table_cell(out, "What people would say", metric, column)
