"""`make test` on a fresh clone, as CI runs it (issue 35's goal: ≤ 300 s on the idle 2-core
machine). A script that prints figures, not a test, and not part of `make bench`: one run takes
minutes and may install Debian packages (`.ci/run` does when Chromium or the CJK font is
missing).

    .venv/bin/python -m benchmarks.fresh_clone_bench [--ref HEAD] [--runs 1] [--against REF]

Each run clones this repository at ``--ref`` into a new folder beside it (so ``../shared`` is
beside the clone, as in CI), with an empty home folder and ``CI=true``, and times
``bash .ci/run`` there: the whole of what CI does (the venv and every install, the engines'
compile, the checks and the tests). ``PYTHONDONTWRITEBYTECODE`` is unset, as on a machine that
does not set it (the Makefile unexports it anyway). With ``--against REF`` the runs alternate
with runs of ``REF``, since the shared VM's speed drifts by a fifth or more within an hour. The
clone is removed after its run. Printed per run: the wall time, pytest's own line, the CPU
seconds of the run's processes (``/usr/bin/time``'s count: processes reaped up the tree), and
the plain-Python reference: a fixed loop timed just before the run, which shows how fast the
shared VM ran then (the same commit's runs differ by a fifth or more from one hour to the next,
and the loop's time moves with them). Last, where the CPU went: the whole machine's busy time
over the run (``/proc/stat``) and the CPU of the processes started during it, by kind, sampled
from /proc every half second (``/usr/bin/time``'s count misses the processes never reaped up the
tree, Chromium's among them; a process that lives less than the interval may be missed, so the
kinds can add up to less than the busy time).
"""

from __future__ import annotations

import argparse
import os
import re
import resource
import shutil
import subprocess
import sys
import tempfile
import threading
import time
from collections import defaultdict
from pathlib import Path

from benchmarks.common import ROOT, TICK, command_line, machine, processes, record

GOAL = 300.0  # seconds, issue 35
LOOP_STEPS = 30_000_000


def plain_loop() -> float:
    """Seconds for a fixed plain-Python loop in this process: the VM's speed at the time."""
    start = time.perf_counter()
    total = 0
    for i in range(LOOP_STEPS):
        total += i * i % 7
    return time.perf_counter() - start


# the kinds of process a census counts, by a piece of the first words of the command line, each
# without its folders (the first that matches: a clone's folder or a later word, such as a path
# in /tmp/pytest-of-…, may hold any of these pieces). A forked process keeps its parent's
# command line.
KINDS = (
    (("chromium",), "Chromium (the browser tests)"),
    (("run-driver",), "Playwright's driver"),
    (("node", "npm", "esbuild"), "Node.js (npm, TypeScript, esbuild)"),
    (("deckcheck.cli.warm",), "the engines' compile (make engines and its tests)"),
    (("exec(eval(sys.stdin",), "pytest's workers and the processes they fork"),
    (("mypy", "ruff", "lint-imports"), "the checks (ruff, mypy, lint-imports)"),
    (("deckcheck",), "deckcheck commands and servers the tests start"),
    (("pytest",), "pytest's controller (and a pytest a test starts)"),
    (("uv", "pip", "venv"), "the install (pip, uv, venv)"),
    (("postgres",), "PostgreSQL"),
    (("python",), "other Python processes"),
)
WORDS = 5  # the words of a command line ``kind`` reads (a pytest worker's piece is the fifth)


def kind(command: str) -> str:
    start = " ".join(word.rpartition("/")[2] for word in command.split()[:WORDS])
    return next(
        (name for pieces, name in KINDS if any(piece in start for piece in pieces)),
        "other processes",
    )


class Census:
    """The CPU of every process started after it began, by kind (the last ticks seen of each,
    keyed by pid and start time), and the whole machine's busy ticks."""

    def __init__(self) -> None:
        self.seen: dict[tuple[int, str], tuple[str, int]] = {}  # kind, last ticks
        self.old = {(pid, p.started) for pid, p in processes().items()}  # not this run's
        self.busy0 = self._busy()
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._sample, daemon=True)
        self._thread.start()

    @staticmethod
    def _busy() -> int:
        fields = [int(f) for f in Path("/proc/stat").read_text().split("\n")[0].split()[1:]]
        return sum(fields) - fields[3] - fields[4]  # all but idle and iowait

    def _sample(self) -> None:
        while not self._stop.wait(0.5):
            for pid, process in processes().items():
                key = (pid, process.started)
                if key in self.old:
                    continue
                if key in self.seen:
                    self.seen[key] = (self.seen[key][0], process.ticks)
                    continue
                line = command_line(pid)
                if line is not None:
                    self.seen[key] = (kind(line), process.ticks)

    def stop(self) -> tuple[float, dict[str, float]]:
        """The machine's busy CPU-s since the start, and the CPU-s by kind."""
        self._stop.set()
        self._thread.join()
        by_kind: dict[str, float] = defaultdict(float)
        for name, ticks in self.seen.values():
            by_kind[name] += ticks / TICK
        return (self._busy() - self.busy0) / TICK, dict(by_kind)


def run_once(ref: str) -> tuple[float, float, str, int]:
    """One fresh-clone ``.ci/run`` of ``ref``: wall seconds, CPU seconds, pytest's summary
    line, the exit status."""
    commit = subprocess.run(
        ["git", "rev-parse", "--short", ref], cwd=ROOT, capture_output=True, text=True, check=True
    ).stdout.strip()
    clone = Path(tempfile.mkdtemp(prefix=f"fresh-clone-{commit}-", dir=ROOT.parent))
    home = Path(tempfile.mkdtemp(prefix="fresh-clone-home-"))
    try:
        subprocess.run(["git", "clone", "-q", str(ROOT), str(clone)], check=True)
        subprocess.run(["git", "checkout", "-q", commit], cwd=clone, check=True)
        env = {k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"}
        env.update(HOME=str(home), CI="true")
        for name in ("VIRTUAL_ENV", "PYTHONPATH"):  # this venv's, not the clone's
            env.pop(name, None)
        before = resource.getrusage(resource.RUSAGE_CHILDREN)
        census = Census()
        start = time.perf_counter()
        done = subprocess.run(
            ["bash", ".ci/run"], cwd=clone, env=env, capture_output=True, text=True, check=False
        )
        wall = time.perf_counter() - start
        after = resource.getrusage(resource.RUSAGE_CHILDREN)
        busy, by_kind = census.stop()
        print(
            f"  the whole machine busy {busy:.0f} CPU-s ({busy / wall:.2f} cores); by kind of "
            f"process started in the run, {sum(by_kind.values()):.0f} CPU-s seen:",
            flush=True,
        )
        for name, spent in sorted(by_kind.items(), key=lambda item: -item[1]):
            print(f"    {spent:7.1f}  {name}", flush=True)
        cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
        found = re.findall(r"\d+ (?:passed|failed)[^\n]*", done.stdout)
        if done.returncode:
            sys.stdout.write(done.stdout[-3000:] + done.stderr[-2000:])
        return wall, cpu, found[-1] if found else "no summary", done.returncode
    finally:
        shutil.rmtree(clone, ignore_errors=True)
        shutil.rmtree(home, ignore_errors=True)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--ref", default="HEAD", help="the commit to clone (default HEAD)")
    parser.add_argument("--runs", type=int, default=1)
    parser.add_argument("--against", help="a commit whose runs alternate with --ref's")
    args = parser.parse_args()
    print(f"machine: {machine()}")
    walls: list[float] = []
    for _ in range(args.runs):
        for ref in [args.ref, *([args.against] if args.against else [])]:
            loop = plain_loop()
            wall, cpu, line, status = run_once(ref)
            print(
                f"{ref}: make test on a fresh clone {wall:.1f} s, {cpu:.0f} CPU-s, exit {status}; "
                f"pytest: {line}; plain-Python loop of {LOOP_STEPS:,} steps just before: "
                f"{loop:.2f} s",
                flush=True,
            )
            if ref == args.ref:
                walls.append(wall)
    record("make test on a fresh clone (.ci/run)", max(walls), "s", GOAL, lower_is_better=True)


if __name__ == "__main__":
    main()
