"""Every file deckcheck writes replaces only a regular file or a missing path (issue 24, items
6 and 10). A FIFO, a character device such as /dev/null or /dev/full, or a folder at the output
path is exit 2 naming the path, and it is left as it was: as root, ``--out /dev/null`` used to
replace the machine's /dev/null with a regular file."""

from __future__ import annotations

import os
from collections.abc import Callable, Iterator
from contextlib import ExitStack
from pathlib import Path

import pytest

from tests.conftest import EXAMPLES
from tests.special_files import drained_fifo, file_type, needs_fifo, null_device
from tests.test_cli import run

DECK = str(EXAMPLES / "rakuen-standard-legal.deck")
WANT = ["-w", "type:paradox>=1"]
SHORT = ["-n", "20", "-t", "3"]

# Each command that writes a file, with OUT where the output path goes.
WRITERS: dict[str, list[str]] = {
    "convert --out": ["convert", DECK, "--to", "csv", "--out", "OUT"],
    "new --force": ["new", "OUT", "--format", "rakuen-standard", "--force"],
    "odds --csv": ["odds", DECK, *WANT, "--csv", "OUT"],
    "odds --plot": ["odds", DECK, *WANT, "--plot", "OUT"],
    "goldfish --csv": ["goldfish", DECK, *SHORT, "--csv", "OUT"],
    "goldfish --parquet": ["goldfish", DECK, *SHORT, "--parquet", "OUT"],
    "goldfish --plot": ["goldfish", DECK, *SHORT, "--plot", "OUT"],
    "sweep --csv": ["sweep", DECK, *SHORT, "--csv", "OUT"],
    "sweep --parquet": ["sweep", DECK, *SHORT, "--parquet", "OUT"],
    "sweep --plot": ["sweep", DECK, *SHORT, "--plot", "OUT"],
    "pool template -o": ["pool", "template", "rakuen", "-o", "OUT"],
}


@pytest.fixture(scope="module")
def db(tmp_path_factory: pytest.TempPathFactory) -> str:
    return str(tmp_path_factory.mktemp("outputs") / "pool.sqlite3")


@pytest.fixture
def stack() -> Iterator[ExitStack]:
    with ExitStack() as s:
        yield s


def _fifo(path: Path, stack: ExitStack) -> Path:
    return stack.enter_context(drained_fifo(path))


def _device(path: Path, stack: ExitStack) -> Path:
    return null_device(path)


def _folder(path: Path, stack: ExitStack) -> Path:
    path.mkdir()
    return path


TARGETS: dict[str, Callable[[Path, ExitStack], Path]] = {
    "fifo": _fifo,
    "char": _device,
    "dir": _folder,
}


NO_DB = ("new --force", "pool template -o")  # commands without a --db option


def _unboxed(err: str) -> str:
    """The text of an error, its lines joined: click's usage errors come in an 80-column box
    that folds a long path (pytest-xdist's temporary paths are longer)."""
    return "".join(line.strip().strip("│").strip() for line in err.splitlines())


def _run(writer: str, out: Path, db: str) -> tuple[int, str, str]:
    argv = [str(out) if a == "OUT" else a for a in WRITERS[writer]]
    return run(*argv, db=None if writer in NO_DB else db)


@needs_fifo
@pytest.mark.parametrize("target", list(TARGETS))
@pytest.mark.parametrize("writer", list(WRITERS))
def test_a_special_file_at_the_output_path_is_refused_and_kept(
    tmp_path: Path, stack: ExitStack, db: str, writer: str, target: str
) -> None:
    out = TARGETS[target](tmp_path / "out", stack)
    code, _, err = _run(writer, out, db)
    assert code == 2, err
    assert str(out) in _unboxed(err)
    assert file_type(out) == target  # not replaced by a regular file
    assert sorted(p.name for p in tmp_path.iterdir()) == ["out"]  # no temporary file left


@needs_fifo
def test_a_symlink_to_a_device_is_refused_too(tmp_path: Path, db: str) -> None:
    device = null_device(tmp_path / "null")
    link = tmp_path / "link.csv"
    link.symlink_to(device)
    code, _, err = _run("convert --out", link, db)
    assert code == 2 and "link.csv" in err
    assert file_type(device) == "char" and link.is_symlink()


@pytest.mark.parametrize("writer", list(WRITERS))
def test_a_regular_file_or_a_new_path_is_written(tmp_path: Path, db: str, writer: str) -> None:
    new = tmp_path / "new.out"
    code, _, err = _run(writer, new, db)
    assert code == 0, err
    assert file_type(new) == "file" and new.stat().st_size > 0
    old = tmp_path / "old.out"
    old.write_bytes(b"old")
    code, _, err = _run(writer, old, db)
    assert code == 0, err
    assert old.read_bytes() != b"old"


def test_pool_template_into_a_missing_folder_is_exit_2(tmp_path: Path) -> None:
    out = tmp_path / "missing" / "cards.csv"
    code, _, err = run("pool", "template", "rakuen", "-o", str(out))
    assert code == 2 and str(out) in err and "No such file or directory" in err
    assert not out.parent.exists()


@pytest.mark.skipif(not Path("/dev/full").exists(), reason="needs /dev/full")
def test_pool_template_onto_dev_full_is_exit_2() -> None:
    # /dev/full refuses every write (ENOSPC); it is a device, so nothing is even tried
    code, _, err = run("pool", "template", "rakuen", "-o", "/dev/full")
    assert code == 2 and "/dev/full" in err and "not a regular file" in err
    assert file_type(Path("/dev/full")) == "char"


@needs_fifo
def test_pool_template_onto_a_fifo_does_not_write_into_it(tmp_path: Path) -> None:
    with drained_fifo(tmp_path / "pipe.csv") as fifo:
        code, _, err = run("pool", "template", "rakuen", "-o", str(fifo))
    assert code == 2 and "not a regular file" in err and file_type(fifo) == "fifo"


def test_an_unwritable_folder_is_exit_2_and_keeps_the_file(tmp_path: Path, db: str) -> None:
    if os.geteuid() == 0:
        pytest.skip("root writes into read-only folders")
    folder = tmp_path / "ro"
    folder.mkdir()
    out = folder / "deck.csv"
    out.write_text("old", encoding="utf-8")
    folder.chmod(0o500)
    try:
        code, _, err = _run("convert --out", out, db)
    finally:
        folder.chmod(0o700)
    assert code == 2 and "cannot write" in err and out.read_text(encoding="utf-8") == "old"
