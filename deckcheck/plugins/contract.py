"""The game contract: what a game gives deckcheck (``GameSpec``) and what deckcheck hands a game.

This is the bottom of deckcheck's import graph: it imports the standard library,
``deckcheck.errors`` and ``deckcheck.normalize`` only, so every other module (models, formats,
the checks, goldfish, odds, the pool, the CLI and the service) may import it, and a game package
(shipped in ``deckcheck/games/<id>/`` or installed separately) is written against it alone.

The core's own objects (a card, a format, a goldfish set-up, a compiled pilot, a game record)
live in modules above this one, so the hooks below are typed by protocols: each lists what
the core reads of what a hook returns, or what a hook may rely on in what the core passes.
A hook the core calls with its own objects (``set_aside``, ``lay_out``) is typed loosely in
those arguments: the core passes its ``models.Card`` and ``formats.Format`` and gets the same
cards back; the game may annotate them with the core's classes.

How a game is found: ``registry.py`` (entry points of the ``deckcheck.games`` group).
"""

from __future__ import annotations

import importlib
import random
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from functools import cached_property
from pathlib import Path
from typing import Any, Protocol, Self

from deckcheck.i18n import N_
from deckcheck.normalize import nfkc
from deckcheck.plugins.columns import CardColumn, SearchHook
from deckcheck.plugins.deal import Draws, FromHand, LayOut, Loss, SetAside
from deckcheck.plugins.playtest import Playtest

ParamValue = int | float | str | bool

# The version of the plugin API (``deckcheck.sdk``), major.minor: a minor release only adds, so a
# game written for 2.0 runs on 2.3; a major release may change or remove names, so the registry
# refuses a game that declares another major version (``GameSpec.plugin_api``). 2.0: the spec's
# fields in parts (``Cards``, ``Construction``, ``Deal``, ``Play``, ``Words``).
PLUGIN_API = "2.0"


@dataclass(frozen=True)
class Param:
    """A format parameter a game's code reads: its type, its default, and who reads it.

    A format that declares a parameter no spec lists is refused (formats/*.toml), so editing a
    format file always changes something.
    """

    type: type[int] | type[bool] | type[str] | type[float]
    default: ParamValue | None
    read_by: str
    minimum: int | None = None  # the least value a format may give (a count: 0)
    choices: tuple[str, ...] = ()  # the values a text parameter may take; empty: any
    # what messages call it (``N_``-marked English, shown in the language of the moment, the id
    # after it: formats.params.param_name); empty: the id alone
    label: str = ""


# Read by the odds engine, sample hands and every goldfish engine, whatever the game.
COMMON_PARAMS: Mapping[str, Param] = {
    "opening_hand": Param(
        int, 5, "odds, hand, goldfish: cards in the opening hand", label=N_("opening hand")
    ),
    # one of COMMON_MULLIGANS or of the game's own ``GameSpec.deal.mulligans``
    # (formats/schema.py checks)
    "mulligan": Param(
        str, "none", "odds, hand, goldfish: the mulligan rule", label=N_("mulligan rule")
    ),
    "draw_per_turn": Param(
        int, 1, "odds, goldfish: cards drawn in each draw phase", label=N_("cards drawn a turn")
    ),
    "first_player_draws": Param(
        bool,
        True,
        "odds, goldfish: whether the first player draws on turn 1",
        label=N_("first player draws on turn 1"),
    ),
    "forced_redraw": Param(
        str,
        None,
        "odds, hand, goldfish: a selector the hand must contain",
        label=N_("forced redraw"),
    ),
}


# --- what the core hands a game, and reads back: protocols -----------------------------------


class CardView(Protocol):
    """A card of the pool (``models.Card``): what every game's card has."""

    @property
    def game(self) -> str: ...
    @property
    def number(self) -> str: ...
    @property
    def name(self) -> str: ...
    @property
    def type(self) -> str: ...


class FormatView(Protocol):
    """A loaded format (``formats.Format``) as a check or a hook reads it: its id, its game, and
    the tables of any TOML key (a check table's own tables among them)."""

    @property
    def id(self) -> str: ...
    @property
    def game(self) -> str: ...
    def tables(self, key: str) -> Sequence[Any]: ...


class PolicyView(Protocol):
    """A pilot (``goldfish.policy.Policy``, which a game's policy class subclasses)."""

    @property
    def name(self) -> str: ...
    @property
    def game(self) -> str | None: ...
    def aside_choice(self) -> str | None: ...
    def model_dump(self) -> dict[str, Any]: ...
    @classmethod
    def model_validate(cls, obj: Any) -> Self: ...


class CompiledView(Protocol):
    """A pilot with its selectors parsed for one game (``goldfish.policy.Compiled``)."""

    @property
    def policy(self) -> PolicyView: ...


class SetupView(Protocol):
    """A deck ready to play (``goldfish.setup.Setup``): its game, its sections, the cards that
    can be drawn and the ones set aside before the deal, and the pilot."""

    @property
    def game(self) -> str: ...
    @property
    def sections(self) -> Mapping[str, Sequence[tuple[CardView, int]]]: ...
    @property
    def drawable(self) -> Sequence[tuple[CardView, int]]: ...
    @property
    def aside(self) -> Sequence[CardView]: ...
    @property
    def policy(self) -> PolicyView: ...
    @property
    def fast(self) -> bool: ...


class RecordView(Protocol):
    """One goldfish game as an engine returns it (``goldfish.common.Record``): per turn (index 0
    = turn 1) the values of the spec's metrics, the first turn of each milestone (0 = never),
    the mulligans taken, and how the game ended."""

    @property
    def metrics(self) -> Sequence[tuple[int, ...]]: ...
    @property
    def milestones(self) -> Sequence[int]: ...
    @property
    def mulligans(self) -> int: ...
    @property
    def loss(self) -> str | None: ...
    @property
    def loss_turn(self) -> int: ...


class CheckTableView(Protocol):
    """A check table (``checks.table.CheckTable``): the TOML key it reads and where it runs."""

    @property
    def name(self) -> str: ...
    @property
    def order(self) -> int: ...


class Engine(Protocol):
    """One goldfish game, the same signature for every game; given a ``trace`` it tells it each
    step and plays exactly as without one. The core passes its own ``goldfish.setup.Setup``
    and ``goldfish.policy.Compiled`` (``SetupView`` and ``CompiledView`` list what it
    provides); they are typed loosely here so that a game annotates them with those classes
    (``deckcheck.sdk.Setup``, ``deckcheck.sdk.Compiled``) and passes its ``play`` itself."""

    def __call__(
        self,
        setup: Any,
        policy: Any,
        rng: random.Random,
        turns: int,
        on_play: bool,
        trace: Any = None,  # a ``goldfish.trace.Trace`` to tell the game to (a replay)
    ) -> RecordView: ...


# A whole chunk of games at once (NumPy): (setup, first seed, games, turns, on_play) → the
# arrays of ``goldfish.run.Chunk`` after ``start``.
BatchEngine = Callable[[SetupView, int, int, int, bool], tuple[Any, ...]]
# The same compiled engine reading its shuffles from a tape of fixed numbers: (setup, tape of
# (games, rows, width) uint32, turns, on_play) → the same arrays (``goldfish.batch``)
TapeEngine = Callable[[SetupView, Any, int, bool], tuple[Any, ...]]

# (the row's fields, which it may fill in; the game's lookup tables) → reasons it is wrong
CardCheck = Callable[[dict[str, Any], Mapping[str, Mapping[str, str]]], list[str]]


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


@dataclass(frozen=True)
class Cards:
    """A game's cards: their types and card kinds, how their names compare, their own columns and
    search filters, the copy-limit keys and the import checks they get, the keyword table."""

    # canonical type → the words accepted for it on import and in conditions (Japanese first)
    card_types: Mapping[str, tuple[str, ...]]
    kinds: tuple[str, ...] = ()  # allowed ``kind`` values of a card; empty: any
    # card names compare without spaces (a game's rule: its package cites the rulebook) or with
    # runs of spaces as one
    names_ignore_spaces: bool = False
    columns: tuple[CardColumn, ...] = ()  # kept in ``Card.extra``; stored, imported, searched
    # the shared card columns (``models.Card``'s: ``cost``, ``level``...) whose filters the game
    # offers (pool search, ``GET /cards``, the builder); its own columns' come from ``columns``
    search_fields: tuple[str, ...] = ()
    search_hooks: tuple[SearchHook, ...] = ()  # filters the game works out itself
    # copy-limit keys the game adds to "name" and "name+type" (a format's ``copies.key``): key
    # → the name a card counts under, before the game's name comparison
    copy_keys: Mapping[str, Callable[[str], str]] = field(default_factory=dict)
    # import: the reasons a card row is wrong for this game, and fields it fills in
    check_card: CardCheck | None = None
    # the lookup tables ``check_card`` gets on import (name → key → value); asked for each
    # imported row, so the game caches them
    card_tables: Callable[[], Mapping[str, Mapping[str, str]]] | None = None
    # every keyword form of the game's cards: (form, status, source or reason), in the language
    # of the moment; printed by ``formats show`` for each format of the game. None: no table
    keywords: Callable[[], Sequence[tuple[str, str, str]]] | None = None
    # the card facts (a shared field, ``level``/``cost``, or a column of ``columns``) whose
    # counts the builder's deck statistics chart as the game's curve; empty: no curve
    curve: tuple[str, ...] = ()

    @cached_property
    def type_words(self) -> dict[str, str]:
        """Every accepted word (NFKC, case-folded) → canonical type."""
        out: dict[str, str] = {}
        for canonical, words in self.card_types.items():
            for word in (canonical, *words):
                out[nfkc(word).casefold()] = canonical
        return out


@dataclass(frozen=True)
class Construction:
    """How a game's decks are built and checked: its own sections, the header words that open
    them, its own check tables, and the format parameters its code reads."""

    # deck sections of the game's own beyond the shared main, extra, gate and side: their names
    # (a format's ``[[sections]]`` may use them; ``section_aliases`` gives the header words
    # that open them, ``Words.words`` their words)
    sections: tuple[str, ...] = ()
    section_aliases: Mapping[str, str] = field(default_factory=dict)  # header word → section
    # the check tables the game's formats may use beyond deckcheck's own (checks.table.CheckTable
    # objects), asked for when a format of the game is first read
    check_tables: Callable[[], Sequence[CheckTableView]] | None = None
    params: Mapping[str, Param] = field(default_factory=dict)  # beyond COMMON_PARAMS

    def all_params(self) -> dict[str, Param]:
        return {**COMMON_PARAMS, **self.params}


@dataclass(frozen=True)
class Deal:
    """What the deal does beyond the format's parameters (deal.py): the cards set aside or laid
    out, the draw timeline, the game's own mulligan rules, and the notes that say so."""

    # the odds/hand/goldfish set-up: the cards that can be drawn, and the cards set aside before
    # the deal, from (main deck, format, the player's choice, whether to pick one when the
    # player named none); None: nothing is set aside, --aside is refused
    set_aside: SetAside | None = None
    # cards laid out at the start from a section other than the main deck
    lay_out: LayOut | None = None
    # cards of the dealt hand the deal marks (a face-down main unit), for sample hands
    from_hand: FromHand | None = None
    # the draw timeline from the format's parameters; None: Draws.from_params (the common one)
    draws: Callable[[Mapping[str, ParamValue]], Draws] | None = None
    # the game's own mulligan rules: name -> "module:attribute" of a deckcheck.odds.mulligan
    # Mulligan (imported when used: it needs NumPy); a format names one of these or a common one
    mulligans: Mapping[str, str] = field(default_factory=dict)
    # what the deal does beyond the format's parameters: printed by odds, hand and goldfish
    setup_notes: tuple[str, ...] = ()


@dataclass(frozen=True)
class Play:
    """How goldfish plays the game: the pilot, the engines, what a game records and how it is
    lost, and the builder's playtester."""

    policy: type[PolicyView]  # the pilot's model: a goldfish.policy.Policy subclass
    default_policy: PolicyView  # the pilot goldfish plays when the player names none
    play: Engine  # the reference engine, one game at a time
    metrics: tuple[str, ...]  # the per-turn values a Record holds, in this order
    milestones: tuple[str, ...]  # the events whose first turn a Record holds, in this order
    # how a goldfish game can be lost; an engine's Record.loss must be one of these names
    losses: tuple[Loss, ...] = ()
    play_batch: BatchEngine | None = None  # a faster whole-chunk engine, held to ``play``
    # ``play_batch`` reading a tape of fixed numbers (``goldfish.batch.entry_points``): the
    # conformance suite (``deckcheck.sdk.testing``) holds it to ``play`` game by game
    play_tape: TapeEngine | None = None
    # whether ``play_batch`` plays this set-up (its pilot's keys, its cards) as ``play`` would;
    # None: always. When it says no, the reference engine runs and the result says so.
    batch_ok: Callable[[SetupView], bool] | None = None
    # games a ``play_batch`` call plays: the chunk, seeded by its first game's seed. A job's
    # cancel is read between chunks, so a chunk's time bounds how long a cancelled job runs on:
    # 25,000 games of 30 turns of a shipped game took 1.3 s, 5,000 take under 0.3 s in every game
    # (benchmarks/goldfish_bench.py prints each game's chunk time); games/s the same within
    # the bench's noise
    batch_size: int = 5_000
    # what goldfish does not model or takes from outside the rulebooks: printed with results
    notes: tuple[str, ...] = ()
    # the builder's playtester (playtest.py): the game's zones and turn steps in the language
    # of the moment; None: no playtester
    playtest: Callable[[], Playtest] | None = None


@dataclass(frozen=True)
class Words:
    """What a game is called, and its words."""

    name: str  # as the game writes it (shown as written in every language)
    # the game's words for its name, card types and deck sections (the short header words) in
    # the language of the moment: literal ``_p(id, ...)`` calls, so the catalogue extracts
    # them (deckcheck.wording.word); None, or a name missing: shown as written
    words: Callable[[], Mapping[str, str]] | None = None


@dataclass(frozen=True)
class GameSpec:
    """Everything deckcheck knows about one game, in parts: ``GameSpec(id, cards=...,
    construction=..., deal=..., play=..., words=...)``. Rule citations live beside each value
    in the game's own module."""

    id: str
    cards: Cards  # what its cards are, how they are named, imported and searched
    play: Play  # how goldfish plays it
    words: Words  # what it is called, and its words
    construction: Construction = field(default_factory=Construction)  # how its decks are built
    deal: Deal = field(default_factory=Deal)  # what its deal does beyond the common one
    # the plugin API (``PLUGIN_API``, major.minor) the game is written for; the registry refuses
    # another major version. "1.0", not ``PLUGIN_API``: a game that declares none was written
    # before the version was declared, against 1.0 (refused since 2.0)
    plugin_api: str = "1.0"
    # the folder of the game's own data, found through its entry point: ``formats/`` (format
    # files, listed with the shipped ones), ``cards/`` (card lists ``pool init`` builds),
    # ``examples/`` (``examples/<format>-legal.deck``, ``examples/<format>-illegal.deck``: the
    # conformance suite) and ``locale/`` (``<lang>/LC_MESSAGES/<id>.po``: the game's messages
    # and words, behind deckcheck's catalogue). None: the game ships none (the shipped games'
    # data is deckcheck's own)
    data: Path | None = None
    # where lists of games show this one: the games with a rank first, by rank (the shipped
    # games: 1 to 4, the order deckcheck always listed them in), then the others by id. None:
    # after them
    list_rank: int | None = None
