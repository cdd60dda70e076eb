"""Memory of the HTTP service under distinct requests (issue 37, item 2). A script that prints
figures, not a test; it stops by itself.

    .venv/bin/python -m benchmarks.memory_load [--odds 100] [--keywords 1000] [--headers 20]

Starts this checkout's `deckcheck serve` on 127.0.0.1 (a fresh pool in a temporary folder) and
prints the total resident memory (RSS) of the server and its worker processes after start-up,
after ``--odds`` distinct exact /odds (five name:X>=k conditions each, a question no other
asked), after ``--keywords`` /odds with distinct 95 KB ``keyword:`` values (each a 422), and
after ``--headers`` connections offering 50 MB of request headers each (431 expected). Before
issue 37 the first grew the workers from 412 MB to 3.4 GB (the exact tables' memo), the second
by 700 MB (the word keys' memo), the third by 1 GB (httptools buffered the headers).
"""

from __future__ import annotations

import argparse
import os
import socket
import subprocess
import sys
import tempfile
from collections import Counter
from pathlib import Path

import httpx
import psutil

from benchmarks.load import free_port, wait_for

ROOT = Path(__file__).resolve().parent.parent
DECK = (ROOT / "examples" / "chaos-standard-legal.deck").read_text(encoding="utf-8")
NAMES = [f"見本キャラ 0{i}" for i in range(1, 10)]


def rss_mb(server: psutil.Process) -> float:
    """The server's and its children's resident memory, in MB."""
    total = 0
    for proc in [server, *server.children(recursive=True)]:
        try:
            total += proc.memory_info().rss
        except psutil.NoSuchProcess:  # a worker replaced meanwhile
            continue
    return total / 1e6


def distinct_odds(url: str, n: int) -> Counter[int]:
    """``n`` exact /odds, each of conditions no other asks: five conditions over overlapping
    pairs of names (six groups of cards), shifted and with other counts per request."""
    statuses: Counter[int] = Counter()
    with httpx.Client(base_url=url, timeout=600) as http:
        for i in range(n):
            want = [
                f"name:{NAMES[(i + j) % 9]}|name:{NAMES[(i + j + 1) % 9]}>={2 + (i // 9 + j) % 3}"
                for j in range(5)
            ]
            body = {"deck": DECK, "want": want, "turns": 3 + i % 8}
            statuses[http.post("/odds", json=body).status_code] += 1
    return statuses


def hostile_keywords(url: str, n: int) -> Counter[int]:
    statuses: Counter[int] = Counter()
    with httpx.Client(base_url=url, timeout=600) as http:
        for i in range(n):
            word = f"{i:05d}" + "語" * 32_000  # 96 KB of UTF-8
            body = {"deck": DECK, "want": [f"keyword:{word}>=1"], "turns": 2}
            statuses[http.post("/odds", json=body).status_code] += 1
    return statuses


def huge_headers(port: int, n: int) -> Counter[int]:
    """``n`` connections, each offering 50 MB of one header; the status each gets."""
    statuses: Counter[int] = Counter()
    chunk = b"a" * 65536
    for _ in range(n):
        with socket.create_connection(("127.0.0.1", port)) as conn:
            conn.settimeout(60)
            conn.sendall(b"GET /health HTTP/1.1\r\nHost: x\r\nX-Big: ")
            try:
                for _ in range(50 * 1024 * 1024 // len(chunk)):
                    conn.sendall(chunk)
            except OSError:  # refused: the server closed the connection
                pass
            answer = b""
            try:
                while part := conn.recv(65536):
                    answer += part
            except OSError:
                pass
        status = int(answer.split(b" ", 2)[1]) if answer.startswith(b"HTTP/1.1 ") else 0
        statuses[status] += 1
    return statuses


def _line(what: str, server: psutil.Process, statuses: Counter[int]) -> None:
    answers = ", ".join(f"{n:,} × {code}" for code, n in sorted(statuses.items()))
    print(f"after {what:<32} {rss_mb(server):7.0f} MB   {answers}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    for option, default in (("--odds", 100), ("--keywords", 1000), ("--headers", 20)):
        parser.add_argument(option, type=int, default=default)
    parser.add_argument(
        "--code",
        type=Path,
        default=ROOT,
        help="the checkout whose deckcheck the server runs (to compare with an older one)",
    )
    args = parser.parse_args()
    port = free_port()
    url = f"http://127.0.0.1:{port}"
    print(f"{os.cpu_count()} cores, load average {os.getloadavg()[0]:.1f}")
    with tempfile.TemporaryDirectory() as tmp:
        env = {
            **os.environ,
            "DECKCHECK_DB": str(Path(tmp) / "pool.sqlite3"),
            "DECKCHECK_WARM": "0",
            "PYTHONPATH": os.pathsep.join(
                filter(None, [str(args.code), os.environ.get("PYTHONPATH")])
            ),
        }
        command = [sys.executable, "-m", "deckcheck", "serve", "--port", str(port)]
        proc = subprocess.Popen(  # run from the checkout: python -m puts the cwd first
            command, env=env, cwd=args.code, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL
        )
        server = psutil.Process(proc.pid)
        try:
            wait_for(url)
            distinct_odds(url, 2)  # the request workers start
            _line("start-up and 2 /odds", server, Counter())
            _line(f"{args.odds:,} distinct exact /odds", server, distinct_odds(url, args.odds))
            found = hostile_keywords(url, args.keywords)
            _line(f"{args.keywords:,} 95 KB keyword: /odds", server, found)
            _line(f"{args.headers} × 50 MB of headers", server, huge_headers(port, args.headers))
        finally:
            proc.terminate()
            proc.wait(timeout=30)


if __name__ == "__main__":
    main()
