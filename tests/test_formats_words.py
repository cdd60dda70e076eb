"""``deckcheck formats show`` in Japanese names sections, card types and keys by the game's
words, each id only in brackets after its word, for editors of format files (issue 34, item 3):
「メインデッキ（main）：50枚」, not 「main: 50枚」. English prints the ids as the files write them.
Checked on every shipped format."""

from __future__ import annotations

import io
import re

import pytest
from rich.console import Console

from deckcheck import plugins
from deckcheck.cli import show
from deckcheck.formats import COPY_KEYS, Format
from deckcheck.formats.registry import default_registry
from deckcheck.i18n import override
from tests.conftest import ROOT

SHIPPED = sorted(p.stem for p in (ROOT / "formats").glob("*.toml"))
BRACKETS = re.compile(r"（[^（）]*）")
ASCII_WORD = re.compile(r"[A-Za-z_][A-Za-z0-9_+-]*")
RULE_LINE = re.compile(r"^  (\S+/\S+|-)  (.+)$")  # "  rakuen/main-size  main: 50枚"


def _shown(fmt: Format, lang: str) -> str:
    registry = default_registry()
    out = io.StringIO()
    with override(lang):
        show.format_detail(Console(file=out, width=300), fmt, registry.family(fmt.id))
    return out.getvalue()


def _ids(fmt: Format) -> set[str]:
    """Every id a format file writes that a sentence could name: its sections, its game's card
    types and columns, the copy keys."""
    spec = plugins.get(fmt.game)
    return (
        {s.name for s in fmt.sections} | {"main", "extra", "gate", "side"}
        | set(spec.cards.card_types) | {c.name for c in spec.cards.columns}
        | set(COPY_KEYS) | set(spec.cards.copy_keys)
    )  # fmt: skip


def ids_in_prose(text: str, ids: set[str]) -> list[str]:
    """The rule lines of ``formats show`` output that name an id outside brackets."""
    found = []
    for line in text.splitlines():
        if line.startswith(("keywords", "キーワード")):
            break  # the keyword table: keywords as printed on cards
        rule = RULE_LINE.match(line)
        if rule and set(ASCII_WORD.findall(BRACKETS.sub("", rule.group(2)))) & ids:
            found.append(line)
    return found


def test_the_check_finds_an_id_in_a_sentence() -> None:
    ids = {"main", "paradox", "name"}
    assert ids_in_prose("  rakuen/main-types  main: member, tactics, paradoxのみ\n", ids)
    assert ids_in_prose("  rakuen/copies  mainで同じnameは4枚まで\n", ids)
    assert not ids_in_prose("  rakuen/main-size  メインデッキ（main）：50枚\n", ids)
    assert not ids_in_prose("  opening_hand = 5  ch.2 §2\n", ids)  # a parameter line


@pytest.mark.parametrize("format_id", SHIPPED)
def test_japanese_names_no_id_in_a_sentence(format_id: str) -> None:
    fmt = default_registry().get(format_id)
    text = _shown(fmt, "ja")
    rules = [line for line in text.splitlines() if RULE_LINE.match(line)]
    assert len(rules) >= 3, text
    assert ids_in_prose(text, _ids(fmt)) == []


def test_japanese_words_come_with_their_ids() -> None:
    text = _shown(default_registry().get("rakuen-standard"), "ja")
    assert "メインデッキ（main）：50枚" in text
    assert "メインデッキ（main）：メンバー・戦術・逆理（member, tactics, paradox）のみ" in text
    assert "メインデッキ（main）で同じカード名（name）は4枚まで" in text
    assert "門ナンバー（gate_number）ごとに2枚まで" in text
    vision = _shown(default_registry().get("vision-standard"), "ja")
    assert "サイドボード（side）：0枚または10枚" in vision


def test_english_prints_the_ids_as_files_write_them() -> None:
    text = _shown(default_registry().get("rakuen-standard"), "en")
    assert "main: 50 cards" in text
    assert "main: only member, tactics, paradox" in text
    assert "at most 4 of one name in main" in text
    assert "（" not in text
