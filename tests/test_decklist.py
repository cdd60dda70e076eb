"""Deck list parsing and printing: the text and JSON forms, bad input, round trips."""

from __future__ import annotations

import json

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from deckcheck import decklist
from deckcheck.decks import DeckInputError, parse_bytes
from deckcheck.models import SECTIONS, DeckEntry, DeckList


def entries(deck: DeckList) -> list[tuple[str, int, str, int | None]]:
    return [(e.section, e.count, e.ref, e.line) for e in deck.entries]


def test_text_form() -> None:
    text = """\ufeffformat: rakuen-standard
# comment
4 SAMPLE-R-001
4x 蒼の定理者 見本アリア   # inline comment
[ gate ]
2 SAMPLE-R-G01

２ｘ SAMPLE-R-G02
[main]
1 SAMPLE-R-001
"""
    deck = decklist.parse_text(text)
    assert deck.format == "rakuen-standard"
    assert deck.problems == []
    assert entries(deck) == [
        ("main", 5, "SAMPLE-R-001", 3),  # repeated cards add up; the first line stays
        ("main", 4, "蒼の定理者 見本アリア", 4),
        ("gate", 2, "SAMPLE-R-G01", 6),
        ("gate", 2, "SAMPLE-R-G02", 8),
    ]
    assert deck.section_lines == {"gate": 5, "main": 9}


@pytest.mark.parametrize(
    ("line", "message"),
    [
        ("four SAMPLE-C-001", "not a card line"),
        ("-1 SAMPLE-C-001", "not a whole number from 1"),
        ("0 SAMPLE-C-001", "not a whole number from 1"),
        ("99999999999999999999 SAMPLE-C-001", "not a whole number from 1"),
        ("[sideboard2]", "unknown section"),
        ("SAMPLE-C-001", "not a card line"),
    ],
)
def test_syntax_problems_name_their_line(line: str, message: str) -> None:
    deck = decklist.parse_text(f"format: chaos-standard\n4 SAMPLE-C-002\n{line}\n1 SAMPLE-C-003\n")
    (problem,) = deck.problems
    assert problem.rule == "deck/syntax" and problem.line == 3 and message in problem.message
    assert next(e.ref for e in deck.entries) == "SAMPLE-C-002"


def test_cards_under_an_unknown_section_are_not_counted() -> None:
    deck = decklist.parse_text("[maybe]\n4 SAMPLE-C-001\n[main]\n1 SAMPLE-C-002\n")
    assert entries(deck) == [("main", 1, "SAMPLE-C-002", 4)]
    assert len(deck.problems) == 1


def test_json_form_with_lines() -> None:
    text = json.dumps(
        {
            "format": "chaos-standard",
            "main": [{"count": 4, "card": "SAMPLE-C-001"}, {"count": 1, "card": "見本キャラ 02"}],
            "extra": [{"count": 2, "card": "SAMPLE-C-X01"}],
        },
        ensure_ascii=False,
        indent=2,
    )
    deck = decklist.parse(text)
    assert deck.format == "chaos-standard"
    assert [(e.section, e.count, e.ref) for e in deck.entries] == [
        ("main", 4, "SAMPLE-C-001"),
        ("main", 1, "見本キャラ 02"),
        ("extra", 2, "SAMPLE-C-X01"),
    ]
    lines = text.splitlines()
    for e in deck.entries:
        assert e.line is not None and e.ref in lines[e.line - 1]


@pytest.mark.parametrize(
    "text",
    [
        "{",
        "[]",
        '{"main": 3}',
        '{"main": [{"count": -1, "card": "X"}]}',
        '{"main": [{"count": true, "card": "X"}]}',
        '{"main": [{"count": 2}]}',
        '{"main": ["X"]}',
        '{"bogus": []}',
        '{"format": 5}',
    ],
)
def test_bad_json_decks_are_violations(text: str) -> None:
    deck = decklist.parse(text) if text.startswith("{") else decklist.parse_json(text)
    assert deck.problems and all(p.rule == "deck/syntax" for p in deck.problems)


def test_shift_jis_is_read_with_a_warning() -> None:
    deck = parse_bytes("4 見本キャラ 01\n".encode("cp932"), "sjis.deck")
    assert deck.entries[0].ref == "見本キャラ 01"
    assert deck.problems[0].rule == "deck/encoding" and deck.problems[0].severity == "warning"


@pytest.mark.parametrize("raw", [b"\x00\x01\x02binary", b"\x89PNG\r\n\x1a\n\x00\x00"])
def test_binary_is_an_input_error(raw: bytes) -> None:
    with pytest.raises(DeckInputError, match="binary"):
        parse_bytes(raw, "x.deck")


# --- properties --------------------------------------------------------------------------

# A card reference is any text a line can carry: no line breaks, no " #" or " //" and no ← or ※
# (a comment, a player's note), no surrounding white space.
_ref = (
    st.text(st.characters(blacklist_categories=("Cc", "Cs", "Zl", "Zp")), min_size=1, max_size=30)
    .map(lambda s: " ".join(s.replace("#", "＃").replace("←", "<").replace("※", "*").split()))
    .filter(lambda s: bool(s) and not s.startswith(("[", "＃", "//")) and " //" not in s)
    .filter(lambda s: s == s.strip())
)
_entry = st.builds(
    DeckEntry,
    section=st.sampled_from(SECTIONS),
    count=st.integers(min_value=1, max_value=decklist.MAX_COUNT),
    ref=_ref,
)


def _canonical(deck: DeckList) -> list[tuple[str, int, str]]:
    merged: dict[tuple[str, str], int] = {}
    for e in deck.entries:
        merged[(e.section, e.ref)] = merged.get((e.section, e.ref), 0) + e.count
    return sorted((s, n, r) for (s, r), n in merged.items())


@settings(max_examples=300, deadline=None)
@given(
    st.lists(_entry, max_size=20, unique_by=lambda e: (e.section, e.ref)),
    st.sampled_from([None, "chaos-standard", "iris-standard"]),
)
def test_print_parse_round_trip(items: list[DeckEntry], fmt: str | None) -> None:
    original = DeckList(format=fmt, entries=items)
    parsed = decklist.parse_text(decklist.print_text(original))
    assert parsed.problems == []
    assert parsed.format == fmt
    assert _canonical(parsed) == _canonical(original)
    again = decklist.parse_json(json.dumps(decklist.to_json(parsed), ensure_ascii=False))
    assert again.problems == []
    assert _canonical(again) == _canonical(original)


@settings(max_examples=500, deadline=None)
@given(st.binary(max_size=2000))
def test_random_bytes_never_raise(raw: bytes) -> None:
    try:
        deck = parse_bytes(raw, "random.deck")
    except DeckInputError:
        return
    assert all(p.rule.startswith("deck/") for p in deck.problems)


@settings(max_examples=300, deadline=None)
@given(st.text(max_size=500))
def test_random_text_never_raises(text: str) -> None:
    deck = decklist.parse(text)
    for e in deck.entries:
        assert e.count > 0 and e.ref.strip() == e.ref and e.section in SECTIONS
