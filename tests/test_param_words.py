"""Format parameters by their labels (issue 34, item 3): ``formats show`` and the assumption
lines of odds, hand and goldfish name a parameter by its label in the language, the id after
it in brackets for those who edit format files: 「初手の枚数（opening_hand） = 7」, English
``opening hand (opening_hand) = 7``; never a bare id inside a Japanese sentence
(「仮定：first_player_draws = False」). Checked on every shipped format."""

from __future__ import annotations

import re

import pytest

from deckcheck import decklist, plugins
from deckcheck.formats import Format
from deckcheck.formats.registry import default_registry
from deckcheck.goldfish.policy import default_policy
from deckcheck.goldfish.run import GoldfishRequest, goldfish
from deckcheck.i18n import override
from deckcheck.odds.setup import rules_of
from deckcheck.resolve import CardIndex
from tests.conftest import EXAMPLES
from tests.conftest import SHIPPED as SHIPPED_GAMES
from tests.test_formats_words import SHIPPED, _shown

INNERMOST = re.compile(r"（[^（）]*）")
ASCII_WORD = re.compile(r"[A-Za-z_][A-Za-z0-9_]*")
# the deck each shipped format plays in these tests (a format without an example of its own
# plays its game's)
DECKS = {
    "chaos-neo-standard": "chaos-neo-standard-legal.deck",
    "chaos-standard": "chaos-standard-legal.deck",
    "iris-standard": "iris-standard-legal.deck",
    "iris-unit-command": "iris-standard-legal.deck",
    "rakuen-standard": "rakuen-standard-legal.deck",
    "rakuen-standard-1.0": "rakuen-standard-legal.deck",
    "vision-standard": "vision-standard-legal.deck",
}


def bare_ids(text: str, ids: set[str]) -> list[str]:
    """The lines of ``text`` that name one of ``ids`` outside full-width brackets （…）, with
    the brackets taken out (a bracket may run onto the next line where the console wraps)."""
    outside = text
    while (stripped := INNERMOST.sub("", outside)) != outside:
        outside = stripped
    return [line for line in outside.splitlines() if set(ASCII_WORD.findall(line)) & ids]


def _param_ids(game: str) -> set[str]:
    return set(plugins.get(game).construction.all_params())


def test_the_check_finds_a_bare_parameter_id() -> None:
    ids = {"first_player_draws", "opening_hand", "leaders"}
    assert bare_ids("  仮定：first_player_draws = False（ファン情報）", ids)
    assert bare_ids("自分の場に最大 `leaders` 枚", ids)
    assert bare_ids("deckcheckの解釈 (node_ready = never では、…（leaders）)", {"node_ready"})
    assert not bare_ids("  仮定：初手の枚数（opening_hand） = 7（ファン情報のみ）", ids)
    assert not bare_ids("（ノードがアクティブに戻るとき（node_ready）を never にすると）", ids)


def test_every_parameter_has_a_label_in_each_language() -> None:
    from deckcheck.formats.params import param_name

    for spec in map(plugins.get, SHIPPED_GAMES):  # a plugin labels its own, or shows the id
        for key in spec.construction.all_params():
            with override("en"):
                english = param_name(spec.id, key)
            with override("ja"):
                japanese = param_name(spec.id, key)
            assert english.endswith(f" ({key})") and len(english) > len(key) + 3, english
            assert japanese.endswith(f"（{key}）") and not bare_ids(japanese, {key}), japanese
            assert re.search(r"[ぁ-んァ-ヶ一-龯]", japanese), japanese


@pytest.mark.parametrize("format_id", SHIPPED)
def test_formats_show_names_parameters_by_their_labels(format_id: str) -> None:
    fmt = default_registry().get(format_id)
    text = _shown(fmt, "ja")
    assert bare_ids(text, _param_ids(fmt.game)) == []
    lines = [line for line in text.splitlines() if re.match(r"^  \S.*（\w+） = ", line)]
    assert len(lines) == len(fmt.parameters), text
    english = _shown(fmt, "en")
    key = next(iter(fmt.parameters))
    assert f" ({key}) = " in english


def _assumption_lines(fmt: Format, index: CardIndex) -> list[str]:
    """What odds and hand (the deal's rules) and goldfish (its result) print after 仮定："""
    deck = decklist.parse((EXAMPLES / DECKS[fmt.id]).read_text(encoding="utf-8"))
    played = goldfish(deck, fmt, index, default_policy(fmt.game), GoldfishRequest(games=4, turns=1))
    return [*rules_of(fmt).assumptions, *played.assumptions]


@pytest.mark.parametrize("format_id", SHIPPED)
def test_assumption_lines_name_parameters_by_their_labels(
    format_id: str, index: CardIndex
) -> None:
    fmt = default_registry().get(format_id)
    with override("ja"):
        lines = _assumption_lines(fmt, index)
    assert lines
    assert bare_ids("\n".join(lines), _param_ids(fmt.game)) == []


def test_vision_assumptions_read_as_the_issue_asks() -> None:
    fmt = default_registry().get("vision-standard")
    with override("ja"):
        ja = "\n".join(rules_of(fmt).assumptions)
    with override("en"):
        en = "\n".join(rules_of(fmt).assumptions)
    assert "初手の枚数（opening_hand） = 7（" in ja
    assert "先攻1ターン目のドロー（first_player_draws） = false（" in ja
    assert "opening hand (opening_hand) = 7 (" in en
