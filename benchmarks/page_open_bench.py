"""What opening the builder page costs the browser tests, in CPU-seconds by process (issue 35).
A script that prints figures, not a test.

    .venv/bin/python -m benchmarks.page_open_bench [--opens 8] [--rounds 2] [--chromium PATH]

Serves the app in a child process (a fresh pool in a temporary folder), launches the browser
the tests do (tests/conftest.py's, with its flags; another with ``--chromium PATH``), and opens
the builder ``--opens`` times until its first search has answered: each in a new browser
context, then each on one page handed on as tests/builder_pages.py does (reset as a new context
would be). The two alternate ``--rounds`` times (the shared VM's speed drifts). CPU is summed
from /proc over every process of this one (Playwright's driver, Chromium's browser, renderer,
GPU and utility processes) and the server's, sampled every 50 ms: ``/usr/bin/time`` misses the
Chromium processes that are never reaped up the tree (about half of the browser tests' CPU).
The sampling's own CPU falls in "this process". Each line also gives the median wall time of an
opening (the page's request to its first search's answer), and the first line the script the
page loads: the bundle ``make`` builds, else the modules one request each (move
deckcheck/web/static/bundle/ aside to time those).
"""

from __future__ import annotations

import argparse
import os
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from collections import defaultdict
from pathlib import Path

from benchmarks.common import ROOT, TICK, command_line, machine, processes
from benchmarks.load import free_port, wait_for
from deckcheck.web import entry_script
from tests import builder_pages
from tests.conftest import CHROMIUM, FLAGS

SERVE = (
    "import sys, uvicorn; from pathlib import Path;"
    "from deckcheck.service.app import create_app; from deckcheck.service.settings import Settings;"
    "uvicorn.run(create_app(Settings(db=Path(sys.argv[2]))), host='127.0.0.1',"
    " port=int(sys.argv[1]), log_level='warning')"
)


def processes_under(root: int) -> dict[int, tuple[str, int]]:
    """Every process under ``root`` (itself included): its command line and CPU ticks."""
    running = processes()
    children: dict[int, list[int]] = defaultdict(list)
    for pid, process in running.items():
        children[process.parent].append(pid)
    found, todo = {}, [root]
    while todo:
        pid = todo.pop()
        line = command_line(pid) if pid in running else None
        if line is not None:
            found[pid] = (line, running[pid].ticks)
        todo += children.get(pid, [])
    return found


def role(pid: int, command: str, served: bool) -> str:
    if served:
        return "server (and its worker processes)"
    if pid == os.getpid():
        return "this process (Playwright's client)"
    for part in ("renderer", "gpu-process", "utility", "zygote"):
        if f"--type={part}" in command:
            return f"chromium {part}"
    return "chromium browser" if "chrom" in command else "playwright driver"


class Meter:
    """The last CPU ticks seen for each process under this one and the server, by role."""

    def __init__(self, server: int) -> None:
        self.server = server
        self.last: dict[int, tuple[str, int, bool]] = {}  # command, ticks, the server's
        self._stop = threading.Event()
        threading.Thread(target=self._sample, daemon=True).start()

    def _sample(self) -> None:
        while not self._stop.wait(0.05):
            served = processes_under(self.server)  # a child of this process too
            for pid, (command, ticks) in processes_under(os.getpid()).items():
                old = self.last.get(pid, ("", 0, False))[0]
                self.last[pid] = (command or old, ticks, pid in served)

    def by_role(self) -> dict[str, float]:
        time.sleep(0.1)  # one more sample
        roles: dict[str, float] = defaultdict(float)
        for pid, (command, ticks, served) in self.last.items():
            roles[role(pid, command, served)] += ticks / TICK
        roles["chromium renderer processes started"] = sum(
            1 for command, _, _ in self.last.values() if "--type=renderer" in command
        )
        return roles


def opens(browser: object, url: str, n: int, reuse: bool) -> list[float]:
    """Seconds of each opening, from the page's request to its first search's answer."""
    from playwright.sync_api import expect

    seconds = []
    for _ in range(n):
        if reuse:
            lease = builder_pages.take(browser, url, viewport={"width": 1280, "height": 900})  # type: ignore[arg-type]
            page, close = lease.page, lease.close
        else:
            context = browser.new_context(viewport={"width": 1280, "height": 900})  # type: ignore[attr-defined]
            page, close = context.new_page(), context.close
        start = time.perf_counter()
        page.goto(url + "/")
        expect(page.locator("#page-info")).not_to_be_empty(timeout=600_000)
        seconds.append(time.perf_counter() - start)
        close()
    return seconds


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--opens", type=int, default=8)
    parser.add_argument("--rounds", type=int, default=2)
    parser.add_argument("--chromium", default=CHROMIUM, help="the browser to launch")
    args = parser.parse_args()
    from playwright.sync_api import sync_playwright

    port = free_port()
    url = f"http://127.0.0.1:{port}"
    db = Path(tempfile.mkdtemp(prefix="page-open-")) / "pool.sqlite3"
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    server = subprocess.Popen([sys.executable, "-c", SERVE, str(port), str(db)], env=env)
    try:
        wait_for(url)
        meter = Meter(server.pid)
        print(f"builder page opens in {args.chromium}, CPU-s each ({machine()}):")
        print(f"  the page's script: {entry_script()} (the bundle when make built it)")
        with sync_playwright() as p:
            browser = p.chromium.launch(executable_path=args.chromium, headless=True, args=FLAGS)
            opens(browser, url, 1, reuse=True)  # the first opening of all, in neither figure
            for _ in range(args.rounds):
                for reuse in (False, True):
                    before = meter.by_role()
                    seconds = opens(browser, url, args.opens, reuse)
                    after = meter.by_role()
                    parts = {k: (after[k] - before.get(k, 0)) / args.opens for k in after}
                    renderers = parts.pop("chromium renderer processes started")
                    label = "one page handed on" if reuse else "a new context each"
                    print(
                        f"  {label}: {sum(parts.values()):.3f} CPU-s an opening,"
                        f" {renderers:.1f} renderer processes started,"
                        f" {statistics.median(seconds) * 1e3:.0f} ms to the first search's answer"
                        " (median)"
                    )
                    for k, v in sorted(parts.items(), key=lambda kv: -kv[1]):
                        print(f"      {v:.3f}  {k}")
            browser.close()
    finally:
        server.terminate()
        server.wait()


if __name__ == "__main__":
    main()
