"""FIFOs and devices for the file-safety tests, set up so that a test of code that wrongly
opens them fails instead of hanging: a FIFO meant as an output is drained by a thread, one
meant as an input is fed by a thread once something opens it."""

from __future__ import annotations

import contextlib
import errno
import os
import stat
import threading
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest

needs_fifo = pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="POSIX only")


@contextlib.contextmanager
def _in_background(work: Callable[[threading.Event], None]) -> Iterator[None]:
    """Run ``work(stop)`` in a thread while the block runs; then set ``stop`` and wait."""
    stop = threading.Event()
    thread = threading.Thread(target=work, args=(stop,), daemon=True)
    thread.start()
    try:
        yield
    finally:
        stop.set()
        thread.join()


@contextlib.contextmanager
def drained_fifo(path: Path) -> Iterator[Path]:
    """A FIFO with a reader that throws away whatever is written, so a writer never blocks."""
    os.mkfifo(path)
    fd = os.open(path, os.O_RDONLY | os.O_NONBLOCK)  # a reader end exists from now on

    def drain(stop: threading.Event) -> None:
        while not stop.is_set():
            try:
                if not os.read(fd, 1 << 16):
                    stop.wait(0.005)
            except BlockingIOError:
                stop.wait(0.005)

    try:
        with _in_background(drain):
            yield path
    finally:
        os.close(fd)


@contextlib.contextmanager
def fed_fifo(path: Path, data: bytes) -> Iterator[Path]:
    """A FIFO that hands ``data``, then end of file, to the first reader that opens it."""
    os.mkfifo(path)

    def feed(stop: threading.Event) -> None:
        while not stop.is_set():
            try:
                fd = os.open(path, os.O_WRONLY | os.O_NONBLOCK)
            except OSError as exc:
                if exc.errno != errno.ENXIO:  # ENXIO: no reader yet
                    raise
                stop.wait(0.005)
                continue
            os.set_blocking(fd, True)
            try:
                os.write(fd, data)
            finally:
                os.close(fd)
            return

    with _in_background(feed):
        yield path


def null_device(path: Path) -> Path:
    """A character device like /dev/null (major 1, minor 3) at ``path``: replacing it is
    harmless, unlike replacing the machine's /dev/null, which root could."""
    try:
        os.mknod(path, 0o666 | stat.S_IFCHR, os.makedev(1, 3))
    except (PermissionError, AttributeError, OSError) as exc:
        pytest.skip(f"cannot create a device node here: {exc}")
    return path


def file_type(path: Path) -> str:
    """What ``path`` is, without following a symlink: fifo, char, dir, file or missing."""
    try:
        mode = path.lstat().st_mode
    except FileNotFoundError:
        return "missing"
    if stat.S_ISFIFO(mode):
        return "fifo"
    if stat.S_ISCHR(mode):
        return "char"
    if stat.S_ISDIR(mode):
        return "dir"
    return "file" if stat.S_ISREG(mode) else "other"
