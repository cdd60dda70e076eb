"""The service's memory comes back under distinct requests (issue 37, item 4d): 100 distinct
exact ``/odds`` and 500 ``/odds`` with hostile 95 KB ``keyword:`` values leave the resident
memory (RSS) of the service process and its worker processes within a stated bound. Before
issue 37, 20 such ``/odds`` grew the workers by 3 GB (the exact tables' ``lru_cache(4096)``)
and 3,600 keywords by 700 MB (the word keys'). Measured with psutil, never timed; the requests
are ``benchmarks/memory_load.py``'s, on a real server in this process (``serve_in_thread``).

Each memo is bounded at ``SMALL`` here, not at its shipped size: with the shipped sizes (112 MB
a process, 400 MB of growth allowed) a ``ByteMemo`` that never forgot grew 198 MB under 100
odds and 1,000 keywords and passed (issue 35). With ``SMALL`` and 500 keywords the bound is
102 MB (11 memos): the memos as shipped grew 38 MB; every memo never forgetting, 137 MB; the
word and title keys' alone, 110 MB (2026-12-04: the conditions are now checked against the
whole pool in the serving process, before the worker counts)."""

from __future__ import annotations

import gc
from collections import Counter
from pathlib import Path

import psutil
import pytest

from benchmarks.memory_load import distinct_odds, hostile_keywords, rss_mb
from deckcheck import plugins
from deckcheck.memo import ByteCached
from deckcheck.service.app import create_app
from deckcheck.service.settings import Settings
from tests.conftest import serve_in_thread

MB = 1 << 20
SMALL = MB  # each memo's bound in this test
SLACK = 64 * MB  # the allocator's own fragments, and a replaced worker's start-up


def small_memos(monkeypatch: pytest.MonkeyPatch) -> int:
    """Every byte-bounded memo of this process (the exact tables, the steps that build them,
    the mulligan keeps, the word and title keys) bounded at ``SMALL``, so that the request
    workers this process forks keep that bound too; how many there are. The games load
    first: a game's module may hold a memo of its own."""
    for game in plugins.ids():
        plugins.get(game)
    memos = [o.memo for o in gc.get_objects() if isinstance(o, ByteCached)]
    for memo in memos:
        monkeypatch.setattr(memo, "max_bytes", SMALL)
    return len(memos)


def test_distinct_odds_and_hostile_keywords_keep_the_memory_bounded(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    memos = small_memos(monkeypatch)
    assert memos >= 5  # at least the word key, three exact tables' and the keeps'
    settings = Settings(db=tmp_path / "pool.sqlite3", warm=False)
    service = create_app(settings)
    me = psutil.Process()
    with serve_in_thread(service) as port:
        url = f"http://127.0.0.1:{port}"
        assert distinct_odds(url, 2) == Counter({200: 2})  # the request workers start
        before = rss_mb(me)
        assert distinct_odds(url, 100) == Counter({200: 100})
        after_odds = rss_mb(me)
        assert hostile_keywords(url, 500) == Counter({422: 500})
        after_keywords = rss_mb(me)
    bound = ((1 + settings.workers) * memos * SMALL + SLACK) / 1e6  # the service and each worker
    grown = max(after_odds, after_keywords) - before  # MB, as rss_mb gives them
    assert grown < bound, (
        f"RSS {before:.0f} MB, after 100 exact /odds {after_odds:.0f} MB, after 500 "
        f"keywords {after_keywords:.0f} MB; bound: {bound:.0f} MB of growth"
    )
