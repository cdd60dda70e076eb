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
and the loop's time moves with them).
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
import time
from pathlib import Path

from benchmarks.common import ROOT, machine, record

GOAL = 300.0  # seconds, issue 35
LOOP_STEPS = 30_000_000


def plain_loop() -> float:
    """Seconds for a fixed plain-Python loop in this process: the VM's speed at the time."""
    start = time.perf_counter()
    total = 0
    for i in range(LOOP_STEPS):
        total += i * i % 7
    return time.perf_counter() - start


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
        start = time.perf_counter()
        done = subprocess.run(
            ["bash", ".ci/run"], cwd=clone, env=env, capture_output=True, text=True, check=False
        )
        wall = time.perf_counter() - start
        after = resource.getrusage(resource.RUSAGE_CHILDREN)
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
