"""Shared fixtures: a pool built from the shipped card data, a one-call validator, the toy
fifth game installed as a plugin package, a real Dask cluster (a scheduler and two worker
processes on 127.0.0.1) and a throwaway PostgreSQL."""

from __future__ import annotations

import asyncio
import atexit
import contextlib
import importlib
import os
import pwd
import shutil
import socket
import subprocess
import sys
import tempfile
import time
from collections.abc import Iterator
from pathlib import Path

import hypothesis
import pytest

from deckcheck import decklist, plugins
from deckcheck.formats.registry import FormatRegistry, default_registry
from deckcheck.models import Report
from deckcheck.pool.store import Pool
from deckcheck.resolve import CardIndex
from deckcheck.validate import validate

# The SDK's conformance suite and its fixtures (deckcheck_index, deckcheck_formats), as a game
# package loads them; its asserts and the engine harness's are rewritten as tests' are.
pytest_plugins = ["deckcheck.sdk.testing"]
# The game packages under tests/plugins/ carry their own tests, run against the installed
# package by the tests that install it (test_sdk_plugin.py), never collected from here.
collect_ignore = ["plugins"]

# No test reads or writes the user's own card database (modules such as service.asgi open the
# default pool when imported). Under pytest-xdist each worker has its own: the workers inherit
# the controller's environment, and two processes building one pool file would race.
# The folder goes when the process ends (a run left one for each pytest process in /tmp).
if "DECKCHECK_DB" not in os.environ or os.environ.get("_DECKCHECK_DB_OF_TESTS"):
    _DB_FOLDER = Path(tempfile.mkdtemp(prefix="deckcheck-"))
    atexit.register(shutil.rmtree, _DB_FOLDER, ignore_errors=True)
    os.environ["DECKCHECK_DB"] = str(_DB_FOLDER / "pool.sqlite3")
    os.environ["_DECKCHECK_DB_OF_TESTS"] = "1"

# Tests hold no wall-clock limits (issue 20, item 6): no Hypothesis deadline either, as the
# default of every test (a loaded machine makes an example slow, not wrong).
hypothesis.settings.register_profile("deckcheck", deadline=None)
hypothesis.settings.load_profile("deckcheck")

ROOT = Path(__file__).resolve().parent.parent
# Seconds a test waits for something that should come (a server, a job, a worker) before it
# fails: only against a hang, never a speed limit. Minutes, because heavy work runs in worker
# processes at nice 10, which a machine loaded by other processes may starve for a long time.
HANG = 600
EXAMPLES = ROOT / "examples"
# The games deckcheck ships, in the order their specs' ``list_rank`` lists them (the registry
# names none: tests may, deckcheck/ outside each game's package may not).
SHIPPED = ("chaos", "rakuen", "vision", "iris")
DATA = Path(__file__).resolve().parent / "data"


@pytest.fixture(scope="session")
def shipped_pool(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Pool]:
    pool = Pool(tmp_path_factory.mktemp("pool") / "pool.sqlite3")
    yield pool
    pool.close()


@pytest.fixture(scope="session")
def index(shipped_pool: Pool) -> CardIndex:
    return CardIndex(shipped_pool.all_cards(), names=shipped_pool.names)


@pytest.fixture(scope="session")
def registry() -> FormatRegistry:
    return default_registry([DATA / "formats"])


@pytest.fixture(scope="session")
def check(index: CardIndex, registry: FormatRegistry):  # type: ignore[no-untyped-def]
    """``check(text, fmt=None) -> Report``: parse a deck list and validate it."""

    def run(text: str, fmt: str | None = None) -> Report:
        deck = decklist.parse(text, "test.deck")
        return validate(deck, registry.get(fmt or deck.format or ""), index)

    return run


@pytest.fixture
def fresh_db(tmp_path: Path) -> Path:
    return tmp_path / "fresh.sqlite3"


# --- the toy fifth game: a package of its own, found by its entry point ----------------------

TOY_PACKAGE = Path(__file__).resolve().parent / "plugins" / "toygame"
TOY = TOY_PACKAGE / "deckcheck_toygame"  # its module, card file, deck and format


@pytest.fixture(scope="session")
def toy_site(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The toy game's package installed into a folder of its own, never into the venv (the
    tests count the shipped games): put it on ``sys.path`` (``toy``) or on ``PYTHONPATH`` (a
    CLI in a subprocess). Offline: no index, no build isolation (hatchling is a dev extra)."""
    target = tmp_path_factory.mktemp("toy-site")
    pip = [sys.executable, "-m", "pip", "install", "--quiet", "--no-deps", "--no-build-isolation"]
    result = subprocess.run(
        [*pip, "--no-index", "--target", str(target), str(TOY_PACKAGE)],
        capture_output=True,
        text=True,
        check=False,
    )
    assert result.returncode == 0, result.stderr
    assert list(target.glob("deckcheck_toygame-*.dist-info/entry_points.txt"))
    return target


@contextlib.contextmanager
def plugins_on_path() -> Iterator[list[Path]]:
    """Folders put on ``sys.path`` (``on_path``), the registry finding games there; afterwards
    they and their modules are gone and the registry finds the shipped games alone."""
    added: list[Path] = []
    before = set(sys.modules)
    try:
        yield added
    finally:
        for folder in added:
            sys.path.remove(str(folder))
        for name in set(sys.modules) - before:
            module_file = str(getattr(sys.modules[name], "__file__", ""))
            if any(str(folder) in module_file for folder in added):
                del sys.modules[name]
        importlib.invalidate_caches()
        plugins.rediscover()


@pytest.fixture
def plugin_path() -> Iterator[list[Path]]:
    """``plugins_on_path`` for one test."""
    with plugins_on_path() as added:
        yield added


def on_path(added: list[Path], folder: Path) -> None:
    sys.path.insert(0, str(folder))
    added.append(folder)
    importlib.invalidate_caches()
    plugins.rediscover()


@pytest.fixture
def toy(toy_site: Path, plugin_path: list[Path]) -> plugins.GameSpec:
    """The toy game, installed and found through its entry point, for one test."""
    on_path(plugin_path, toy_site)
    spec = plugins.get("toy")
    module = sys.modules[type(spec.play.default_policy).__module__]
    assert Path(str(module.__file__)).is_relative_to(toy_site)  # the installed copy
    return spec


# --- a real Dask cluster: one scheduler and two worker processes on 127.0.0.1 ---------------


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def cli_through(started: object, monkeypatch: pytest.MonkeyPatch) -> str:
    """``deckcheck --server URL`` in this process answered by ``started``, a TestClient whose
    service is running; returns the URL to pass. A new TestClient per command would start the
    service again each time, forking its worker processes anew (issue 35)."""
    from deckcheck import client

    monkeypatch.setattr(client, "http_client", lambda base_url: contextlib.nullcontext(started))
    return "http://deckcheck.test"


@contextlib.contextmanager
def serve_in_thread(app: object, **config: object) -> Iterator[int]:
    """``app`` under a real uvicorn server on 127.0.0.1, in a thread; yields its port.
    ``config``: further ``uvicorn.Config`` settings (``http=``, ``timeout_keep_alive=``)."""
    import threading

    import uvicorn

    port = free_port()
    server = uvicorn.Server(
        uvicorn.Config(app, host="127.0.0.1", port=port, log_level="warning", **config)  # type: ignore[arg-type]
    )
    thread = threading.Thread(target=server.run, daemon=True)
    thread.start()
    deadline = time.monotonic() + HANG
    while not server.started and time.monotonic() < deadline:
        time.sleep(0.05)
    try:
        yield port
    finally:
        server.should_exit = True
        thread.join(timeout=HANG)


@pytest.fixture
def scheduler(tmp_path: Path) -> Iterator[str]:
    """A Dask scheduler and two worker processes. The checks that need one are the subtests
    of one test (tests/test_dask_cluster.py): starting and stopping one, unused, took 3.7 CPU-s
    on the 2-core VM, and each worker loads deckcheck and the engines at its first task (issue
    35)."""
    dask = str(Path(sys.executable).with_name("dask"))
    port = free_port()
    address = f"tcp://127.0.0.1:{port}"
    env = {**os.environ, "DASK_DISTRIBUTED__WORKER__DAEMON": "False"}
    log = (tmp_path / "dask.log").open("w")
    procs = [
        subprocess.Popen(
            [
                dask,
                "scheduler",
                "--host",
                "127.0.0.1",
                "--port",
                str(port),
                "--dashboard-address",
                ":0",
            ],
            stdout=log,
            stderr=log,
            env=env,
        )
    ]
    try:
        _wait_for(port)
        procs += [
            subprocess.Popen(
                [
                    dask,
                    "worker",
                    address,
                    "--nworkers",
                    "1",
                    "--nthreads",
                    "1",
                    "--no-dashboard",
                    "--no-nanny",  # one process a worker: killed at the end, no orphan left
                    "--name",
                    f"w{i}",
                ],
                stdout=log,
                stderr=log,
                env=env,
                cwd=tmp_path,
            )
            for i in range(2)
        ]
        _wait_for_workers(address, 2)
        yield address
    finally:
        # the workers hold nothing to save: killed, not closed (a graceful close waited on
        # the scheduler for 8 s of each test's teardown)
        for proc in reversed(procs):
            if proc is procs[0]:
                proc.terminate()
            else:
                proc.kill()
        for proc in procs:
            try:
                proc.wait(timeout=20)
            except subprocess.TimeoutExpired:
                proc.kill()
        log.close()


def _wait_for(port: int) -> None:
    deadline = time.monotonic() + HANG
    while time.monotonic() < deadline:
        with socket.socket() as s:
            if s.connect_ex(("127.0.0.1", port)) == 0:
                return
        time.sleep(0.2)
    raise RuntimeError("the Dask scheduler did not start")


def _wait_for_workers(address: str, n: int) -> None:
    from distributed import Client

    with Client(address, timeout="30s") as client:
        client.wait_for_workers(n, timeout=HANG)


# --- a throwaway PostgreSQL: DECKCHECK_TEST_DATABASE_URL, else initdb's own cluster, else skip


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
        # pytest's folders are private to root: open each one from base up to pytest-of-root
        # (under pytest-xdist a worker's folder is one level deeper)
        temp = tmp_path_factory.getbasetemp()
        top = next((p for p in temp.parents if p.name.startswith("pytest-of-")), temp)
        for folder in base.relative_to(top).parents:
            os.chmod(top / folder, 0o755)
        os.chmod(base, 0o700)
        os.chown(base, user.pw_uid, user.pw_gid)
    data, port = base / "data", free_port()

    def run(*args: str) -> None:
        subprocess.run([*prefix, *args], check=True, capture_output=True, timeout=HANG)

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
            "-t",  # pg_ctl waits 60 s by default: a loaded machine may need longer
            str(HANG),
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


# --- the browser tests' Chromium ------------------------------------------------------------

# Debian's chromium-headless-shell first: Chromium's old headless mode, a binary of its own and
# what Playwright itself launches for headless pages. The browser files took 85-95 s under it
# against 114-120 s under the full /usr/bin/chromium (issue 35, alternated, -n 3); the full
# browser is the fallback (same Blink, same pages).
CHROMIUM = (
    shutil.which("chromium-headless-shell") or shutil.which("chromium") or "/usr/bin/chromium"
)
FLAGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
]


@pytest.fixture(scope="session")
def browser():  # type: ignore[no-untyped-def]
    """One Chromium per pytest worker, started by the first test that asks for it: a driver
    and a browser cost about 1.1 CPU-s to start on the 2-core VM, and one per test module
    (18 of them) came to about a tenth of the browser tests' CPU (issue 35). Pages go from
    test to test, across modules too (tests/builder_pages.py)."""
    if not Path(CHROMIUM).exists():
        if os.environ.get("DECKCHECK_REQUIRE_BROWSER"):
            pytest.fail(f"{CHROMIUM} is missing (install Debian's chromium-headless-shell)")
        pytest.skip("no Chromium installed (Debian package chromium-headless-shell)")
    from playwright.sync_api import sync_playwright

    with sync_playwright() as p:
        instance = p.chromium.launch(executable_path=CHROMIUM, headless=True, args=FLAGS)
        yield instance
        instance.close()


@pytest.hookimpl(wrapper=True)
def pytest_runtest_protocol(item: pytest.Item, nextitem: pytest.Item | None) -> object:
    """A test that does not drive the browser runs with no event loop marked as running in
    this thread. Playwright's sync API leaves its loop marked so between its calls (its
    ``wait_for_future``), and since the browser lives for the whole worker, a later test's
    ``asyncio.run`` would refuse to start (run 30: test_pools' dead-worker test after a
    browser test). Nothing runs that loop between Playwright's calls, so the mark is put
    back after the test, as the browser's next call expects it."""
    marked = asyncio.events._get_running_loop()
    if marked is None or "browser" in getattr(item, "fixturenames", ()):
        return (yield)
    asyncio.events._set_running_loop(None)
    try:
        return (yield)
    finally:
        asyncio.events._set_running_loop(marked)
