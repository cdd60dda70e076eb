"""What every benchmark shares: the machine line, a timer, the processes in /proc, and the
results table.

Each benchmark prints its figures as it goes and appends them to ``build/bench.json``;
``benchmarks/table.py`` (the last step of ``make bench``) prints one table of them: figure,
plain-Python reference timed in the same run, ratio, goal, met or not.
"""

from __future__ import annotations

import json
import os
import platform
import subprocess
import time
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any, NamedTuple

ROOT = Path(__file__).resolve().parent.parent
RESULTS = ROOT / "build" / "bench.json"
DECKCHECK = str(ROOT / ".venv" / "bin" / "deckcheck")
TICK = os.sysconf("SC_CLK_TCK")  # /proc's CPU times are in these


class Process(NamedTuple):
    parent: int
    started: str  # ticks since boot: with the pid, one process (pids are reused)
    ticks: int  # CPU, user and system


def processes() -> dict[int, Process]:
    """Every process running now, from /proc (the CPU of the processes a benchmark starts that
    are never reaped up its tree, such as Chromium's, which ``/usr/bin/time`` misses)."""
    found = {}
    for name in os.listdir("/proc"):
        if name.isdigit():
            try:
                stat = Path(f"/proc/{name}/stat").read_text()
            except OSError:  # ended meanwhile
                continue
            fields = stat[stat.rfind(")") + 2 :].split()  # the name in () may hold spaces
            ticks = int(fields[11]) + int(fields[12])
            found[int(name)] = Process(int(fields[1]), fields[19], ticks)
    return found


def command_line(pid: int) -> str | None:
    """A process's command line, its words joined by spaces; None once it has ended."""
    try:
        raw = Path(f"/proc/{pid}/cmdline").read_bytes()
    except OSError:
        return None
    return raw.replace(b"\0", b" ").decode(errors="replace")


def machine() -> str:
    return (
        f"{platform.machine()}, {os.cpu_count()} cores, Python {platform.python_version()}, "
        f"{platform.system()} {platform.release()}"
    )


def seconds(
    fn: Callable[[], object], repeat: int = 1, clock: Callable[[], float] = time.perf_counter
) -> float:
    """The fastest of ``repeat`` runs of ``fn``, by ``clock`` (the wall clock; the tests that
    compare times use ``time.thread_time``, this thread's CPU time)."""
    best = float("inf")
    for _ in range(repeat):
        start = clock()
        fn()
        best = min(best, clock() - start)
    return best


def command_seconds(args: Sequence[str], repeat: int = 3) -> float:
    """The fastest of ``repeat`` runs of a deckcheck command, as a user starts it."""

    def run() -> None:
        subprocess.run([DECKCHECK, *args], check=False, capture_output=True)

    return seconds(run, repeat)


def record(
    what: str,
    value: float,
    unit: str,
    goal: float | None = None,
    reference: float | None = None,
    ratio_goal: float | None = None,
    lower_is_better: bool = False,
) -> None:
    """Print one figure and keep it for the table. ``reference``: the plain-Python figure in
    the same unit, timed in the same run."""
    ratio = None
    if reference:
        ratio = reference / value if lower_is_better else value / reference
    met = None
    if goal is not None:
        met = value <= goal if lower_is_better else value >= goal
    if ratio_goal is not None and ratio is not None:
        met = (met is not False) and ratio >= ratio_goal
    line = f"{what}: {value:,.4g} {unit}"
    if reference:
        line += f" (plain Python {reference:,.4g} {unit}, {ratio:.1f}x)"
    print(line)
    RESULTS.parent.mkdir(exist_ok=True)
    rows: list[dict[str, Any]] = json.loads(RESULTS.read_text()) if RESULTS.exists() else []
    rows.append(
        {
            "what": what,
            "value": value,
            "unit": unit,
            "goal": goal,
            "reference": reference,
            "ratio": ratio,
            "ratio_goal": ratio_goal,
            "lower_is_better": lower_is_better,
            "met": met,
            "machine": machine(),
        }
    )
    RESULTS.write_text(json.dumps(rows, ensure_ascii=False, indent=1))
