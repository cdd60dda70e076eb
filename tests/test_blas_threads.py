"""A deckcheck process runs OpenBLAS with one thread unless the user sets another number
(deckcheck/__init__.py): its parallel work is in processes, and OpenBLAS's idle threads only
spin (issue 35)."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

# the threads of a process that imported deckcheck, then NumPy (and with it OpenBLAS)
THREADS = (
    "import os, deckcheck, numpy; "
    "print(len(os.listdir('/proc/self/task')), os.environ['OPENBLAS_NUM_THREADS'])"
)


def _threads(**env: str) -> tuple[int, str]:
    base = {k: v for k, v in os.environ.items() if k != "OPENBLAS_NUM_THREADS"}
    out = subprocess.run(
        [sys.executable, "-c", THREADS],
        env={**base, **env},
        capture_output=True,
        text=True,
        check=True,
    ).stdout.split()
    return int(out[0]), out[1]


@pytest.mark.skipif(
    not Path("/proc/self/task").is_dir() or (os.cpu_count() or 1) < 2,
    reason="counts threads in /proc; OpenBLAS starts none on one core anyway",
)
def test_openblas_runs_one_thread_unless_the_user_says_otherwise() -> None:
    alone, setting = _threads()
    assert setting == "1"
    more, setting = _threads(OPENBLAS_NUM_THREADS="2")
    assert setting == "2"
    assert more > alone  # the user's number is the one OpenBLAS used
