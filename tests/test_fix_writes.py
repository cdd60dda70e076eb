"""``deckcheck fix`` writes the certain changes by default (issue 31, item 3): the from-memory
list becomes a legal deck file in one step, the rest is listed, and ``--dry-run`` writes
nothing. Before this change ``fix`` wrote only with ``--apply``, and it listed a choice
("keep 1 of them") for the 博麗 霊夢 lines of a deck the validator finds legal."""

from __future__ import annotations

from pathlib import Path

from deckcheck.cli import app
from tests.cli_run import CliRunner
from tests.test_list_forms import memory_list

runner = CliRunner()

APPLIED = [
    "applied: line 8: 'N10 ﾁﾙﾉ' → 'N10 チルノ' (the card's own spelling)",
    "applied: line 11: '秋静葉' → '秋 静葉' (the card's own spelling)",
    "applied: line 14: 'N318 霧雨 魔里沙' → 'N318 霧雨 魔理沙' (the card's own spelling)",
    "applied: line 16: '『エリー』' → 'エリー' (the card's own spelling)",
    "applied: line 18: 'N317 博麗霊夢' → 'N317 博麗 霊夢' (the card's own spelling)",
]


def _fixed_by_hand() -> str:
    text = memory_list()
    for old, new in (
        ("N10 ﾁﾙﾉ", "N10 チルノ"),
        ("秋静葉 ×3", "秋 静葉 ×3"),
        ("霧雨 魔里沙", "霧雨 魔理沙"),
        ("『エリー』", "エリー"),
        ("N317 博麗霊夢", "N317 博麗 霊夢"),
    ):
        text = text.replace(old, new, 1)
    return text


def test_fix_turns_the_list_from_memory_into_a_legal_deck_file(tmp_path: Path) -> None:
    deck, db = tmp_path / "memory.deck", str(tmp_path / "pool.sqlite3")
    deck.write_text(memory_list(), encoding="utf-8")
    assert runner.invoke(app, ["validate", str(deck), "--db", db]).exit_code == 1
    result = runner.invoke(app, ["fix", str(deck), "--db", db])
    out = result.stdout.splitlines()
    assert result.exit_code == 0, result.stdout
    assert [line for line in out if line.startswith("applied: ")] == APPLIED
    # the rest is listed: which printing stands for a name whose printings count alike
    assert (
        "note: line 11: '秋 静葉' has 5 printings that legality treats alike; N1267 stands for "
        "them (write another number if you meant it)"
    ) in out
    assert not [line for line in out if line.startswith("needs a choice")]  # a legal deck
    assert out[-1].endswith("vision-standard LEGAL (main 50, side 10)")
    # only the touched lines changed; comments, order and the written forms are kept
    assert deck.read_text(encoding="utf-8") == _fixed_by_hand()
    assert runner.invoke(app, ["validate", str(deck), "--db", db]).exit_code == 0
    again = runner.invoke(app, ["fix", str(deck), "--db", db])
    assert again.exit_code == 0 and "applied: " not in again.stdout
    assert deck.read_text(encoding="utf-8") == _fixed_by_hand()


def test_a_dry_run_shows_the_diff_and_writes_nothing(tmp_path: Path) -> None:
    deck, db = tmp_path / "memory.deck", str(tmp_path / "pool.sqlite3")
    deck.write_text(memory_list(), encoding="utf-8")
    result = runner.invoke(app, ["fix", str(deck), "--dry-run", "--db", db])
    out = result.stdout.splitlines()
    assert result.exit_code == 1  # the file, as it still is, is illegal
    assert [line for line in out if line.startswith("fix: ")] == [
        line.replace("applied: ", "fix: ", 1) for line in APPLIED
    ]
    assert "-秋静葉 ×3" in out and "+秋 静葉 ×3" in out
    assert deck.read_text(encoding="utf-8") == memory_list()


def test_apply_is_still_accepted_and_writes_the_same(tmp_path: Path) -> None:
    """v0.1.0's README wrote ``deckcheck fix my.deck --apply``: scripts that pass it work."""
    deck, db = tmp_path / "memory.deck", str(tmp_path / "pool.sqlite3")
    deck.write_text(memory_list(), encoding="utf-8")
    result = runner.invoke(app, ["fix", str(deck), "--apply", "--db", db])
    assert result.exit_code == 0
    assert deck.read_text(encoding="utf-8") == _fixed_by_hand()
