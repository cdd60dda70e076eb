"""``deckcheck validate`` in Japanese (issue 21): every example deck's report, as text and in
the CI formats, holds no English prose but card data, the rulebook citations (sources stay as
written) and the format's parameters as the format file writes them; ``--lang en`` is
today's English; machine fields (rule ids, JSON keys) do not change with the language."""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
import xml.etree.ElementTree as ET
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from prose import english_words

from deckcheck import i18n
from deckcheck.format_registry import FormatRegistry, default_registry
from deckcheck.pool.store import Pool
from deckcheck.wording import a_an, word

ROOT = Path(__file__).resolve().parent.parent
EXAMPLES = sorted((ROOT / "examples").glob("*.deck"))
ILLEGAL = [p for p in EXAMPLES if "illegal" in p.name]


@pytest.fixture(scope="module")
def db(tmp_path_factory: pytest.TempPathFactory) -> Path:
    path = tmp_path_factory.mktemp("i18n-validate") / "pool.sqlite3"
    Pool(path).close()  # the shipped card data
    return path


@pytest.fixture(scope="module")
def formats() -> FormatRegistry:
    return default_registry()


def _run(*args: str, lang: str | None = None) -> subprocess.CompletedProcess[str]:
    env = {k: v for k, v in os.environ.items() if k not in ("LC_ALL", "LC_MESSAGES", "LANG")}
    env.pop("DECKCHECK_LANG", None)
    env["PYTHONPATH"] = str(ROOT)
    env["COLUMNS"] = "1000"  # no wrapping inside a path or a card name
    if lang is not None:
        env["LANG"] = lang
    return subprocess.run(
        [sys.executable, "-m", "deckcheck", *args],
        capture_output=True, text=True, env=env, cwd=ROOT, check=False,
    )


def _data(report: dict[str, Any], formats: FormatRegistry) -> Iterator[str]:
    """What a Japanese report may show in Latin letters: card names and numbers, the format's
    id and name, the rulebook citations (a source stays as written, issue 21) and the format's
    parameters as its file writes them (``mulligan = none``)."""
    fmt = formats.get(report["format"])
    yield from (fmt.id, fmt.name, report["path"] or "")
    for v in report["violations"]:
        yield v["source"]
        for c in v["cards"]:
            yield c["name"]
            yield c["number"] or ""
    rules, params = fmt.assumed_parts
    yield from rules
    for key, p in params:
        yield f"{key} = {p.value}"
        yield p.source
        yield from re.findall(r"\S+\.toml", p.note or "")  # a path, before the id inside it


def _json(path: Path, db: Path, lang: str) -> dict[str, Any]:
    done = _run("validate", str(path), "--db", str(db), "--output", "json", lang=lang)
    assert done.returncode in (0, 1), done.stderr
    report: dict[str, Any] = json.loads(done.stdout)
    return report


@pytest.mark.parametrize("path", EXAMPLES, ids=lambda p: p.name)
def test_validate_speaks_japanese_under_a_japanese_locale(
    path: Path, db: Path, formats: FormatRegistry
) -> None:
    english = _json(path, db, "C")
    done = _run("validate", str(path), "--db", str(db), lang="ja_JP.UTF-8")
    assert done.returncode == (1 if "illegal" in path.name else 0), done.stderr
    assert english_words(done.stdout, _data(english, formats)) == []
    assert ("違反あり" if "illegal" in path.name else "適正") in done.stdout


@pytest.mark.parametrize("path", ILLEGAL, ids=lambda p: p.name)
def test_json_keeps_rule_ids_and_keys_with_japanese_messages(
    path: Path, db: Path, formats: FormatRegistry
) -> None:
    english, japanese = _json(path, db, "C"), _json(path, db, "ja_JP.UTF-8")
    assert japanese.keys() == english.keys()
    assert [v["rule"] for v in japanese["violations"]] == [v["rule"] for v in english["violations"]]
    allowed = list(_data(english, formats))
    for en, ja in zip(english["violations"], japanese["violations"], strict=True):
        assert ja.keys() == en.keys()
        assert ja["source"] == en["source"]  # citations stay as written
        assert ja["message"] != en["message"]
        assert english_words(ja["message"] + "\n" + (ja["fix"] or ""), allowed) == []


@pytest.mark.parametrize("path", ILLEGAL, ids=lambda p: p.name)
def test_sarif_and_junit_keep_rule_ids_with_japanese_text(
    path: Path, db: Path, formats: FormatRegistry
) -> None:
    allowed = list(_data(_json(path, db, "C"), formats))
    sarifs = {
        lang: json.loads(
            _run("validate", str(path), "--db", str(db), "-o", "sarif", lang=lang).stdout
        )
        for lang in ("C", "ja_JP.UTF-8")
    }
    en, ja = (sarifs[k]["runs"][0] for k in ("C", "ja_JP.UTF-8"))
    assert [r["ruleId"] for r in ja["results"]] == [r["ruleId"] for r in en["results"]]
    assert [r["id"] for r in ja["tool"]["driver"]["rules"]] == [
        r["id"] for r in en["tool"]["driver"]["rules"]
    ]
    for result in ja["results"]:
        assert english_words(result["message"]["text"], allowed) == []
    junit = _run("validate", str(path), "--db", str(db), "-o", "junit", lang="ja_JP.UTF-8")
    failure = ET.fromstring(junit.stdout).find(".//failure")
    assert failure is not None and failure.text is not None
    assert "違反" in failure.get("message", "")
    text = failure.text
    for rule in {r["ruleId"] for r in ja["results"]}:
        text = text.replace(rule, " ")
    assert english_words(text, allowed) == []


def test_lang_en_prints_todays_english(db: Path) -> None:
    path = ROOT / "examples" / "rakuen-standard-illegal.deck"
    done = _run("validate", str(path), "--db", str(db), "--lang", "en", lang="ja_JP.UTF-8")
    assert "ILLEGAL  5 errors, 0 warnings" in done.stdout
    assert "main 51/50 · gate 9/10" in done.stdout
    assert "the main deck has 9 paradox cards; it needs exactly 8" in done.stdout
    assert "見本の門 第6門 is a gate card; the main deck takes only member, tactics, paradox " \
        "cards" in done.stdout
    assert "fix: move it to [gate]" in done.stdout
    assert "3 cards with gate number 1; at most 2 allowed" in done.stdout


@pytest.mark.parametrize(
    ("game", "name", "ja"),
    [
        ("chaos", "chara", "キャラ"),
        ("chaos", "extra", "エクストラ"),
        ("chaos", "event", "イベント"),
        ("chaos", "partner", "パートナー"),
        ("chaos", "set", "セット"),
        ("rakuen", "gate", "門"),
        ("rakuen", "paradox", "逆理"),
        ("rakuen", "member", "メンバー"),
        ("vision", "character", "キャラクター"),
        ("vision", "spell", "スペル"),
        ("vision", "command", "コマンド"),
        ("iris", "unit", "ユニット"),
    ],
)
def test_each_game_words_its_card_types(game: str, name: str, ja: str) -> None:
    """The rulebooks' words (ChaosTCG 総合ルール 2016-05-17 §2.2; ラクエンロジック ルールブック
    Ver1.0 第1章; 「Phantom Magic Vision 総合ルール」; あいりすミスティリア! TCG 詳しい遊び方
    「カードの見方と種類」), and English with its article as before."""
    with i18n.override("ja"):
        assert word(game, name) == ja
        assert a_an(word(game, name)) == ja
    assert word(game, name) == name
    assert a_an(word(game, name)).endswith(f" {name}")


def test_japanese_report_names_sections_as_the_deck_list_headers_accept(
    tmp_path: Path, db: Path
) -> None:
    """A fix says where to move a card with a header word deckcheck reads back: the Japanese
    fix's ``[エクストラ]`` is a section header of the deck-list format."""
    deck = tmp_path / "moved.deck"
    text = (ROOT / "examples" / "chaos-standard-illegal.deck").read_text(encoding="utf-8")
    deck.write_text(text.replace("[extra]", "[エクストラ]"), encoding="utf-8")
    en, ja = _json(ROOT / "examples" / "chaos-standard-illegal.deck", db, "C"), _json(deck, db, "ja")
    assert [v["rule"] for v in ja["violations"]] == [v["rule"] for v in en["violations"]]
    fixes = [v["fix"] for v in ja["violations"] if v["rule"] == "chaos/main-no-extra"]
    assert fixes == ["[エクストラ]に移してください。"]
