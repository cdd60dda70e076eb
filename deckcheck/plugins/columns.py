"""A game's own card columns and search filters, as its spec declares them (``Cards.columns``
and ``Cards.search_hooks``).

``models.Card`` holds the columns every game shares; a game's other columns (a power, a colour, a
requirement) live in ``Card.extra`` under the names declared here. The pool stores, imports and
searches them, and ``pool search``, ``GET /cards``, ``GET /games`` and the web builder list their
filters, all from these declarations: nothing outside the game names them.

This module imports only the standard library, so the registry and ``models`` can use it.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Collection, Mapping
from dataclasses import dataclass
from typing import Literal

from deckcheck.i18n import _, current

# What a cell holds: a whole number, text, or a list of text (``;`` between items in CSV).
ColumnType = Literal["int", "text", "list"]
# How a filter compares: ``exact`` equal; ``text`` a substring, any width or case; ``item`` one
# element of a list; ``max``/``min`` a bound on a whole number (filter ``max_<column>``);
# ``key`` equal after the column's ``key`` normalisation (its stored key form).
SearchMode = Literal["exact", "text", "item", "max", "min", "key"]

# Column and filter names are SQL-safe identifiers: the pool puts them in JSON paths.
NAME = re.compile(r"^[a-z][a-z0-9_]{0,39}$")
_MODES: dict[str, tuple[str, ...]] = {
    "exact": ("text",),
    "text": ("text",),
    "item": ("list",),
    "max": ("int",),
    "min": ("int",),
    "key": ("text",),
}


@dataclass(frozen=True)
class Search:
    """Marks a column as a search filter. ``option`` names the filter where the default reads
    badly (``keywords`` → ``keyword``); the default is the column's name, or ``max_<column>`` /
    ``min_<column>`` for a bound."""

    mode: SearchMode
    option: str | None = None

    def option_for(self, column: str) -> str:
        if self.option is not None:
            return self.option
        return f"{self.mode}_{column}" if self.mode in ("max", "min") else column


@dataclass(frozen=True)
class CardColumn:
    """One column a game's cards carry beyond the shared ones.

    ``name`` is the column in card files and JSON and the key in ``Card.extra``. ``key``, if
    given, is the normalised form searches compare (stored beside the value); a ``key`` search
    and a hook need it. ``label`` names the column in the builder; ``summary``: the builder
    shows it in a card's one-line summary. ``checked``: the game's deck checks read it, so two
    printings of one name that differ in it are not interchangeable (a name naming both is
    ambiguous); a column they do not read (a set, a rarity) leaves them interchangeable.
    """

    name: str
    type: ColumnType
    description: str
    search: Search | None = None
    label: str | None = None
    summary: bool = False
    key: Callable[[str], str] | None = None
    checked: bool = False
    # a name search (the builder's search box, ``pool search NAME``) also finds a card whose
    # column holds the words (a card found by a name its column gives; issue 32); needs a text
    # search
    by_name: bool = False

    def __post_init__(self) -> None:
        if not NAME.match(self.name):
            raise ValueError(
                _("card column {name}: use a-z, 0-9 and _, a letter first", name=repr(self.name))
            )
        if self.search is not None:
            if self.type not in _MODES[self.search.mode]:
                raise ValueError(
                    _(
                        "card column {name}: a {mode} search needs a {types} column, not {type}",
                        name=repr(self.name),
                        mode=repr(self.search.mode),
                        types=(" or " if current() == "en" else "・").join(
                            _MODES[self.search.mode]
                        ),
                        type=self.type,
                    )
                )
            if self.search.mode == "key" and self.key is None:
                raise ValueError(
                    _(
                        "card column {name}: a 'key' search needs a key function",
                        name=repr(self.name),
                    )
                )
            if not NAME.match(self.search.option_for(self.name)):
                raise ValueError(_("card column {name}: bad filter name", name=repr(self.name)))

    @property
    def filter(self) -> str | None:
        """The filter's name (``max_power``), or None if the column is no filter."""
        return None if self.search is None else self.search.option_for(self.name)

    @property
    def heading(self) -> str:
        """What the builder and `pool search --help` call the column."""
        return self.label or self.name.replace("_", " ").capitalize()

    @property
    def short(self) -> str:
        """The label in a one-line summary: lower case, without its parenthesis (``power``
        for ``Power (攻撃力)``)."""
        return self.heading.split(" (")[0].lower()


@dataclass(frozen=True)
class SearchHook:
    """A filter the game works out itself. ``match`` turns the text a user typed into, for
    each of the game's ``key`` columns it names, the keys a card may have there; a card matches
    if any column holds any of them. ``aliases`` are other names of the same filter."""

    option: str
    label: str
    description: str
    match: Callable[[str], Mapping[str, Collection[str]]]
    aliases: tuple[str, ...] = ()

    def __post_init__(self) -> None:
        for name in (self.option, *self.aliases):
            if not NAME.match(name):
                raise ValueError(
                    _("search filter {name}: use a-z, 0-9 and _, a letter first", name=repr(name))
                )


def check_columns(
    game: str,
    columns: tuple[CardColumn, ...],
    hooks: tuple[SearchHook, ...],
    shared: Collection[str],
) -> None:
    """Raise ``ValueError`` if a game's declarations clash: a column named like a shared one
    (``shared``: the shared columns and filters) or twice, two filters of one name, a hook
    naming a column that has no key."""
    names = [c.name for c in columns]
    taken = [n for n in names if n in shared]
    if taken or len(set(names)) != len(names):
        raise ValueError(
            _(
                "game {game}: card columns named twice or like shared ones: {names}",
                game=repr(game),
                names=names,
            )
        )
    options = [c.filter for c in columns if c.filter is not None]
    options += [name for h in hooks for name in (h.option, *h.aliases)]
    if len(set(options)) != len(options) or set(options) & set(shared):
        raise ValueError(
            _("game {game}: search filters named twice or like shared ones", game=repr(game))
        )
    # a hook names its columns only when it runs; its game must key one at least
    if hooks and not any(c.key is not None for c in columns):
        raise ValueError(_("game {game}: a search hook needs a column with a key", game=repr(game)))
