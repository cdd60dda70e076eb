"""The service's worker processes share the parent's objects (issue 35): forked with them out
of the cycle collector's reach (``deckcheck.forking.shared_on_fork``), a worker's full
collection copies none of the parent's pages. Measured as memory, never timed: with this
test's 400,000 lists in the parent, a worker held 3.5 MB of its own after a full collection,
and 64 MB when forked without the freeze (shared_on_fork replaced by a null context)."""

from __future__ import annotations

import gc

import psutil

from deckcheck.forking import shared_on_fork
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


def test_a_callers_own_freeze_is_kept() -> None:
    kept = object()
    gc.freeze()
    try:
        frozen = gc.get_freeze_count()
        with shared_on_fork():
            assert gc.get_freeze_count() == frozen
        assert gc.get_freeze_count() == frozen and kept is not None
    finally:
        gc.unfreeze()
