"""deckcheck's conformance suite for a game, as a pytest plugin, with the engine-equality harness.

A game package runs it on itself. In its tests::

    pytest_plugins = ["deckcheck.sdk.testing"]  # the fixtures below (in a test module or the
                                                # package's top-level conftest)
    from deckcheck.sdk.testing import Conformance

    class TestKite(Conformance):
        game = "kite"

and pytest collects the suite's tests for that game:

- ``test_the_spec_is_sound``: ``spec_problems`` finds nothing (its id, the plugin API version
  it declares, its pilot, metrics, losses, parameters, engines);
- ``test_every_format_loads``: the game has a format, and each of its formats (the shipped
  folders, ``$DECKCHECK_FORMATS`` and the game's own ``data/formats``) loads;
- ``test_the_examples_have_their_verdicts``: each ``examples/<format>-legal.deck`` is legal
  and each ``examples/<format>-illegal.deck`` is not (the game's ``data/examples``,
  deckcheck's own);
- ``test_the_engines_agree_on_tapes``: on each legal example, on the play and on the draw, the
  batch engine (``play_tape``) plays the reference's games record for record from one tape of
  random numbers (``same_games``); skipped for a game with no batch engine;
- ``test_games_end_by_a_declared_loss``: games played long enough to empty the deck all end by
  a loss the spec declares, the turn after the last recorded one, on both engines (the
  deck-out check).

A subclass may change ``games``, ``turns`` and ``rows`` (the tape's shuffles per game: more
for a game that redeals often) or override the ``game_spec`` fixture (deckcheck's own tests
parametrise it over every installed game).

The harness a game's own tests use is here too: ``same_games``, ``stacked_games``,
``chunks_agree``, ``production_chunks``, ``deck_out_turn``, ``decks_out``, ``tapes``
(``deckcheck.sdk.agreement``).
"""

from __future__ import annotations

import random
import re
from collections.abc import Iterator
from pathlib import Path
from typing import ClassVar

import pytest

from deckcheck import data, decklist, plugins
from deckcheck.formats import Format
from deckcheck.formats.registry import FormatRegistry, read_raw
from deckcheck.goldfish.common import Record
from deckcheck.goldfish.policy import Compiled, Policy, default_policy
from deckcheck.goldfish.run import prepare
from deckcheck.goldfish.setup import Setup
from deckcheck.models import DeckList
from deckcheck.plugins.contract import COMMON_PARAMS, PLUGIN_API, GameSpec
from deckcheck.plugins.registry import api_fits
from deckcheck.pool.store import Pool
from deckcheck.resolve import CardIndex
from deckcheck.sdk.agreement import (
    DeckOut,
    agree,
    chunks_agree,
    deck_out_turn,
    decks_out,
    production_chunks,
    reference_chunk,
    same_games,
    stacked_games,
    tapes,
)
from deckcheck.validate import validate

__all__ = [
    "Conformance",
    "DeckOut",
    "agree",
    "chunks_agree",
    "deck_out_turn",
    "deckcheck_formats",
    "deckcheck_index",
    "decks_out",
    "examples",
    "formats_of",
    "production_chunks",
    "reference_chunk",
    "same_games",
    "spec_problems",
    "stacked_games",
    "tapes",
]

_ID = re.compile(r"^[a-z][a-z0-9_-]{0,39}$")


def spec_problems(spec: GameSpec) -> list[str]:
    """What is wrong with a spec, in words (empty: nothing the core can see before playing)."""
    out: list[str] = []
    if not _ID.match(spec.id):
        out.append(f"id {spec.id!r}: a-z, 0-9, - and _, a letter first, at most 40")
    if not api_fits(spec.plugin_api):
        out.append(f"plugin_api {spec.plugin_api!r}: this deckcheck offers {PLUGIN_API!r}")
    if not spec.cards.card_types:
        out.append("card_types: none")
    if not (isinstance(spec.play.policy, type) and issubclass(spec.play.policy, Policy)):
        out.append("policy: not a subclass of deckcheck.sdk.Policy")
    elif not isinstance(spec.play.default_policy, spec.play.policy):
        out.append("default_policy: not an instance of the spec's policy")
    for what, names in (
        ("metrics", spec.play.metrics),
        ("milestones", spec.play.milestones),
        ("losses", tuple(loss.name for loss in spec.play.losses)),
    ):
        if len(set(names)) != len(names):
            out.append(f"{what}: a name given twice: {list(names)}")
    for name, param in spec.construction.params.items():
        if name in COMMON_PARAMS:
            out.append(f"params: {name!r} is a common parameter")
        elif param.default is not None and type(param.default) is not param.type:
            out.append(f"params: {name!r} defaults to a {type(param.default).__name__}")
    if spec.play.play_batch is not None and spec.play.play_tape is None:
        out.append("play_batch without play_tape: the batch engine cannot be held to play")
    for name, target in spec.deal.mulligans.items():
        if target.count(":") != 1:
            out.append(f"mulligans: {name!r} → {target!r} is not 'module:attribute'")
    return out


def formats_of(spec: GameSpec, registry: FormatRegistry) -> list[Format]:
    """The game's formats, loaded (a format that does not load fails here, by its message);
    another game's formats are not read beyond their ``game`` and ``extends``."""
    paths = registry.paths()

    def game_of(fid: str, depth: int = 0) -> object:
        raw = read_raw(paths[fid])
        parent = raw.get("extends")
        if "game" in raw or not isinstance(parent, str) or parent not in paths or depth > 20:
            return raw.get("game")
        return game_of(parent, depth + 1)

    return [registry.get(fid) for fid in sorted(paths) if game_of(fid) == spec.id]


def examples(fmt: Format) -> Iterator[tuple[Path, bool]]:
    """The example decks of a format, with the verdict each must have: (path, legal)."""
    for folder in data.example_dirs():
        for verdict in (True, False):
            path = folder / f"{fmt.id}-{'legal' if verdict else 'illegal'}.deck"
            if path.is_file():
                yield path, verdict


def _deck(path: Path) -> DeckList:
    return decklist.parse(path.read_text(encoding="utf-8"), path.name)


@pytest.fixture(scope="session")
def deckcheck_index(tmp_path_factory: pytest.TempPathFactory) -> Iterator[CardIndex]:
    """The cards of a new pool, as ``pool init`` builds it: every installed game's."""
    with Pool(tmp_path_factory.mktemp("deckcheck-pool") / "pool.sqlite3") as pool:
        yield CardIndex(pool.all_cards(), names=pool.names)


@pytest.fixture(scope="session")
def deckcheck_formats() -> FormatRegistry:
    """Every format deckcheck finds: the shipped ones, ``$DECKCHECK_FORMATS``, the games'."""
    return FormatRegistry(data.format_dirs())


class Conformance:
    """deckcheck's conformance suite for the game ``game`` (see the module's docstring)."""

    game: ClassVar[str] = ""
    games: ClassVar[int] = 300  # games per example deck and side on both engines
    turns: ClassVar[int] = 10
    rows: ClassVar[int] = 16  # shuffles per game on the tape (each mulligan or redeal is one)

    @pytest.fixture(scope="class")
    @classmethod
    def game_spec(cls) -> GameSpec:
        return plugins.get(cls.game)

    def _legal(self, spec: GameSpec, registry: FormatRegistry) -> list[tuple[Format, Path]]:
        found = [(f, p) for f in formats_of(spec, registry) for p, ok in examples(f) if ok]
        assert found, f"game {spec.id!r}: no <format>-legal.deck example to play"
        return found

    def _setup(self, spec: GameSpec, fmt: Format, path: Path, index: CardIndex) -> Setup:
        return prepare(_deck(path), fmt, index, default_policy(spec.id))

    def test_the_spec_is_sound(self, game_spec: GameSpec) -> None:
        assert spec_problems(game_spec) == []

    def test_every_format_loads(
        self, game_spec: GameSpec, deckcheck_formats: FormatRegistry
    ) -> None:
        loaded = formats_of(game_spec, deckcheck_formats)
        assert loaded, f"game {game_spec.id!r} has no format"
        assert all(f.game == game_spec.id for f in loaded)

    def test_the_examples_have_their_verdicts(
        self, game_spec: GameSpec, deckcheck_formats: FormatRegistry, deckcheck_index: CardIndex
    ) -> None:
        checked = 0
        for fmt in formats_of(game_spec, deckcheck_formats):
            for path, legal in examples(fmt):
                report = validate(_deck(path), fmt, deckcheck_index)
                assert report.legal is legal, (path.name, [v.message for v in report.violations])
                checked += 1
        assert checked, f"game {game_spec.id!r}: no example deck"

    def test_the_engines_agree_on_tapes(
        self, game_spec: GameSpec, deckcheck_formats: FormatRegistry, deckcheck_index: CardIndex
    ) -> None:
        if game_spec.play.play_tape is None:
            pytest.skip(f"game {game_spec.id!r} has no batch engine")
        played = 0
        tape = game_spec.play.play_tape
        for fmt, path in self._legal(game_spec, deckcheck_formats):
            setup = self._setup(game_spec, fmt, path, deckcheck_index)
            if game_spec.play.batch_ok is not None and not game_spec.play.batch_ok(setup):
                continue
            for on_play in (True, False):
                same_games(tape, setup, self.games, self.turns, on_play, 7, self.rows)
            played += 1
        assert played, f"game {game_spec.id!r}: its batch engine plays no example deck"

    def test_games_end_by_a_declared_loss(
        self, game_spec: GameSpec, deckcheck_formats: FormatRegistry, deckcheck_index: CardIndex
    ) -> None:
        if not game_spec.play.losses:
            pytest.skip(f"game {game_spec.id!r} declares no way to lose")
        fmt, path = self._legal(game_spec, deckcheck_formats)[0]
        setup = self._setup(game_spec, fmt, path, deckcheck_index)
        turns = 3 * sum(n for _, n in setup.drawable) + 10
        names = [loss.name for loss in game_spec.play.losses]
        policy = Compiled(setup.policy, setup.game)
        for seed in range(20):
            record = game_spec.play.play(setup, policy, random.Random(seed), turns, True)
            assert isinstance(record, Record)
            assert record.loss in names, (seed, record.loss)
            assert len(record.metrics) == record.loss_turn - 1, (seed, record.loss_turn)
        if game_spec.play.play_tape is not None and (
            game_spec.play.batch_ok is None or game_spec.play.batch_ok(setup)
        ):
            chunk = same_games(game_spec.play.play_tape, setup, 20, turns, True, 11, self.rows)
            assert (chunk.loss > 0).all() and (chunk.loss <= len(names)).all()
