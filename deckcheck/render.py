"""Human output with rich: validation reports, format descriptions, card tables."""

from __future__ import annotations

from collections.abc import Sequence

from rich.console import Console
from rich.markup import escape
from rich.table import Column, Table

from deckcheck.checks.table import check_tables
from deckcheck.formats import Format
from deckcheck.models import Card, FormatVersion, Report, Violation


def _cards(v: Violation, limit: int = 6) -> str:
    shown = [
        f"{escape(c.name)}{' (' + escape(c.number) + ')' if c.number else ''} ×{c.count}"
        for c in v.cards[:limit]
    ]
    more = len(v.cards) - limit
    return ", ".join(shown) + (f", and {more} more" if more > 0 else "")


def report(
    console: Console, rep: Report, fmt: Format | None = None, assumptions: bool = True
) -> None:
    """One deck's verdict. ``assumptions=False`` shortens the list of the format's facts from
    outside the rulebooks to one line (the CLI prints it in full once per format and run)."""
    errors, warnings = rep.errors, rep.warnings
    verdict = "[bold green]LEGAL[/]" if rep.legal else "[bold red]ILLEGAL[/]"
    tally = f"{len(errors)} error{'s' * (len(errors) != 1)}, "
    tally += f"{len(warnings)} warning{'s' * (len(warnings) != 1)}"
    console.print(
        f"[bold]{escape(rep.path or '(deck)')}[/]  {escape(rep.format)} ({rep.game})  "
        f"{verdict}  [dim]{tally}[/]"
    )
    version(console, rep.format_version)
    sizes = []
    for section, n in rep.counts.items():
        bound = ""
        if fmt is not None and section in fmt.section_map:
            size = fmt.section_map[section].size
            if size.max == size.min:
                bound = f"/{size.min}"
            elif size.max is not None:
                bound = f" ({size.min}–{size.max})"
        sizes.append(f"{section} {n}{bound}")
    console.print("  " + " · ".join(sizes))
    for v in [*errors, *warnings]:
        mark = "[red]✗[/]" if v.severity == "error" else "[yellow]![/]"
        line = f" line {v.line}" if v.line else ""
        console.print(f"  {mark} [bold]{escape(v.rule)}[/][dim]{line}[/]  {escape(v.message)}")
        if v.cards:
            console.print(f"      cards: {_cards(v)}")
        console.print(f"      [dim]source: {escape(v.source)}[/]")
        if v.fix:
            console.print(f"      fix: {escape(v.fix)}")
    if rep.assumptions and not assumptions:
        console.print(
            f"  [dim]{len(rep.assumptions)} assumptions from outside the rulebooks "
            f"(listed above; `deckcheck formats show {escape(rep.format)}`)[/]"
        )
        return
    for note in rep.assumptions:
        console.print(f"  [dim]assumption: {escape(note)}[/]")


def version(console: Console, found: FormatVersion | None) -> None:
    """The format version used, with its dates (dated formats only)."""
    if found is not None and found.dated:
        console.print(f"  format version: {escape(found.describe())}")


def summary(console: Console, reports: Sequence[Report]) -> None:
    if len(reports) < 2:
        return
    legal = sum(r.legal for r in reports)
    console.print(f"[bold]{legal} of {len(reports)} decks legal[/]")


def _in_force(found: FormatVersion) -> str:
    """``2016-01-28 – 2017-02-25``, ``from 2017-02-26``, or ``undated``."""
    if found.effective_from is None:
        return "undated"
    if found.effective_until is None:
        return f"from {found.effective_from}"
    return f"{found.effective_from} – {found.effective_until}"


def format_list(console: Console, formats: Sequence[Format]) -> None:
    # the ids and dates in full, whatever the width: versions of one family differ only there
    width = max((len(fmt.id) for fmt in formats), default=2)
    table = Table(
        Column("id", min_width=width, no_wrap=True),
        "game",
        "name",
        Column("in force", min_width=23, no_wrap=True),
        "sections",
        "assumptions",
        box=None,
    )
    for fmt in formats:
        sections = ", ".join(
            f"{s.name} {s.size.min}" + (f"–{s.size.max}" if s.size.max != s.size.min else "")
            for s in fmt.sections
        )
        table.add_row(
            fmt.id,
            fmt.game,
            escape(fmt.name),
            _in_force(fmt.version),
            sections,
            str(len(fmt.assumptions)),
        )
    console.print(table)


def format_detail(console: Console, fmt: Format, family: Sequence[Format] = ()) -> None:
    """A format's rules; ``family``: every version of it, newest first, with its dates."""
    console.print(f"[bold]{escape(fmt.id)}[/]: {escape(fmt.name)} ({fmt.game})")
    if fmt.description:
        console.print(escape(fmt.description))
    for other in family if len(family) > 1 or fmt.effective else ():
        this = "  [bold](this one)[/]" if other.id == fmt.id else ""
        console.print(f"  version: {escape(other.id)}  {_in_force(other.version)}{this}")
    if fmt.effective:
        console.print(f"  dates: {escape(fmt.effective.source)}")
    for source in fmt.sources:
        console.print(f"  source: {escape(source)}")
    table = Table("rule", "what", "source", box=None)
    for check_table in check_tables(fmt.game):  # each describes its own tables
        for entry in check_table.of(fmt):
            for row in check_table.describe(entry):
                table.add_row(escape(row.rule or "-"), escape(row.what), escape(row.source or ""))
    console.print(table)
    for key, param in fmt.parameters.items():
        flag = " [yellow](assumption)[/]" if param.assumption else ""
        console.print(f"  {key} = {param.value}{flag}  [dim]{escape(param.source)}[/]")


def cards(console: Console, found: Sequence[Card]) -> None:
    table = Table("game", "number", "name", "type", "level", "cost", "more", box=None)
    for c in found:
        table.add_row(
            c.game,
            escape(c.number),
            escape(c.name),
            c.type,
            "" if c.level is None else str(c.level),
            "" if c.cost is None else str(c.cost),
            escape(card_summary(c)),
        )
    console.print(table)


def card_summary(card: Card) -> str:
    """The game's own columns it shows in a card's one-line summary (its spec's ``columns``
    marked ``summary``), each after its short label."""
    from deckcheck.pool.columns import game_columns

    parts = []
    for column in game_columns(card.game).values():
        value = card.extra.get(column.name)
        if column.summary and value is not None and value != ():
            shown = ", ".join(value) if isinstance(value, tuple) else str(value)
            parts.append(f"{column.short} {shown}")
    return " · ".join(parts)
