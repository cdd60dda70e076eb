"""Saved decks on PostgreSQL (``DECKCHECK_DATABASE_URL``). Uses ``DECKCHECK_TEST_DATABASE_URL``
when set; otherwise starts a throwaway cluster if PostgreSQL's ``initdb`` is installed; skips
when neither is possible."""

from __future__ import annotations

import os
import pwd
import shutil
import socket
import subprocess
from collections.abc import Iterator
from pathlib import Path

import pytest

from deckcheck.service.store import DeckStore


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


@pytest.fixture(scope="module")
def postgres_url(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    given = os.environ.get("DECKCHECK_TEST_DATABASE_URL")
    if given:
        yield given
        return
    initdb, pg_ctl = shutil.which("initdb"), shutil.which("pg_ctl")
    if not initdb or not pg_ctl:
        pytest.skip("no PostgreSQL server installed")
    prefix: list[str] = []
    base = tmp_path_factory.mktemp("pg")
    if os.geteuid() == 0:  # initdb refuses root: run the cluster as the postgres user
        try:
            user = pwd.getpwnam("postgres")
        except KeyError:
            pytest.skip("running as root without a postgres user")
        prefix = ["runuser", "-u", "postgres", "--"]
        for path in (base, *base.parents[:2]):  # pytest's folders are private to root
            if path not in (Path("/"), Path("/tmp")):
                os.chmod(path, 0o755 if path != base else 0o700)
        os.chown(base, user.pw_uid, user.pw_gid)
    data, port = base / "data", _free_port()

    def run(*args: str) -> None:
        subprocess.run([*prefix, *args], check=True, capture_output=True, timeout=120)

    try:
        run(initdb, "-D", str(data), "-A", "trust", "-U", "deckcheck")
        run(
            pg_ctl,
            "-D",
            str(data),
            "-l",  # without a log file the server keeps our pipes open
            str(base / "server.log"),
            "-o",
            f"-p {port} -k {base} -c listen_addresses=''",
            "-w",
            "start",
        )
    except (subprocess.CalledProcessError, subprocess.TimeoutExpired, OSError) as exc:
        pytest.skip(f"could not start PostgreSQL: {exc}")
    try:
        yield f"postgresql+psycopg://deckcheck@/postgres?host={base}&port={port}"
    finally:
        subprocess.run(
            [*prefix, pg_ctl, "-D", str(data), "-m", "fast", "stop"],
            capture_output=True,
            check=False,
        )


def test_saved_decks_on_postgres(postgres_url: str) -> None:
    store = DeckStore(postgres_url)
    row = store.create("pg deck", "iris-standard", "format: iris-standard\n4 SAMPLE-I-U01\n")
    assert store.get(row["id"])["name"] == "pg deck"
    assert (
        store.update(row["id"], "renamed", "iris-standard", "4 SAMPLE-I-U02\n")["name"] == "renamed"
    )
    assert [r["id"] for r in store.list("iris-standard")] == [row["id"]]
    assert store.delete(row["id"]) and store.get(row["id"]) is None
