"""Deck files never lead outside the deck folder (issue 13, item 5): walks skip symlinks that
leave the folder, non-regular files are refused at once, unknown text is echoed sparingly, and
``add`` on a symlinked deck writes through to its target."""

from __future__ import annotations

import os
import shutil
import threading
from pathlib import Path

import pytest

from tests.conftest import EXAMPLES
from tests.test_cli import run

SECRET = "ghp_SECRETTOKEN1234567890"


@pytest.fixture
def db(tmp_path: Path) -> str:
    return str(tmp_path / "files.sqlite3")


def _folder(tmp_path: Path) -> Path:
    decks = tmp_path / "decks"
    decks.mkdir()
    shutil.copy(EXAMPLES / "rakuen-standard-legal.deck", decks / "legal.deck")
    outside = tmp_path / "outside.txt"
    outside.write_text(f"format: rakuen-standard\n{SECRET}\n", encoding="utf-8")
    (decks / "leak.txt").symlink_to(outside)
    return decks


def test_a_walk_skips_symlinks_that_leave_the_folder(tmp_path: Path, db: str) -> None:
    decks = _folder(tmp_path)
    code, out, _ = run("validate", str(decks), "--output", "github", db=db)
    assert code == 0 and SECRET not in out
    code, out, _ = run("validate", str(decks), "--follow-symlinks", "--output", "github", db=db)
    assert code == 1 and "leak.txt" in out


def test_a_symlink_inside_the_folder_is_read(tmp_path: Path, db: str) -> None:
    decks = _folder(tmp_path)
    (decks / "alias.deck").symlink_to(decks / "legal.deck")
    code, out, _ = run("validate", str(decks), db=db)
    assert code == 0 and "alias.deck" in out


@pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="POSIX only")
def test_a_fifo_is_refused_at_once(tmp_path: Path, db: str) -> None:
    """Refused before it is opened: opening a FIFO without a writer blocks for ever. Against a
    hang, a timer opens the writing end after a minute (the reader then sees an empty file)
    and the test fails; it does not time how fast the refusal is."""
    fifo = tmp_path / "pipe.deck"
    os.mkfifo(fifo)
    unblocked: list[bool] = []

    def unblock() -> None:
        try:
            os.close(os.open(fifo, os.O_WRONLY | os.O_NONBLOCK))
            unblocked.append(True)  # a reader was waiting on the FIFO
        except OSError:  # ENXIO: no reader, nothing to unblock
            pass

    guard = threading.Timer(60, unblock)
    guard.start()
    try:
        code, _, err = run("validate", str(fifo), db=db)
    finally:
        guard.cancel()
    assert not unblocked, "validate opened the FIFO and waited for a writer"
    assert code == 2 and "not a regular file" in err


@pytest.mark.skipif(not Path("/dev/zero").exists(), reason="needs /dev/zero")
def test_a_device_is_refused(db: str) -> None:
    code, _, err = run("validate", "/dev/zero", "--format", "rakuen-standard", db=db)
    assert code == 2 and "not a regular file" in err


def test_unknown_lines_are_clipped_and_a_file_without_deck_lines_is_not_echoed(
    tmp_path: Path, db: str
) -> None:
    long = tmp_path / "long.deck"
    long.write_text("format: rakuen-standard\n" + "y" * 500 + "\n", encoding="utf-8")
    code, out, _ = run("validate", str(long), "--output", "github", db=db)
    assert code == 1 and "y" * 79 in out and "y" * 81 not in out
    secret = tmp_path / "secret.txt"
    secret.write_text(f"{SECRET}\n", encoding="utf-8")
    code, out, err = run("validate", str(secret), "--format", "rakuen-standard", "-o", "github", db=db)
    assert code == 1 and SECRET not in out + err


def test_add_on_a_symlinked_deck_writes_through(tmp_path: Path, db: str) -> None:
    target = tmp_path / "real.deck"
    shutil.copy(EXAMPLES / "rakuen-standard-legal.deck", target)
    link = tmp_path / "link.deck"
    link.symlink_to(target)
    before = target.read_text(encoding="utf-8")
    ref = next(
        line.split(maxsplit=1)[1]
        for line in before.splitlines()
        if line[:1].isdigit()
    )
    code, _, _ = run("add", str(link), "1", ref, db=db)
    assert code in (0, 1)
    assert link.is_symlink() and target.read_text(encoding="utf-8") != before
