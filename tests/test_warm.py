"""Warm goldfish engines (issue 23): ``python -m deckcheck.cli.warm`` (``make demo``'s last
step) compiles each game's batch engine into numba's on-disk cache, so a user's first
``deckcheck goldfish`` loads it instead of compiling; ``deckcheck serve`` warms them in the
background and answers goldfish from the reference engine until a game's engine is ready.

iris is the game played here: its engine compiles fastest."""

from __future__ import annotations

import os
import subprocess
import sys
import threading
from collections.abc import Iterator
from pathlib import Path

import pytest
from starlette.testclient import TestClient

from deckcheck import decks, plugins
from deckcheck.cli import warm as warm_cli
from deckcheck.formats.registry import FormatRegistry
from deckcheck.goldfish import compiling, warm
from deckcheck.goldfish.run import GoldfishRequest, goldfish, prepare
from deckcheck.resolve import CardIndex
from deckcheck.service.app import create_app
from deckcheck.service.settings import Settings
from tests.conftest import EXAMPLES, HANG, ROOT

DECK = EXAMPLES / "iris-standard-legal.deck"

# Plays 100 iris games in a new process, then prints the cache misses (compiles) and hits
# (loads) of every compiled function of the iris engine.
FIRST_RUN = (
    "import sys; from pathlib import Path; from deckcheck import decks, plugins;"
    "from deckcheck.formats.registry import default_registry;"
    "from deckcheck.goldfish.run import GoldfishRequest, goldfish;"
    "from deckcheck.pool.store import Pool;"
    "import deckcheck.games.iris.fast_core as core;"
    "deck = decks.read(Path(sys.argv[1])); fmt = default_registry().get(deck.format);"
    "index = Pool(Path(sys.argv[2])).index_for([e.ref for e in deck.entries]);"
    "r = goldfish(deck, fmt, index, plugins.get('iris').play.default_policy, GoldfishRequest(games=100));"
    "jits = [f for f in vars(core).values() if hasattr(f, 'stats')];"
    "print(r.engine, sum(sum(f.stats.cache_misses.values()) for f in jits),"
    " sum(sum(f.stats.cache_hits.values()) for f in jits))"
)


@pytest.fixture
def not_pending() -> Iterator[None]:
    """Whatever a test marks pending is ready again after it."""
    yield
    for game in plugins.ids():
        compiling.compiled(game)


def _env(cache: Path) -> dict[str, str]:
    path = os.pathsep.join(p for p in (str(ROOT), os.environ.get("PYTHONPATH")) if p)
    return {**os.environ, "NUMBA_CACHE_DIR": str(cache), "PYTHONPATH": path}


def _first_run(cache: Path, db: Path) -> tuple[str, int, int]:
    out = subprocess.run(
        [sys.executable, "-c", FIRST_RUN, str(DECK), str(db)],
        env=_env(cache), capture_output=True, text=True, check=True,
    ).stdout.split()  # fmt: skip
    return out[0], int(out[1]), int(out[2])


def test_after_the_warm_step_the_first_goldfish_loads_the_engine(
    fresh_db: Path, tmp_path: Path
) -> None:
    warmed = tmp_path / "warmed"
    # a new machine: numba's cache (NUMBA_CACHE_DIR) holds nothing to load, so its first
    # goldfish compiles (until issue 35 a run here showed it, 8 CPU-s of compiling)
    assert not list(warmed.rglob("*.nbi"))
    done = subprocess.run(
        [*warm.COMMAND, "--game", "iris", "--db", str(fresh_db), "--usage"],
        env=_env(warmed), capture_output=True, text=True, check=False,
    )  # fmt: skip
    assert done.returncode == 0, done.stderr
    assert "iris: goldfish engine ready" in done.stdout
    assert "source .venv/bin/activate" in done.stdout and ".venv/bin/deckcheck" in done.stdout
    # it compiled into that cache, not into one found elsewhere (the checkout's own)
    assert list(warmed.rglob("*.nbi"))
    # after it, the first goldfish loads every compiled function from the cache
    engine, misses, hits = _first_run(warmed, fresh_db)
    assert (engine, misses) == ("batch", 0) and hits > 0


def test_bad_input_is_exit_2(fresh_db: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """In this process (``main`` is what the command runs): both are refused before any pool
    is opened or engine loaded, where a process of their own cost 0.6 CPU-s each (issue 35)."""
    assert warm_cli.main(["--game", "nosuchgame", "--db", str(fresh_db)]) == 2
    assert "unknown game 'nosuchgame'" in capsys.readouterr().err
    assert warm_cli.main(["--processes", "0", "--db", str(fresh_db)]) == 2
    assert "--processes" in capsys.readouterr().err
    assert not fresh_db.exists()


def test_a_pending_engine_leaves_goldfish_to_the_reference_engine(
    index: CardIndex, registry: FormatRegistry, not_pending: None
) -> None:
    deck = decks.read(DECK)
    fmt = registry.get("iris-standard")
    policy = plugins.get("iris").play.default_policy
    req = GoldfishRequest(games=200)
    compiling.compiling(["iris"])
    result = goldfish(deck, fmt, index, policy, req)
    assert result.engine == "reference" and result.games == 200
    compiling.compiled("iris")
    assert goldfish(deck, fmt, index, policy, req).engine == "batch"
    # the warm-up itself plays the batch engine, pending or not
    compiling.compiling(["iris"])
    assert warm.warm_game("iris", lambda refs: index) == "batch"
    assert prepare(deck, fmt, index, policy).fast is False


def test_serve_answers_goldfish_from_the_reference_engine_until_the_engine_is_warm(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, not_pending: None
) -> None:
    """The compile is held back by an Event: meanwhile /goldfish answers at once, from the
    reference engine; once the real warm-up ran (a child process), the batch engine plays."""
    release = threading.Event()
    warmed: list[bool] = []
    real = warm.in_child

    def held(game: str, db: Path | None) -> bool:
        if game != "iris":
            return True  # the other games' engines are not asked for here
        assert release.wait(HANG)
        warmed.append(real(game, db))
        return warmed[-1]

    monkeypatch.setattr(warm, "in_child", held)
    settings = Settings(db=tmp_path / "pool.sqlite3", warm=True, workers=1)
    body = {"deck": DECK.read_text(encoding="utf-8"), "games": 300, "seed": 1}
    with TestClient(create_app(settings)) as http:
        assert compiling.pending("iris")
        first = http.post("/goldfish", json=body)
        assert first.status_code == 200, first.text
        assert first.json()["engine"] == "reference" and first.json()["games"] == 300
        release.set()
        thread = next(t for t in threading.enumerate() if t.name == "deckcheck-warm")
        thread.join(HANG)
        assert warmed == [True] and not compiling.pending("iris")
        later = http.post("/goldfish", json=body)
        assert later.status_code == 200, later.text
        assert later.json()["engine"] == "batch"


def test_without_the_setting_the_service_warms_nothing(tmp_path: Path) -> None:
    with TestClient(create_app(Settings(db=tmp_path / "pool.sqlite3"))):
        assert not any(compiling.pending(game) for game in plugins.ids())
        assert not any(t.name == "deckcheck-warm" for t in threading.enumerate())


def test_games_warm_in_processes_of_their_own(fresh_db: Path) -> None:
    """``--processes 2`` (what ``make engines`` runs): each game in a child process, two at
    once, each child's line reported, exit 0 when all warmed. In
    numba's own cache, which ``make engines`` filled before the suite: the children load the
    engine rather than compile it twice (the test above holds compile against load; issue 35).
    0 processes: test_bad_input_is_exit_2."""
    done = subprocess.run(
        [*warm.COMMAND, "--game", "iris", "--game", "iris", "--processes", "2",
         "--db", str(fresh_db)],
        capture_output=True, text=True, check=False,
    )  # fmt: skip
    assert done.returncode == 0, done.stderr
    assert done.stdout.count("iris: goldfish engine ready") == 2, done.stdout
