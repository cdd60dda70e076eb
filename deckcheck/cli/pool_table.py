"""The table ``pool search`` prints: a game's own columns when the cards are of one game.

Cards of one game get the columns that tell its printings apart: the shared level and cost,
the game's own summary columns (its spec's ``columns`` marked ``summary``) and the keywords,
each only when some row has a value. Cards of several games keep the generic layout (game,
level, cost, and the summary folded into one cell).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass

from rich.cells import cell_len
from rich.console import Console
from rich.markup import escape
from rich.table import Table

from deckcheck.i18n import DEFAULT, _, current
from deckcheck.models import Card
from deckcheck.wording import label, word


@dataclass(frozen=True)
class _Shown:
    """One column of the table: its heading and what a card shows in it."""

    heading: str
    cell: Callable[[Card], str]


def _text(value: object) -> str:
    if value is None or value == ():
        return ""
    return ", ".join(value) if isinstance(value, tuple) else str(value)


def _shared(field: str, heading: str) -> _Shown:
    return _Shown(heading, lambda c: _text(getattr(c, field)))


def _extra(name: str) -> Callable[[Card], str]:
    return lambda c: _text(c.extra.get(name))


def _own(game: str) -> tuple[list[_Shown], list[_Shown]]:
    """The game's summary columns: the whole numbers (shown before the cost), then the rest."""
    from deckcheck.pool.columns import game_columns

    numbers: list[_Shown] = []
    rest: list[_Shown] = []
    for column in game_columns(game).values():
        if not column.summary:
            continue
        heading = column.short if current() == DEFAULT else label(game, column.heading)
        shown = _Shown(heading, _extra(column.name))
        (numbers if column.type == "int" else rest).append(shown)
    return numbers, rest


def game_layout(game: str) -> list[_Shown]:
    """The columns of one game's cards, before dropping those no row fills."""
    numbers, rest = _own(game)
    return [
        _Shown(_("number"), lambda c: c.number),
        _Shown(_("name"), lambda c: c.name),
        _Shown(_("type"), lambda c: c.type if current() == DEFAULT else word(c.game, c.type)),
        *numbers,
        _shared("level", _("level")),
        _shared("cost", _("cost")),
        *rest,
        _shared("keywords", _("keywords")),
    ]


def generic_layout() -> list[_Shown]:
    from deckcheck.render import card_summary

    return [
        _Shown(_("game"), lambda c: c.game),
        _Shown(_("number"), lambda c: c.number),
        _Shown(_("name"), lambda c: c.name),
        _Shown(_("type"), lambda c: c.type if current() == DEFAULT else word(c.game, c.type)),
        _shared("level", _("level")),
        _shared("cost", _("cost")),
        _Shown(_("more"), card_summary),
    ]


def search_table(found: Sequence[Card]) -> Table:
    """The table of ``found``: one game's own layout, or the generic one; columns that no row
    fills are left out (a game whose cards have no level)."""
    games = {c.game for c in found}
    layout = game_layout(next(iter(games))) if len(games) == 1 else generic_layout()
    cells = [[s.cell(c) for s in layout] for c in found]
    keep = [i for i, s in enumerate(layout) if i < 3 or any(row[i] for row in cells)]
    table = Table(box=None)
    for i in keep:  # a heading is never cut; a cell too wide folds onto another line, never "…"
        heading = layout[i].heading
        table.add_column(
            heading, no_wrap=i == 0, overflow="fold", min_width=cell_len(heading)
        )
    for row in cells:
        table.add_row(*(escape(row[i]) for i in keep))
    return table


def print_cards(console: Console, found: Sequence[Card]) -> None:
    console.print(search_table(found))
