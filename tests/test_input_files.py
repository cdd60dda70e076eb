"""Card files (``pool import``), policy files (``--policy``) and format files are read with the
deck files' checks (issue 24, item 7): a regular file of bounded size, or exit 2 with a message.
A FIFO used to hang the command, and /dev/zero grew it to 18-24 GB before it was killed.

The FIFOs here are fed by a thread once something opens them, so code that wrongly reads one
gets a valid file and the test fails on its exit status instead of hanging."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from deckcheck.errors import InputError
from deckcheck.files import read_limited
from deckcheck.goldfish.policy import MAX_POLICY_BYTES
from deckcheck.pool.importer import MAX_CARD_FILE_BYTES
from tests.conftest import EXAMPLES
from tests.special_files import fed_fifo, needs_fifo
from tests.test_cli import run

CARDS = (
    "game,number,name,type,level,cost,power\n"
    "rakuen,FIFO-R-001,パイプの見本,member,1,0,3000\n"
).encode()
POLICY = b"# the default pilot\n"
DECK = str(EXAMPLES / "rakuen-standard-legal.deck")
NULL = Path(os.devnull)


@pytest.fixture
def db(tmp_path: Path) -> str:
    return str(tmp_path / "pool.sqlite3")


def _sparse(path: Path, size: int) -> Path:
    with path.open("wb") as handle:
        handle.truncate(size)  # no disk blocks: the size is what a stat reports
    return path


def _pool_has(db: str, number: str) -> bool:
    code, out, _ = run("pool", "search", number, "--json", db=db)
    return code == 0 and number in out


@needs_fifo
def test_pool_import_refuses_a_fifo(tmp_path: Path, db: str) -> None:
    with fed_fifo(tmp_path / "cards.csv", CARDS) as fifo:
        code, _, err = run("pool", "import", str(fifo), db=db)
    assert code == 2 and "not a regular file" in err and "nothing imported" in err
    assert not _pool_has(db, "FIFO-R-001")


def test_pool_import_refuses_a_device(db: str) -> None:
    code, _, err = run("pool", "import", str(NULL), db=db)
    assert code == 2 and "not a regular file" in err


def test_pool_import_refuses_a_file_over_the_limit(tmp_path: Path, db: str) -> None:
    big = _sparse(tmp_path / "big.csv", MAX_CARD_FILE_BYTES + 1)
    code, _, err = run("pool", "import", str(big), db=db)
    assert code == 2 and "larger than 64 MiB" in err


def test_pool_import_still_reads_a_card_file(tmp_path: Path, db: str) -> None:
    cards = tmp_path / "cards.csv"
    cards.write_bytes(CARDS)
    code, _, err = run("pool", "import", str(cards), db=db)
    assert code == 0, err
    assert _pool_has(db, "FIFO-R-001")


@needs_fifo
def test_a_policy_fifo_is_refused(tmp_path: Path, db: str) -> None:
    with fed_fifo(tmp_path / "pilot.toml", POLICY) as fifo:
        code, _, err = run("goldfish", DECK, "-n", "10", "-t", "2", "--policy", str(fifo), db=db)
    assert code == 2 and "not a regular file" in err


def test_a_policy_device_or_an_oversized_policy_is_refused(tmp_path: Path, db: str) -> None:
    code, _, err = run("goldfish", DECK, "-n", "10", "-t", "2", "--policy", str(NULL), db=db)
    assert code == 2 and "not a regular file" in err
    big = _sparse(tmp_path / "big.toml", MAX_POLICY_BYTES + 1)
    code, _, err = run("goldfish", DECK, "-n", "10", "-t", "2", "--policy", str(big), db=db)
    assert code == 2 and "larger than 1 MiB" in err


@needs_fifo
def test_a_format_fifo_in_a_formats_folder_is_refused(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    text = b"extends = 'rakuen-standard'\nname = 'pipe'\nsources = ['outside the rulebooks']\n"
    monkeypatch.setenv("DECKCHECK_FORMATS", str(tmp_path))
    with fed_fifo(tmp_path / "pipe.toml", text):
        code, _, err = run("formats", "show", "pipe")
    assert code == 2 and "not a regular file" in err


def test_an_oversized_format_file_is_refused(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    _sparse(tmp_path / "big.toml", (1 << 20) + 1)
    monkeypatch.setenv("DECKCHECK_FORMATS", str(tmp_path))
    code, _, err = run("formats", "show", "big")
    assert code == 2 and "larger than 1 MiB" in err


def test_read_limited_reads_a_small_regular_file(tmp_path: Path) -> None:
    path = tmp_path / "x.txt"
    path.write_bytes(b"abc")
    assert read_limited(path, 3, InputError, "a test file") == b"abc"
    with pytest.raises(InputError, match="larger than 2 bytes, not a test file"):
        read_limited(path, 2, InputError, "a test file")


@needs_fifo
def test_a_format_fifo_named_by_path_is_called_a_fifo(tmp_path: Path, db: str) -> None:
    """``-f fifo.toml`` said "no such file" (issue 37, item 7)."""
    text = b"extends = 'rakuen-standard'\nname = 'pipe'\nsources = ['outside the rulebooks']\n"
    with fed_fifo(tmp_path / "pipe.toml", text) as fifo:
        code, _, err = run("validate", DECK, "-f", str(fifo), db=db)
    assert code == 2 and "a FIFO, not a regular file" in err and "no such file" not in err
    code, _, err = run("validate", DECK, "-f", str(tmp_path / "gone.toml"), db=db)
    assert code == 2 and "no such file" in err


@pytest.mark.parametrize(
    ("text", "said"),
    [
        ("x = " + "[" * 100_000 + "]" * 100_000 + "\n", "nested too deep"),
        ("x = " + "{a = " * 100_000 + "1" + "}" * 100_000 + "\n", "nested too deep"),
        ("x = " + "1" * 100_000 + "\n", "over 4,300 digits"),
    ],
    ids=["arrays 100,000 deep", "tables 100,000 deep", "100,000 digits"],
)
def test_a_hostile_format_file_is_exit_2(tmp_path: Path, db: str, text: str, said: str) -> None:
    """Exit 70 (RecursionError, ValueError) before (issue 37, item 7)."""
    hostile = tmp_path / "hostile.toml"
    hostile.write_text(text, encoding="utf-8")
    code, _, err = run("validate", DECK, "-f", str(hostile), db=db)
    assert code == 2, err
    assert said in err and "Traceback" not in err
