"""The service's worker processes share the parent's objects (issue 35): forked with them out
of the cycle collector's reach (``deckcheck.forking.shared_on_fork``), a worker's full
collection copies none of the parent's pages. Measured as memory, never timed: with this
test's 400,000 lists in the parent, a worker held 3.5 MB of its own after a full collection,
and 64 MB when forked without the freeze (shared_on_fork replaced by a null context). And the
service keeps what its start-up built out of full collections for its whole life."""

from __future__ import annotations

import gc
from pathlib import Path

import psutil
from fastapi.testclient import TestClient

from deckcheck.forking import shared_on_fork
from deckcheck.service.app import create_app
from deckcheck.service.settings import Settings
from deckcheck.service.workers import Workers

MB = 1 << 20


def private_after_a_collection() -> tuple[int, int]:
    """In a worker: its own memory (USS: pages no other process shares) after a full
    collection, and how many objects it holds frozen."""
    gc.collect()
    return psutil.Process().memory_full_info().uss, gc.get_freeze_count()


def test_a_worker_collects_without_copying_the_parents_objects() -> None:
    heap = [[i] for i in range(400_000)]  # lists: objects the collector tracks
    workers = Workers(1, 0)
    workers.start()
    try:
        private, frozen = workers.submit(private_after_a_collection).result()
        assert frozen >= len(heap)  # the worker holds the parent's objects frozen
        assert private < 20 * MB, f"{private / MB:.0f} MB of the worker's own"
        assert gc.get_freeze_count() == 0  # and the service's collector sees its own again
        # only the first task forks: a later one leaves the service's objects alone
        assert workers.submit(gc.get_freeze_count).result() == frozen
        assert gc.get_freeze_count() == 0
    finally:
        assert workers.pool is not None
        workers.pool.shutdown()
    del heap


def _collected(obj: object) -> bool:
    """Whether the collector can reach ``obj``: ``gc.get_objects`` leaves the frozen out."""
    return any(o is obj for o in gc.get_objects())


def test_a_callers_own_freeze_is_kept() -> None:
    """By one object of the caller's, not by the frozen count: another thread of the worker
    that frees a frozen object lowers the count meanwhile (a fresh-clone run, 2026-12-03:
    628,902 frozen before, 628,785 after)."""
    kept: list[int] = []  # a list: an object the collector tracks
    gc.freeze()
    try:
        assert not _collected(kept)
        with shared_on_fork():
            assert not _collected(kept)
        assert not _collected(kept)  # still frozen: shared_on_fork left the caller's freeze
    finally:
        gc.unfreeze()
    assert _collected(kept)  # the check can see an object come back


def test_the_service_keeps_what_start_up_built_out_of_full_collections(tmp_path: Path) -> None:
    """The card index lives as long as the service. Scanned by every full collection, it and
    the modules (some 120,000 objects) made each one a 90 ms pause under load: the whole of
    /validate's p99 over its p50 (benchmarks/load.py, 16 clients: p99 82-110 ms before, 24-43
    ms after). Measured as reach, never timed: frozen while the service runs, back after."""
    app = create_app(Settings(db=tmp_path / "pool.sqlite3", check_processes=0))
    with TestClient(app) as http:
        assert http.get("/health").status_code == 200
        index = app.state.cards.cache.index()
        assert not _collected(index)
    assert _collected(index)  # the test's process is left as it was
