"""How ``deckcheck formats show`` names a format's ids inside its sentences (issue 34, item 3).

In English a line prints the ids as a format file writes them (``main: 50 cards``, ``at most
4 of one name in main``): the reader who edits the file reads its own words. In another
language a sentence names each section, card type and copy key by the game's word, with the
id after it in brackets for those who edit format files: 「メインデッキ（main）：50枚」,
「メインデッキ（main）で同じカード名（name）は4枚まで」.

A check table's ``describe`` hook is given its table alone (``CheckTable.describe``, which a
game plugin implements too), so the format being shown is set around the calls by
``showing``: outside it, and in English, ids are printed as they are.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Mapping
from contextlib import contextmanager
from contextvars import ContextVar
from dataclasses import dataclass

from deckcheck import plugins
from deckcheck.i18n import DEFAULT, N_, _, current
from deckcheck.wording import label, section_label, word


@dataclass(frozen=True)
class _Shown:
    game: str
    labels: Mapping[str, str | None]  # each section of the format: its label, if it gives one


_SHOWN: ContextVar[_Shown | None] = ContextVar("deckcheck_formats_show", default=None)

# the copy keys every game has (formats.COPY_KEYS), in words; a game words its own keys
_KEYS = {"name": N_("card name"), "name+type": N_("card name and type")}


@contextmanager
def showing(game: str, labels: Mapping[str, str | None]) -> Iterator[None]:
    """Name ids in the words of ``game``, whose format labels its sections by ``labels``."""
    token = _SHOWN.set(_Shown(game, labels))
    try:
        yield
    finally:
        _SHOWN.reset(token)


def _shown() -> _Shown | None:
    return None if current() == DEFAULT else _SHOWN.get()


def _with_ids(said: str, ids: str) -> str:
    return _("{words} ({ids})", words=said, ids=ids)


def section(name: str) -> str:
    """One section: ``main`` / メインデッキ（main）."""
    return sections((name,))


def sections(names: Iterable[str]) -> str:
    """Sections counted together: ``main+side`` / each one's label, then the ids in brackets."""
    names = tuple(names)
    shown = _shown()
    if shown is None:
        return "+".join(names)
    said = "・".join(section_label(shown.game, n, shown.labels.get(n)) for n in names)
    return _with_ids(said, "+".join(names))


def types(names: Iterable[str], sep: str = ", ") -> str:
    """Card types: ``a, b`` / the game's word for each, then the ids in brackets."""
    names = tuple(names)
    shown = _shown()
    if shown is None:
        return sep.join(names)
    said = "・".join(word(shown.game, n) for n in names)
    return _with_ids(said, sep.join(names))


def key(name: str) -> str:
    """A copy key or a card column: ``name`` / カード名（name）. The game's words name its own
    keys, its columns' labels its columns."""
    shown = _shown()
    if shown is None:
        return name
    if name in _KEYS:
        return _with_ids(_(_KEYS[name]), name)
    said = word(shown.game, name)
    if said == name:
        column = next((c for c in plugins.get(shown.game).cards.columns if c.name == name), None)
        said = name if column is None else label(shown.game, column.heading)
    return name if said == name else _with_ids(said, name)
