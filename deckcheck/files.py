"""The one place deckcheck reads input files and writes output files.

Writing: a temporary file in the same folder, flushed to disk, then renamed over the target
(atomic on POSIX and Windows), and only over a regular file or a missing path: renaming over a
FIFO or a device would replace it (as root, ``--out /dev/null`` replaced the machine's
/dev/null). Reading: regular files only, and at most a size limit, so a FIFO never blocks and
/dev/zero never fills the memory.
"""

from __future__ import annotations

import os
import stat
import tempfile
from collections.abc import Callable
from pathlib import Path

from deckcheck.errors import DeckcheckError, UsageError, os_reason
from deckcheck.i18n import N_, _

_NOT_REGULAR = (
    (stat.S_ISFIFO, N_("a FIFO")),
    (stat.S_ISCHR, N_("a character device")),
    (stat.S_ISBLK, N_("a block device")),
    (stat.S_ISDIR, N_("a folder")),
    (stat.S_ISSOCK, N_("a socket")),
)


def _what(mode: int) -> str:
    found = next((name for test, name in _NOT_REGULAR if test(mode)), None)
    return _(found) if found else _("not a regular file")


def check_output(path: Path) -> None:
    """Raise ``UsageError`` (exit 2) unless ``path`` (its symlink followed) is a regular file or
    does not exist yet."""
    try:
        mode = path.stat().st_mode
    except FileNotFoundError:
        return
    except OSError as exc:
        raise UsageError(
            _("cannot write {path}: {error}", path=path, error=os_reason(exc))
        ) from exc
    if not stat.S_ISREG(mode):
        raise UsageError(
            _(
                "{path}: {what}, not a regular file; deckcheck writes only regular files "
                "(it is left as it is)",
                path=path,
                what=_what(mode),
            )
        )


def write_atomic(path: Path, write: Callable[[Path], object]) -> None:
    """Call ``write`` on a temporary path beside ``path``, then move it into place. If
    anything fails, the old file is untouched and the temporary file is removed. A target that
    is not a regular file, or a folder that cannot be written, is a ``UsageError``."""
    check_output(path)
    target = path.resolve()  # a symlinked deck is written through, so the link stays a link
    try:
        fd, tmp_name = tempfile.mkstemp(dir=target.parent, prefix=f".{target.name}.", suffix=".tmp")
    except OSError as exc:
        raise UsageError(
            _("cannot write {path}: {error}", path=path, error=os_reason(exc))
        ) from exc
    os.close(fd)
    tmp = Path(tmp_name)
    try:
        write(tmp)
        with tmp.open("rb+") as handle:
            os.fsync(handle.fileno())
        check_output(target)  # again: it may have become something else meanwhile
        if target.exists():
            os.chmod(tmp, target.stat().st_mode & 0o7777)
        os.replace(tmp, target)
    except OSError as exc:
        tmp.unlink(missing_ok=True)
        error = os_reason(exc)
        raise UsageError(
            _("cannot write {path}: {error} (the file is unchanged)", path=path, error=error)
            if target.exists()
            else _("cannot write {path}: {error}", path=path, error=error)
        ) from exc
    except BaseException:
        tmp.unlink(missing_ok=True)
        raise


def write_text_atomic(path: Path, text: str) -> None:
    def write(tmp: Path) -> None:
        tmp.write_text(text, encoding="utf-8", newline="")

    write_atomic(path, write)


def read_limited(path: Path, limit: int, error: type[DeckcheckError], what: str) -> bytes:
    """The bytes of the input file ``path`` (``what``: "a deck list", "a card file"…). FIFOs,
    devices and other non-regular files are refused before they are read (a FIFO would block,
    /dev/zero never ends), and so is a file over ``limit`` bytes; errors are ``error``."""
    too_big = _("{path}: larger than {size}, not {what}", path=path, size=_size(limit), what=what)
    try:
        mode = path.stat().st_mode
        if not stat.S_ISREG(mode):  # before opening: opening some devices acts
            raise error(_not_regular(path, mode, what))
        # non-blocking, then checked again on the open file: it may have been swapped for a
        # FIFO since the stat, and opening a FIFO would otherwise wait for a writer
        fd = os.open(path, os.O_RDONLY | getattr(os, "O_NONBLOCK", 0) | getattr(os, "O_BINARY", 0))
        with os.fdopen(fd, "rb") as handle:
            info = os.fstat(handle.fileno())
            if not stat.S_ISREG(info.st_mode):
                raise error(_not_regular(path, info.st_mode, what))
            if info.st_size > limit:
                raise error(too_big)
            raw = handle.read(limit + 1)
    except OSError as exc:
        raise error(
            _("{path}: cannot read: {error}", path=path, error=os_reason(exc))
        ) from exc
    if len(raw) > limit:  # it grew after the stat
        raise error(too_big)
    return raw


def _not_regular(path: Path, mode: int, what: str) -> str:
    """The refusal of an input that is no regular file, naming what it is (a FIFO…)."""
    return _(
        "{path}: {found}, not a regular file, so not {what}",
        path=path,
        found=_what(mode),
        what=what,
    )


def _size(n: int) -> str:
    if n >= 1 << 20 and n % (1 << 20) == 0:
        return f"{n >> 20} MiB"
    return _("{n} bytes", n=n)
