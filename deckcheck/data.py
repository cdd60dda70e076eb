"""Where the shipped data lives (a game's own tables load from its package: Cards.card_tables).

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


def game_dirs(part: str) -> list[Path]:
    """The ``part`` folder (``formats``, ``cards``, ``examples``, ``locale``) of each installed
    game that ships its own data (``GameSpec.data``, found through its entry point), in the
    registry's order."""
    from deckcheck import plugins  # deferred: the registry loads the games' packages

    found = [spec.data / part for spec in plugins.specs() if spec.data is not None]
    return [folder for folder in found if folder.is_dir()]


def card_dirs() -> list[Path]:
    """The card lists ``pool init`` builds the pool from: the shipped ones, then each installed
    game's own."""
    return [card_pool_dir(), *game_dirs("cards")]


def format_dirs() -> list[Path]:
    """``$DECKCHECK_FORMATS`` folders (os.pathsep-separated) first, then the shipped ones, then
    each installed game's own."""
    extra = [Path(p) for p in os.environ.get("DECKCHECK_FORMATS", "").split(os.pathsep) if p]
    return [*extra, _shipped("formats"), *game_dirs("formats")]


def examples_dir() -> Path:
    """The example decks (``examples/``): a legal and an illegal deck of each shipped format."""
    return _shipped("examples")


def example_dirs() -> list[Path]:
    """The shipped example decks, then each installed game's own."""
    return [examples_dir(), *game_dirs("examples")]
