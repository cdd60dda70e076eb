"""The message catalogue: complete, consistent with the source texts and with each game's
rule words, and every user-facing string of the code marked for it."""

from __future__ import annotations

import re
import string
import tomllib
from collections.abc import Iterator
from pathlib import Path

import pytest
from babel.messages.catalog import Catalog, Message
from babel.messages.pofile import read_po
from i18n_lint import unmarked

from deckcheck import i18n

ROOT = Path(__file__).resolve().parent.parent
PO = ROOT / "deckcheck" / "locale" / "ja" / "LC_MESSAGES" / "deckcheck.po"
GLOSSARY = ROOT / "deckcheck" / "locale" / "glossary.toml"
GAMES = ("chaos", "rakuen", "vision", "iris")


def _catalog() -> Catalog:
    with PO.open("rb") as handle:
        return read_po(handle, locale="ja")


def _messages() -> Iterator[Message]:
    return (m for m in _catalog() if m.id)


def _texts(message: Message) -> tuple[list[str], list[str]]:
    ids = list(message.id) if isinstance(message.id, tuple) else [message.id]
    strs = list(message.string) if isinstance(message.string, tuple) else [message.string]
    return ids, strs


def test_every_entry_has_a_japanese_translation() -> None:
    missing = [
        _texts(m)[0][0] for m in _messages() if not all(_texts(m)[1]) or m.fuzzy
    ]
    assert missing == [], f"{len(missing)} entries without Japanese: {missing[:20]}"


def _fields(text: str) -> set[str]:
    """The replacement fields of a text: ``{name}`` and ``{}`` (str.format), ``%s``/``%(x)s``."""
    found = {f"{{{name}}}" for _lit, name, _spec, _conv in string.Formatter().parse(text)
             if name is not None}
    return found | set(re.findall(r"%\(\w+\)[sd]|%[sd]", text))


def test_translations_keep_every_field() -> None:
    """A translation with a field the English lacks would fail when formatted; one that drops a
    field would lose a fact (a number, a card)."""
    wrong = []
    for message in _messages():
        ids, strs = _texts(message)
        for text in strs:
            known, kept = _fields(ids[0]) | _fields(ids[-1]), _fields(ids[-1])
            if text and (_fields(text) - known or kept - _fields(text)):
                wrong.append((ids[0], text))
    assert wrong == []


def _game_of(message: Message) -> str | None:
    if message.context in GAMES:
        return message.context
    for path, _line in message.locations:
        for game in GAMES:
            if path.startswith(f"deckcheck/games/{game}/") or path.startswith(f"formats/{game}-"):
                return game
    return None


def _glossary() -> list[dict[str, object]]:
    return list(tomllib.loads(GLOSSARY.read_text(encoding="utf-8"))["term"])


def _term(en: str) -> re.Pattern[str]:
    return re.compile(rf"\b{re.escape(en)}s?\b", re.IGNORECASE)


def _without_longer_terms(text: str, en: str, terms: list[str]) -> str:
    """``text`` without the longer terms that hold ``en`` ("opening hand" is one term, 初手,
    not "hand", 手札)."""
    for longer in terms:
        if longer != en and _term(en).search(longer):
            text = _term(longer).sub(" ", text)
    return text


def test_catalogue_uses_each_games_rule_words() -> None:
    wrong = []
    glossary = _glossary()
    terms = [str(term["en"]) for term in glossary]
    for message in _messages():
        ids, strs = _texts(message)
        game = _game_of(message)
        for term in glossary:
            words: dict[str, str] = term["ja"]  # type: ignore[assignment]
            en = str(term["en"])
            if not _term(en).search(_without_longer_terms(ids[0], en, terms)):
                continue
            values = set(words.values())
            if game is not None:
                if game not in words:
                    continue
                expected = {words[game]}
            elif set(words) == set(GAMES) and len(values) == 1:
                expected = values
            else:  # a term that differs by game, in text every game shares: use _p(game, ...)
                wrong.append((term["en"], "shared", ids[0], "needs a game's context"))
                continue
            for text in strs:
                if not any(word in text for word in expected):
                    wrong.append((term["en"], game, ids[0], text))
    assert wrong == [], wrong[:20]


def test_code_marks_every_user_facing_string() -> None:
    found = [str(u) for u in unmarked()]
    assert found == [], f"{len(found)} unmarked strings, first: {found[:20]}"


@pytest.mark.parametrize(
    ("flag", "env", "lang"),
    [
        ("ja", {"LANG": "en_US.UTF-8"}, "ja"),
        ("en", {"LANG": "ja_JP.UTF-8"}, "en"),
        (None, {"DECKCHECK_LANG": "ja", "LANG": "C"}, "ja"),
        (None, {"LC_ALL": "ja_JP.UTF-8", "LANG": "en_US"}, "ja"),
        (None, {"LC_MESSAGES": "ja_JP.eucJP"}, "ja"),
        (None, {"LANG": "ja_JP.UTF-8"}, "ja"),
        (None, {"LANG": "C"}, "en"),
        (None, {"LANG": "fr_FR.UTF-8"}, "en"),
        (None, {}, "en"),
    ],
)
def test_cli_language_order(flag: str | None, env: dict[str, str], lang: str) -> None:
    assert i18n.cli_language(flag, env) == lang


@pytest.mark.parametrize(
    ("header", "query", "lang"),
    [
        ("ja", None, "ja"),
        ("ja-JP,ja;q=0.9,en-US;q=0.8", None, "ja"),
        ("en-US,en;q=0.9,ja;q=0.8", None, "en"),
        ("fr, ja;q=0.5", None, "ja"),
        ("ja;q=0", None, "en"),
        ("ja;q=nan, en;q=0.1", None, "en"),
        ("*", None, "en"),
        ("ja", "en", "en"),
        ("en", "ja", "ja"),
        ("en", "xx", "en"),
        (None, None, "en"),
        ("ja;q=" + "9" * 5000, None, "en"),
    ],
)
def test_service_language(header: str | None, query: str | None, lang: str) -> None:
    assert i18n.negotiate(header, query) == lang


def test_override_restores_the_language() -> None:
    with i18n.override("ja"):
        assert i18n.current() == "ja"
        with i18n.override("en"):
            assert i18n.current() == "en"
        assert i18n.current() == "ja"
    assert i18n.current() == "en"


def test_catalogue_reads_the_po_when_nothing_is_compiled(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A checkout where ``make`` has not compiled the catalogue still speaks Japanese: the .po
    is read through Babel; a compiled .mo as new as the .po is read instead."""
    folder = tmp_path / "ja" / "LC_MESSAGES"
    folder.mkdir(parents=True)
    po = folder / "deckcheck.po"
    po.write_text(
        'msgid ""\nmsgstr "Content-Type: text/plain; charset=utf-8\\n"\n\n'
        'msgid "{n} cards"\nmsgstr "{n}枚"\n',
        encoding="utf-8",
    )
    monkeypatch.setattr(i18n, "LOCALE_DIR", tmp_path)
    i18n.translations.cache_clear()
    try:
        with i18n.override("ja"):
            assert i18n._("{n} cards", n=3) == "3枚"
            assert i18n._("not in the catalogue") == "not in the catalogue"
        assert i18n._("{n} cards", n=3) == "3 cards"
    finally:
        i18n.translations.cache_clear()


def test_babel_compiles_the_catalogue_without_error() -> None:
    """Babel's own checks, the ones ``make`` runs when it compiles: a text Babel reads as a
    printf-style format (``95% i…``) must keep its placeholders in Japanese too."""
    problems = [
        (str(message.id), [str(e) for e in errors]) for message, errors in _catalog().check()
    ]
    assert problems == []
