"""The reference engines' shared prologue (``deckcheck.sdk.reference_engine`` and ``GameArgs``,
goldfish/deal.py): a game's ``play`` is written as a function of one ``GameArgs`` and still takes
the contract's arguments (``contract.Engine``), by position or by name (the engine module's
``play``: ``GameSpec.play`` is loaded lazily and forwards positional arguments only)."""

from __future__ import annotations

import importlib
import random
from pathlib import Path
from typing import Any

import pytest

from deckcheck import decks, plugins
from deckcheck.formats.registry import FormatRegistry
from deckcheck.goldfish.policy import Compiled
from deckcheck.goldfish.run import prepare
from deckcheck.resolve import CardIndex
from deckcheck.sdk import GameArgs, Record, reference_engine

EXAMPLES = Path(__file__).resolve().parent.parent / "examples"


def test_the_body_gets_the_arguments_as_one_play() -> None:
    seen: list[GameArgs] = []

    @reference_engine
    def play(game: GameArgs) -> Record:
        """A toy engine: one metric, the turns it was asked for."""
        seen.append(game)
        return Record(metrics=[(game.turns,)])

    rng = random.Random(1)
    setup: Any = object()
    pilot: Any = object()
    assert play(setup, pilot, rng, 3, True).metrics == [(3,)]
    assert seen[-1] == GameArgs(setup, pilot, rng, 3, True, None)
    play(setup=setup, policy=pilot, rng=rng, turns=2, on_play=False, trace=None)
    assert seen[-1] == GameArgs(setup, pilot, rng, 2, False, None)
    assert (play.__name__, play.__doc__) == (
        "play",
        "A toy engine: one metric, the turns it was asked for.",
    )
    with pytest.raises(TypeError):
        play(setup, pilot, rng, 3)  # on_play missing


@pytest.mark.parametrize(
    "fmt_id", ["chaos-standard", "rakuen-standard", "vision-standard", "iris-standard"]
)
def test_every_games_play_takes_the_contracts_arguments_by_name(
    fmt_id: str, deckcheck_formats: FormatRegistry, deckcheck_index: CardIndex
) -> None:
    fmt = deckcheck_formats.get(fmt_id)
    spec = plugins.get(fmt.game)
    deck = decks.read(EXAMPLES / f"{fmt_id}-legal.deck")
    setup = prepare(deck, fmt, deckcheck_index, spec.play.default_policy)
    pilot = Compiled(setup.policy, fmt.game)
    play = importlib.import_module(f"deckcheck.games.{fmt.game}.engine").play
    by_position = play(setup, pilot, random.Random(7), 8, False)
    by_name = play(
        setup=setup, policy=pilot, rng=random.Random(7), turns=8, on_play=False, trace=None
    )
    assert by_name == by_position
    assert 0 < len(by_position.metrics) <= 8
    assert len(by_position.milestones) == len(spec.play.milestones)
