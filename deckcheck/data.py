"""Where the shipped data lives (a game's own tables load from its package: GameSpec.card_tables).

A wheel carries ``card_pool/``, ``formats/`` and ``examples/`` inside the package
(``deckcheck/_data``); a source checkout (editable install, tests) reads them from the
repository's top level.
"""

from __future__ import annotations

import os
from pathlib import Path

_PACKAGE = Path(__file__).resolve().parent


def _shipped(name: str) -> Path:
    inside = _PACKAGE / "_data" / name
    return inside if inside.is_dir() else _PACKAGE.parent / name


def card_pool_dir() -> Path:
    return _shipped("card_pool")


def format_dirs() -> list[Path]:
    """``$DECKCHECK_FORMATS`` folders (os.pathsep-separated) first, then the shipped ones."""
    extra = [Path(p) for p in os.environ.get("DECKCHECK_FORMATS", "").split(os.pathsep) if p]
    return [*extra, _shipped("formats")]


def examples_dir() -> Path:
    """The example decks (``examples/``): a legal and an illegal deck of each shipped format."""
    return _shipped("examples")
