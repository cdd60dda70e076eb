"""``deckcheck goldfish DECK --replay N`` (issue 22, item 10): game N of a run, turn by turn.

What "the same game" means: game N of ``deckcheck goldfish DECK --engine reference`` with the
same seed, turns and side. The reference engine plays game N from the N-th seed of the run's
SeedSequence; the batch engine draws its own shuffles per chunk, so its game N is another game
(checked below, so the README cannot promise more than is true)."""

from __future__ import annotations

import dataclasses
import json
import os
import re
from pathlib import Path

import numpy as np
import pytest

from deckcheck import decklist
from deckcheck.cli import app
from deckcheck.formats.registry import FormatRegistry
from deckcheck.goldfish.policy import default_policy
from deckcheck.goldfish.replay import ReplayRequest, replay
from deckcheck.goldfish.run import play_chunk, play_one, prepare
from deckcheck.goldfish.setup import Setup, game_seeds
from deckcheck.goldfish.trace import Trace
from deckcheck.resolve import CardIndex
from tests.cli_run import CliRunner
from tests.cli_run import deckcheck as run_cli
from tests.prose import english_words

ROOT = Path(__file__).resolve().parent.parent
EXAMPLES = ROOT / "examples"
DECKS = {
    "chaos": EXAMPLES / "chaos-standard-legal.deck",
    "rakuen": EXAMPLES / "rakuen-standard-legal.deck",
    "iris": EXAMPLES / "iris-standard-legal.deck",
    "vision": EXAMPLES / "vision-standard-legal.deck",
}
# a deck whose hand limit makes the end phase discard (the trace's discard step)
RAKUEN_HAND_LIMIT = ROOT / "tests" / "data" / "rakuen-hand-limit.deck"
runner = CliRunner()


def setup_of(path: Path, index: CardIndex, registry: FormatRegistry, fast: bool = False) -> Setup:
    deck = decklist.parse(path.read_text(encoding="utf-8"), str(path))
    assert deck.format is not None
    fmt = registry.get(deck.format)
    setup = prepare(deck, fmt, index, default_policy(fmt.game))
    return dataclasses.replace(setup, fast=fast)


def cli(*args: str) -> tuple[int, str]:
    result = runner.invoke(app, ["goldfish", *args])
    return result.exit_code, result.output


# --- tracing never changes play ---------------------------------------------------------------


@pytest.mark.parametrize(
    ("path", "turns"),
    [
        (DECKS["chaos"], 12),
        (DECKS["rakuen"], 30),  # long enough for refreshes, penalties and losses
        (RAKUEN_HAND_LIMIT, 12),
        (DECKS["iris"], 30),  # deck-out losses
        (DECKS["vision"], 12),
        (EXAMPLES / "vision-standard-nandai-kaguya.deck", 12),
    ],
    ids=lambda v: v.stem if isinstance(v, Path) else str(v),
)
def test_traced_play_is_untraced_play(
    path: Path, turns: int, index: CardIndex, registry: FormatRegistry
) -> None:
    setup = setup_of(path, index, registry)
    seeds = game_seeds(7, 150)
    told = 0
    for on_play in (True, False):
        for seed in seeds:
            plain = play_one(setup, seed, turns, on_play)
            trace = Trace()
            traced = play_one(setup, seed, turns, on_play, trace)
            assert traced == plain, (path.name, seed, on_play)
            told += sum(len(t.steps) for t in trace.turns)
            assert "hand" in [s.action for s in trace.turns[0].steps]
    assert told > len(seeds) * 2 * turns  # every game told something each turn


# --- game N is game N of the run ----------------------------------------------------------------


@pytest.mark.parametrize("game", sorted(DECKS))
def test_replay_is_game_n_of_the_reference_run(
    game: str, index: CardIndex, registry: FormatRegistry
) -> None:
    """Each replayed game's per-turn metrics, milestones, mulligans and loss are the row the
    reference run tallies for that game; and the CLI's statistics of ``--engine reference``
    are exactly the sum of the replays of games 1 … G."""
    setup = setup_of(DECKS[game], index, registry)
    games, turns, seed = 40, 6, 11
    chunk = play_chunk(setup, 0, game_seeds(seed, games), turns, True)
    first_at = {name: [0] * (turns + 1) for name in setup.milestones}
    fmt = registry.get(_format_id(DECKS[game]))
    for n in range(1, games + 1):
        req = ReplayRequest(game=n, seed=seed, turns=turns, on_play=True)
        got = replay(setup, fmt, req)
        rows = [tuple(m.values()) for m in got.metrics]
        assert rows == [tuple(r) for r in chunk.metrics[n - 1, : len(rows)].tolist()], n
        assert [t or 0 for t in got.milestones.values()] == chunk.milestones[n - 1].tolist()
        assert got.mulligans == int(chunk.mulligans[n - 1])
        for name, turn in got.milestones.items():
            first_at[name][turn or 0] += 1
    code, out = cli(
        str(DECKS[game]),
        "--engine",
        "reference",
        "--games",
        str(games),
        "--turns",
        str(turns),
        "--seed",
        str(seed),
        "--json",
    )
    assert code == 0, out
    stats = json.loads(out)
    assert stats["engine"] == "reference"
    for name, counts in first_at.items():
        assert stats["milestones"][name]["first_at"] == {
            str(t): counts[t] for t in range(1, turns + 1)
        }, name


def _format_id(path: Path) -> str:
    found = re.search(r"^format:\s*(\S+)", path.read_text(encoding="utf-8"), re.M)
    assert found is not None
    return found.group(1)


def test_the_batch_engine_plays_other_games(index: CardIndex, registry: FormatRegistry) -> None:
    """Why the replay is the reference engine's game: the batch engine's game N is not it (its
    shuffles come from numba's generator, seeded per chunk). If this ever fails, the batch
    engine reproduces the reference games, and the README and --replay help can say more."""
    setup = setup_of(DECKS["vision"], index, registry, fast=True)
    if setup.spec.play.play_batch is None:
        pytest.skip("no batch engine")
    seeds = game_seeds(3, 60)
    batch = play_chunk(setup, 0, seeds, 6, True)
    reference = play_chunk(dataclasses.replace(setup, fast=False), 0, seeds, 6, True)
    assert not np.array_equal(batch.metrics, reference.metrics)


# --- the command ---------------------------------------------------------------------------------


@pytest.mark.parametrize("game", sorted(DECKS))
def test_replay_prints_the_game_turn_by_turn(game: str) -> None:
    args = (str(DECKS[game]), "--replay", "3", "--seed", "5", "--turns", "4")
    code, out = cli(*args)
    assert code == 0, out
    assert out.startswith("Game 3 of seed 5")
    assert "opening hand: “" in out
    assert "keeps the hand" in out or "mulligan: returns “" in out
    for turn in range(1, 5):
        assert f"\nTurn {turn}\n" in out
    assert out.count("\n  = ") == 4  # the state at the end of each turn
    final = out.strip().splitlines()[-1]
    assert final.startswith("Final state: ")
    assert final.removeprefix("Final state: ") == out.split("\n  = ")[-1].split("\n")[0]
    again = cli(*args)
    assert again == (code, out)  # same seed, same game
    other = cli(str(DECKS[game]), "--replay", "4", "--seed", "5", "--turns", "4")
    assert other[0] == 0 and other[1] != out
    code, data = cli(*args, "--json")
    parsed = json.loads(data)
    assert parsed["number"] == 3 and parsed["engine"] == "reference"
    assert [t["turn"] for t in parsed["log"]] == [0, 1, 2, 3, 4]
    assert parsed["final"] == final.removeprefix("Final state: ")


def test_each_game_tells_its_resources() -> None:
    """Each turn ends with the game's own resources: VISION's nodes active/total, rakuen's level
    area and stock, chaos's partner level, iris's standby slots and charges."""
    expect = {
        "vision": ("as a node", ("nodes ", " active")),
        "rakuen": ("into the level area", ("level area ", "; stock ")),
        "chaos": ("partner: “", ("partner “", " level ")),
        "iris": ("standby slot", ("main unit “", "; charges ")),
    }
    for game, (step, (start, middle)) in expect.items():
        code, out = cli(str(DECKS[game]), "--replay", "1", "--turns", "3")
        states = [line[4:] for line in out.splitlines() if line.startswith("  = ")]
        assert code == 0 and step in out, game
        assert len(states) == 3 and all(s.startswith(start) and middle in s for s in states), game
        if game == "vision":  # the first player skips the first draw (OFF 「ターンの流れ」)
            turn1 = out.split("\nTurn 1\n")[1].split("\nTurn 2\n")[0]
            assert "  - no draw: the first player's first turn" in turn1


def test_a_lost_game_ends_with_the_loss(tmp_path: Path) -> None:
    """A stacked 10-card iris deck: 5 in hand (one becomes the main unit), 5 draws, and turn
    6's draw finds the deck empty (あいりすミスティリア! 詳しい遊び方 ターンの流れ: an empty deck at the draw
    loses). The replay ends with the loss, and its final state says so."""
    deck = tmp_path / "ten.deck"
    deck.write_text("format: iris-standard\n[main]\n10 SAMPLE-I-U01\n", encoding="utf-8")
    code, out = cli(str(deck), "--replay", "1", "--turns", "8", "--json")
    assert code == 0, out
    data = json.loads(out)
    assert data["loss"] == "deck-out" and data["loss_turn"] == 6
    assert data["final"] == "lost on turn 6: deck-out"
    assert data["log"][-1]["turn"] == 6 and data["log"][-1]["steps"][-1]["text"] == data["final"]
    assert len(data["metrics"]) == 5


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (("--replay", "11", "--games", "10"), "the run has 10 games"),
        (("--replay", "1001"), "the run has 1000 games"),
        (("--replay", "2", "--both-sides"), "--replay prints one game"),
        (("--replay", "2", "--csv", "x.csv"), "--replay prints one game"),
    ],
)
def test_a_game_not_in_the_run_is_bad_input(args: tuple[str, ...], message: str) -> None:
    code, out = cli(str(DECKS["rakuen"]), *args)
    assert code == 2, out
    assert message in out and "Traceback" not in out


def test_replay_zero_is_refused() -> None:
    code, out = cli(str(DECKS["rakuen"]), "--replay", "0")
    assert code == 2 and "--replay" in out


def test_help_says_what_the_same_game_means() -> None:
    result = runner.invoke(app, ["goldfish", "--help"], env={"COLUMNS": "200"})
    text = " ".join(result.output.split())
    assert "--replay" in text and "--engine" in text
    assert "It is game N of the same command with --engine reference" in text


@pytest.mark.parametrize("game", sorted(DECKS))
def test_japanese_replay_has_no_english_prose(game: str) -> None:
    environ = {k: v for k, v in os.environ.items() if not k.startswith(("LC_", "LANG"))}
    environ.pop("DECKCHECK_LANG", None)
    environ["PYTHONPATH"] = str(ROOT)
    # in this process, as the process answers (tests/cli_run.py; test_cli_in_process.py holds
    # --lang and the environment's language to a real process)
    args = ["goldfish", str(DECKS[game]), "--replay", "2", "--turns", "5", "--lang", "ja"]
    done = run_cli(args, env=environ)
    assert done.returncode == 0, done.stderr
    text = done.stdout
    assert "ターン" in text and "初手" in text
    prose = re.sub(r"「[^」]*」", " ", text)  # card names are data
    assert english_words(prose) == [], english_words(prose)


# --- the service ---------------------------------------------------------------------------------


@pytest.fixture(scope="module")
def http(tmp_path_factory: pytest.TempPathFactory):  # type: ignore[no-untyped-def]
    from fastapi.testclient import TestClient

    from deckcheck.service.app import create_app
    from deckcheck.service.settings import Settings

    db = tmp_path_factory.mktemp("replay") / "pool.sqlite3"
    with TestClient(create_app(Settings(db=db, job_games=500))) as client:
        yield client


def test_the_service_replays_the_game_the_cli_prints(http) -> None:  # type: ignore[no-untyped-def]
    deck = DECKS["vision"].read_text(encoding="utf-8")
    body = {"deck": deck, "game": 4, "seed": 9, "turns": 5, "on_play": False}
    answer = http.post("/goldfish/replay", json=body)
    assert answer.status_code == 200, answer.text
    data = answer.json()
    code, out = cli(
        str(DECKS["vision"]), "--replay", "4", "--seed", "9", "--turns", "5", "--on-draw", "--json"
    )
    assert code == 0
    local = json.loads(out)
    assert data["log"] == local["log"] and data["final"] == local["final"]
    assert [t["turn"] for t in data["log"]] == [0, 1, 2, 3, 4, 5]
    assert all({"action", "text"} == set(s) for t in data["log"] for s in t["steps"])
    ja = http.post("/goldfish/replay", json=body, headers={"Accept-Language": "ja"}).json()
    assert (
        ja["final"].startswith("ノード")
        and english_words(
            re.sub(r"「[^」]*」", " ", " ".join(s["text"] for t in ja["log"] for s in t["steps"]))
        )
        == []
    )


def test_a_replay_past_the_work_budget_is_422_before_playing(tmp_path: Path) -> None:
    """One game of a 50-card deck is 50 units of work (games × cards, as /goldfish counts it):
    over a budget of 10 it is refused, naming the limit."""
    from fastapi.testclient import TestClient

    from deckcheck.service.app import create_app
    from deckcheck.service.settings import Settings

    deck = DECKS["rakuen"].read_text(encoding="utf-8")
    settings = Settings(db=tmp_path / "pool.sqlite3", sync_work=10)
    with TestClient(create_app(settings)) as client:
        answer = client.post("/goldfish/replay", json={"deck": deck, "game": 1})
    assert answer.status_code == 422 and "DECKCHECK_SYNC_WORK" in answer.json()["detail"]


def test_the_service_refuses_a_game_past_its_runs(http) -> None:  # type: ignore[no-untyped-def]
    deck = DECKS["rakuen"].read_text(encoding="utf-8")
    over = http.post("/goldfish/replay", json={"deck": deck, "game": 501})
    assert over.status_code == 422 and "500" in over.json()["detail"]
    zero = http.post("/goldfish/replay", json={"deck": deck, "game": 0})
    assert zero.status_code == 422


def test_the_service_plays_the_reference_engine_when_asked(http) -> None:  # type: ignore[no-untyped-def]
    deck = DECKS["rakuen"].read_text(encoding="utf-8")
    body = {"deck": deck, "games": 30, "turns": 4, "seed": 2, "engine": "reference"}
    data = http.post("/goldfish", json=body).json()
    assert data["engine"] == "reference"
    code, out = cli(
        str(DECKS["rakuen"]),
        "--engine",
        "reference",
        "--games",
        "30",
        "--turns",
        "4",
        "--seed",
        "2",
        "--json",
    )
    assert code == 0 and json.loads(out)["milestones"] == data["milestones"]


def test_every_iris_redraw_is_told(tmp_path: Path) -> None:
    """A stacked iris deck, 2 units in 18 cards: about half the hands have no unit and are
    revealed, shuffled back and redrawn, as often as needed (あいりすミスティリア! 詳しい遊び方
    対戦の準備). The replay tells each redraw, and the last one holds a unit."""
    deck = tmp_path / "two-units.deck"
    deck.write_text(
        "format: iris-standard\n[main]\n2 SAMPLE-I-U01\n4 見本戦略 総攻撃\n4 見本戦略 補給\n"
        "4 見本戦術 奇襲\n4 見本戦術 防御陣形\n",
        encoding="utf-8",
    )
    for n in range(1, 40):
        code, out = cli(str(deck), "--replay", str(n), "--turns", "1", "--json")
        assert code == 0, out
        data = json.loads(out)
        told = [s["text"] for s in data["log"][0]["steps"] if s["action"] == "mulligan"]
        if data["mulligans"] >= 2:
            assert len(told) == data["mulligans"]
            assert all(t.startswith("mulligan: returns “") for t in told)
            assert "見本の騎士 アリシア" in told[-1].split("; draws ")[1]
            assert all("見本の騎士 アリシア" not in t.split("; draws ")[1] for t in told[:-1])
            return
        assert len(told) == 1 and (data["mulligans"] == 1) == told[0].startswith("mulligan")
    pytest.fail("no game of 39 redrew twice")
