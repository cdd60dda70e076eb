"""deckcheck's plugin SDK: everything a game may use, and the only door a game imports through.

A game is a package that builds a ``GameSpec`` and declares it as an entry point of the
``deckcheck.games`` group (``deckcheck.plugins.registry``); it imports from deckcheck only this
module (the shipped games are held to that by import-linter, ``[tool.importlinter]`` in
pyproject.toml). ``PLUGIN_API`` is the version of the names below: a game declares the version it
is written for in ``GameSpec.plugin_api``, and the registry refuses another major version.

Importing this module is cheap: the contract's names load now, every other name on first use
(PEP 562 ``__getattr__``), so registering a game never imports NumPy, numba or an engine. The
table ``_LAZY`` (name → module) is read by ``goldfish.compiling`` too, so a compiled engine's
cache key covers the module each name it imports from here comes from.

The names, by what a game uses them for:

The spec (``deckcheck.plugins``: ``contract``, ``columns``, ``deal``, ``playtest``)
    ``PLUGIN_API``: this SDK's version, major.minor. ``GameSpec``: everything deckcheck knows about
    a game, in parts (each field documented in its part): ``GameSpec(id, cards=Cards(...),
    construction=Construction(...), deal=Deal(...), play=Play(...), words=Words(...))``. ``Cards``:
    card types and card kinds, name comparison, the game's columns, filters, copy keys, import
    checks, keywords and curve. ``Construction``: its own sections, header words, check tables and
    parameters. ``Deal``: cards set aside, laid out or marked, the draw timeline, mulligan rules,
    notes. ``Play``: the pilot, the engines, metrics, milestones, losses, notes, the playtester.
    ``Words``: the game's name and its words. ``Param``, ``ParamValue``, ``COMMON_PARAMS``: a format
    parameter a game's code reads, its value types, and the parameters every game has.
    ``lazy``: ``"module:function"`` as a function imported on first call (engines, tables).
    ``Engine``, ``BatchEngine``, ``TapeEngine``, ``CardCheck``: the signatures of ``play``,
    ``play_batch``, ``play_tape`` and ``check_card``.
    ``CardView``, ``FormatView``, ``PolicyView``, ``CompiledView``, ``SetupView``,
    ``RecordView``, ``CheckTableView``: what the core reads of the objects hooks get or return.
    ``CardColumn``, ``Search``, ``SearchHook``: a game's own card columns and search filters.
    ``Aside``, ``Draws``, ``Loss``, ``deck_out``, ``COMMON_MULLIGANS``: the deal (cards set
    aside or laid out, the draw timeline), how a game is lost, the shipped mulligan rules.
    ``name_key``: the key under which two card names are one name in a game.
    ``Playtest``, ``Zone``, ``Step``, ``deck_and_hand``, ``draw_step``, ``hand_limit_step``:
    the builder's playtester (``GameSpec.play.playtest``): the game's zones and turn steps, each
    step with its rule, and the zones and steps most games share.

Words and errors (``deckcheck.i18n``, ``wording``, ``errors``, ``normalize``)
    ``_``, ``_n``, ``_p``, ``N_``: the message catalogue (a message, a plural, a game's own
    word, a message marked for later translation); ``current_language``: "en" or "ja" now.
    ``word``, ``words``, ``section_label``, ``listing``, ``a_an``: a game's words in the
    language of the moment, and lists and articles as the language writes them;
    ``game_words``: a game's ``Words.words`` from its literal ``_p`` calls alone.
    ``AsideError``, ``UnanswerableError``, ``GoldfishError``: errors a game may raise (a bad
    ``--aside``, a question its rules cannot answer, a game that cannot be played).
    ``nfkc``, ``word_key``: text normalisation used by names and keys; ``text_memo``: a key
    function (text → key) memoised within a bound in bytes, for text requests bring.

Cards and decks (``models``, ``resolve``, ``blank``, ``data``, ``checks``, ``slots``)
    ``Card``, ``Violation``, ``Severity``: a pool's card, a rule breach, "error" or "warning".
    ``number_key``: a card number's comparison key. ``is_blank``: a blank (placeholder) card.
    ``card_pool_dir``: the folder of the shipped card lists.
    ``Format``: a loaded format (its parameters, tables and check tables).
    ``Check``, ``CheckTable``, ``Row``, ``Placement``, ``SECTIONS``: a game's own check table
    (the TOML rows it reads; ``Placement``: where its cards go in the builder) and the shared
    deck sections (a game adds its own: ``Construction.sections``). ``CheckTable.order`` places a
    table among the core's, which run in ascending order: sections 100, copies 200-210,
    type_counts 400, attribute_limits 500, opening_checks 700, restrictions 800; the shipped
    games' own use 300 and 600-699. ``Context``, ``Slot``, ``card_counts``, ``first_line``,
    ``slots_total``, ``plural``: what a check sees of a deck: its resolved slots, per-card counts,
    the first line, totals, and ``plural`` (a count with its noun). ``breach``: the ``Violation`` of
    a rule by some slots (their cards named, the first of their lines), the one way a check reports.

Odds (``odds``)
    ``Atom``, ``parse_condition``: a parsed card selector (``name:X>=2``) and its parser.
    ``params_of``: a format's parameters with the defaults filled in.
    ``Mulligan``, ``Dealt``, ``Counting``, ``Sampling``, ``Floats``, ``Ints``: a game's own
    mulligan rule for the odds engine (NumPy) and the types it works with.

Goldfish: the reference engine (``goldfish.common``, ``policy``, ``setup``, ``trace``)
    ``Setup``: a deck ready to play: ``drawable`` (the main deck as (card, copies), without
    the cards set aside), ``aside``/``asides``, ``sections``, ``policy`` (the pilot), ``fast``
    and ``rules``: ``hand`` (opening hand size), ``draw_per_turn``, ``first_player_draws``,
    ``mulligan`` (the format's ``Mulligan``), ``forced`` (the forced-redraw selector or None),
    ``draws`` (the draw timeline: ``draws.before_main(turn, on_play)`` lists the turn's draws),
    ``params`` (every parameter the spec declares, the format's value else the default; read
    with ``param_int``/``param_bool``) and ``assumptions``.
    ``per_setup``, ``per_card``: a function memoised for the set-up being played, or per card.
    ``Policy``, ``Compiled``, ``ranker``: the pilot's model a game subclasses (a frozen
    pydantic model: ``name``, ``game``, ``keep``: conditions a kept hand meets, ``play_first``:
    selectors, ``mulligan``: whether to mulligan; a game adds its switches, and its
    ``SELECTORS`` names the keys ``Compiled`` parses), the pilot with its selectors parsed
    (``policy.rank(card, policy.play_first)``), and a one-lookup rank function for hot loops.
    ``Record``, ``DeckOut``, ``Keep``, ``keep_of``: a game's record, its loss, the keep rule.
    ``deal``, ``Opening``: every reference engine's deal (shuffle, hand, redeal mulligans, the
    trace told) and what it leaves. ``reference_engine``, ``GameArgs``: a ``play`` written as a
    function of one ``GameArgs`` (setup, policy, rng, turns, on_play, trace).
    ``expand``, ``shuffled``, ``shuffle``, ``redeal``, ``take``: the deck as a list of copies,
    shuffles (a ``Tape`` replays fixed numbers: the exact tests), a redeal, a card taken out.
    ``Tape``: a ``random.Random`` that plays a row of fixed numbers per shuffle.
    ``Trace``, ``Redeal``, ``gone``, ``card_names``, ``told``: a replay's step log
    (``play(..., trace=)``), a redeal step, the cards that left a zone, card names as printed,
    and a state line's fields shown alike (cards as their names, counts as they are).

Goldfish: a batch engine (``goldfish.compiling``, ``shuffles``, ``batch``)
    ``njit``: numba's ``njit`` with a cache keyed on every module the engine imports.
    ``batch_begin``, ``batch_start``, ``batch_below``, ``batch_shuffle``: the compiled random
    source every batch engine plays (numba's generator, or a tape in the exact tests).
    ``batch_engines``: ``(play_batch, play_tape)`` of a compiled whole-chunk ``play``.
    ``Result``, ``TapeArray``: a chunk's arrays, and the tape of fixed numbers.

Testing a game: ``deckcheck.sdk.testing`` (the engine-equality harness and a pytest plugin that
runs deckcheck's conformance suite on an installed game).
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING, Any

from deckcheck.errors import AsideError, UnanswerableError
from deckcheck.i18n import N_, _, _n, _p
from deckcheck.i18n import current as current_language
from deckcheck.normalize import nfkc, text_memo, word_key
from deckcheck.plugins.columns import CardColumn, Search, SearchHook
from deckcheck.plugins.contract import (
    COMMON_PARAMS,
    PLUGIN_API,
    BatchEngine,
    CardCheck,
    Cards,
    CardView,
    CheckTableView,
    CompiledView,
    Construction,
    Deal,
    Engine,
    FormatView,
    GameSpec,
    Param,
    ParamValue,
    Play,
    PolicyView,
    RecordView,
    SetupView,
    TapeEngine,
    Words,
    lazy,
)
from deckcheck.plugins.deal import COMMON_MULLIGANS, Aside, Draws, Loss, deck_out
from deckcheck.plugins.playtest import (
    Playtest,
    Step,
    Zone,
    deck_and_hand,
    draw_step,
    hand_limit_step,
)

if TYPE_CHECKING:  # the lazy names' types, for mypy (the table below loads them at run time)
    from deckcheck.blank import is_blank
    from deckcheck.checks.sections import SECTIONS
    from deckcheck.checks.table import Check, CheckTable, Placement, Row
    from deckcheck.data import card_pool_dir
    from deckcheck.formats import Format
    from deckcheck.goldfish.batch import Result
    from deckcheck.goldfish.batch import Tape as TapeArray
    from deckcheck.goldfish.batch import entry_points as batch_engines
    from deckcheck.goldfish.common import (
        DeckOut,
        GoldfishError,
        Keep,
        Record,
        Tape,
        expand,
        keep_of,
        redeal,
        shuffle,
        shuffled,
        take,
    )
    from deckcheck.goldfish.compiling import njit
    from deckcheck.goldfish.deal import GameArgs, Opening, deal, reference_engine
    from deckcheck.goldfish.memo import per_card
    from deckcheck.goldfish.policy import Compiled, Policy, ranker
    from deckcheck.goldfish.setup import Setup, per_setup
    from deckcheck.goldfish.shuffles import begin as batch_begin
    from deckcheck.goldfish.shuffles import below as batch_below
    from deckcheck.goldfish.shuffles import shuffle as batch_shuffle
    from deckcheck.goldfish.shuffles import start as batch_start
    from deckcheck.goldfish.trace import Redeal, Trace, gone, told
    from deckcheck.goldfish.trace import names as card_names
    from deckcheck.models import Card, Severity, Violation
    from deckcheck.odds.conditions import Atom, parse_condition
    from deckcheck.odds.mulligan import Counting, Dealt, Floats, Ints, Mulligan, Sampling
    from deckcheck.odds.setup import params_of
    from deckcheck.plugins.registry import name_key
    from deckcheck.resolve import number_key
    from deckcheck.slots import Context, Slot, breach, card_counts, first_line, plural
    from deckcheck.slots import total as slots_total
    from deckcheck.wording import a_an, game_words, listing, section_label, word, words

# name → "module" or "module:attribute" (where the attribute's name differs): the names loaded
# on first use. A literal: goldfish.compiling reads it without importing this module.
_LAZY = {
    "is_blank": "deckcheck.blank",
    "SECTIONS": "deckcheck.checks.sections",
    "Check": "deckcheck.checks.table",
    "CheckTable": "deckcheck.checks.table",
    "Placement": "deckcheck.checks.table",
    "Row": "deckcheck.checks.table",
    "card_pool_dir": "deckcheck.data",
    "Format": "deckcheck.formats",
    "name_key": "deckcheck.plugins.registry",
    "Result": "deckcheck.goldfish.batch",
    "TapeArray": "deckcheck.goldfish.batch:Tape",
    "batch_engines": "deckcheck.goldfish.batch:entry_points",
    "DeckOut": "deckcheck.goldfish.common",
    "GoldfishError": "deckcheck.goldfish.common",
    "Keep": "deckcheck.goldfish.common",
    "Record": "deckcheck.goldfish.common",
    "Tape": "deckcheck.goldfish.common",
    "expand": "deckcheck.goldfish.common",
    "keep_of": "deckcheck.goldfish.common",
    "redeal": "deckcheck.goldfish.common",
    "shuffle": "deckcheck.goldfish.common",
    "shuffled": "deckcheck.goldfish.common",
    "take": "deckcheck.goldfish.common",
    "njit": "deckcheck.goldfish.compiling",
    "Compiled": "deckcheck.goldfish.policy",
    "Policy": "deckcheck.goldfish.policy",
    "ranker": "deckcheck.goldfish.policy",
    "Setup": "deckcheck.goldfish.setup",
    "per_setup": "deckcheck.goldfish.setup",
    "per_card": "deckcheck.goldfish.memo",
    "batch_begin": "deckcheck.goldfish.shuffles:begin",
    "batch_below": "deckcheck.goldfish.shuffles:below",
    "batch_shuffle": "deckcheck.goldfish.shuffles:shuffle",
    "batch_start": "deckcheck.goldfish.shuffles:start",
    "Opening": "deckcheck.goldfish.deal",
    "GameArgs": "deckcheck.goldfish.deal",
    "deal": "deckcheck.goldfish.deal",
    "reference_engine": "deckcheck.goldfish.deal",
    "Redeal": "deckcheck.goldfish.trace",
    "Trace": "deckcheck.goldfish.trace",
    "gone": "deckcheck.goldfish.trace",
    "told": "deckcheck.goldfish.trace",
    "card_names": "deckcheck.goldfish.trace:names",
    "Card": "deckcheck.models",
    "Severity": "deckcheck.models",
    "Violation": "deckcheck.models",
    "Atom": "deckcheck.odds.conditions",
    "parse_condition": "deckcheck.odds.conditions",
    "Counting": "deckcheck.odds.mulligan",
    "Dealt": "deckcheck.odds.mulligan",
    "Floats": "deckcheck.odds.mulligan",
    "Ints": "deckcheck.odds.mulligan",
    "Mulligan": "deckcheck.odds.mulligan",
    "Sampling": "deckcheck.odds.mulligan",
    "params_of": "deckcheck.odds.setup",
    "number_key": "deckcheck.resolve",
    "Context": "deckcheck.slots",
    "Slot": "deckcheck.slots",
    "breach": "deckcheck.slots",
    "card_counts": "deckcheck.slots",
    "first_line": "deckcheck.slots",
    "plural": "deckcheck.slots",
    "slots_total": "deckcheck.slots:total",
    "a_an": "deckcheck.wording",
    "game_words": "deckcheck.wording",
    "listing": "deckcheck.wording",
    "section_label": "deckcheck.wording",
    "word": "deckcheck.wording",
    "words": "deckcheck.wording",
}


def __getattr__(name: str) -> Any:
    """A lazy name, imported on first use and kept (PEP 562)."""
    target = _LAZY.get(name)
    if target is None:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")  # i18n: machine
    module, _sep, attribute = target.partition(":")
    value = getattr(importlib.import_module(module), attribute or name)
    globals()[name] = value
    return value


def __dir__() -> list[str]:
    return sorted(__all__)


__all__ = [
    "COMMON_MULLIGANS",
    "COMMON_PARAMS",
    "N_",
    "PLUGIN_API",
    "SECTIONS",
    "Aside",
    "AsideError",
    "Atom",
    "BatchEngine",
    "Card",
    "CardCheck",
    "CardColumn",
    "CardView",
    "Cards",
    "Check",
    "CheckTable",
    "CheckTableView",
    "Compiled",
    "CompiledView",
    "Construction",
    "Context",
    "Counting",
    "Deal",
    "Dealt",
    "DeckOut",
    "Draws",
    "Engine",
    "Floats",
    "Format",
    "FormatView",
    "GameArgs",
    "GameSpec",
    "GoldfishError",
    "Ints",
    "Keep",
    "Loss",
    "Mulligan",
    "Opening",
    "Param",
    "ParamValue",
    "Placement",
    "Play",
    "Playtest",
    "Policy",
    "PolicyView",
    "Record",
    "RecordView",
    "Redeal",
    "Result",
    "Row",
    "Sampling",
    "Search",
    "SearchHook",
    "Setup",
    "SetupView",
    "Severity",
    "Slot",
    "Step",
    "Tape",
    "TapeArray",
    "TapeEngine",
    "Trace",
    "UnanswerableError",
    "Violation",
    "Words",
    "Zone",
    "_",
    "_n",
    "_p",
    "a_an",
    "batch_begin",
    "batch_below",
    "batch_engines",
    "batch_shuffle",
    "batch_start",
    "breach",
    "card_counts",
    "card_names",
    "card_pool_dir",
    "current_language",
    "deal",
    "deck_and_hand",
    "deck_out",
    "draw_step",
    "expand",
    "first_line",
    "game_words",
    "gone",
    "hand_limit_step",
    "is_blank",
    "keep_of",
    "lazy",
    "listing",
    "name_key",
    "nfkc",
    "njit",
    "number_key",
    "params_of",
    "parse_condition",
    "per_card",
    "per_setup",
    "plural",
    "ranker",
    "redeal",
    "reference_engine",
    "section_label",
    "shuffle",
    "shuffled",
    "slots_total",
    "take",
    "text_memo",
    "told",
    "word",
    "word_key",
    "words",
]
