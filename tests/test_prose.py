"""The prose checker the Japanese tests rely on finds English and lets data through."""

from __future__ import annotations

from prose import english_words


def test_finds_english_prose() -> None:
    assert english_words("the deck has 9 cards; it needs 8") == [
        "the", "deck", "has", "cards", "it", "needs"
    ]


def test_lets_data_through() -> None:
    text = (
        "vision/copies: 博麗 霊夢 ×4 (N1374) はデッキに3枚まで。--lang ja, "
        "formats/vision-standard.toml, SAMPLE-C-001, first_character, deckcheck"
    )
    assert english_words(text) == []


def test_allowed_card_names() -> None:
    assert english_words("East Opera 2008 は入れられない", allowed=["East Opera 2008"]) == []
    assert english_words("East Opera 2008 は入れられない") == ["East", "Opera"]
