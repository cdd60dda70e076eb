"""``deckcheck validate`` in Japanese (issue 21): every example deck's report, as text and in
the CI formats, holds no English prose but card data and the format's parameters as the format
file writes them (a source's citation stays as written, its glosses are Japanese:
test_i18n_sources.py); ``--lang en`` is
today's English; machine fields (rule ids, JSON keys) do not change with the language."""

from __future__ import annotations

import json
import os
import re
import subprocess
import xml.etree.ElementTree as ET
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from prose import english_words
from test_i18n_sources import QUOTED, SITES, source_prose

from deckcheck import i18n
from deckcheck.formats.params import param_value
from deckcheck.formats.registry import FormatRegistry, default_registry
from deckcheck.pool.store import Pool
from deckcheck.wording import a_an, word
from tests.cli_run import deckcheck

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
    return deckcheck(args, env=env, cwd=ROOT)  # in process, as the process answers


def _data(report: dict[str, Any], formats: FormatRegistry) -> Iterator[str]:
    """What a Japanese report may show in Latin letters: card names and numbers, the format's
    id and name, the format's parameters as its file writes them (``（mulligan） = none``, after its label) and the
    sites a source names. Sources themselves are prose: Japanese but for their citations."""
    fmt = formats.get(report["format"])
    yield from (*SITES, fmt.id, fmt.name, report["path"] or "")
    for v in report["violations"]:
        for c in v["cards"]:
            yield c["name"]
            yield c["number"] or ""
    for key, p in fmt.assumed_parts[1]:
        yield f"（{key}） = {param_value(p.value)}"
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
    assert source_prose(done.stdout, list(_data(english, formats))) == []
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
        assert [q for q in QUOTED.findall(en["source"]) if q not in ja["source"]] == []
        assert ja["message"] != en["message"]
        text = ja["message"] + "\n" + (ja["fix"] or "") + "\n" + ja["source"]
        assert source_prose(text, allowed) == []


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
        assert source_prose(result["message"]["text"], allowed) == []
    junit = _run("validate", str(path), "--db", str(db), "-o", "junit", lang="ja_JP.UTF-8")
    failure = ET.fromstring(junit.stdout).find(".//failure")
    assert failure is not None and failure.text is not None
    assert "違反" in failure.get("message", "")
    text = failure.text
    for rule in {r["ruleId"] for r in ja["results"]}:
        text = text.replace(rule, " ")
    assert source_prose(text, allowed) == []


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


# --- editing, card references, format files, text that is not Unicode (issue 21) -------------
# The CLI's own words (``fix:``, ``needs a choice:``, ``deckcheck: error:``, the one-line
# verdict) come from deckcheck/cli/files.py and cli/main.py; these tests assert only on the
# text deckcheck/edit.py, validate.py, formats/registry.py, formats/versions.py and text.py give.




@pytest.mark.parametrize("path", ILLEGAL, ids=lambda p: p.name)
def test_fix_words_its_changes_and_choices_in_japanese(
    path: Path, db: Path, tmp_path: Path
) -> None:
    deck = tmp_path / path.name
    deck.write_bytes(path.read_bytes())
    english = _run("fix", str(deck), "--dry-run", "--db", str(db), lang="C").stdout.splitlines()
    japanese = _run(
        "fix", str(deck), "--dry-run", "--db", str(db), lang="ja_JP.UTF-8"
    ).stdout.splitlines()
    english, japanese = _changes(english), _changes(japanese)
    assert len(english) == len(japanese)
    # the fixes (edit.Fix.describe) and the choices (edit.propose_fixes): every line but the
    # last, the verdict; the cards they name are written as the deck writes them
    refs = [line.split(maxsplit=1)[1].split("#")[0].strip() for line in _card_lines(deck)]
    for en, ja in zip(english[:-1], japanese[:-1], strict=True):
        shown = re.split(": |：", ja, maxsplit=1)[1]  # 適用：… (a full-width colon after 適用)
        assert english_words(shown, refs) == [], ja
        if "line" in en or "copies" in en or "choose" in en:
            assert shown != en.split(": ", 1)[1]
    assert deck.read_bytes() == path.read_bytes()  # a dry run writes nothing


def _changes(out: list[str]) -> list[str]:
    """``fix --dry-run``'s lines without its unified diff (the deck's own lines)."""
    diff = next((i for i, line in enumerate(out) if line.startswith("--- ")), None)
    if diff is None:
        return out
    return out[:diff] + out[-1:]  # the verdict is the last line


def _card_lines(deck: Path) -> list[str]:
    lines = deck.read_text(encoding="utf-8").splitlines()
    return [line for line in lines if line[:1].isdigit()]


def test_fix_names_lines_and_choices_as_a_japanese_reader_expects(
    db: Path, tmp_path: Path
) -> None:
    deck = tmp_path / "vision.deck"
    deck.write_bytes((ROOT / "examples" / "vision-standard-illegal.deck").read_bytes())
    out = _run("fix", str(deck), "--db", str(db), lang="ja_JP.UTF-8").stdout
    assert "PR.009: この行を削除 (vision/deck-limit)" in out
    assert "30行目" in out
    assert "vision/copies: 「博麗 霊夢」が複数の行に合わせて6枚あります。1枚を残してください。" in out


def test_removing_more_copies_than_the_deck_has_is_refused_in_japanese(
    db: Path, tmp_path: Path
) -> None:
    deck = tmp_path / "rakuen.deck"
    deck.write_bytes((ROOT / "examples" / "rakuen-standard-legal.deck").read_bytes())
    done = _run("remove", str(deck), "9", "SAMPLE-R-003", "--db", str(db), lang="ja_JP.UTF-8")
    assert done.returncode == 2
    # issue 23: the message names the card
    assert "デッキには「翠の使者 見本ルウ」が4枚しかありません。9枚は抜けません。" in done.stderr  # edit.py
    english = _run("remove", str(deck), "9", "SAMPLE-R-003", "--db", str(db), lang="C")
    assert "the deck has 4 of 翠の使者 見本ルウ; cannot remove 9" in english.stderr
    assert deck.read_bytes() == (ROOT / "examples" / "rakuen-standard-legal.deck").read_bytes()


def test_a_new_deck_file_in_japanese_reads_back_with_its_sections() -> None:
    """``deckcheck new`` writes the section headers as a word the deck-list reader takes back
    (``[門]``) and its comments in the language of the moment."""
    from deckcheck import decklist
    from deckcheck.edit import new_deck_text

    fmt = default_registry().get("rakuen-standard")
    with i18n.override("ja"):
        text = new_deck_text(fmt)
    assert "[門]" in text and "# メインデッキ: 50枚" in text
    comments = [line for line in text.splitlines() if line.startswith("# ") and "format" not in line]
    assert english_words("\n".join(comments[1:])) == []
    assert set(decklist.parse(text).section_lines) == {s.name for s in fmt.sections}
    assert "[gate]" in new_deck_text(fmt)  # English as before


def test_unknown_and_ambiguous_cards_are_reported_in_japanese(db: Path, tmp_path: Path) -> None:
    deck = tmp_path / "typo.deck"
    text = (ROOT / "examples" / "chaos-standard-legal.deck").read_text(encoding="utf-8")
    lines = text.splitlines()
    first_card = next(i for i, line in enumerate(lines) if line[:1].isdigit())
    lines[first_card + 1 : first_card + 1] = ["1 見本キャラ 3", "1 見本ふたご"]
    deck.write_text("\n".join(lines) + "\n", encoding="utf-8")
    english, japanese = _json(deck, db, "C"), _json(deck, db, "ja_JP.UTF-8")
    found = {v["rule"]: v for v in japanese["violations"]}
    assert {"deck/unknown-card", "deck/ambiguous-card"} <= found.keys()
    for rule in ("deck/unknown-card", "deck/ambiguous-card"):
        v = found[rule]
        cards = [c for e in english["violations"] for c in (e["message"] + (e["fix"] or "")).split("'")]
        allowed = ["見本キャラ 3", "見本ふたご", *cards, "SAMPLE-C-AMB1", "SAMPLE-C-AMB2"]
        assert english_words(v["message"] + "\n" + (v["fix"] or ""), allowed) == [], v
    assert "見本キャラ 03" in (found["deck/unknown-card"]["fix"] or "")  # did you mean
    ambiguous = found["deck/ambiguous-card"]["message"]
    assert "SAMPLE-C-AMB1" in ambiguous and "SAMPLE-C-AMB2" in ambiguous


def test_a_broken_format_file_is_explained_in_japanese(db: Path, tmp_path: Path) -> None:
    source = (ROOT / "formats" / "chaos-standard.toml").read_text(encoding="utf-8")
    broken = re.sub(r'(?m)^name = ".*"$', "name = 3", source, count=1)
    assert broken != source
    event = tmp_path / "event.toml"
    event.write_text('colour = "red"\n' + broken, encoding="utf-8")
    deck = tmp_path / "event.deck"
    deck.write_text(f"format: {event}\n[main]\n1 SAMPLE-C-001\n", encoding="utf-8")
    done = _run("validate", str(deck), "--db", str(db), lang="ja_JP.UTF-8")
    assert done.returncode == 2, done.stdout
    # formats/registry.py's lines: from the deck's path on (the prefix is the CLI's)
    explained = done.stderr[done.stderr.index(str(deck)) :]
    assert "フォーマットファイルとして正しくありません" in explained
    assert "name: 文字列で書いてください。" in explained
    assert "colour: この項目は使えません。" in explained
    assert english_words(explained, ["name", "colour"]) == []
    english = _run("validate", str(deck), "--db", str(db), lang="C").stderr
    assert "not a valid format file:" in english
    assert "name: Input should be a valid string" in english


def test_a_day_no_version_covers_is_explained_in_japanese(db: Path) -> None:
    deck = ROOT / "examples" / "rakuen-standard-legal.deck"
    done = _run(
        "validate", str(deck), "--db", str(db), "--as-of", "2000-01-01", lang="ja_JP.UTF-8"
    )
    assert done.returncode == 2
    explained = done.stderr[done.stderr.index(str(deck)) :]  # api.py, formats/versions.py
    assert "2000-01-01に有効な版はありません" in explained
    assert english_words(explained) == []


def test_a_deck_with_a_lone_surrogate_is_reported_in_japanese(db: Path, tmp_path: Path) -> None:
    data = {"format": "rakuen-standard", "main": [{"count": 4, "card": "SAMPLE-R-003"}]}
    data["main"].append({"count": 1, "card": "a\ud800"})
    deck = tmp_path / "bad.json"
    deck.write_text(json.dumps(data), encoding="ascii")  # the surrogate as its JSON escape
    report = _json(deck, db, "ja_JP.UTF-8")
    (v,) = [v for v in report["violations"] if "\\ud800" in v["message"]]
    assert "2文字目の \\ud800" in v["message"]  # text.py
    where = ["main[1].card", "\\ud800"]  # where in the file: its own keys
    assert english_words(v["message"] + "\n" + (v["fix"] or ""), where) == []
    (en,) = [v for v in _json(deck, db, "C")["violations"] if "\\ud800" in v["message"]]
    assert "\\ud800 at character 2" in en["message"]


def test_formats_show_rows_leave_only_the_format_files_words(formats: FormatRegistry) -> None:
    """``formats show``'s "what" column: the prose is Japanese; what remains in Latin letters
    is what the format file writes (section and type ids, keys, list names, append words)."""
    from deckcheck import plugins
    from deckcheck.checks.table import check_tables
    from deckcheck.models import SECTIONS

    seen = 0
    for fmt in formats.all():
        spec = plugins.get(fmt.game)
        ids = [*SECTIONS, *spec.construction.sections, *spec.cards.card_types, fmt.copies.key, "name", "type"]
        for check_table in check_tables(fmt.game):
            for entry in check_table.of(fmt):
                with i18n.override("ja"):
                    rows = list(check_table.describe(entry))
                english = list(check_table.describe(entry))
                for row, en in zip(rows, english, strict=True):
                    data = [*ids, *re.findall(r"\[[^\]]*\]|「[^」]*」", en.what)]
                    data += [getattr(entry, k, "") or "" for k in ("list", "attribute")]
                    data += [*getattr(entry, "cards", ())]
                    match = getattr(entry, "match", None)
                    if match is not None:
                        word = match.column[1] if match.column else ""
                        data += [word, match.keyword or "", match.keyword_pattern or ""]
                    assert english_words(row.what, [str(d) for d in data]) == [], row
                    seen += 1
    assert seen > 50
