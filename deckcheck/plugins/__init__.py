"""How a game plugs into deckcheck: the contract a game is written against and the registry that
finds the installed games, one spec each.

``deckcheck.plugins.get(game_id)`` is the spec of a game; ``register(spec)`` adds one. A game is
a package that builds a ``GameSpec`` (``contract``, with its parts in ``columns``, ``deal`` and
``playtest``) and declares it as an entry point of the ``deckcheck.games`` group
(``registry``). The shipped games are the packages under ``deckcheck/games/``, declared in
pyproject.toml like any other; nothing here names one.
"""

from typing import Annotated

from pydantic import AfterValidator

from deckcheck.plugins.contract import (
    COMMON_PARAMS,
    Engine,
    GameSpec,
    Param,
)
from deckcheck.plugins.registry import (
    broken,
    find,
    get,
    ids,
    known_game,
    name_key,
    on_change,
    rediscover,
    register,
    specs,
    unregister,
)

# A game id checked against the registry, for the pydantic models where ids come in (format
# files, requests): an unknown id is a validation error naming the known games.
KnownGame = Annotated[str, AfterValidator(known_game)]

__all__ = [
    "COMMON_PARAMS",
    "Engine",
    "GameSpec",
    "KnownGame",
    "Param",
    "broken",
    "find",
    "get",
    "ids",
    "known_game",
    "name_key",
    "on_change",
    "rediscover",
    "register",
    "specs",
    "unregister",
]
