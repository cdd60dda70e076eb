"""Words of the library's data that the service shows in the request's language: a format's
label, name, description and notes (catalogue entries of context the format's game, extracted
from the format files by ``deckcheck.i18n_extract``), and the names of a game's columns and
search filters; its sources, whose translation keeps each citation as written and words only
deckcheck's glosses. Ids and rules stay as they are."""

from __future__ import annotations

from typing import Any

from deckcheck.i18n_extract import SHOWN, SOURCES, TOP_ONLY
from deckcheck.wording import label


def format_words(data: dict[str, Any], game: str) -> dict[str, Any]:
    """A format as JSON (``formats show --json``), its shown words translated."""
    out = {k: label(game, v) if k in TOP_ONLY and isinstance(v, str) else v
           for k, v in data.items()}
    shown: dict[str, Any] = _shown(out, game)
    return shown


def _shown(item: Any, game: str) -> Any:
    if isinstance(item, dict):
        return {k: _word(k, v, game) for k, v in item.items()}
    if isinstance(item, list):
        return [_shown(v, game) for v in item]
    return item


def _word(key: str, value: Any, game: str) -> Any:
    if key in (*SHOWN, *SOURCES) and isinstance(value, str):
        return label(game, value)
    if key in SOURCES and isinstance(value, list):
        return [label(game, v) if isinstance(v, str) else v for v in value]
    return _shown(value, game)
