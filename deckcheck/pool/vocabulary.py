"""What a game's cards hold in a column (every keyword, every title…), read from the pool file,
so a condition naming a value no card has is refused (odds/known.py)."""

from __future__ import annotations

import sqlite3
from collections.abc import Iterable
from pathlib import Path

from deckcheck.models import Card, Game
from deckcheck.pool.columns import COLUMNS, SEP
from deckcheck.pool.search import sqlite_json
from deckcheck.resolve import CardIndex, NameSource

# the condition's word for a shared list column; any other shared column is named as stored
_SHARED = {"keyword": "keywords"}
_STORED = frozenset(c.field for c in COLUMNS)


def stored_values(path: Path, game: Game, field: str, items: bool) -> set[str]:
    """The distinct values of ``field`` (``keyword``, ``kind`` or a game's own column; a list
    column's items one by one, ``items``) among ``game``'s cards in the SQLite pool at ``path``."""
    column = _SHARED.get(field, field)
    sql = column if column in _STORED else sqlite_json("extra", field)
    conn = sqlite3.connect(path)
    try:
        rows = conn.execute(f"SELECT DISTINCT {sql} FROM cards WHERE game = ?", (game,))
        found = [str(v) for (v,) in rows if v is not None and v != ""]
    finally:
        conn.close()
    if not items:
        return set(found)
    return {item for value in found for item in value.split(SEP) if item}


def index_values(index: CardIndex, game: Game, field: str) -> set[str]:
    """``stored_values`` of the cards an index holds (an index of a whole pool)."""
    index.names(game)  # indexes the game's cards
    out: set[str] = set()
    for (g, _key), card in index.by_number.items():
        if g == game:
            out.update(_card_values(card, field))
    return out


def _card_values(card: Card, field: str) -> Iterable[str]:
    value = card.value(_SHARED.get(field, field))
    if isinstance(value, tuple):
        return value
    return [str(value)] if value is not None and value != "" else []


class PoolIndex(CardIndex):
    """The index a pool file gives (``Pool.index_for``): the cards the references name, and
    the column values of all the game's cards, read from the file when first asked."""

    def __init__(self, cards: Iterable[Card], names: NameSource | None, path: Path) -> None:
        super().__init__(cards, names)
        self.path = path


def column_values(index: CardIndex, game: Game, field: str, items: bool) -> set[str]:
    """Every value of ``field`` among ``game``'s cards, looked up once per index: the pool's
    when the index came from a pool file, else the index's own cards (an index of the whole
    pool, as the library and the service build), unless it already holds them (a subset
    carries its whole index's, ``CardIndex.subset``). ``items``: a list column, its items one
    by one."""
    key = (game, field)
    found = index.values.get(key)
    if found is None:
        if isinstance(index, PoolIndex):
            found = stored_values(index.path, game, field, items)
        else:
            found = index_values(index, game, field)
        index.values[key] = found
    return found
