"""The games deckcheck knows, one spec each, in a registry (see ``registry``).

``deckcheck.games.get("rakuen")`` is the spec of a game; ``register(spec)`` adds one. A game is
a package that builds a ``GameSpec`` (``contract``) and declares it as an entry point of the
``deckcheck.games`` group; the shipped games are the packages here, declared in pyproject.toml.
"""

from typing import Annotated

from pydantic import AfterValidator

from deckcheck.games.contract import (
    COMMON_PARAMS,
    Engine,
    GameSpec,
    Param,
)
from deckcheck.games.registry import (
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
