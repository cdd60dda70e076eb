"""Where the service reads cards: the SQLite pool or ``DECKCHECK_DATABASE_URL``, with the
whole pool kept in memory for deck checks."""

from __future__ import annotations

import threading
from collections.abc import Callable
from typing import Any

from deckcheck.models import Card, Game
from deckcheck.pool.samples import real_games, split_visible
from deckcheck.pool.search import count_query, sqlite_json
from deckcheck.pool.store import Pool
from deckcheck.resolve import CardIndex
from deckcheck.service.settings import Settings


class CardCache:
    """The whole pool in memory, rebuilt when the pool changes (``stamp`` differs), so a
    request never waits on the database. Safe to share: a rebuild swaps the index whole."""

    def __init__(self, stamp: Callable[[], object], load: Callable[[], list[Card]]) -> None:
        self._stamp_of, self._load = stamp, load
        self._stamp: object = None
        self._index: CardIndex | None = None
        self._lock = threading.Lock()

    def stamp(self) -> object:
        """Changes whenever the pool's cards change."""
        return self._stamp_of()

    def index(self) -> CardIndex:
        stamp = self._stamp_of()
        if stamp != self._stamp or self._index is None:
            with self._lock:
                if stamp != self._stamp or self._index is None:
                    self._index = _pool_index(self._load())
                    self._stamp = stamp
        return self._index


def _pool_index(cards: list[Card]) -> CardIndex:
    """The whole pool as the CLI's pool index sees it: a game with real cards resolves its
    samples by number only (a name of one is ``deck/sample-card``), so the page and the CLI
    report the same problems."""
    shown, hidden = split_visible(cards, real_games(cards), set())
    index = CardIndex(shown)
    index.hide(hidden)
    return index


class Cards:
    """The card pool as the service uses it: lookups go to the database, deck checks to
    ``cache``."""

    def __init__(self, settings: Settings) -> None:
        self.sql = None
        if settings.database_url:
            from deckcheck.pool.sql import SqlPool

            self.sql = SqlPool(settings.database_url)
        else:
            Pool(settings.db).close()  # create and fill the pool now, not in the first request
        self.db = settings.db
        self._stats: tuple[object, dict[str, object]] | None = None

        def file_stamp() -> object:
            stat = self.db.stat()
            return (stat.st_mtime, stat.st_size)

        def load() -> list[Card]:
            with Pool(self.db) as pool:
                return pool.all_cards()

        self.cache = (
            CardCache(self.sql.stamp, self.sql.all_cards)
            if self.sql
            else CardCache(file_stamp, load)
        )

    def warm(self) -> None:
        """Build the in-memory index and every game's name table and name index now."""
        from deckcheck import plugins

        index = self.cache.index()
        for game in plugins.ids():
            index.name_index(game)

    def count_in_memory(self) -> int | None:
        """The number of cards, from the in-memory index when it is current for a pool file
        (one ``stat``: cheap enough for the event loop); None when only the database can say
        (a PostgreSQL pool, or a file changed since the index was built)."""
        cache = self.cache
        if self.sql or cache._index is None or cache._stamp_of() != cache._stamp:
            return None
        return len(cache._index)

    def stats(self) -> dict[str, object]:
        """The pool's counts, read again only when the pool changed: ``/health`` asks on every
        call, and counting took 5 ms of the interpreter that deck checks share."""
        stamp = self.cache.stamp()
        known = self._stats
        if known is not None and known[0] == stamp:
            return known[1]
        if self.sql:
            stats = self.sql.stats()
        else:
            with Pool(self.db) as pool:
                stats = pool.stats()
        self._stats = (stamp, stats)
        return stats

    def get(self, game: Game, number: str) -> Card | None:
        if self.sql:
            return self.sql.get(game, number)
        with Pool(self.db) as pool:
            return pool.get(game, number)

    def search(self, *args: Any, **kwargs: Any) -> list[Card]:
        if self.sql:
            return self.sql.search(*args, **kwargs)
        with Pool(self.db) as pool:
            return pool.search(*args, **kwargs)

    def count(
        self,
        game: Game | None,
        name: str | None,
        type: str | None,
        *,
        samples: bool = False,
        **filters: str | int | None,
    ) -> int:
        """How many cards ``search`` finds with no limit: the builder's pager total."""
        if self.sql:
            return self.sql.count(game, name, type, samples=samples, **filters)
        both = {"type": type, **filters}
        sql, params = count_query("cards", game, name, both, sqlite_json, samples)
        with Pool(self.db) as pool:  # the SQLite pool's own connection, as its search uses
            return int(pool.conn.execute(sql, params).fetchone()[0])
