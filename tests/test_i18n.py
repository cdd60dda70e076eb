"""The message catalogue: complete, consistent with the source texts and with each game's
rule words, and every user-facing string of the code marked for it."""

from __future__ import annotations

import functools
import re
import string
import tomllib
from collections.abc import Iterable, Iterator
from pathlib import Path
from typing import Any

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


def _glossary() -> list[dict[str, Any]]:
    return list(tomllib.loads(GLOSSARY.read_text(encoding="utf-8"))["term"])


@functools.cache
def _term(en: str) -> re.Pattern[str]:
    return re.compile(rf"\b{re.escape(en)}s?\b", re.IGNORECASE)


@functools.cache
def _longer_terms(en: str, terms: tuple[str, ...]) -> tuple[re.Pattern[str], ...]:
    """The patterns of the other terms that hold ``en``, found once per term (the catalogue
    has hundreds of entries, and each asked again cost 3.8 CPU-s a run; issue 35)."""
    return tuple(_term(longer) for longer in terms if longer != en and _term(en).search(longer))


def _without_longer_terms(text: str, en: str, terms: tuple[str, ...]) -> str:
    """``text`` without the longer terms that hold ``en`` ("opening hand" is one term, 初手,
    not "hand", 手札)."""
    for longer in _longer_terms(en, terms):
        text = longer.sub(" ", text)
    return text


Entry = tuple[list[str], list[str], str | None]  # English forms, Japanese forms, the game


def _accepted(words: dict[str, str | list[str]], game: str) -> set[str]:
    word = words[game]
    return {word} if isinstance(word, str) else set(word)


def glossary_problems(entries: Iterable[Entry], glossary: list[dict[str, Any]]) -> list[tuple]:
    """What breaks the glossary: an entry of a game whose English holds a term and whose
    Japanese holds none of that game's words for it; a shared entry whose term not every game
    words alike; an entry of a game holding a word the glossary says that game avoids (登場 for
    a ラクエンロジック play, ストラテジー for an あいりす card: one term, one word)."""
    wrong: list[tuple] = []
    terms = tuple(str(term["en"]) for term in glossary)
    for ids, strs, game in entries:
        for term in glossary:
            words: dict[str, str | list[str]] = term["ja"]
            avoid: dict[str, list[str]] = term.get("avoid", {})
            for text in strs if game in avoid else ():
                wrong += [(term["en"], game, ids[0], w) for w in avoid[game] if w in text]
            en = str(term["en"])
            if not _term(en).search(_without_longer_terms(ids[0], en, terms)):
                continue
            if game is None and term.get("other_senses"):
                continue  # the English word has other senses in deckcheck's own text
            if game is not None:
                if game not in words:
                    continue
                expected = _accepted(words, game)
            elif set(words) == set(GAMES):  # shared: a word every game accepts
                expected = set.intersection(*(_accepted(words, g) for g in GAMES))
            else:
                expected = set()
            if not expected:  # a term that differs by game, in shared text: use _p(game, ...)
                wrong.append((term["en"], "shared", ids[0], "needs a game's context"))
                continue
            for text in strs:
                if not any(word in text for word in expected):
                    wrong.append((term["en"], game, ids[0], text))
    return wrong


def test_catalogue_uses_each_games_rule_words() -> None:
    entries = [(*_texts(m), _game_of(m)) for m in _messages()]
    wrong = glossary_problems(entries, _glossary())
    assert wrong == [], wrong[:20]


def test_the_glossary_test_catches_a_word_a_game_does_not_use() -> None:
    """A self-test on fake entries: 登場 for a ラクエンロジック play, ストラテジー for an あいりす
    card, 開始フェイズ for ChaosTCG's beginning phase fail; the rulebooks' words pass."""
    glossary = _glossary()
    bad: list[Entry] = [
        (["deploys {card}"], ["{card}を登場"], "rakuen"),
        (["plays the strategy {card}"], ["ストラテジー{card}を使用"], "iris"),
        (["the beginning phase's draw"], ["開始フェイズのドロー"], "chaos"),
        (["{card} face down as the main unit"], ["{card}をメインユニットとして裏向きに置く"], "iris"),
    ]
    for entry in bad:
        assert glossary_problems([entry], glossary), entry
    good: list[Entry] = [
        (["deploys {card}"], ["{card}を出撃"], "rakuen"),
        (["plays the strategy {card}"], ["戦略{card}を使用"], "iris"),
        (["the beginning phase's draw"], ["ビギニングフェイズのドロー"], "chaos"),
        (["hand {hand}, deck {deck}"], ["手札{hand}枚、山札{deck}枚"], "rakuen"),
    ]
    assert glossary_problems(good, glossary) == []


def test_every_glossary_term_cites_its_rulebook() -> None:
    """A term of some games' rules, or one with words to avoid, names the rulebook (title and
    section) that uses its word."""
    for term in _glossary():
        words = term["ja"]
        if set(words) != set(GAMES) or "avoid" in term:
            assert str(term.get("source", "")).strip(), term


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


# One punctuation rule for Japanese entries (issue 34): a colon after Japanese text is the
# full-width ：. ASCII stays in what is typed or printed as data (``format:``, ``type:unit``,
# ``{cls}: {error}`` between fields) and inside a rulebook's words quoted as written (「…」).
_AFTER_JAPANESE = re.compile("[\u3040-\u30ff\u4e00-\u9fff々ー」』）】]:")


def half_width_colons(text: str) -> list[str]:
    """The half-width colons after Japanese text in ``text``, outside 「…」 quotes."""
    outside = re.sub(r"「[^「」]*(?:「[^「」]*」[^「」]*)*」", "「」", text)
    return _AFTER_JAPANESE.findall(outside)


def test_the_punctuation_rule_catches_a_half_width_colon() -> None:
    assert half_width_colons("警告: {problem}")
    assert half_width_colons("キーワード（一人回し）:")
    assert half_width_colons("警告：{problem}") == []
    assert half_width_colons("デッキに format: 行がなく、type:unit>=1（{cls}: {error}）") == []
    assert half_width_colons("用語集「リーダー:最大1枚」による") == []  # quoted as written


def test_japanese_entries_put_a_full_width_colon_after_japanese() -> None:
    wrong = [
        (ids[0], text)
        for message in _messages()
        for ids, strs in [_texts(message)]
        for text in strs
        if half_width_colons(text)
    ]
    assert wrong == [], wrong[:10]
