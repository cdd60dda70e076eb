"""Human output with rich: validation reports, format descriptions, card tables."""

from __future__ import annotations

from collections.abc import Sequence

from rich.console import Console
from rich.markup import escape

from deckcheck import roster
from deckcheck.formats import Format
from deckcheck.i18n import DEFAULT, _, current
from deckcheck.models import Card, FormatVersion, Report, Violation
from deckcheck.wording import label, listing, word


def _cards(v: Violation, limit: int = 6) -> str:
    shown = [
        f"{escape(c.name)}{' (' + escape(c.number) + ')' if c.number else ''} ×{c.count}"
        for c in v.cards[:limit]
    ]
    more = len(v.cards) - limit
    return listing(shown) + (_(", and {n} more", n=more) if more > 0 else "")


def _size(game: str, section: str, n: int, fmt: Format | None) -> str:
    """``main 50/50``, ``extra 2 (0–10)``: a section's count and its bounds."""
    shown = word(game, section)
    if fmt is not None and section in fmt.section_map:
        size = fmt.section_map[section].size
        if size.max == size.min:
            return _("{section} {n}/{size}", section=shown, n=n, size=size.min)
        if size.max is not None:
            return _(
                "{section} {n} ({low}–{high})", section=shown, n=n, low=size.min, high=size.max
            )
    return _("{section} {n}", section=shown, n=n)


def report(console: Console, rep: Report, fmt: Format | None = None) -> None:
    """One deck's verdict, without the format's assumptions: a run prints those once, after
    all its reports (``deckcheck.cli.outputs.assumptions``)."""
    errors, warnings = rep.errors, rep.warnings
    legal, illegal = _("LEGAL"), _("ILLEGAL")
    verdict = f"[bold green]{legal}[/]" if rep.legal else f"[bold red]{illegal}[/]"
    tally = roster.tally(len(errors), len(warnings))
    path = escape(rep.path or _("(deck)"))
    game = escape(word(rep.game, rep.game))
    head = f"[bold]{path}[/]  {escape(rep.format)} ({game})"  # i18n: machine (markup)
    console.print(f"{head}  {verdict}  [dim]{tally}[/]")  # i18n: machine (markup)
    version(console, rep.format_version)
    sizes = [_size(rep.game, section, n, fmt) for section, n in rep.counts.items()]
    console.print("  " + " · ".join(sizes))
    for v in [*errors, *warnings]:
        mark = "[red]✗[/]" if v.severity == "error" else "[yellow]![/]"
        line = " " + _("line {n}", n=v.line) if v.line else ""
        rule = f"[bold]{escape(v.rule)}[/][dim]{line}[/]"  # i18n: machine (markup)
        console.print(f"  {mark} {rule}  {escape(v.message)}")
        if v.cards:
            console.print("      " + _("cards: {cards}", cards=_cards(v)))
        source = _("source: {source}", source=escape(v.source))
        console.print(f"      [dim]{source}[/]")  # i18n: machine (markup)
        if v.fix:
            console.print("      " + _("fix: {fix}", fix=escape(v.fix)))
    for note in rep.notes:  # what the reader chose where legality does not depend on it
        line = " " + _("line {n}", n=note.line) if note.line else ""
        rule = f"[dim]{escape(note.rule)}{line}[/]"  # i18n: machine (markup)
        console.print(f"  [cyan]i[/] {rule}  {escape(note.message)}")  # i18n: machine (markup)


def version(console: Console, found: FormatVersion | None) -> None:
    """The format version used, with its dates (dated formats only)."""
    if found is not None and found.dated:
        console.print("  " + _("format version: {version}", version=escape(found.describe())))


def summary(console: Console, reports: Sequence[Report]) -> None:
    """The run's one line (``roster.summary_line``), after the reports of a folder's decks."""
    console.print(f"[bold]{escape(roster.summary_line(reports))}[/]")  # i18n: machine (markup)


def card_summary(card: Card) -> str:
    """The game's own columns it shows in a card's one-line summary (its spec's ``columns``
    marked ``summary``), each after its short label."""
    from deckcheck.pool.columns import game_columns

    parts = []
    for column in game_columns(card.game).values():
        value = card.extra.get(column.name)
        if column.summary and value is not None and value != ():
            shown = ", ".join(value) if isinstance(value, tuple) else str(value)
            # English: the short word; Japanese: the game's own word
            name = column.short if current() == DEFAULT else label(card.game, column.heading)
            parts.append(f"{name} {shown}")
    return " · ".join(parts)
