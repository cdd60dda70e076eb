"""deckcheck's conformance suite (``deckcheck.sdk.testing``, the pytest plugin a game package
runs on itself) on every installed game: the shipped four, and any plugin installed beside
them."""

from __future__ import annotations

from dataclasses import replace
from typing import Any

import numpy as np
import pytest

from deckcheck import plugins
from deckcheck.formats.registry import FormatRegistry
from deckcheck.resolve import CardIndex
from deckcheck.sdk import GameSpec
from deckcheck.sdk.testing import Conformance, spec_problems
from tests.conftest import SHIPPED


def test_the_shipped_games_are_installed() -> None:
    assert set(SHIPPED) <= set(plugins.ids())


class TestEveryInstalledGame(Conformance):
    @pytest.fixture(scope="class", params=plugins.ids())
    @classmethod
    def game_spec(cls, request: pytest.FixtureRequest) -> GameSpec:
        return plugins.get(str(request.param))


# --- the suite can fail: a game whose engines break a rule it checks -----------------------


def _suite() -> Conformance:
    return TestEveryInstalledGame()


def test_a_game_that_never_loses_fails_the_deck_out_check(
    deckcheck_formats: FormatRegistry, deckcheck_index: CardIndex
) -> None:
    iris = plugins.get("iris")

    def never_loses(*args: Any) -> Any:
        record = iris.play.play(*args)
        record.loss, record.loss_turn = None, 0
        return record

    with pytest.raises(AssertionError, match="None"):
        _suite().test_games_end_by_a_declared_loss(
            replace(iris, play=replace(iris.play, play=never_loses)), deckcheck_formats, deckcheck_index
        )


def test_a_batch_engine_that_differs_fails_the_tape_check(
    deckcheck_formats: FormatRegistry, deckcheck_index: CardIndex
) -> None:
    iris = plugins.get("iris")
    assert iris.play.play_tape is not None
    play_tape = iris.play.play_tape

    def one_milestone_late(*args: Any) -> tuple[Any, ...]:
        metrics, milestones, *rest = play_tape(*args)
        return (metrics, np.where(milestones > 0, milestones + 1, 0), *rest)

    with pytest.raises(AssertionError, match="milestones differs"):
        _suite().test_the_engines_agree_on_tapes(
            replace(iris, play=replace(iris.play, play_tape=one_milestone_late)), deckcheck_formats, deckcheck_index
        )


def test_spec_problems_names_what_is_wrong() -> None:
    iris = plugins.get("iris")
    assert spec_problems(iris) == []
    play = replace(iris.play, play_tape=None, metrics=("a", "a"))
    bad = replace(iris, id="Bad Id", plugin_api="3.0", play=play)
    assert spec_problems(bad) == [
        "id 'Bad Id': a-z, 0-9, - and _, a letter first, at most 40",
        "plugin_api '3.0': this deckcheck offers '2.0'",
        "metrics: a name given twice: ['a', 'a']",
        "play_batch without play_tape: the batch engine cannot be held to play",
    ]
