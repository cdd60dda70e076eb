"""What an organiser collects from a folder of lists (issue 31, item 6): player and deck name
header lines, the run's summary line in every output form, one CSV table of all decks, lists
that are the same deck, and a printable registration sheet per deck."""

from __future__ import annotations

import csv
import io
import json
import re
import shutil
from collections.abc import Iterator
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from deckcheck import decklist, same_deck
from deckcheck.cli import app
from deckcheck.csvsafe import unescape
from deckcheck.models import DeckEntry, DeckList, Report
from deckcheck.resolve import CardIndex
from tests.cli_run import CliRunner
from tests.conftest import EXAMPLES, cli_through

runner = CliRunner()

LEGAL = (EXAMPLES / "chaos-standard-legal.deck").read_text(encoding="utf-8")


@pytest.fixture
def db(tmp_path: Path) -> str:
    return str(tmp_path / "organisers.sqlite3")


def run(*args: str, db: str) -> tuple[int, str, str]:
    result = runner.invoke(app, [*args, "--db", db])
    if result.exception and not isinstance(result.exception, SystemExit):
        raise result.exception
    return result.exit_code, result.stdout, result.stderr


@pytest.fixture
def event(tmp_path: Path) -> Path:
    """An event's folder: two players' legal chaos decks (one in the Japanese header words,
    one whose player name is a spreadsheet formula), the same deck again written by card
    numbers, and an illegal rakuen deck."""
    folder = tmp_path / "event"
    folder.mkdir()
    (folder / "a-yamada.deck").write_text(
        "プレイヤー名：山田 太郎\nデッキ名：見本ビート\n" + LEGAL, encoding="utf-8"
    )
    by_numbers = LEGAL.replace("4 見本キャラ 01", "4 SAMPLE-C-001").replace(
        "4 見本キャラ02", "4 SAMPLE-C-002"
    )
    (folder / "b-copy.deck").write_text(
        'player: =HYPERLINK("http://x")\nname: the same deck\n' + by_numbers, encoding="utf-8"
    )
    shutil.copy(EXAMPLES / "rakuen-standard-illegal.deck", folder / "c-rakuen.deck")
    return folder


def test_header_lines_give_player_and_deck_name_in_both_languages() -> None:
    for text in (
        "player: 山田 太郎\nname: 霊夢ビート  # for the event\n4 SAMPLE-C-001\n",
        "プレイヤー名：山田 太郎\nデッキ名：霊夢ビート\n4 SAMPLE-C-001\n",
        "Player = 山田 太郎\nＤｅｃｋ Ｎａｍｅ： 霊夢ビート\n4 SAMPLE-C-001\n",
    ):
        deck = decklist.parse(text)
        assert (deck.player, deck.name) == ("山田 太郎", "霊夢ビート"), text
        assert deck.problems == []  # the header lines are read, not "not a card line"
        assert deck.entries[0].line == 3  # the card keeps its line number
        again = decklist.parse(decklist.print_text(deck))  # convert keeps them
        assert (again.player, again.name) == ("山田 太郎", "霊夢ビート")
        as_json = decklist.parse(json.dumps(decklist.to_json(deck), ensure_ascii=False))
        assert (as_json.player, as_json.name, as_json.problems) == ("山田 太郎", "霊夢ビート", [])


def test_a_folder_gets_one_table_of_all_decks(event: Path, tmp_path: Path, db: str) -> None:
    table = tmp_path / "summary.csv"
    code, _out, err = run("validate", str(event), "--summary", str(table), db=db)
    assert code == 1 and str(table) in err
    raw = table.read_text(encoding="utf-8-sig")
    assert "'=HYPERLINK" in raw  # a spreadsheet shows the formula as text, and does not run it
    rows = list(csv.DictReader(io.StringIO(raw)))
    got = [
        {k: unescape(v) for k, v in row.items() if k != "file"} | {"file": Path(row["file"]).name}
        for row in rows
    ]
    assert got == [
        {
            "file": "a-yamada.deck",
            "player": "山田 太郎",
            "deck_name": "見本ビート",
            "format": "chaos-standard",
            "verdict": "legal",
            "errors": "0",
            "warnings": "1",
        },
        {
            "file": "b-copy.deck",
            "player": '=HYPERLINK("http://x")',
            "deck_name": "the same deck",
            "format": "chaos-standard",
            "verdict": "legal",
            "errors": "0",
            "warnings": "1",
        },
        {
            "file": "c-rakuen.deck",
            "player": "",
            "deck_name": "",
            "format": "rakuen-standard",
            "verdict": "illegal",
            "errors": "5",
            "warnings": "0",
        },
    ]


def test_two_lists_of_one_deck_are_a_warning_naming_the_other(event: Path, db: str) -> None:
    code, out, _err = run("validate", str(event), "--json", db=db)
    assert code == 1
    reports = {Path(r["path"]).name: r for r in json.loads(out)}
    for mine, other in (("a-yamada.deck", "b-copy.deck"), ("b-copy.deck", "a-yamada.deck")):
        report = reports[mine]
        same = [v for v in report["violations"] if v["rule"] == "deckcheck/duplicate-list"]
        assert report["legal"] and len(same) == 1 and same[0]["severity"] == "warning"
        assert other in same[0]["message"] and "outside the rulebooks" in same[0]["source"]
    rakuen = reports["c-rakuen.deck"]["violations"]
    assert all(v["rule"] != "deckcheck/duplicate-list" for v in rakuen)


def test_one_more_card_is_another_deck(event: Path, db: str) -> None:
    copy = event / "b-copy.deck"
    copy.write_text(copy.read_text(encoding="utf-8").replace("1 SAMPLE-C-011", "2 SAMPLE-C-011"))
    _code, out, _err = run("validate", str(event), "--json", db=db)
    rules = {v["rule"] for r in json.loads(out) for v in r["violations"]}
    assert "deckcheck/duplicate-list" not in rules


def test_one_card_on_two_lines_is_the_same_deck(event: Path, db: str) -> None:
    copy = event / "b-copy.deck"
    text = copy.read_text(encoding="utf-8")
    assert "4 SAMPLE-C-001\n" in text
    copy.write_text(
        text.replace("4 SAMPLE-C-001\n", "1 SAMPLE-C-001\n3 見本キャラ 01\n"), encoding="utf-8"
    )
    _code, out, _err = run("validate", str(event), "--json", db=db)
    reports = {Path(r["path"]).name: r for r in json.loads(out)}
    same = [
        v for v in reports["b-copy.deck"]["violations"] if v["rule"] == "deckcheck/duplicate-list"
    ]
    assert len(same) == 1 and "a-yamada.deck" in same[0]["message"]


SUMMARY = (
    "3 decks: 2 legal, 1 illegal (5 errors, 2 warnings); 2 lists that are the same deck as another"
)


@pytest.mark.parametrize("output", ["text", "json", "junit", "sarif", "github"])
def test_every_output_form_has_the_summary_line(event: Path, db: str, output: str) -> None:
    code, out, err = run("validate", str(event), "--output", output, db=db)
    assert code == 1
    if output == "text":
        assert SUMMARY in out
    elif output == "github":  # a notice among the annotations
        assert f"::notice title=deckcheck::{SUMMARY}\n" in out
    else:  # beside the machine document, which stays parseable as it was
        assert SUMMARY in err and SUMMARY not in out
    if output in ("json", "sarif"):
        json.loads(out)


def test_the_summary_line_in_japanese(event: Path, db: str) -> None:
    result = runner.invoke(app, ["--lang", "ja", "validate", str(event), "--db", db])
    assert "3デッキ：適正 2デッキ、不適正 1デッキ" in result.stdout, result.stdout


def test_a_registration_sheet_per_deck(event: Path, tmp_path: Path, db: str) -> None:
    out = tmp_path / "sheets"
    code, _out, err = run(
        "sheet", str(event / "a-yamada.deck"), "--out", str(out), "--event", "春の大会", db=db
    )
    assert code == 0 and "a-yamada.html" in err
    page = (out / "a-yamada.html").read_text(encoding="utf-8")
    assert "Deck registration sheet" in page and "@media print" in page
    for text in ("山田 太郎", "見本ビート", "春の大会", "chaos-standard", "LEGAL"):
        assert text in page
    # 見本キャラ 01 written by name is printed with its number; the section totals add up
    assert (
        '<td class="number">SAMPLE-C-001</td><td>見本キャラ 01</td><td class="count">4</td>' in page
    )
    assert '<td colspan="2">Total</td><td class="count">50</td>' in page  # main
    assert '<td colspan="2">Total</td><td class="count">5</td>' in page  # extra


def test_the_sheet_in_japanese_escapes_what_the_list_says(tmp_path: Path, db: str) -> None:
    deck = tmp_path / "x.deck"
    deck.write_text("player: <script>alert(1)</script>\n" + LEGAL, encoding="utf-8")
    result = runner.invoke(
        app, ["--lang", "ja", "sheet", str(deck), "--out", str(tmp_path), "--db", db]
    )
    assert result.exit_code == 0, result.output
    page = (tmp_path / "x.html").read_text(encoding="utf-8")
    assert '<html lang="ja">' in page and "デッキ登録用紙" in page and "合計" in page
    assert "<script>" not in page and "&lt;script&gt;" in page


def test_bad_sheet_and_summary_targets_are_exit_2_with_a_message(tmp_path: Path, db: str) -> None:
    deck = str(EXAMPLES / "iris-standard-legal.deck")
    a_file = tmp_path / "a-file"
    a_file.write_text("keep me", encoding="utf-8")
    for args in (
        ["sheet", deck, "--out", str(a_file)],
        ["sheet", str(tmp_path / "missing.deck"), "--out", str(tmp_path)],
        ["validate", deck, "--summary", str(a_file / "x.csv")],
    ):
        code, _out, err = run(*args, db=db)
        assert code == 2 and "deckcheck: error:" in err and "Traceback" not in err, args
    assert a_file.read_text(encoding="utf-8") == "keep me"


# --- the same through a service (issue 31, item 6: --server) -------------------------------


@pytest.fixture
def remote(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[str]:
    """``--server`` answered by a service in this process, on a pool of its own."""
    from starlette.testclient import TestClient

    from deckcheck.service.app import create_app
    from deckcheck.service.settings import Settings

    service = create_app(Settings(db=tmp_path / "service.sqlite3"))
    with TestClient(service) as started:
        yield cli_through(started, monkeypatch)


def test_a_folder_through_the_service_has_the_same_duplicate_warnings(
    event: Path, db: str, remote: str
) -> None:
    # b-copy.deck writes two lines by number that a-yamada.deck writes by name: only the
    # card numbers the service resolves show they are the same deck
    copy = event / "b-copy.deck"
    copy.write_text(
        copy.read_text(encoding="utf-8").replace(
            "4 SAMPLE-C-001\n", "1 SAMPLE-C-001\n3 見本キャラ 01\n"
        ),
        encoding="utf-8",
    )
    _code, out, _err = run("validate", str(event), "--json", db=db)
    local = json.loads(out)
    served = runner.invoke(app, ["--server", remote, "validate", str(event), "--json"])
    assert served.exit_code == 1, served.output
    assert json.loads(served.stdout) == local
    same = {
        Path(r["path"]).name
        for r in local
        for v in r["violations"]
        if v["rule"] == "deckcheck/duplicate-list"
    }
    assert same == {"a-yamada.deck", "b-copy.deck"}
    text = runner.invoke(app, ["--server", remote, "validate", str(event)]).stdout
    assert "2 lists that are the same deck as another" in text


# references to a few chaos cards as lists write them: a number, its name, other widths and
# cases, a reprint (another number), another game's card and an unknown name in two spellings
SAME_DECK_REFS = (
    "SAMPLE-C-001", "見本キャラ 01", "sample-c-001", "ＳＡＭＰＬＥ－Ｃ－００１", "SAMPLE-C-001R",
    "SAMPLE-C-002", "見本キャラ 02", "SAMPLE-R-001", "no such card", "Ｎｏ Ｓｕｃｈ Ｃａｒｄ",
)  # fmt: skip
SAME_DECK_SECTIONS = ("main", "extra", "side", "no-such-section")


def _same_deck_groups(
    decks: list[DeckList], index: CardIndex, monkeypatch: pytest.MonkeyPatch | None = None
) -> list[set[int]]:
    """The decks each deck is marked the same deck as, by ``mark_duplicates``."""
    reports = [
        Report(path=f"d{i}", format="chaos-standard", game="chaos", legal=True, counts={},
               violations=[])
        for i in range(len(decks))
    ]  # fmt: skip
    same_deck.mark_duplicates(decks, ["chaos"] * len(decks), reports, index)
    marked = [[v for v in r.violations if v.rule == same_deck.RULE] for r in reports]
    assert all(len(m) <= 1 for m in marked)
    return [
        {j for j in range(len(decks)) if m and re.search(rf"\bd{j}\b", m[0].message)}
        for m in marked
    ]


@st.composite
def _deck_lists(draw: st.DrawFn) -> list[DeckList]:
    """A few lists, and lists made from them: lines reordered, a line split in two, a card
    written by name instead of number, a copy more."""
    line = st.tuples(
        st.sampled_from(SAME_DECK_SECTIONS), st.integers(0, 4), st.sampled_from(SAME_DECK_REFS)
    )
    bases = draw(st.lists(st.lists(line, max_size=6), min_size=1, max_size=4))
    lists = list(bases)
    for _ in range(draw(st.integers(1, 6))):
        lines = list(draw(st.sampled_from(bases)))
        if lines:
            k = draw(st.integers(0, len(lines) - 1))
            section, count, ref = lines[k]
            how = draw(st.sampled_from(["shuffle", "split", "rename", "more"]))
            if how == "split":
                a = draw(st.integers(0, count))
                other = draw(st.sampled_from(SAME_DECK_REFS))
                lines[k : k + 1] = [(section, a, ref), (section, count - a, other)]
            elif how == "rename":
                lines[k] = (section, count, draw(st.sampled_from(SAME_DECK_REFS)))
            elif how == "more":
                lines[k] = (section, count + 1, ref)
            lines = draw(st.permutations(lines))
        lists.append(lines)
    return [
        DeckList(entries=[DeckEntry(s, n, ref, i + 1) for i, (s, n, ref) in enumerate(lines)])
        for lines in lists
    ]


@settings(max_examples=200)
@given(decks=_deck_lists())
def test_lists_are_marked_the_same_deck_exactly_when_their_fingerprints_are_equal(
    index: CardIndex, decks: list[DeckList]
) -> None:
    """The duplicate check fingerprints only the lists whose ``signature`` another list
    shares: it groups lists exactly as their fingerprints do, and equal fingerprints have
    equal signatures (a name and a number for one card, a card over two lines, unknown names,
    other games' cards, sections the format does not have)."""
    numbers = same_deck.Numbers("chaos", index)
    prints = [same_deck.fingerprint(d, "chaos", numbers) for d in decks]
    for i, a in enumerate(prints):
        for j, b in enumerate(prints):
            if a is not None and a == b:
                signatures = (same_deck.signature(decks[k], numbers) for k in (i, j))
                assert len(set(signatures)) == 1
    expected = [
        {j for j, b in enumerate(prints) if j != i and a is not None and a == b}
        for i, a in enumerate(prints)
    ]
    assert _same_deck_groups(decks, index) == expected
    with pytest.MonkeyPatch.context() as patch:  # every signature alike: all fingerprinted
        patch.setattr(same_deck, "signature", lambda deck, numbers: 0)
        assert _same_deck_groups(decks, index) == expected


def test_a_card_by_number_and_by_name_over_two_lines_is_the_same_deck(index: CardIndex) -> None:
    def deck(*lines: tuple[str, int, str]) -> DeckList:
        return DeckList(entries=[DeckEntry(*line, i + 1) for i, line in enumerate(lines)])

    decks = [
        deck(("main", 4, "SAMPLE-C-001"), ("extra", 1, "no such card")),
        deck(
            ("main", 1, "見本キャラ 01"), ("extra", 1, "NO SUCH CARD"), ("main", 3, "sample-c-001")
        ),
        deck(("main", 4, "SAMPLE-C-001R"), ("extra", 1, "no such card")),  # a reprint's number
        deck(("extra", 4, "SAMPLE-C-001"), ("main", 1, "no such card")),  # other sections
        deck(),  # no card: never the same deck
        deck(),
    ]
    assert _same_deck_groups(decks, index) == [{1}, {0}, set(), set(), set(), set()]
