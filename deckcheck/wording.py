"""Wording shared by deckcheck's messages: the English article, and each game's own words for
its card types, deck sections and name (the catalogue's ``msgctxt`` is the game id, so each
game's Japanese is its rulebook's word: ChaosTCG キャラ, ラクエンロジック 逆理, VISION スペル)."""

from __future__ import annotations

from collections.abc import Callable, Iterable

from deckcheck.i18n import _, _p, current

# words spelt with a vowel letter that sound as "you" or "won" take "a" (a unit, a user)
_CONSONANT_SOUND = ("uni", "use", "usu", "uti", "eu", "one")


def a_an(word: str) -> str:
    """``word`` after its indefinite article: "an event", "a card", "an int", "a unit". Other
    languages have no article: the word alone."""
    if current() != "en":
        return word
    low = word.casefold()
    vowel = low[:1] in {"a", "e", "i", "o", "u"} and not low.startswith(_CONSONANT_SOUND)
    return f"{'an' if vowel else 'a'} {word}"


# Each game's words, as literal ``_p`` calls so the catalogue extracts them. A function, not a
# constant: ``_p`` translates into the language of the moment. Sources: card types as each
# game's spec lists them (games/<game>/__init__.py: ChaosTCG 総合ルール §2.2, ラクエンロジック
# ルールブック Ver1.0 第1章, 「Phantom Magic Vision 総合ルール」, あいりすミスティリア! TCG
# 詳しい遊び方 「カードの見方と種類」); sections as the deck-list headers accept them.
def _chaos() -> dict[str, str]:
    return {
        "chaos": _p("chaos", "chaos"),
        "chara": _p("chaos", "chara"),
        "extra": _p("chaos", "extra"),
        "partner": _p("chaos", "partner"),
        "set": _p("chaos", "set"),
        "event": _p("chaos", "event"),
        "main": _p("chaos", "main"),
    }


def _rakuen() -> dict[str, str]:
    return {
        "rakuen": _p("rakuen", "rakuen"),
        "member": _p("rakuen", "member"),
        "tactics": _p("rakuen", "tactics"),
        "paradox": _p("rakuen", "paradox"),
        "gate": _p("rakuen", "gate"),
        "gate number": _p("rakuen", "gate number"),
        "main": _p("rakuen", "main"),
    }


def _vision() -> dict[str, str]:
    return {
        "vision": _p("vision", "vision"),
        "character": _p("vision", "character"),
        "spell": _p("vision", "spell"),
        "command": _p("vision", "command"),
        "main": _p("vision", "main"),
        "side": _p("vision", "side"),
    }


def _iris() -> dict[str, str]:
    return {
        "iris": _p("iris", "iris"),
        "unit": _p("iris", "unit"),
        "strategy": _p("iris", "strategy"),
        "tactic": _p("iris", "tactic"),
        "enhancement": _p("iris", "enhancement"),
        "main": _p("iris", "main"),
    }


_TABLES: dict[str, Callable[[], dict[str, str]]] = {
    "chaos": _chaos,
    "rakuen": _rakuen,
    "vision": _vision,
    "iris": _iris,
}


def word(game: str, name: str) -> str:
    """``game``'s word for ``name``: a card type (``chara``), a section (``main``, ``extra``,
    ``gate``, ``side``: the short word a deck-list header accepts) or the game id itself. An
    unknown name (a game added by a plugin) is shown as it is."""
    table = _TABLES.get(game)
    if table is None or current() == "en":
        return name
    return table().get(name, name)


def words(game: str, names: Iterable[str], sep: str = ", ") -> str:
    """Several of ``game``'s words in a row: ``chara, partner`` / ``キャラ・パートナー``."""
    shown = [word(game, n) for n in names]
    return sep.join(shown) if current() == "en" else "・".join(shown)


def label(game: str, text: str) -> str:
    """A label a format file gives (a section's, a count's): the catalogue has it under the
    format's game (extracted from formats/*.toml by deckcheck.i18n_extract). A format that
    takes its game from the one it ``extends`` has its words without a context: those too."""
    found = _p(game, text)
    return _(found) if found == text else found


def section_label(game: str, name: str, given: str | None) -> str:
    """How a message names a deck section: the format's label (``main deck``, ``sideboard``),
    else the section's word with "deck"."""
    if given:
        return label(game, given)
    return _("{section} deck", section=word(game, name))


def listing(items: Iterable[str]) -> str:
    """Items after one another, as deckcheck's messages list them: ``a, b`` / ``a、b``."""
    return ("、" if current() == "ja" else ", ").join(items)
