"""What commands need of a card pool (the SQLite ``store.Pool`` and the SQLAlchemy
``sql.SqlPool``), and what an import reports."""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Protocol

from deckcheck.models import Card, Game
from deckcheck.resolve import CardIndex


class CardPool(Protocol):
    """What commands need of a pool: the SQLite ``Pool`` and the SQLAlchemy ``SqlPool``."""

    @property
    def path(self) -> object: ...

    def index_for(self, refs: Iterable[str]) -> CardIndex: ...

    def stats(self) -> dict[str, object]: ...

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
    ) -> list[Card]: ...

    def import_files(self, paths: Sequence[Path]) -> ImportResult: ...

    def close(self) -> None: ...

    def __enter__(self) -> CardPool: ...

    def __exit__(self, *exc: object) -> None: ...


@dataclass
class ImportResult:
    added: int
    updated: int
    files: list[str]
    unknown_columns: dict[str, list[str]]
