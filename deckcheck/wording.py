"""Wording shared by deckcheck's messages: the English article, and each game's own words for
its card types, deck sections and name, which the game gives (``GameSpec.words.words``: literal
``_p(game id, ...)`` calls, so each game's Japanese is its rulebook's word)."""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence

from deckcheck.i18n import _, _p, current, override
from deckcheck.plugins.registry import find

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


def word(game: str, name: str) -> str:
    """``game``'s word for ``name``: a card type, a section (``main``, ``extra``,
    ``gate``, ``side``: the short word a deck-list header accepts) or the game id itself. An
    The game gives its words (``Words.words``); a name it does not word is shown as it is."""
    if current() == "en":
        return name
    spec = find(game)
    if spec is None or spec.words.words is None:
        return name
    return spec.words.words().get(name, name)


def words(game: str, names: Iterable[str], sep: str = ", ") -> str:
    """Several of ``game``'s words in a row: ``a, b`` / ``a・b``."""
    shown = [word(game, n) for n in names]
    return sep.join(shown) if current() == "en" else "・".join(shown)


def label(game: str, text: str) -> str:
    """A format file's words (a label, a name, a source) or deckcheck's own, as ``game`` words
    them: the catalogue's entry of the game's context (extracted from formats/*.toml by
    deckcheck.i18n_extract), else one without context (``N_`` in the code)."""
    if not text:  # "" is the catalogue's header
        return text
    shown = _p(game, text)
    return shown if shown != text else _(text)


def cited(game: str, source: str) -> str:
    """A rule's source as a reader of the language reads it. The citation stays as written
    (the catalogue's translation keeps every title, section and quoted rulebook text); only
    deckcheck's own words around it ("fan source", a gloss) are translated."""
    return source if current() == "en" else label(game, source)


def section_label(game: str, name: str, given: str | None) -> str:
    """How a message names a deck section: the format's label (``main deck``),
    else the section's word with "deck"."""
    if given:
        return label(game, given)
    return _("{section} deck", section=word(game, name))


def listing(items: Iterable[str]) -> str:
    """Items after one another, as deckcheck's messages list them: ``a, b`` / ``a、b``."""
    return ("、" if current() == "ja" else ", ").join(items)


def game_words(marked: Callable[[], Sequence[str]]) -> Callable[[], dict[str, str]]:
    """A game's words (``Words.words``) from its literal ``_p(game id, word)`` calls alone:
    ``game_words(lambda: (_p("x", "lamp"), _p("x", "main")))``. Each word is its own key (the
    calls made in English give the keys, made now the words), so a key cannot drift from the
    word the catalogue translates, and the calls stay literal for the catalogue's extraction."""

    def words() -> dict[str, str]:
        with override("en"):
            keys = marked()
        return dict(zip(keys, marked(), strict=True))

    return words
