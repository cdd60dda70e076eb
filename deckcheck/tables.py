"""Tables that fit the terminal: a table too wide for the console is split into several, each
repeating the key columns (the turn, the variant), so no header is ever cut to "…".

rich cuts a header or cell to "…" when one word does not fit its column; Japanese labels have
no spaces to wrap at, so they are cut first. Measuring the columns (east-asian wide characters
count twice) and splitting them beforehand keeps every header whole at 80 columns.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Literal

from rich.cells import cell_len
from rich.console import Console
from rich.table import Column, Table
from rich.text import Text

Justify = Literal["left", "right", "center"]
_PADDING = 2  # rich's default cell padding, one space either side


@dataclass(frozen=True)
class Col:
    header: str
    justify: Justify = "left"


def _width(col: Col, cells: Sequence[str]) -> int:
    shown = [cell_len(col.header), *(cell_len(Text.from_markup(c).plain) for c in cells)]
    return max(shown) + _PADDING


def chunks(widths: Sequence[int], room: int) -> list[list[int]]:
    """Indices of the columns, in order, grouped so each group's width fits ``room`` (a
    column wider than ``room`` gets a group of its own)."""
    groups: list[list[int]] = []
    used = room + 1
    for i, w in enumerate(widths):
        if groups and used + w <= room:
            groups[-1].append(i)
            used += w
        else:
            groups.append([i])
            used = w
    return groups


def fitted(
    width: int,
    keys: Sequence[Col],
    cols: Sequence[Col],
    rows: Sequence[Sequence[str]],
    title: str | None = None,
) -> list[Table]:
    """The table of ``rows`` (key cells, then one cell per column; rich markup), split by
    columns into tables no wider than ``width``, each with the key columns first."""
    nkeys = len(keys)
    key_width = sum(_width(k, [r[i] for r in rows]) for i, k in enumerate(keys))
    widths = [_width(c, [r[nkeys + i] for r in rows]) for i, c in enumerate(cols)]
    groups = chunks(widths, max(width - key_width, 1)) if cols else [[]]
    tables = []
    for n, group in enumerate(groups):
        shown = [*keys, *(cols[i] for i in group)]
        table = Table(
            *(Column(c.header, justify=c.justify, overflow="fold") for c in shown),
            box=None,
            title=title if n == 0 else None,
            title_justify="left",
        )
        for row in rows:
            table.add_row(*row[:nkeys], *(row[nkeys + i] for i in group))
        tables.append(table)
    return tables


def show(console: Console, tables: Sequence[Table]) -> None:
    """Print split tables one after another, a blank line between them."""
    for i, table in enumerate(tables):
        if i:
            console.print()
        console.print(table)
