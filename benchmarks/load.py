"""Load test of the HTTP service. A script that prints figures, not a test; it stops by itself.

    .venv/bin/python benchmarks/load.py [--clients 16] [--seconds 10] [--workers 1]

Starts `deckcheck serve` on 127.0.0.1 (a fresh pool in a temporary folder), then drives
--clients concurrent httpx clients (asyncio, one process) for --seconds against POST /validate,
then against POST /odds, and prints requests/s, p50, p99 and errors for each.
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
from pathlib import Path

import httpx

ROOT = Path(__file__).resolve().parent.parent
DECK = (ROOT / "examples" / "rakuen-standard-illegal.deck").read_text(encoding="utf-8")
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
    url: str, path: str, body: dict[str, object], clients: int, seconds: float
) -> tuple[int, list[float], int]:
    latencies: list[float] = []
    errors = 0
    stop = time.perf_counter() + seconds

    async def one(client: httpx.AsyncClient) -> None:
        nonlocal errors
        while time.perf_counter() < stop:
            start = time.perf_counter()
            try:
                response = await client.post(path, json=body)
                if response.status_code != 200:
                    errors += 1
            except httpx.HTTPError:
                errors += 1
            latencies.append(time.perf_counter() - start)

    limits = httpx.Limits(max_connections=clients, max_keepalive_connections=clients)
    async with httpx.AsyncClient(base_url=url, limits=limits, timeout=30) as client:
        await asyncio.gather(*(one(client) for _ in range(clients)))
    return len(latencies), latencies, errors


def run_wrk(url: str, body: dict[str, object], args: argparse.Namespace, tmp: Path) -> str:
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
    args = parser.parse_args()
    print(
        f"machine: {platform.machine()}, {os.cpu_count()} cores, "
        f"Python {platform.python_version()}; server workers {args.workers}, "
        f"{args.clients} clients, {args.seconds:g} s per endpoint"
    )
    port = free_port()
    url = f"http://127.0.0.1:{port}"
    exe = Path(sys.executable).with_name("deckcheck")
    with tempfile.TemporaryDirectory() as tmp:
        env = {**os.environ, "DECKCHECK_DB": str(Path(tmp) / "pool.sqlite3")}
        server = subprocess.Popen(
            [str(exe), "serve", "--port", str(port), "--workers", str(args.workers)],
            env=env,
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
        )
        try:
            for _ in range(200):
                try:
                    if httpx.get(f"{url}/health", timeout=1).status_code == 200:
                        break
                except httpx.HTTPError:
                    time.sleep(0.1)
            else:
                raise SystemExit("the server did not start")
            for path, body in (("/validate", {"deck": DECK}), ("/odds", ODDS)):
                asyncio.run(drive(url, path, body, args.clients, 1.0))  # warm up
                count, latencies, errors = asyncio.run(
                    drive(url, path, body, args.clients, args.seconds)
                )
                latencies.sort()
                p50 = statistics.median(latencies) * 1e3
                p99 = latencies[int(0.99 * (len(latencies) - 1))] * 1e3
                print(
                    f"httpx {path:<10} {count / args.seconds:>8,.0f} requests/s   p50 {p50:6.1f}"
                    f" ms   p99 {p99:6.1f} ms   errors {errors}"
                )
                if args.wrk and shutil.which("wrk"):
                    print(f"wrk   {path:<10} {run_wrk(url + path, body, args, Path(tmp))}")
        finally:
            server.terminate()
            server.wait(timeout=10)


if __name__ == "__main__":
    main()
