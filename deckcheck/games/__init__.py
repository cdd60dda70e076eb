"""The games deckcheck knows, one spec each, in a registry (see ``registry``).

``deckcheck.games.get("rakuen")`` is the spec of a game; ``register(spec)`` adds one. Each
shipped game is a package here: its spec, its deck checks, its set-up and its goldfish engine.
"""

from deckcheck.games.registry import (
    COMMON_PARAMS,
    Engine,
    GameSpec,
    Param,
    find,
    get,
    ids,
    on_change,
    register,
    specs,
    unregister,
)

__all__ = [
    "COMMON_PARAMS",
    "Engine",
    "GameSpec",
    "Param",
    "find",
    "get",
    "ids",
    "on_change",
    "register",
    "specs",
    "unregister",
]
