"""Bad input is exit 2 or a 4xx, never exit 70 or a 500, and a sweep's options are checked
before any game is played (issue 24, items 10 and 15)."""

from __future__ import annotations

import os
import resource
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from deckcheck.sweep import run as sweep_run
from tests.conftest import EXAMPLES
from tests.test_cli import run

DECK = str(EXAMPLES / "rakuen-standard-legal.deck")
RAKUEN = (EXAMPLES / "rakuen-standard-legal.deck").read_text(encoding="utf-8")
# 150 lines of 9999 copies: 1,499,850 cards. By turn 30 the exact count's binomials pass the
# float range (C(1.5e6, 69) ≈ 1e330).
HUGE = "format: rakuen-standard\n[main]\n" + "".join(
    f"9999 SAMPLE-R-00{i % 9 + 1}\n" for i in range(150)
)


@pytest.fixture(scope="module")
def db(tmp_path_factory: pytest.TempPathFactory) -> str:
    return str(tmp_path_factory.mktemp("bad") / "pool.sqlite3")


def _limit_memory() -> None:
    # 3 GiB of address space: a sweep that builds its variants before counting them (104
    # million of them here) needs ~9 GiB and dies of MemoryError instead of eating the machine
    resource.setrlimit(resource.RLIMIT_AS, (3 << 30, 3 << 30))


def test_a_sweep_of_too_many_variants_is_refused_before_they_are_built(db: str) -> None:
    vary = [f"--vary=name:SAMPLE-R-00{i}=0..100" for i in (3, 4, 5, 6)]
    done = subprocess.run(
        [sys.executable, "-m", "deckcheck", "sweep", DECK, *vary, "-n", "0", "--db", db],
        capture_output=True,
        text=True,
        preexec_fn=_limit_memory,
        env={**os.environ, "DECKCHECK_DEBUG": ""},
    )
    assert done.returncode == 2, done.stderr
    assert "104060401 variants: at most 1000 in one sweep" in done.stderr


@pytest.mark.parametrize(
    ("address", "reason"),
    [("notaurl", "missing port number"), ("tcp://[::1", "invalid address")],
)
def test_a_bad_scheduler_address_is_exit_2_with_its_reason(
    db: str, address: str, reason: str
) -> None:
    code, _, err = run("sweep", DECK, "-n", "10", "-t", "2", "--scheduler", address, db=db)
    assert code == 2 and f"--scheduler {address!r}" in err and reason in err


def test_odds_beyond_the_float_range_are_exit_2(tmp_path: Path, db: str) -> None:
    deck = tmp_path / "huge.deck"
    deck.write_text(HUGE, encoding="utf-8")
    code, _, err = run("odds", str(deck), "-w", "type:paradox>=1", "--turns", "30", db=db)
    assert code == 2 and "beyond exact counting" in err and "fewer turns" in err
    # the same deck over fewer turns stays answerable (no paradox in it: 0 at every turn)
    code, out, err = run("odds", str(deck), "-w", "type:paradox>=1", "--turns", "10", db=db)
    assert code == 0, err
    assert "0.00%" in out


# --- a sweep's best and want are read before any game --------------------------------------


@pytest.fixture
def played(monkeypatch: pytest.MonkeyPatch) -> list[Any]:
    """The chunks of games the in-process runner plays."""
    chunks: list[Any] = []
    play = sweep_run.play_task

    def counted(task: Any) -> Any:
        chunks.append(task)
        return play(task)

    monkeypatch.setattr(sweep_run, "play_task", counted)
    return chunks


BAD_BEST = {
    "milestone:nope": "no milestone 'nope'",
    "odds:type:paradox>=1": "ask it with --want",
    "odds:type:member>=1@x": "the turn after @",
    "odds:type:member>=1@9": "the turn after @",
    "kind:thing": "write milestone:NAME or odds:CONDITION[@TURN]",
}


@pytest.mark.parametrize("best", list(BAD_BEST))
def test_a_bad_best_is_exit_2_before_any_game(db: str, played: list[Any], best: str) -> None:
    args = ["sweep", DECK, "-w", "type:member>=1", "-n", "200", "-t", "3", "--best", best]
    code, _, err = run(*args, db=db)
    assert code == 2 and BAD_BEST[best] in err
    assert played == []


def test_a_good_best_still_picks(db: str, played: list[Any]) -> None:
    args = ["sweep", DECK, "-w", "type:member>=1", "-n", "200", "-t", "3", "--json"]
    for best in ("odds:type:member>=1@3", "milestone:first_level_2_deploy", "odds:type:member>=1"):
        code, out, err = run(*args, "--best", best, db=db)
        assert code == 0, err
        assert '"best": "side=play"' in out
    assert played


def test_a_milestone_best_without_games_is_exit_2(db: str) -> None:
    code, _, err = run("sweep", DECK, "-n", "0", "--best", "milestone:first_gouritai", db=db)
    assert code == 2 and "games" in err
