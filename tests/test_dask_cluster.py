"""The same numbers on a real Dask cluster (a scheduler and two worker processes) as
in-process: ``deckcheck sweep --scheduler``, ``deckcheck tune --scheduler`` and the service's
jobs under ``DECKCHECK_DASK_SCHEDULER``. One test, a subtest each, so that one pytest worker
starts one cluster for the three (as three tests, pytest-xdist's work stealing could hand them
to different workers, each starting its own)."""

from __future__ import annotations

from pathlib import Path

import pytest
from fastapi.testclient import TestClient

from deckcheck.service.app import create_app
from deckcheck.service.settings import Settings
from tests.test_jobs import IRIS, SWEEP, _done, _result
from tests.test_sweep import RAKUEN, _sweep
from tests.test_tune import _tune, _vision_deck


def _sweep_agrees(tmp_path: Path, scheduler: str) -> None:
    # variants whose games differ (the deck's copies), so that a chunk gathered into another
    # variant changes its numbers: the luck_drive policy and the side, varied here before,
    # gave all four the same milestones, and a cluster that reversed the chunks passed
    args = [
        RAKUEN,
        "--vary",
        "name:SAMPLE-R-007=3..4",
        "--fill",
        "SAMPLE-R-T01",
        "--side",
        "both",
        "--games",
        "10000",  # two chunks of 5,000 a variant: 8 tasks over the two workers
        "--turns",
        "6",
        "--seed",
        "7",
        "-w",
        "type:paradox>=1",
    ]
    local = _sweep(tmp_path, *args)
    remote = _sweep(tmp_path, *args, "--scheduler", scheduler)
    assert len(local["variants"]) == 4 and all(v["legal"] for v in local["variants"])
    three, four = local["variants"][0], local["variants"][-1]
    assert three["milestones"] != four["milestones"]  # a misplaced chunk shows
    assert remote == local  # bit for bit: chunks gathered in variant and game order


def _tune_agrees(tmp_path: Path, scheduler: str) -> None:
    deck = str(_vision_deck(tmp_path))
    args = [deck, "--milestone", "first_character", "--by", "2", "--max-changes", "1"]
    args += ["--want", "type:キャラクター>=1", "--turn", "1", "--weight", "0.5", "--weight", "0.5"]
    args += ["--games", "2000", "--seed", "11"]
    local = _tune(tmp_path, *args)
    assert local["method"] == "raced"
    assert _tune(tmp_path, *args, "--workers", "2") == local
    assert _tune(tmp_path, *args, "--scheduler", scheduler) == local


def _jobs_agree(tmp_path: Path, scheduler: str) -> None:
    settings = {"db": tmp_path / "pool.sqlite3", "sync_games": 10, "workers": 1}
    pooled = create_app(Settings(**settings))  # type: ignore[arg-type]
    clustered = create_app(Settings(**settings, dask_scheduler=scheduler))  # type: ignore[arg-type]
    goldfish = {"deck": IRIS, "games": 9000, "turns": 5, "seed": 11}
    sweep = {**SWEEP, "vary": ["name:SAMPLE-R-007=3..4"], "games": 4000}
    results = []
    for app in (pooled, clustered):
        with TestClient(app) as http:
            jobs = [http.post("/goldfish", json=goldfish), http.post("/sweeps", json=sweep)]
            assert [j.status_code for j in jobs] == [202, 202], [j.text for j in jobs]
            results.append([_result(http, _done(http, j.headers["location"])) for j in jobs])
    assert clustered.state.jobs.workers.pool is None  # no game was played in the service's pools
    assert clustered.state.workers.pool is None
    assert results[1] == results[0]  # same chunks, gathered in order: bit for bit
    assert results[1][0]["games"] == 9000 and len(results[1][1]["variants"]) == 2


def test_a_dask_cluster_gives_the_in_process_numbers(
    tmp_path: Path, scheduler: str, subtests: pytest.Subtests
) -> None:
    for name, check in (
        ("deckcheck sweep --scheduler", _sweep_agrees),
        ("deckcheck tune --scheduler", _tune_agrees),
        ("the service's jobs on the cluster", _jobs_agree),
    ):
        with subtests.test(msg=name):
            folder = tmp_path / check.__name__.strip("_")
            folder.mkdir()
            check(folder, scheduler)
