"""The game registry: one ``GameSpec`` per game, found by its id.

Modelled on python-chess's variant registry (``chess/variant.py``: ``VARIANTS``,
``find_variant``): everything that differs between games lives in its spec, and the validator,
the odds engine, goldfish, the pool, the CLI and the service ask the registry instead of naming
a game. ``register()`` adds a game from outside the package (tests register a toy one).

This module imports nothing of deckcheck at load time but ``errors``, so ``models`` can
validate game ids through it without an import cycle; the shipped games register themselves
the first time the registry is asked.
"""

from __future__ import annotations

import importlib
import random
import threading
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from enum import StrEnum
from functools import cached_property
from typing import TYPE_CHECKING, Any, Protocol

from deckcheck.errors import UnknownGame
from deckcheck.games.columns_contract import CardColumn, SearchHook

if TYPE_CHECKING:
    from deckcheck.formats import Format
    from deckcheck.goldfish.common import Record
    from deckcheck.goldfish.policy import Compiled, Policy
    from deckcheck.goldfish.setup import Setup
    from deckcheck.models import Card

# The packages of the shipped games, imported (and so registered) on first use.
BUILTIN = (
    "deckcheck.games.chaos",
    "deckcheck.games.rakuen",
    "deckcheck.games.vision",
    "deckcheck.games.iris",
)


class MulliganKind(StrEnum):
    """How a game lets a player redraw the opening hand (the format's ``mulligan``)."""

    NONE = "none"
    RETURN_ALL_ONCE = "return-all-once"  # every card back, shuffle, draw as many; once
    BOTTOM_ONCE = "bottom-once"  # any cards to the bottom, draw as many; once


ParamValue = int | float | str | bool


@dataclass(frozen=True)
class Param:
    """A format parameter a game's code reads: its type, its default, and who reads it.

    A format that declares a parameter no spec lists is refused (formats/*.toml), so editing a
    format file always changes something.
    """

    kind: type[int] | type[bool] | type[str] | type[float]
    default: ParamValue | None
    read_by: str
    minimum: int | None = None  # the least value a format may give (a count: 0)
    choices: tuple[str, ...] = ()  # the values a text parameter may take; empty: any


# Read by the odds engine, sample hands and every goldfish engine, whatever the game.
COMMON_PARAMS: Mapping[str, Param] = {
    "opening_hand": Param(int, 5, "odds, hand, goldfish: cards in the opening hand"),
    "mulligan": Param(str, MulliganKind.NONE.value, "odds, hand, goldfish: the mulligan kind"),
    "draw_per_turn": Param(int, 1, "odds, goldfish: cards drawn in each draw phase"),
    "first_player_draws": Param(
        bool, True, "odds, goldfish: whether the first player draws on turn 1"
    ),
    "forced_redraw": Param(str, None, "odds, hand, goldfish: a selector the hand must contain"),
}


class Engine(Protocol):
    """One goldfish game, the same signature for every game."""

    def __call__(
        self, setup: Setup, policy: Compiled, rng: random.Random, turns: int, on_play: bool
    ) -> Record: ...


# (the row's fields, which it may fill in; the pool's lookup tables) → reasons it is wrong
CardCheck = Callable[[dict[str, Any], Mapping[str, Mapping[str, str]]], list[str]]

SetAside = Callable[
    ["Sequence[tuple[Card, int]]", "Format", "str | None", bool],
    "tuple[list[tuple[Card, int]], Card | None]",
]


def lazy(target: str) -> Any:
    """``"module:function"`` as a function that imports its module on first call, so that
    registering a game (which ``deckcheck validate`` does) never imports NumPy or an engine."""
    module, _, name = target.partition(":")
    found: list[Any] = []

    def call(*args: Any) -> Any:
        if not found:
            found.append(getattr(importlib.import_module(module), name))
        return found[0](*args)

    call.__qualname__ = call.__name__ = name
    return call


# A whole chunk of games at once (NumPy): (setup, first seed, games, turns, on_play) → the
# arrays of ``goldfish.run.Chunk`` after ``start``.
BatchEngine = Callable[["Setup", int, int, int, bool], tuple[Any, ...]]


@dataclass(frozen=True)
class GameSpec:
    """Everything deckcheck knows about one game. Rule citations live beside each value in the
    game's own module."""

    id: str
    name: str
    # canonical type → the words accepted for it on import and in conditions (Japanese first)
    card_types: Mapping[str, tuple[str, ...]]
    policy: type[Policy]  # the pilot's model: the common keys plus the game's own
    default_policy: Policy
    play: Engine
    metrics: tuple[str, ...]
    milestones: tuple[str, ...]
    # card names compare without spaces (ChaosTCG 総合ルール §2.1) or with runs of spaces as one
    names_ignore_spaces: bool = False
    kinds: tuple[str, ...] = ()  # allowed ``kind`` values of a card; empty: any
    section_aliases: Mapping[str, str] = field(default_factory=dict)  # header word → section
    params: Mapping[str, Param] = field(default_factory=dict)  # beyond COMMON_PARAMS
    # the odds/hand/goldfish set-up: the cards that can be drawn, and a card set aside before
    # the deal (the ChaosTCG partner), from (main deck, format, the player's choice, whether to
    # pick one when the player named none); None: nothing is set aside, --partner is refused
    set_aside: SetAside | None = None
    # cards laid out at the start from a section other than the main deck (rakuen's gates)
    lay_out: (
        Callable[[Mapping[str, Sequence[tuple[Card, int]]], Format, random.Random], list[Card]]
        | None
    ) = None
    # import: the reasons a card row is wrong for this game, and fields it fills in (chaos OS)
    check_card: CardCheck | None = None
    play_batch: BatchEngine | None = None  # a faster whole-chunk engine, held to ``play``
    # whether ``play_batch`` plays this set-up (its pilot's keys, its cards) as ``play`` would;
    # None: always. When it says no, the reference engine runs and the result says so.
    batch_ok: Callable[[Setup], bool] | None = None
    batch_size: int = 25_000
    # what goldfish does not model or takes from outside the rulebooks: printed with results
    notes: tuple[str, ...] = ()
    # what the deal does beyond the format's parameters: printed by odds, hand and goldfish
    setup_notes: tuple[str, ...] = ()
    # the shared card columns (``Card``'s fields) the builder offers as filters for this game;
    # the filters of the game's own columns come from ``columns``
    search_fields: tuple[str, ...] = ()
    # --- i20-columns: the game's own card columns and search filters (columns_contract.py) ---
    columns: tuple[CardColumn, ...] = ()  # kept in ``Card.extra``; stored, imported, searched
    search_hooks: tuple[SearchHook, ...] = ()  # filters the game works out itself

    @cached_property
    def type_words(self) -> dict[str, str]:
        """Every accepted word (NFKC, case-folded) → canonical type."""
        from deckcheck.normalize import nfkc

        out: dict[str, str] = {}
        for canonical, words in self.card_types.items():
            for word in (canonical, *words):
                out[nfkc(word).casefold()] = canonical
        return out

    def all_params(self) -> dict[str, Param]:
        return {**COMMON_PARAMS, **self.params}


_REGISTRY: dict[str, GameSpec] = {}
_LOCK = threading.RLock()
_loaded = False


def _ensure_builtins() -> None:
    global _loaded
    if _loaded:
        return
    with _LOCK:
        if _loaded:
            return
        _loaded = True
        for module in BUILTIN:
            importlib.import_module(module)
        # a game module may have been imported early (formats.py imports games' check kinds):
        # the shipped games are listed in BUILTIN's order all the same, then any others
        order = {module.rpartition(".")[2]: i for i, module in enumerate(BUILTIN)}
        ranked = sorted(_REGISTRY.items(), key=lambda kv: order.get(kv[0], len(order)))
        _REGISTRY.clear()
        _REGISTRY.update(ranked)


def register(spec: GameSpec, *, replace: bool = False) -> GameSpec:
    """Add a game. Registering an id twice is an error unless ``replace`` is given."""
    _ensure_builtins()
    with _LOCK:
        if spec.id in _REGISTRY and not replace and _REGISTRY[spec.id] is not spec:
            raise ValueError(f"game {spec.id!r} is already registered")
        _REGISTRY[spec.id] = spec
        _changed()
    return spec


def unregister(game_id: str) -> None:
    with _LOCK:
        _REGISTRY.pop(game_id, None)
        _changed()


def _register_builtin(spec: GameSpec) -> GameSpec:
    """For the shipped games' modules, imported while the registry loads."""
    with _LOCK:
        _REGISTRY[spec.id] = spec
        _changed()
    return spec


_listeners: list[Callable[[], None]] = []


def on_change(listener: Callable[[], None]) -> None:
    """Call ``listener`` whenever a game is added or removed (caches keyed by game)."""
    _listeners.append(listener)


def _changed() -> None:
    for listener in _listeners:
        listener()


def get(game_id: str) -> GameSpec:
    """The spec of ``game_id``; an unknown id is an error that lists the known ones."""
    spec = _REGISTRY.get(game_id)
    if spec is None:
        _ensure_builtins()
        spec = _REGISTRY.get(game_id)
        if spec is None:
            raise UnknownGame(f"unknown game {game_id!r} (known: {', '.join(ids())})")
    return spec


def find(text: str) -> GameSpec | None:
    """The spec whose id is ``text`` in any case, or None."""
    _ensure_builtins()
    return _REGISTRY.get(text.strip().casefold())


def ids() -> tuple[str, ...]:
    _ensure_builtins()
    return tuple(_REGISTRY)


def specs() -> tuple[GameSpec, ...]:
    _ensure_builtins()
    return tuple(_REGISTRY.values())


def known_game(value: str) -> str:
    """Pydantic validator of a game id: the id, or ValueError naming the known games."""
    if value in _REGISTRY:
        return value
    _ensure_builtins()
    if value not in _REGISTRY:
        raise ValueError(f"unknown game {value!r} (known: {', '.join(ids())})")
    return value
