"""The console's view of annotators as people: per label who labelled it, where the
rule's values came from, and the agreement between people (alpha, kappa per pair), or
one line saying why it is absent."""

from __future__ import annotations

from rich.console import Console
from rich.markup import escape

from ragassay.cli.common import console as make_console
from ragassay.report.people import PeopleSection, agreement_text


def print_people(section: PeopleSection | None, console: Console | None = None) -> None:
    """Each label's people and their agreement (nothing when no person labelled)."""
    if section is None:
        return
    console = console or make_console()
    console.print(f"[bold]agreement between people[/bold] (labels read by rule "
                  f"{escape(section.rule)})", highlight=False)
    for name, people in section.labels.items():
        console.print(f"  {escape(people.describe(name, section.rule))}", highlight=False)
        if people.agreement is not None:
            for line in agreement_text(people.agreement):
                console.print(f"    {escape(line)}", highlight=False)
        elif people.absent:
            console.print(f"    [dim]{escape(people.absent)}[/dim]", highlight=False)
