"""What ``deckcheck formats``, ``formats show`` and ``pool search`` print, in the language.

A format's own words (name, description, section labels, notes) are catalogue entries whose
context is its game (``deckcheck.i18n_extract``); so are its sources, whose translation keeps
each citation (title, section, quoted rulebook text) as written and words only deckcheck's
glosses; card data (names, numbers, types as printed) stays as the pool holds it.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING

from rich.markup import escape
from rich.table import Table

from deckcheck.formats.params import param_name, param_value
from deckcheck.i18n import DEFAULT, _, current
from deckcheck.wording import label, word

if TYPE_CHECKING:
    from rich.console import Console

    from deckcheck.formats import Format
    from deckcheck.models import Card, FormatVersion


def in_force(found: FormatVersion) -> str:
    """``2016-01-28 – 2017-02-25``, ``from 2017-02-26``, or ``undated``."""
    if found.effective_from is None:
        return _("undated")
    if found.effective_until is None:
        return _("from {day}", day=found.effective_from)
    return f"{found.effective_from} – {found.effective_until}"


def _section_word(game: str, name: str, given: str | None) -> str:
    """A section as the list names it: its id in English (as deck files write it), its
    label in the game's words otherwise."""
    if current() == DEFAULT or not given:
        return name
    return label(game, given)


def format_list(console: Console, formats: Sequence[Format]) -> None:
    """One row a format; split into tables that fit the console, each led by the id (ids and
    dates in full: versions of one family differ only there)."""
    from deckcheck.tables import Col, fitted, show

    comma = ", " if current() == DEFAULT else "、"
    rows = []
    for fmt in formats:
        sections = comma.join(
            f"{_section_word(fmt.game, s.name, s.label)} {s.size.min}"
            + (f"–{s.size.max}" if s.size.max != s.size.min else "")
            for s in fmt.sections
        )
        name = escape(label(fmt.game, fmt.name))
        n = str(len(fmt.assumptions))
        rows.append([fmt.id, fmt.game, in_force(fmt.version), n, sections, name])
    cols = [Col(_("game")), Col(_("in force")), Col(_("assumptions"), "right")]
    cols += [Col(_("sections")), Col(_("name"))]
    show(console, fitted(console.width, [Col(_("id"))], cols, rows))


def format_detail(console: Console, fmt: Format, family: Sequence[Format] = ()) -> None:
    """A format's rules; ``family``: every version of it, newest first, with its dates."""
    name = escape(label(fmt.game, fmt.name))
    console.print(f"[bold]{escape(fmt.id)}[/]: {name} ({fmt.game})")  # i18n: machine (markup)
    if fmt.description:
        console.print(escape(label(fmt.game, fmt.description)))
    for other in family if len(family) > 1 or fmt.effective else ():
        this = "  [bold]" + escape(_("(this one)")) + "[/]" if other.id == fmt.id else ""
        line = _("version: {id}  {dates}", id=other.id, dates=in_force(other.version))
        console.print(f"  {escape(line)}{this}")
    if fmt.effective:
        dates = label(fmt.game, fmt.effective.source)
        console.print("  " + escape(_("dates: {source}", source=dates)))
    for source in fmt.sources:
        console.print("  " + escape(_("source: {source}", source=label(fmt.game, source))))
    _rules(console, fmt)
    for key, param in fmt.parameters.items():
        flag = " [yellow]" + escape(_("(assumption)")) + "[/]" if param.assumption else ""
        source = escape(label(fmt.game, param.source))
        name, value = escape(param_name(fmt.game, key)), escape(param_value(param.value))
        console.print(f"  {name} = {value}{flag}  [dim]{source}[/]")  # i18n: machine
    from deckcheck import plugins

    table = plugins.get(fmt.game).cards.keywords
    if table is not None:
        console.print(escape(_("keywords (goldfish):")))
        for form, status, why in table():
            console.print(f"  [bold]{escape(form)}[/]  {escape(status)}")  # i18n: machine
            console.print(f"      [dim]{escape(why)}[/]")  # i18n: machine (markup)


def _rules(console: Console, fmt: Format) -> None:
    """A line per rule of the format's check tables, each with its source; ids in the
    language's words (``naming``)."""
    from deckcheck.checks.naming import showing
    from deckcheck.checks.table import check_tables

    with showing(fmt.game, {s.name: s.label for s in fmt.sections}):
        for check_table in check_tables(fmt.game):  # each describes its own tables
            for entry in check_table.of(fmt):
                for row in check_table.describe(entry):
                    # a line each, not a table: sources quote the rulebook at length, without
                    # the spaces a narrow column would wrap at
                    rule = escape(row.rule or "-")
                    console.print(f"  [bold]{rule}[/]  {escape(row.what)}")  # i18n: machine
                    if row.source:
                        source = _("source: {source}", source=label(fmt.game, row.source))
                        console.print(f"      [dim]{escape(source)}[/]")  # i18n: machine (markup)


def cards(console: Console, found: Sequence[Card]) -> None:
    from deckcheck.render import card_summary

    table = Table(
        _("game"), _("number"), _("name"), _("type"), _("level"), _("cost"), _("more"), box=None
    )
    for c in found:
        table.add_row(
            c.game,
            escape(c.number),
            escape(c.name),
            c.type if current() == DEFAULT else word(c.game, c.type),
            "" if c.level is None else str(c.level),
            "" if c.cost is None else str(c.cost),
            escape(card_summary(c)),
        )
    console.print(table)
