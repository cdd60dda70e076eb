"""Japanese for what the operating system refuses and for the card-list template: the OS's
own reason (strerror) is English on this machine, so deckcheck words the common ones."""

from __future__ import annotations

import errno
from pathlib import Path

from prose import english_words
from test_i18n_cli import deckcheck

from deckcheck import plugins
from deckcheck.errors import os_reason
from deckcheck.i18n import override
from deckcheck.pool.template import used_columns


def test_a_missing_card_file_is_explained_in_japanese(tmp_path: Path) -> None:
    missing = tmp_path / "cards.csv"
    code, out = deckcheck("pool", "import", str(missing), "--db", str(tmp_path / "p.sqlite3"))
    assert code == 2
    assert "そのようなファイルやフォルダーはありません" in out
    assert english_words(out, allowed=[str(missing)]) == [], out


def test_common_reasons_have_their_words_and_others_keep_the_systems() -> None:
    with override("ja"):
        assert os_reason(PermissionError(errno.EACCES, "Permission denied")) == (
            "アクセスが許可されていません"
        )
        assert os_reason(OSError(errno.EIO, "Input/output error")) == "Input/output error"
    assert os_reason(PermissionError(errno.EACCES, "Permission denied")) == "Permission denied"


def test_the_card_list_template_explains_its_columns_in_japanese() -> None:
    for game in ("chaos", "rakuen", "vision", "iris"):
        code, out = deckcheck("pool", "template", game)
        assert code == 0, out
        # each line starts with the column it explains; a game and a card type are written by
        # their ids (the file's values), and HP is the cards' own word: all data
        columns = used_columns(game)
        explained = [line.removeprefix("# ") for line in out.splitlines() if line.startswith("#")]
        assert [line.partition("：")[0] for line in explained[1:]] == columns
        prose = "\n".join(line.partition("：")[2] for line in explained)
        ids = [game, *plugins.get(game).cards.card_types, "HP"]
        assert english_words(prose, allowed=ids) == [], prose
