"""Deck lists as players write them (issue 31, item 1): counts before or after the name with
x × X 枚 in either width, headings bare or bracketed, names without their spaces or in quotes,
and conditions naming a card with or without its brackets. Every list here was written by hand
the way blogs and tournament posts write them; before this change each one gave deck/syntax or
deck/unknown-card errors."""

from __future__ import annotations

import json
from collections.abc import Callable, Iterator
from datetime import date
from pathlib import Path

import pytest
from starlette.testclient import TestClient

from deckcheck import decklist, sheet
from deckcheck.cli import app
from deckcheck.formats.registry import FormatRegistry
from deckcheck.models import Card, Report
from deckcheck.odds.api import deck_sections
from deckcheck.pool.store import Pool
from deckcheck.resolve import CardIndex
from tests.cli_run import CliRunner
from tests.conftest import DATA, EXAMPLES

Check = Callable[..., Report]
FORMS = DATA / "list_forms"
runner = CliRunner()


def entries(text: str) -> list[tuple[str, int, str]]:
    deck = decklist.parse_text(text)
    assert deck.problems == []
    return [(e.section, e.count, e.ref) for e in deck.entries]


@pytest.mark.parametrize(
    "line",
    [
        "3 マナの生成",
        "3x マナの生成",
        "3 x マナの生成",
        "3X マナの生成",
        "3× マナの生成",
        "3枚 マナの生成",
        "3 枚 マナの生成",
        "×3 マナの生成",
        "x3 マナの生成",
        "×3枚 マナの生成",
        "マナの生成 x3",
        "マナの生成 X3",
        "マナの生成 ×3",
        "マナの生成×3",
        "マナの生成 3枚",
        "マナの生成 3x",
        "３ マナの生成",
        "３枚　マナの生成",
        "マナの生成　×３",
        "マナの生成 ｘ３",
        "マナの生成 ×３枚",
        "マナの生成x3",  # an ASCII x glued to a name not ending in an ASCII letter or digit
        "マナの生成X3",
        # after a list bullet, as blogs, chats and Markdown write lists
        "・マナの生成×3",
        "・ 3 マナの生成",
        "- 3 マナの生成",
        "* マナの生成 ×3",
        "● 3x マナの生成",
        "• マナの生成 3枚",
        # after a list's own number, when the count is written elsewhere on the line
        "1. マナの生成 ×3",
        "12) マナの生成 3枚",
        "２．マナの生成×3",
        "③マナの生成 x3",
        "④ マナの生成（3）",
        # a count in the next column, as spreadsheets and forms copy them
        "マナの生成\t3",
        "マナの生成,3",
        "マナの生成， 3",
        "マナの生成：3",
        "マナの生成: 3",
    ],
)
def test_a_count_before_or_after_the_name(line: str) -> None:
    assert entries(f"format: vision-standard\n{line}\n") == [("main", 3, "マナの生成")]


def test_a_name_ending_in_digits_after_a_space_stays_a_name() -> None:
    """見本キャラ 01 is a card's name: a count after a space alone is never split off."""
    assert entries("format: chaos-standard\n4 見本キャラ 01\n") == [("main", 4, "見本キャラ 01")]
    assert entries("format: chaos-standard\n見本キャラ 01\t4\n") == [("main", 4, "見本キャラ 01")]


def test_a_registration_forms_header_lines_are_read() -> None:
    """The header lines a registration form or a blog puts above a list: the player
    (使用者：), the deck's name (デッキタイトル：), the day (日付：2026/11/30, any of / . 年月日),
    and the lines that say nothing of legality (大会名：, 作成者：, レギュレーション：), read and
    left aside. Before, each was "not a card line" and the list was ILLEGAL."""
    text = (
        "デッキタイトル：霊夢ビート\n使用者：山田 太郎\n作成者：山田\n大会名：春の大会\n"
        "日付：2026年1月5日\nレギュレーション：スタンダード\nformat: vision-standard\n3 大妖精\n"
    )
    deck = decklist.parse(text)
    assert deck.problems == [] and [(e.count, e.ref) for e in deck.entries] == [(3, "大妖精")]
    assert (deck.player, deck.name, deck.date) == ("山田 太郎", "霊夢ビート", date(2026, 1, 5))
    assert decklist.parse("日付：2026/11/30\n").date == date(2026, 11, 30)
    wrong = decklist.parse("日付：去年\n3 大妖精\n").problems  # a day that is no day says so
    assert [(p.rule, p.line) for p in wrong] == [("deck/syntax", 1)]


def test_a_list_number_without_another_count_is_no_card_line() -> None:
    """「3. 大妖精」 says no count but its number: not read as three copies (deckcheck's
    reading), so the line is refused, as before."""
    deck = decklist.parse_text("format: vision-standard\n3. 大妖精\n")
    assert deck.entries == [] and [p.rule for p in deck.problems] == ["deck/syntax"]


def test_a_bare_count_after_the_name_reads_when_the_name_is_a_card(
    index: CardIndex, registry: FormatRegistry, check: Check
) -> None:
    """``森近 霖之助 2``, as plain-text lists write a count: the parser cannot tell it from a
    name ending in a number, so the pool decides. Each line here was "not a card line" before;
    the odds and the goldfish deal the same cards (they read the deck as the validator does)."""
    text = (
        "format: vision-standard\n森近 霖之助 2\n秋 穣子\u3000３\nN317 1\nPR.008 博麗 霊夢 1\n"
        "・マナの生成 3\n因幡てゐ*3\n因幡てゐ ＊1\n大妖精（2）\n大妖精 (1枚)\n狙撃……2\n"
        "西行妖、開花… 1\n"
    )
    report = check(text)
    assert [v.rule for v in report.violations if v.rule.startswith("deck/")] == []
    dealt = deck_sections(decklist.parse(text), registry.get("vision-standard"), index)["main"]
    assert sorted((card.number, n) for card, n in dealt) == [
        ("N1031", 2),  # 森近 霖之助
        ("N1138", 4),  # 因幡 てゐ: 因幡てゐ*3 and 因幡てゐ ＊1 add up
        ("N1268", 3),  # 秋 穣子
        ("N1374", 3),  # 大妖精: 大妖精（2） and 大妖精 (1枚)
        ("N317", 1),
        ("N75", 3),  # マナの生成
        ("N76", 2),  # 狙撃……2
        ("N97", 1),  # 西行妖、開花… 1: the name's own dots stay
        ("PR.008", 1),
    ]


def test_a_bare_count_after_no_card_is_no_card_line(
    index: CardIndex, registry: FormatRegistry, check: Check
) -> None:
    """Where the words before the number name no card, the line is not a card line, as
    before, and its count does not add to the deck's size; where the whole line is a card's
    name (ChaosTCG's 見本キャラ 01), the fix shows that card with a count."""
    text = "format: vision-standard\n50 マナの生成\nおすすめ 50\nマナの生成 0\n"
    report = check(text)
    syntax = [v for v in report.violations if v.rule == "deck/syntax"]
    assert [(v.line, v.message) for v in syntax] == [
        (3, "not a card line: 'おすすめ 50'"),
        (4, "not a card line: 'マナの生成 0'"),
    ]
    assert not [v for v in report.violations if v.rule == "vision/main-size"]
    rows = sheet.sections(decklist.parse(text), registry.get("vision-standard"), index)
    assert [(r.name, r.count) for part in rows for r in part.rows] == [("マナの生成", 50)]
    report = check("format: vision-standard\n3 マナの生成\n森近 霖之介 2\n")  # one typo off
    (problem,) = [v for v in report.violations if v.rule == "deck/syntax"]
    assert problem.fix is not None and "'2 森近 霖之助'" in problem.fix
    report = check("format: chaos-standard\nsamples: yes\n見本キャラ 01\n", "chaos-standard")
    (problem,) = [v for v in report.violations if v.rule == "deck/syntax"]
    assert problem.message == "not a card line: '見本キャラ 01'"
    assert problem.fix is not None and "'1 見本キャラ 01'" in problem.fix


def test_convert_writes_the_bare_count_lines_the_validator_reads(
    tmp_path: Path, shipped_pool: Pool
) -> None:
    """convert writes 森近 霖之助 2 in the canonical form and leaves out おすすめ 39, as it leaves
    out every line that is not a card line, so the verdict's counts are the same after."""
    deck = tmp_path / "bare.deck"
    deck.write_text("format: vision-standard\n森近 霖之助 2\nおすすめ 39\n", encoding="utf-8")
    db = ["--db", str(shipped_pool.path)]
    done = runner.invoke(app, ["convert", str(deck), "--to", "text", *db])
    assert done.exit_code == 0, done.stderr
    assert done.stdout == "format: vision-standard\n[main]\n2 森近 霖之助\n"


@pytest.mark.parametrize(
    "line",
    [
        "合計 50枚",
        "計50枚",
        "合計：50枚",
        "【合計】50",
        "デッキ枚数：50",
        "Total: 50",
        "total 50 cards",
    ],
)
def test_a_total_line_is_read_and_left_aside(check: Check, line: str) -> None:
    """Lists copied from blogs end with their total; it was an unknown card (合計, 計, Total)
    whose count went into the deck's size. It is now left aside, as a type's subtotal is."""
    text = (EXAMPLES / "vision-standard-legal.deck").read_text(encoding="utf-8")
    report = check(text.replace("[side]", f"{line}\n[side]"))
    assert report.legal, [v.message for v in report.violations]
    assert decklist.parse_text(f"{line}\n").entries == []


def test_a_players_note_after_a_card_is_a_comment() -> None:
    """Lists carry notes: 3 大妖精 ←初動, ※…, // …; each was part of the card's name (an unknown
    card) or a line of its own that was not a card line."""
    text = "format: vision-standard\n3 大妖精 ←初動\n妖精メイド ×3 ※様子見\n3 狙撃 // メモ\n※ここから\n"
    assert entries(text) == [("main", 3, "大妖精"), ("main", 3, "妖精メイド"), ("main", 3, "狙撃")]
    # // starts a note only after a space: a reference holding a URL is kept as written
    assert entries('1 =HYPERLINK("http://x.invalid/")\n') == [
        ("main", 1, '=HYPERLINK("http://x.invalid/")')
    ]


def test_an_ascii_mark_glued_to_a_count_is_a_sign_not_a_bullet() -> None:
    deck = decklist.parse_text("format: vision-standard\n-3 マナの生成\n- \n・\n")
    assert deck.entries == [] and len(deck.problems) == 3
    assert "count -3" in deck.problems[0].message


def test_an_ascii_x_inside_a_word_is_not_a_count() -> None:
    deck = decklist.parse_text("format: vision-standard\nMAX3\n")
    assert deck.entries == [] and "MAX3" in deck.problems[0].message


@pytest.mark.parametrize(
    ("heading", "section"),
    [
        ("キャラクター", None),
        ("スペル 6", None),
        ("コマンド：34", None),
        ("【コマンド】", None),
        ("【コマンド】34", None),
        ("【コマンド 34】", None),
        ("〔スペル〕", None),
        ("■キャラクター", None),
        ("◆スペル（6枚）", None),
        ("[キャラクター]", None),
        ("サイドボード", "side"),
        ("【サイドボード】", "side"),
        ("■サイド 10", "side"),
        ("◆サイドボード（10枚）", "side"),
        ("【メインデッキ】50枚", "main"),
        ("【エクストラ】", "extra"),
        ("〔ゲートデッキ〕", "gate"),
        ("サイドデッキ", "side"),
        ("Side Deck", "side"),
        ("Main Deck", "main"),
        ("◆サイド◆", "side"),  # framed on both sides
        ("--- サイド ---", "side"),
        ("── サイドボード ──", "side"),
        ("■サイド（10枚）■", "side"),
    ],
)
def test_headings_bare_or_bracketed_with_or_without_a_count(
    heading: str, section: str | None
) -> None:
    text = f"[side]\n1 N1\n{heading}\n3 N2\n"  # a card type's heading keeps its section
    assert entries(text) == [("side", 1, "N1"), (section or "side", 3, "N2")]


def test_a_heading_glued_to_a_number_is_not_one() -> None:
    deck = decklist.parse_text("format: vision-standard\n[sideboard2]\n1 N1\n")
    assert "unknown section" in deck.problems[0].message


@pytest.mark.parametrize(
    ("written", "canonical"),
    [
        ("vision-legal-blog.deck", "vision-standard-legal.deck"),
        ("vision-legal-twitter.deck", "vision-standard-legal.deck"),
        ("vision-illegal-blog.deck", "vision-standard-illegal.deck"),
        ("chaos-legal-counts-after.deck", "chaos-standard-legal.deck"),
    ],
)
def test_lists_written_each_way_give_the_canonical_verdict(
    check: Check, written: str, canonical: str
) -> None:
    mine = check((FORMS / written).read_text(encoding="utf-8"))
    theirs = check((EXAMPLES / canonical).read_text(encoding="utf-8"))
    assert mine.legal == theirs.legal and mine.counts == theirs.counts
    said = sorted((v.rule, v.severity, v.message) for v in mine.violations)
    assert said == sorted((v.rule, v.severity, v.message) for v in theirs.violations)


def test_every_written_list_has_a_canonical_twin() -> None:
    assert len(list(FORMS.glob("*.deck"))) == 4


@pytest.mark.parametrize(
    ("ref", "name"),
    [
        ("博麗霊夢", "博麗 霊夢"),  # VISION names keep their space; one name matches without it
        ("秋静葉", "秋 静葉"),
        ("『エリー』", "エリー"),
        ('"エリー"', "エリー"),
        ("「エリー」", "エリー"),
        ('符ノ壱"博麗 霊夢"', "符ノ壱“博麗 霊夢”"),
        ("符ノ壱”博麗 霊夢”", "符ノ壱“博麗 霊夢”"),  # the fan wiki's spelling
        ("符ノ壱「博麗霊夢」", "符ノ壱“博麗 霊夢”"),
        ("反魂蝶", "「反魂蝶」"),  # the card's own brackets left out
        ("ふらわ〜戦車", "ふらわ～戦車"),  # a Mac's or a phone's wave dash for the printed ～
        ("レティホワイトロック", "レティ・ホワイトロック"),  # the middle dot left out
        ("亡舞「生者必滅の理 ‐死蝶‐」", "亡舞「生者必滅の理 -死蝶-」"),  # hyphen for -
        ("亡舞「生者必滅の理 –死蝶–」", "亡舞「生者必滅の理 -死蝶-」"),  # en dash
    ],
)
def test_a_name_spelled_loosely_means_the_one_name_it_can(
    index: CardIndex, ref: str, name: str
) -> None:
    found = index.found("vision", ref)
    card = found.card or found.ambiguous[0]
    assert card.name == name and found.spelling == name


def test_a_loose_spelling_two_names_share_is_no_card() -> None:
    cards = [
        Card(game="vision", number="X1", name="紅 美鈴", type="character"),
        Card(game="vision", number="X2", name="紅美鈴", type="character"),
    ]
    index = CardIndex(cards)
    assert index.found("vision", "紅美鈴").card is cards[1]  # as written, it is one
    assert index.found("vision", "『紅  美鈴』").unknown  # loosely, it is both


def test_a_condition_names_a_card_with_or_without_its_brackets(tmp_path: Path) -> None:
    db = str(tmp_path / "pool.sqlite3")
    deck = str(EXAMPLES / "vision-standard-hangonchou.deck")
    results = []
    for want in ("name:「反魂蝶」>=1", "name:反魂蝶>=1"):
        result = runner.invoke(app, ["odds", deck, "--want", want, "--turns", "1", "--db", db])
        assert result.exit_code == 0, result.stdout
        results.append(result.stdout.split("probability")[1].split("assumption")[0])
    assert results[0] == results[1] and "26.29%" in results[0]


def test_an_unreadable_line_names_itself_and_a_line_of_the_decks_game(check: Check) -> None:
    report = check("format: vision-standard\n3 マナの生成\nマナの生成 三枚\n")
    (problem,) = [v for v in report.violations if v.rule == "deck/syntax"]
    assert problem.line == 3 and "'マナの生成 三枚'" in problem.message
    # a VISION card at a count VISION allows, not a ChaosTCG sample at 4
    assert problem.fix == (
        "write a count and a card number or name, e.g. '3 マナの生成' (or 'マナの生成 ×3')"
    )


def test_messages_show_names_as_written(check: Check) -> None:
    report = check("format: vision-standard\n3 紅\u3000美鈴x\n紅\u3000美鈴 三枚\n")
    text = " ".join(f"{v.message} {v.fix}" for v in report.violations)
    assert "'紅\u3000美鈴x'" in text and "'紅\u3000美鈴 三枚'" in text
    assert "\\u3000" not in text


def memory_list() -> str:
    """examples/vision-standard-legal.deck as a player writes it from memory: names without
    their spaces, half-width kana, a typo, counts after the names, bare headings."""
    legal = (EXAMPLES / "vision-standard-legal.deck").read_text(encoding="utf-8")
    for old, new in (
        ("[main]", "キャラクター"),
        ("3 大妖精", "3 N10 ﾁﾙﾉ"),  # another character, its name in half-width kana
        ("3 因幡 てゐ", "N318 霧雨 魔里沙 ×3"),  # a typo: one suggestion
        ("3 秋 静葉", "秋静葉 ×3"),
        ("3 エリー", "×3 『エリー』"),
        ("1 N317 ", "1 N317 博麗霊夢 "),
        ("[side]", "サイドボード"),
    ):
        assert old in legal
        legal = legal.replace(old, new, 1)
    return legal


def test_fix_applies_every_certain_spelling_and_the_list_becomes_legal(tmp_path: Path) -> None:
    deck, db = tmp_path / "memory.deck", str(tmp_path / "pool.sqlite3")
    deck.write_text(memory_list(), encoding="utf-8")
    result = runner.invoke(app, ["fix", str(deck), "--dry-run", "--db", db])
    assert result.exit_code == 1 and deck.read_text(encoding="utf-8") == memory_list()
    for line in (
        "-N318 霧雨 魔里沙 ×3",
        "+N318 霧雨 魔理沙 ×3",
        "+3 N10 チルノ",
        "+秋 静葉 ×3",
        "+×3 エリー",
        "+1 N317 博麗 霊夢",
    ):
        assert line in result.stdout.splitlines() or any(
            out.startswith(line) for out in result.stdout.splitlines()
        ), line
    result = runner.invoke(app, ["fix", str(deck), "--db", db])  # writing is the default
    assert result.exit_code == 0 and "LEGAL" in result.stdout
    written = deck.read_text(encoding="utf-8")
    assert "魔里沙" not in written and "ﾁﾙﾉ" not in written and "博麗霊夢" not in written


def test_fix_lists_a_name_with_printings_that_differ_as_a_choice(tmp_path: Path) -> None:
    deck, db = tmp_path / "memory.deck", str(tmp_path / "pool.sqlite3")
    deck.write_text("format: vision-standard\nキャラクター\n博麗霊夢 ×3\n", encoding="utf-8")
    result = runner.invoke(app, ["fix", str(deck), "--db", db])
    assert "applied: line 3: '博麗霊夢' → '博麗 霊夢'" in result.stdout
    assert "needs a choice: line 3: '博麗 霊夢' is one of 13 printings" in result.stdout
    # what tells them apart: the number, the type, 必要ノード, cost, set, keywords
    assert "    PR.190 character: cost 1, node 3" in result.stdout
    assert "keywords デッキ1枚制限" in result.stdout
    assert deck.read_text(encoding="utf-8").endswith("博麗 霊夢 ×3\n")


def test_an_ambiguous_line_counts_its_copies_once_and_tells_printings_apart(
    check: Check,
) -> None:
    report = check("format: vision-standard\n3 博麗 霊夢\n")
    (v,) = [v for v in report.violations if v.rule == "deck/ambiguous-card"]
    assert [(c.name, c.count) for c in v.cards] == [("博麗 霊夢", 3)]  # not 13 × 3
    assert v.fix is not None and "PR.190 character: cost 1, node 3" in v.fix


def test_add_and_remove_take_a_name_whose_printings_differ(tmp_path: Path) -> None:
    deck, db = tmp_path / "new.deck", str(tmp_path / "pool.sqlite3")
    assert runner.invoke(app, ["new", str(deck), "-f", "vision-standard"]).exit_code == 0
    result = runner.invoke(app, ["add", str(deck), "3", "博麗 霊夢", "--db", db])
    assert result.exit_code == 0, result.stdout  # was 2: "matches several cards"
    assert "'博麗 霊夢' has 13 printings" in result.stdout
    assert "    N317 character: cost 2, node 4" in result.stdout
    runner.invoke(app, ["add", str(deck), "1", "博麗霊夢", "--db", db])  # the same name, loosely
    assert "\n4 博麗 霊夢\n" in deck.read_text(encoding="utf-8")
    runner.invoke(app, ["add", str(deck), "2", "秋静葉", "--db", db])  # a new line: its own name
    assert "\n2 秋 静葉\n" in deck.read_text(encoding="utf-8")
    runner.invoke(app, ["remove", str(deck), "2", "博麗 霊夢", "--db", db])
    assert "\n2 博麗 霊夢\n" in deck.read_text(encoding="utf-8")


# --- samples (issue 31, item 5) -------------------------------------------------------------

MY_CHAOS = """game,number,name,type,title,power,hp,source
chaos,MY-001,わたしのキャラ,chara,STEINS;GATE,4,3,a user's own card list
"""


def test_the_examples_keep_their_verdicts_after_a_user_imports_own_cards(tmp_path: Path) -> None:
    db = str(tmp_path / "pool.sqlite3")

    def verdicts() -> dict[str, tuple[bool, list[str]]]:
        result = runner.invoke(app, ["validate", str(EXAMPLES), "--json", "--db", db])
        reports = json.loads(result.stdout)
        return {
            Path(r["path"]).name: (r["legal"], sorted(v["rule"] for v in r["violations"]))
            for r in reports
        }

    before = verdicts()
    cards = tmp_path / "mine.csv"
    cards.write_text(MY_CHAOS, encoding="utf-8")
    assert runner.invoke(app, ["pool", "import", str(cards), "--db", db]).exit_code == 0
    assert verdicts() == before


def test_a_hidden_sample_is_its_own_problem_that_says_how_to_allow_it(tmp_path: Path) -> None:
    db = str(tmp_path / "pool.sqlite3")
    cards = tmp_path / "mine.csv"
    cards.write_text(MY_CHAOS, encoding="utf-8")
    runner.invoke(app, ["pool", "import", str(cards), "--db", db])
    deck = tmp_path / "d.deck"
    deck.write_text("format: chaos-standard\n4 見本キャラ 01\n4 わたしのキャラ\n", encoding="utf-8")
    result = runner.invoke(app, ["validate", str(deck), "--json", "--db", db])
    report = json.loads(result.stdout)
    rules = {v["rule"]: v for v in report["violations"]}
    assert "deck/unknown-card" not in rules  # was: "no chaos card has the number or name"
    sample = rules["deck/sample-card"]
    assert "SAMPLE-C-001" in sample["message"] and "samples: yes" in sample["fix"]
    assert "--samples" in sample["fix"]
    for allowed in (["--samples"], []):
        if not allowed:
            deck.write_text("samples: yes\n" + deck.read_text(encoding="utf-8"), encoding="utf-8")
        result = runner.invoke(app, ["validate", str(deck), "--json", *allowed, "--db", db])
        report = json.loads(result.stdout)
        assert "deck/sample-card" not in {v["rule"] for v in report["violations"]}
        assert report["counts"]["main"] == 8


# --- one parser: the page (through the service) and the CLI ----------------------------------


@pytest.fixture(scope="module")
def http(tmp_path_factory: pytest.TempPathFactory) -> Iterator[TestClient]:
    from deckcheck.service.app import create_app
    from deckcheck.service.settings import Settings

    db = tmp_path_factory.mktemp("svc") / "pool.sqlite3"
    with TestClient(create_app(Settings(db=db)), raise_server_exceptions=False) as client:
        yield client


FROM_MEMORY = """format: vision-standard
キャラクター
3 博麗霊夢
3x 霧雨 魔里沙
チルノ ×3
【スペル】
×3 符ノ壱"博麗 霊夢"
3 『紅 美鈴』
コマンド
マナの生成 x3
3枚 黄泉の舟
3 ﾁﾙﾉ
見本 霊夢 ×3
黄泉の舟 三枚
おすすめ 39
"""


def test_the_page_and_the_cli_report_the_same_problems(http: TestClient, tmp_path: Path) -> None:
    deck = tmp_path / "memory.deck"
    deck.write_text(FROM_MEMORY, encoding="utf-8")
    db = str(tmp_path / "pool.sqlite3")
    cli = json.loads(runner.invoke(app, ["validate", str(deck), "--json", "--db", db]).stdout)
    page = http.post("/validate", json={"deck": FROM_MEMORY}).json()
    said = [(v["rule"], v["line"], v["message"], v["fix"]) for v in cli["violations"]]
    assert said == [(v["rule"], v["line"], v["message"], v["fix"]) for v in page["violations"]]
    assert ("deck/sample-card", 13) in {(v["rule"], v["line"]) for v in page["violations"]}
    # the pasted lines: every card line read (×3 ones too), the unreadable one named
    resolved = http.post("/resolve", json={"deck": FROM_MEMORY, "format": None}).json()
    assert [e["line"] for e in resolved["entries"]] == [3, 4, 5, 7, 8, 10, 11, 12, 13]
    # a count after a space reads when the name before it is a card's (黄泉の舟 3), and not
    # here, where it is no card's: the page names the line as the CLI does
    problems = resolved["problems"]
    assert [(p["line"], p["message"]) for p in problems] == [
        (14, "not a card line: '黄泉の舟 三枚'"),
        (15, "not a card line: 'おすすめ 39'"),
    ]
    syntax = [v for v in cli["violations"] if v["rule"] == "deck/syntax"]
    assert [p["fix"] for p in problems] == [v["fix"] for v in syntax]
    assert "'3 符ノ壱“博麗 霊夢”'" in problems[0]["fix"]


def test_fix_says_which_printing_stands_for_a_name_legality_treats_alike(tmp_path: Path) -> None:
    deck, db = tmp_path / "d.deck", str(tmp_path / "pool.sqlite3")
    deck.write_text("format: vision-standard\n3 秋静葉\n3 N10\n", encoding="utf-8")
    out = runner.invoke(app, ["fix", str(deck), "--db", db]).stdout
    assert (
        "note: line 2: '秋 静葉' has 5 printings that legality treats alike; N1267 stands for "
        "them (write another number if you meant it)"
    ) in out
    assert "'N10'" not in out  # a number names its printing


def test_a_condition_message_shows_the_name_as_typed() -> None:
    from deckcheck.odds.conditions import ConditionError, parse_condition

    with pytest.raises(ConditionError) as caught:
        parse_condition("name:紅\u3000美鈴 at least 2", "vision")
    assert "紅\u3000美鈴" in str(caught.value) and "\\u3000" not in str(caught.value)


@pytest.mark.parametrize("form", ["json", "csv", "text"])
def test_the_samples_line_survives_convert(tmp_path: Path, form: str) -> None:
    out = tmp_path / f"deck.{form}"
    source = str(EXAMPLES / "chaos-standard-legal.deck")
    db = str(tmp_path / "pool.sqlite3")
    result = runner.invoke(app, ["convert", source, "--to", form, "--out", str(out), "--db", db])
    assert result.exit_code == 0, result.stdout
    assert decklist.parse(out.read_text(encoding="utf-8")).samples


def test_odds_deal_a_sample_deck_after_a_user_imports_own_cards(tmp_path: Path) -> None:
    db = str(tmp_path / "pool.sqlite3")
    cards = tmp_path / "mine.csv"
    cards.write_text(MY_CHAOS, encoding="utf-8")
    runner.invoke(app, ["pool", "import", str(cards), "--db", db])
    deck = str(EXAMPLES / "chaos-standard-legal.deck")  # names samples, with samples: yes
    result = runner.invoke(
        app, ["odds", deck, "--want", "type:chara>=1", "--turns", "1", "--db", db]
    )
    assert result.exit_code == 0, result.stdout
