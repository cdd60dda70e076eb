"""What commands need of a card pool (the SQLite ``store.Pool`` and the SQLAlchemy
``sql.SqlPool``), and what an import reports."""

from __future__ import annotations

from abc import ABC, abstractmethod
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any, ClassVar, Self

from deckcheck.models import Card, Game
from deckcheck.pool.search import JsonText, search_query
from deckcheck.resolve import CardIndex


class CardPool(ABC):
    """What commands need of a pool, the SQLite ``Pool`` and the SQLAlchemy ``SqlPool``: each
    runs the same search SQL (``search``, here once) its own way (``_cards``)."""

    table: ClassVar[str]  # the table the cards are in
    path: object  # where the pool is: a file, or a database URL without its password

    @abstractmethod
    def index_for(self, refs: Iterable[str]) -> CardIndex: ...

    @abstractmethod
    def stats(self) -> dict[str, object]: ...

    @abstractmethod
    def import_files(self, paths: Sequence[Path]) -> ImportResult: ...

    @abstractmethod
    def close(self) -> None: ...

    @abstractmethod
    def _json_text(self) -> JsonText:
        """How the database reads a key of the JSON in ``extra`` (pool/columns.py)."""

    @abstractmethod
    def _cards(self, sql: str, params: dict[str, Any]) -> list[Card]:
        """The cards a query of ``search_query`` selects."""

    def __enter__(self) -> Self:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def search(
        self,
        game: Game | None = None,
        name: str | None = None,
        type: str | None = None,
        *,
        limit: int = 50,
        offset: int = 0,
        samples: bool = False,
        **filters: str | int | None,
    ) -> list[Card]:
        """Cards by game, name substring (any width; a game may ignore spaces) or number
        prefix, and the filters: the shared columns' (``type``, ``max_cost``, ``keyword``) and
        each game's own (``pool.columns.known_filters``). Raises ``FilterError`` for a filter
        no game has. ``samples``: the sample cards of a game with real cards too."""
        filtered = {"type": type, **filters}
        sql, params = search_query(
            self.table, game, name, limit, offset, filtered, self._json_text(), samples
        )
        return self._cards(sql, params)


@dataclass
class ImportResult:
    added: int
    updated: int
    files: list[str]
    unknown_columns: dict[str, list[str]]
