"""Shared fixtures: a pool built from the shipped card data, and a one-call validator."""

from __future__ import annotations

import os
import tempfile
from collections.abc import Iterator
from pathlib import Path

import pytest

from deckcheck import decklist
from deckcheck.formats import FormatRegistry, default_registry
from deckcheck.models import Report
from deckcheck.pool.store import Pool
from deckcheck.resolve import CardIndex
from deckcheck.validate import validate

# No test reads or writes the user's own card database (modules such as service.asgi open the
# default pool when imported).
os.environ.setdefault(
    "DECKCHECK_DB", str(Path(tempfile.mkdtemp(prefix="deckcheck-")) / "pool.sqlite3")
)

ROOT = Path(__file__).resolve().parent.parent
EXAMPLES = ROOT / "examples"
DATA = Path(__file__).resolve().parent / "data"


@pytest.fixture(scope="session")
def shipped_pool(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Pool]:
    pool = Pool(tmp_path_factory.mktemp("pool") / "pool.sqlite3")
    yield pool
    pool.close()


@pytest.fixture(scope="session")
def index(shipped_pool: Pool) -> CardIndex:
    return CardIndex(shipped_pool.all_cards(), names=shipped_pool.names)


@pytest.fixture(scope="session")
def registry() -> FormatRegistry:
    return default_registry([DATA / "formats"])


@pytest.fixture(scope="session")
def check(index: CardIndex, registry: FormatRegistry):  # type: ignore[no-untyped-def]
    """``check(text, fmt=None) -> Report``: parse a deck list and validate it."""

    def run(text: str, fmt: str | None = None) -> Report:
        deck = decklist.parse(text, "test.deck")
        return validate(deck, registry.get(fmt or deck.format or ""), index)

    return run


@pytest.fixture
def fresh_db(tmp_path: Path) -> Path:
    return tmp_path / "fresh.sqlite3"
