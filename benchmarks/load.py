"""Load test of the HTTP service. A script that prints figures, not a test; it stops by itself.

    .venv/bin/python -m benchmarks.load [--clients 16] [--seconds 10] [--workers 1] [--wrk]
    .venv/bin/python benchmarks/load.py ...   (the same)

Starts `deckcheck serve` on 127.0.0.1 (a fresh pool in a temporary folder), then drives
--clients concurrent httpx clients (asyncio, one process) for --seconds against POST /validate
with the server idle, again while two large goldfish jobs run in the server's worker processes
(issue 13: p99 under 100 ms on 2 cores), again while four clients post VISION decks of 499
misspelled names (issue 24: /validate p99 under 100 ms, /health under 50 ms), then against
POST /odds, and prints requests/s, p50, p99 and errors for each; last, /odds latency with two
jobs running while /validate and /health are driven too (`--only odds-with-jobs` runs that
alone); then issue 37's scenarios: four posters of short-name near-miss decks through /validate,
/resolve and saved decks (`--only short-near-miss`), and posters of heavy /goldfish policies and
/hand conditions while /odds is asked (`--only heavy`). The p99 figures go to
build/bench.json (`make bench`).
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import platform
import shutil
import socket
import statistics
import subprocess
import sys
import tempfile
import time
from collections import Counter
from collections.abc import Mapping, Sequence
from pathlib import Path

import httpx

ROOT = Path(__file__).resolve().parent.parent
DECK = (ROOT / "examples" / "rakuen-standard-illegal.deck").read_text(encoding="utf-8")
GOLDFISH = {
    "deck": (ROOT / "examples" / "rakuen-standard-legal.deck").read_text(encoding="utf-8"),
    "games": 1_000_000,  # far more than the measurement lasts: the jobs run throughout
}
P99_GOAL_MS = 100.0
BENCH_KEY = "load-benchmark-key"  # the server started here accepts it for saved decks
ODDS = {
    "deck": (ROOT / "examples" / "rakuen-standard-legal.deck").read_text(encoding="utf-8"),
    "want": ["type:paradox>=1", "kind:合理体>=1"],
    "turns": 5,
}


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


async def drive(
    url: str,
    path: str | Sequence[str],
    body: Mapping[str, object] | None,
    clients: int,
    seconds: float,
    headers: Mapping[str, str] | None = None,
) -> tuple[int, list[float], Counter[int]]:
    """``clients`` keep-alive connections, each posting ``body`` to ``path`` in a loop (a
    list of paths: each client goes round them, starting at its own).

    Plain asyncio streams with the request bytes built once, not httpx: on 2 cores the load
    generator shares the CPU with the server, and httpx spent more of it per request than the
    server did (p99 then measured the client's event loop, not the service)."""
    host, port = url.removeprefix("http://").split(":")
    extra = "".join(f"{k}: {v}\r\n" for k, v in (headers or {}).items())
    requests = []
    for one_path in [path] if isinstance(path, str) else path:
        if body is None:  # a GET
            request = f"GET {one_path} HTTP/1.1\r\nHost: {host}\r\n{extra}\r\n".encode()
        else:
            payload = json.dumps(body, ensure_ascii=False).encode()
            request = (
                f"POST {one_path} HTTP/1.1\r\nHost: {host}\r\n"
                f"Content-Type: application/json\r\n{extra}"
                f"Content-Length: {len(payload)}\r\n\r\n"
            ).encode() + payload
        requests.append(request)
    latencies: list[float] = []
    statuses: Counter[int] = Counter()
    stop = time.perf_counter() + seconds
    turn = iter(range(clients))

    async def one() -> None:
        reader, writer = await asyncio.open_connection(host, int(port))
        at = next(turn)
        try:
            while time.perf_counter() < stop:
                begin = time.perf_counter()
                request = requests[at % len(requests)]
                at += 1
                writer.write(request)
                head = await reader.readuntil(b"\r\n\r\n")
                length = next(
                    int(line.split(b":", 1)[1])
                    for line in head.lower().split(b"\r\n")
                    if line.startswith(b"content-length:")
                )
                await reader.readexactly(length)
                latencies.append(time.perf_counter() - begin)
                statuses[int(head.split(b" ", 2)[1])] += 1
        finally:
            writer.close()

    await asyncio.gather(*(one() for _ in range(clients)))
    return len(latencies), latencies, statuses


def run_wrk(url: str, body: Mapping[str, object], args: argparse.Namespace, tmp: Path) -> str:
    """The same load from wrk, whose client costs far less CPU than Python's."""
    (tmp / "body.json").write_text(json.dumps(body, ensure_ascii=False), encoding="utf-8")
    script = tmp / "post.lua"
    script.write_text(
        'wrk.method = "POST"\nwrk.headers["Content-Type"] = "application/json"\n'
        f'local f = io.open("{tmp / "body.json"}", "r"); wrk.body = f:read("*a"); f:close()\n',
        encoding="utf-8",
    )
    out = subprocess.run(
        [
            "wrk",
            "-t2",
            f"-c{args.clients}",
            f"-d{int(args.seconds)}s",
            "--latency",
            "-s",
            str(script),
            url,
        ],
        capture_output=True,
        text=True,
        check=True,
    ).stdout
    figures = {}
    for line in out.splitlines():
        parts = line.split()
        if line.strip().startswith(("50%", "99%")):
            figures[parts[0]] = parts[1]
        elif line.startswith("Requests/sec:"):
            figures["rps"] = parts[1]
        elif "Non-2xx" in line or "Socket errors" in line:
            figures["errors"] = line.strip()
    return (
        f"{float(figures.get('rps', 0)):>8,.0f} requests/s   p50 {figures.get('50%')}   "
        f"p99 {figures.get('99%')}   errors {figures.get('errors', 0)}"
    )


def measure(url: str, path: str, body: Mapping[str, object], args: argparse.Namespace) -> float:
    """Drive ``path`` for ``--seconds`` after a one-second warm-up; print and return p99 (ms)."""
    asyncio.run(drive(url, path, body, args.clients, 1.0))
    # 429 is the service shedding load as designed (more clients than workers + queue)
    return _figures(
        path, args.seconds, asyncio.run(drive(url, path, body, args.clients, args.seconds))
    )


def _vision_names(db: Path) -> list[str]:
    if str(ROOT) not in sys.path:
        sys.path.insert(0, str(ROOT))
    from deckcheck.pool.store import Pool

    with Pool(db) as pool:
        return list(pool.names("vision").values())


def near_miss_deck(db: Path, lines: int = 499) -> str:
    """A VISION deck of ``lines`` misspelled names (issue 24, item 1): each shipped name with
    its last character changed, and numbered once the names run out."""
    names = _vision_names(db)
    body = [f"1 {names[i % len(names)][:-1]}〇{i // len(names) or ''}" for i in range(lines)]
    return "format: vision-standard\n" + "\n".join(body) + "\n"


def _figures(path: str, seconds: float, result: tuple[int, list[float], Counter[int]]) -> float:
    count, latencies, statuses = result
    other = ", ".join(f"{n:,} × {code}" for code, n in sorted(statuses.items()) if code != 200)
    latencies.sort()
    p50 = statistics.median(latencies) * 1e3
    p99 = latencies[int(0.99 * (len(latencies) - 1))] * 1e3
    print(
        f"{path:<10} {count / seconds:>8,.0f} requests/s   p50 {p50:6.1f}"
        f" ms   p99 {p99:6.1f} ms   not 200: {other or 'none'}"
    )
    return p99


def near_miss(url: str, deck: str, args: argparse.Namespace) -> tuple[float, float]:
    """/validate and /health while four clients post near-miss decks without pause; prints
    each and returns the two p99 (ms)."""

    async def run() -> list[tuple[int, list[float], Counter[int]]]:
        near = {"deck": deck}
        return await asyncio.gather(
            drive(url, "/validate", near, 4, args.seconds + 1),
            drive(url, "/validate", {"deck": DECK}, args.clients, args.seconds),
            drive(url, "/health", None, 1, args.seconds),
        )

    print(f"four near-miss posters ({len(deck.encode()):,} bytes, 499 unknown names each):")
    posters, checks, health = asyncio.run(run())
    _figures("near-miss", args.seconds + 1, posters)
    return _figures("/validate", args.seconds, checks), _figures("/health", args.seconds, health)


def short_near_miss_deck(db: Path, lines: int = 499) -> str:
    """Issue 37: 499 misspelled names of a few characters each (about 3,000 characters, under
    the 4,000 that once sent a deck to the check process): the work of 499 unknown names."""
    names = _vision_names(db)
    body = [f"1 {names[i % len(names)][:1]}{i}" for i in range(lines)]
    return "format: vision-standard\n" + "\n".join(body) + "\n"


def _posters_and_checks(
    url: str,
    posters: tuple[str | list[str], Mapping[str, object] | None],
    args: argparse.Namespace,
    headers: Mapping[str, str] | None = None,
) -> tuple[float, float]:
    """Four clients on ``posters`` (path or paths, body) without pause while ``--clients``
    post ordinary decks to /validate and one polls /health; prints each, returns the p99s."""
    path, body = posters

    async def run() -> list[tuple[int, list[float], Counter[int]]]:
        return await asyncio.gather(
            drive(url, path, body, 4, args.seconds + 1, headers),
            drive(url, "/validate", {"deck": DECK}, args.clients, args.seconds),
            drive(url, "/health", None, 1, args.seconds),
        )

    heavy, checks, health = asyncio.run(run())
    _figures("posters", args.seconds + 1, heavy)
    return _figures("/validate", args.seconds, checks), _figures("/health", args.seconds, health)


def short_near_miss(url: str, args: argparse.Namespace, tmp: Path) -> None:
    """Issue 37's short-name near-miss posters, through /validate, /resolve and saved decks
    (GET /decks/{id} of 100 saved decks in English and Japanese: past the verdict memo)."""
    deck = short_near_miss_deck(tmp / "pool.sqlite3")
    print(f"four short-name near-miss posters ({len(deck):,} characters, 499 unknown names):")
    for path in ("/validate", "/resolve"):
        print(f" through {path}:")
        asyncio.run(drive(url, path, {"deck": deck}, 4, 1.0))  # warm-up
        _posters_and_checks(url, (path, {"deck": deck}), args)
    auth = {"Authorization": f"Bearer {BENCH_KEY}"}
    saved = {"name": "near", "format": "vision-standard", "deck": deck, "visibility": "link"}
    ids = [
        httpx.post(f"{url}/decks", json=saved, headers=auth, timeout=60).json()["id"]
        for _ in range(100)
    ]
    paths = [f"/decks/{i}" for i in ids]
    for lang in ("ja", "en"):
        print(f" through GET /decks/{{id}}, 100 saved decks, Accept-Language: {lang}:")
        _posters_and_checks(url, (paths, None), args, {"Accept-Language": lang})


HUNDRED_KEEPS = {
    "deck": (ROOT / "examples" / "chaos-standard-legal.deck").read_text(encoding="utf-8"),
    "games": 1,
    "turns": 10,
    "policy": {"keep": ["type:chara>=1"] * 100},
}
NINE_WANTS = {
    "deck": (ROOT / "examples" / "chaos-standard-legal.deck").read_text(encoding="utf-8"),
    "count": 100,
    "want": [f"name:見本キャラ 0{i}>=4" for i in range(1, 10)],
}


def heavy_requests(url: str, args: argparse.Namespace) -> None:
    """Issue 37: four clients post /goldfish of one game with 100 keep conditions and four
    post /hand of 100 hands with nine name:X>=4 conditions, without pause, while one client
    asks exact /odds one after another and one polls /health."""

    async def run() -> list[tuple[int, list[float], Counter[int]]]:
        return await asyncio.gather(
            drive(url, "/goldfish", HUNDRED_KEEPS, 4, args.seconds + 1),
            drive(url, "/hand", NINE_WANTS, 4, args.seconds + 1),
            drive(url, "/odds", ODDS, 1, args.seconds),
            drive(url, "/health", None, 1, args.seconds),
        )

    print("heavy requests: /goldfish (100 keep conditions) and /hand (9 conditions) posters:")
    for path, result in zip(
        ("/goldfish", "/hand", "/odds", "/health"), asyncio.run(run()), strict=True
    ):
        _figures(path, args.seconds, result)


def start_jobs(url: str, count: int) -> list[str]:
    """Start ``count`` goldfish jobs and wait until each has played games, so the measurement
    that follows runs while they use the worker processes."""
    ids = []
    for _ in range(count):
        answer = httpx.post(f"{url}/goldfish", json=GOLDFISH, timeout=60)
        if answer.status_code != 202:
            raise SystemExit(f"a goldfish job did not start: {answer.status_code} {answer.text}")
        ids.append(str(answer.json()["id"]))
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        views = [httpx.get(f"{url}/jobs/{i}", timeout=10).json() for i in ids]
        if all(v["games_done"] > 0 for v in views):
            break
        time.sleep(0.2)
    return ids


def stop_jobs(url: str, ids: list[str]) -> None:
    """Cancel the jobs, saying whether they were still running (else the figure is flattering)."""
    for job_id in ids:
        view = httpx.delete(f"{url}/jobs/{job_id}", timeout=10).json()
        print(f"      job {job_id[:8]}: {view['status']} after {view['games_done']:,} games")


def _quantiles(latencies: list[float]) -> tuple[float, float, float]:
    """p50, p99 and the slowest, in ms."""
    ordered = sorted(latencies) or [float("nan")]
    p99 = ordered[int(0.99 * (len(ordered) - 1))]
    return statistics.median(ordered) * 1e3, p99 * 1e3, ordered[-1] * 1e3


def odds_with_jobs(url: str, args: argparse.Namespace) -> dict[str, float]:
    """Issue 24, item 2: exact ``/odds`` from one client, one after another, while two
    goldfish jobs run, ``--clients`` post ``/validate`` and one polls ``/health``, all at
    once. Jobs have a pool of their own, so ``/odds`` waits for none of them (it took 101 s
    when they shared one). Returns the p99s (ms)."""

    async def together() -> list[tuple[int, list[float], Counter[int]]]:
        return list(
            await asyncio.gather(
                drive(url, "/odds", ODDS, 1, args.seconds),
                drive(url, "/validate", {"deck": DECK}, args.clients, args.seconds),
                drive(url, "/health", None, 1, args.seconds),
            )
        )

    ids = start_jobs(url, 2)
    try:
        together_runs = asyncio.run(together())
    finally:
        stop_jobs(url, ids)
    out = {}
    print("with two goldfish jobs running, at once:")
    for path, (count, latencies, statuses) in zip(
        ("/odds", "/validate", "/health"), together_runs, strict=True
    ):
        p50, p99, slowest = _quantiles(latencies)
        other = ", ".join(f"{n:,} × {code}" for code, n in sorted(statuses.items()) if code != 200)
        print(
            f"  {path:<10} {count:>7,} answers   p50 {p50:7.1f} ms   p99 {p99:7.1f} ms   "
            f"slowest {slowest:7.1f} ms   not 200: {other or 'none'}"
        )
        out[path] = p99
    return out


def wait_for(url: str) -> None:
    for _ in range(200):
        try:
            if httpx.get(f"{url}/health", timeout=1).status_code == 200:
                return
        except httpx.HTTPError:
            time.sleep(0.1)
    raise SystemExit("the server did not start")


def run_all(url: str, args: argparse.Namespace, tmp: Path) -> None:
    if str(ROOT) not in sys.path:  # run as a script, benchmarks/ is not a package then
        sys.path.insert(0, str(ROOT))
    from benchmarks.common import record

    validate = {"deck": DECK}
    idle = measure(url, "/validate", validate, args)
    if args.wrk and shutil.which("wrk"):
        print(f"wrk   /validate  {run_wrk(url + '/validate', validate, args, tmp)}")
    ids = start_jobs(url, 2)
    try:
        busy = measure(url, "/validate", validate, args)
    finally:
        stop_jobs(url, ids)
    what = f"/validate p99, {args.clients} clients"
    record(f"{what}, server idle", idle, "ms", goal=P99_GOAL_MS, lower_is_better=True)
    record(f"{what}, 2 goldfish jobs", busy, "ms", goal=P99_GOAL_MS, lower_is_better=True)
    record_near_miss(url, args, tmp)
    measure(url, "/odds", ODDS, args)
    if args.wrk and shutil.which("wrk"):
        print(f"wrk   /odds      {run_wrk(url + '/odds', ODDS, args, tmp)}")
    record_odds_with_jobs(url, args)
    short_near_miss(url, args, tmp)
    heavy_requests(url, args)


def record_near_miss(url: str, args: argparse.Namespace, tmp: Path) -> None:
    from benchmarks.common import record

    deck = near_miss_deck(tmp / "pool.sqlite3")
    asyncio.run(drive(url, "/validate", {"deck": deck}, 4, 1.0))  # warm-up
    checks, health = near_miss(url, deck, args)
    what = f"/validate p99, {args.clients} clients"
    record(f"{what}, 4 near-miss posters", checks, "ms", goal=P99_GOAL_MS, lower_is_better=True)
    record("/health p99, 4 near-miss posters", health, "ms", goal=50.0, lower_is_better=True)


def record_odds_with_jobs(url: str, args: argparse.Namespace) -> None:
    from benchmarks.common import record

    found = odds_with_jobs(url, args)
    what = "with 2 goldfish jobs running"
    record(f"/odds p99, 1 client, {what}", found["/odds"], "ms", lower_is_better=True)
    record(
        f"/validate p99, {args.clients} clients, /odds {what}",
        found["/validate"],
        "ms",
        goal=P99_GOAL_MS,
        lower_is_better=True,
    )
    record(f"/health p99, /odds {what}", found["/health"], "ms", goal=50.0, lower_is_better=True)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--clients", type=int, default=16)
    parser.add_argument("--seconds", type=float, default=10.0)
    parser.add_argument("--workers", type=int, default=1)
    parser.add_argument(
        "--wrk",
        action="store_true",
        help="also drive the server with wrk (a C load generator), if installed",
    )
    parser.add_argument(
        "--only",
        choices=["odds-with-jobs", "near-miss", "short-near-miss", "heavy"],
        help="run one scenario only (the server is started all the same)",
    )
    args = parser.parse_args()
    print(
        f"machine: {platform.machine()}, {os.cpu_count()} cores, "
        f"Python {platform.python_version()}, load average {os.getloadavg()[0]:.1f}; "
        f"server workers {args.workers}, {args.clients} clients, {args.seconds:g} s per run"
    )
    port = free_port()
    url = f"http://127.0.0.1:{port}"
    with tempfile.TemporaryDirectory() as tmp:
        # this checkout's code (python -m), not whatever the venv's script points at
        env = {
            **os.environ,
            "DECKCHECK_DB": str(Path(tmp) / "pool.sqlite3"),
            "DECKCHECK_API_KEYS": BENCH_KEY,
            "PYTHONPATH": os.pathsep.join(filter(None, [str(ROOT), os.environ.get("PYTHONPATH")])),
        }
        serve = ["-m", "deckcheck", "serve", "--port", str(port), "--workers", str(args.workers)]
        server = subprocess.Popen(
            [sys.executable, *serve],
            env=env,
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
        )
        try:
            wait_for(url)
            if args.only is not None and str(ROOT) not in sys.path:
                sys.path.insert(0, str(ROOT))
            if args.only == "odds-with-jobs":
                record_odds_with_jobs(url, args)
            elif args.only == "near-miss":
                record_near_miss(url, args, Path(tmp))
            elif args.only == "short-near-miss":
                short_near_miss(url, args, Path(tmp))
            elif args.only == "heavy":
                heavy_requests(url, args)
            else:
                run_all(url, args, Path(tmp))
        finally:
            server.terminate()
            server.wait(timeout=10)


if __name__ == "__main__":
    main()
