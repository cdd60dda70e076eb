"""The game registry: one ``GameSpec`` per game, found by its id.

Modelled on python-chess's variant registry (``chess/variant.py``: ``VARIANTS``,
``find_variant``): everything that differs between games lives in its spec, and the validator,
the odds engine, goldfish, the pool, the CLI and the service ask the registry instead of naming
a game.

Games are found through the ``deckcheck.games`` entry-point group, the shipped ones too
(pyproject.toml), so a game can be a separate package::

    [project.entry-points."deckcheck.games"]
    toy = "deckcheck_toygame:TOY"

The entry point's name is the game id and its value is the ``GameSpec`` object itself (not a
function returning it): loading it imports the game's package, which builds the spec and
nothing else (engines and NumPy load on first use, ``contract.lazy``). The registry loads every
entry point the first time it is asked, once, under a lock. A plugin that fails to load is
left out, and asking for its game is an ``UnknownGame`` error naming the plugin and why; the
other games work. Order: the games that give a ``GameSpec.list_rank`` by rank (the shipped
games give theirs), then the others by id, then games added with ``register()`` (tests,
embedding programs) in the order they were added. When two distributions declare one id, the
game deckcheck ships (``deckcheck.games.<id>``) wins, else the first by value.

This module imports ``contract`` and ``errors`` only: nothing of deckcheck imports a game.
"""

from __future__ import annotations

import threading
from collections.abc import Callable, Iterable
from functools import lru_cache
from importlib.metadata import EntryPoint, entry_points

from deckcheck.errors import UnknownGame
from deckcheck.i18n import _, add_catalogue
from deckcheck.normalize import CACHED_LENGTH, CACHED_NAMES, card_name_key
from deckcheck.plugins.contract import (
    COMMON_PARAMS,
    PLUGIN_API,
    BatchEngine,
    Engine,
    GameSpec,
    Param,
    ParamValue,
    lazy,
)

__all__ = [  # the contract's names, for callers that import them from here
    "COMMON_PARAMS",
    "PLUGIN_API",
    "BatchEngine",
    "Engine",
    "GameSpec",
    "Param",
    "ParamValue",
    "lazy",
]

GROUP = "deckcheck.games"
# Where the games deckcheck ships live (pyproject.toml's entry points): one wins a duplicated id.
OWN = "deckcheck.games."

_LOCK = threading.RLock()
_found: dict[str, GameSpec] = {}  # from entry points, in order
_added: dict[str, GameSpec] = {}  # by register(), over the entry points' games
_broken: dict[str, str] = {}  # game id (or a left-out duplicate) → why it did not load
_loaded = False
_loading = False  # while the entry points load: a game module that asks sees what is loaded


def _order(point: EntryPoint) -> tuple[bool, str, str]:
    """The order entry points load in: deckcheck's own games first (a plugin that asks for one
    while it loads finds it, and loses a duplicated id to it), each by id."""
    return (not point.value.startswith(OWN), point.name, point.value)


def _listed(spec: GameSpec) -> tuple[bool, int]:
    """Where lists show a game: by its rank, the games without one after (``sorted`` is
    stable, so those stay by id)."""
    return (spec.list_rank is None, spec.list_rank or 0)


def _load(point: EntryPoint) -> GameSpec:
    """The spec an entry point names; any failure is an ``UnknownGame`` naming the plugin."""
    where = _(
        "plugin {value} (entry point {name} of {group})",
        value=repr(point.value),
        name=repr(point.name),
        group=GROUP,
    )
    said = {"name": repr(point.name), "where": where}
    try:
        spec = point.load()
    except Exception as exc:  # any import-time error of a third-party package
        why = _why(exc)
        raise UnknownGame(_("game {name} failed to load: {where}: {why}", **said, why=why)) from exc
    if not isinstance(spec, GameSpec):
        cls = type(spec).__name__
        raise UnknownGame(
            _("game {name} failed to load: {where} is a {cls}, not a GameSpec", **said, cls=cls)
        )
    if not api_fits(spec.plugin_api):
        theirs, ours = repr(spec.plugin_api), repr(PLUGIN_API)
        raise UnknownGame(
            _(
                "game {name} failed to load: {where} is written for plugin API {theirs}; this "
                "deckcheck offers plugin API {ours}, another major version",
                **said, theirs=theirs, ours=ours,
            )
        )  # fmt: skip
    if spec.id != point.name:
        raise UnknownGame(
            _(
                "game {name} failed to load: {where} gives the spec of {id}; the entry point's "
                "name must be the game id",
                **said, id=repr(spec.id),
            )
        )  # fmt: skip
    return spec


def api_fits(declared: str) -> bool:
    """Whether a game written for plugin API ``declared`` (major.minor) runs on this one: the
    same major version (a minor version only adds names)."""
    major, dot, minor = declared.partition(".")
    ours = PLUGIN_API.partition(".")[0]
    return bool(dot) and major.isdigit() and minor.isdigit() and int(major) == int(ours)


def _words(spec: GameSpec) -> GameSpec:
    """A game that ships its own catalogue (``data/locale``): read behind deckcheck's."""
    if spec.data is not None and (spec.data / "locale").is_dir():
        add_catalogue(spec.data / "locale", spec.id)
    return spec


def _why(exc: BaseException) -> str:
    text = str(exc)
    return f"{type(exc).__name__}: {text}" if text else type(exc).__name__


def _discover(points: Iterable[EntryPoint]) -> None:
    """Load every entry point of the group (call under the lock)."""
    seen: set[str] = set()
    for point in sorted(points, key=_order):
        if point.name in seen:  # two distributions declare one id: the first one wins
            _broken[f"{point.name} ({point.value})"] = _(
                "game {name} is declared twice; {value} was left out",
                name=repr(point.name),
                value=repr(point.value),
            )
            continue
        seen.add(point.name)
        try:
            _found[point.name] = _words(_load(point))
        except UnknownGame as exc:
            _broken[point.name] = str(exc)
    ordered = sorted(_found.values(), key=_listed)
    _found.clear()
    _found.update((spec.id, spec) for spec in ordered)


def _ensure() -> None:
    global _loaded, _loading
    if _loaded:
        return
    with _LOCK:
        if _loaded or _loading:
            return
        _loading = True
        try:
            _discover(entry_points(group=GROUP))
        finally:
            _loading = False
        _loaded = True
        _changed()


def rediscover() -> None:
    """Forget the entry points' games and find them again on next use (after installing a
    plugin into a running process: tests). Games added with ``register()`` stay."""
    global _loaded
    with _LOCK:
        _found.clear()
        _broken.clear()
        _loaded = False
        _changed()


def _all() -> dict[str, GameSpec]:
    _ensure()
    return {**_found, **_added}


def register(spec: GameSpec, *, replace: bool = False) -> GameSpec:
    """Add a game. Registering an id twice is an error unless ``replace`` is given."""
    _ensure()
    with _LOCK:
        known = _added.get(spec.id) or _found.get(spec.id)
        if known is not None and not replace and known is not spec:
            raise ValueError(_("game {id} is already registered", id=repr(spec.id)))
        _added[spec.id] = _words(spec)
        _changed()
    return spec


def unregister(game_id: str) -> None:
    """Remove a game added with ``register()`` (an entry point's game comes back if it was
    replaced)."""
    with _LOCK:
        _added.pop(game_id, None)
        _changed()


_listeners: list[Callable[[], None]] = []


def on_change(listener: Callable[[], None]) -> None:
    """Call ``listener`` whenever a game is added or removed (caches keyed by game)."""
    _listeners.append(listener)


def _changed() -> None:
    _name_key.cache_clear()
    for listener in _listeners:
        listener()


def _unknown(game_id: str) -> UnknownGame:
    broken = _broken.get(game_id)
    if broken is not None:
        return UnknownGame(broken)
    known = ", ".join(ids()) or _("none: is deckcheck installed (`pip install -e .`)?")
    return UnknownGame(_("unknown game {id} (known: {known})", id=repr(game_id), known=known))


def get(game_id: str) -> GameSpec:
    """The spec of ``game_id``; an unknown id is an error that lists the known ones."""
    spec = _added.get(game_id) or _found.get(game_id)
    if spec is None:
        spec = _all().get(game_id)
        if spec is None:
            raise _unknown(game_id)
    return spec


def find(text: str) -> GameSpec | None:
    """The spec whose id is ``text`` in any case, or None."""
    return _all().get(text.strip().casefold())


def ids() -> tuple[str, ...]:
    return tuple(_all())


def specs() -> tuple[GameSpec, ...]:
    return tuple(_all().values())


def broken() -> dict[str, str]:
    """Game id → why its plugin did not load (empty when every plugin loaded)."""
    _ensure()
    return dict(_broken)


def known_game(value: str) -> str:
    """A game id checked at an edge (format files, requests; a pydantic validator): the id,
    or ``ValueError`` naming the known games (or why the game's plugin did not load)."""
    if value in _added or value in _found:
        return value
    if value not in _all():
        raise ValueError(str(_unknown(value)))
    return value


def name_key(game: str, name: str) -> str:
    """Key under which two card names are the same card name in ``game`` (its spec says
    whether spaces count: ``normalize.card_name_key``)."""
    if len(name) > CACHED_LENGTH:  # kept out of the memo: it is bounded in bytes
        return card_name_key(name, get(game).cards.names_ignore_spaces)
    return _name_key(game, name)


@lru_cache(maxsize=CACHED_NAMES)
def _name_key(game: str, name: str) -> str:
    return card_name_key(name, get(game).cards.names_ignore_spaces)
