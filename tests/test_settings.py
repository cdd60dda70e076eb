"""The service's settings through pydantic-settings (issue 20, item 7): every ``DECKCHECK_*``
variable keeps its name and default, a bad value is a message naming the variable and exit 2
(``deckcheck serve`` and ``uvicorn deckcheck.service.asgi:app``), never a traceback."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from deckcheck.cli import app as cli_app
from deckcheck.service.settings import Settings, SettingsError
from tests.cli_run import CliRunner
from tests.conftest import HANG

DEFAULTS = {
    "database_url": None,
    "api_keys": (),
    "admin_keys": (),
    "sync_games": 20_000,
    "job_games": 1_000_000,
    "max_jobs": 2,
    "max_body": 1 << 20,
    "require_if_match": False,
    "workers": 2,
    "queue": 8,
    "sync_simulate": 200_000,
    "job_ttl": 3600.0,
    "docs": True,
    "dask_scheduler": None,
    "key_queue": 8,
    "sync_seconds": 30.0,
    "sync_work": 4_000_000,
    "job_work": 100_000_000,
    "odds_work": 2_000_000_000,
    "dask_connect_timeout": 10.0,
    "dask_worker_timeout": 30.0,
    "check_processes": 1,
    "warm": False,
}


@pytest.fixture
def env(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> pytest.MonkeyPatch:
    """No DECKCHECK_* variable but the pool's."""
    for name in list(os.environ):
        if name.startswith("DECKCHECK_"):
            monkeypatch.delenv(name)
    monkeypatch.setenv("DECKCHECK_DB", str(tmp_path / "pool.sqlite3"))
    return monkeypatch


def test_defaults(env: pytest.MonkeyPatch, tmp_path: Path) -> None:
    settings = Settings.from_env()
    assert settings.model_dump(exclude={"db"}) == DEFAULTS
    assert settings.db == tmp_path / "pool.sqlite3"
    assert settings.decks_url == f"sqlite:///{tmp_path / 'pool.decks.sqlite3'}"
    assert Settings.from_env(db=tmp_path / "given.sqlite3").db == tmp_path / "given.sqlite3"


def test_every_variable_is_read(env: pytest.MonkeyPatch) -> None:
    given = {
        "DECKCHECK_DATABASE_URL": "postgresql+psycopg://u@h/d",
        "DECKCHECK_API_KEYS": " k1, k2,,",
        "DECKCHECK_SYNC_GAMES": "10",
        "DECKCHECK_JOB_GAMES": "20",
        "DECKCHECK_MAX_JOBS": "3",
        "DECKCHECK_MAX_BODY": "4096",
        "DECKCHECK_REQUIRE_IF_MATCH": "yes",
        "DECKCHECK_WORKERS": "1",
        "DECKCHECK_QUEUE": "0",
        "DECKCHECK_SYNC_SIMULATE": "500",
        "DECKCHECK_JOB_TTL": "60",
        "DECKCHECK_DOCS": "0",
        "DECKCHECK_DASK_SCHEDULER": "tcp://127.0.0.1:8786",
        "DECKCHECK_KEY_QUEUE": "5",
        "DECKCHECK_SYNC_SECONDS": "2.5",
        "DECKCHECK_SYNC_WORK": "1000",
        "DECKCHECK_JOB_WORK": "5000",
        "DECKCHECK_ODDS_WORK": "7000",
        "DECKCHECK_DASK_CONNECT_TIMEOUT": "3",
        "DECKCHECK_DASK_WORKER_TIMEOUT": "4",
        "DECKCHECK_WARM": "1",
        "DECKCHECK_CHECK_PROCESSES": "0",
        "DECKCHECK_ADMIN_KEYS": " a1 ,",
    }
    for name, value in given.items():
        env.setenv(name, value)
    settings = Settings.from_env()
    assert settings.model_dump(exclude={"db"}) == {
        "database_url": "postgresql+psycopg://u@h/d",
        "api_keys": ("k1", "k2"),
        "admin_keys": ("a1",),
        "sync_games": 10,
        "job_games": 20,
        "max_jobs": 3,
        "max_body": 4096,
        "require_if_match": True,
        "workers": 1,
        "queue": 0,
        "sync_simulate": 500,
        "job_ttl": 60.0,
        "docs": False,
        "dask_scheduler": "tcp://127.0.0.1:8786",
        "key_queue": 5,
        "sync_seconds": 2.5,
        "sync_work": 1000,
        "job_work": 5000,
        "odds_work": 7000,
        "dask_connect_timeout": 3.0,
        "dask_worker_timeout": 4.0,
        "check_processes": 0,
        "warm": True,
    }
    assert settings.decks_url == "postgresql+psycopg://u@h/d"
    # values given in code are exactly those: no variable leaks into them
    assert Settings(db=Path("x.sqlite3")).model_dump(exclude={"db"}) == DEFAULTS


def test_an_empty_variable_is_unset(env: pytest.MonkeyPatch) -> None:
    env.setenv("DECKCHECK_DATABASE_URL", "")
    env.setenv("DECKCHECK_WORKERS", "")
    env.setenv("DECKCHECK_DOCS", "")
    settings = Settings.from_env()
    assert (settings.database_url, settings.workers, settings.docs) == (None, 2, True)


@pytest.mark.parametrize(
    ("name", "value", "says"),
    [
        ("DECKCHECK_WORKERS", "two", "valid integer"),
        ("DECKCHECK_WORKERS", "0", "greater than or equal to 1"),
        ("DECKCHECK_QUEUE", "-1", "greater than or equal to 0"),
        ("DECKCHECK_JOB_TTL", "soon", "valid number"),
        ("DECKCHECK_DOCS", "maybe", "valid boolean"),
    ],
)
def test_a_bad_value_names_the_variable(
    env: pytest.MonkeyPatch, name: str, value: str, says: str
) -> None:
    env.setenv(name, value)
    with pytest.raises(SettingsError) as caught:
        Settings.from_env()
    assert f"{name}='{value}'" in str(caught.value) and says in str(caught.value)


def test_serve_refuses_a_bad_value_before_it_starts(env: pytest.MonkeyPatch) -> None:
    env.setenv("DECKCHECK_MAX_JOBS", "lots")
    result = CliRunner().invoke(cli_app, ["serve", "--port", "1"])
    assert result.exit_code == 2, result.output
    assert "DECKCHECK_MAX_JOBS='lots'" in result.stderr and "Traceback" not in result.stderr


def _import_asgi() -> subprocess.CompletedProcess[str]:
    """What ``uvicorn deckcheck.service.asgi:app`` does first, in a new process."""
    return subprocess.run(
        [sys.executable, "-c", "import deckcheck.service.asgi"],
        capture_output=True,
        text=True,
        timeout=HANG,
        check=False,
    )


def test_the_asgi_module_exits_2_with_the_message(env: pytest.MonkeyPatch) -> None:
    env.setenv("DECKCHECK_SYNC_GAMES", "-5")
    done = _import_asgi()
    assert done.returncode == 2
    assert "DECKCHECK_SYNC_GAMES='-5'" in done.stderr
    assert "Traceback" not in done.stderr


def test_the_asgi_module_starts_where_the_pools_folder_does_not_exist_yet(
    env: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    """``uvicorn deckcheck.service.asgi:app`` in a new home: the saved decks' and jobs' SQLite
    file goes beside the card pool, whose folder the service makes (it was "unable to open
    database file", a traceback, before)."""
    pool = tmp_path / "new home" / "deckcheck" / "pool.sqlite3"
    env.setenv("DECKCHECK_DB", str(pool))
    done = _import_asgi()
    assert done.returncode == 0, done.stderr
    assert pool.with_suffix(".decks.sqlite3").is_file()
