"""The service's memory comes back under distinct requests (issue 37, item 4d): 100 distinct
exact ``/odds`` and 1,000 ``/odds`` with hostile 95 KB ``keyword:`` values leave the resident
memory (RSS) of the service process and its worker processes within a stated bound. Before
issue 37, 20 such ``/odds`` grew the workers by 3 GB (the exact tables' ``lru_cache(4096)``)
and 3,600 keywords by 700 MB (the word keys'). Measured with psutil, never timed; the requests
are ``benchmarks/memory_load.py``'s, on a real server in this process (``serve_in_thread``)."""

from __future__ import annotations

from collections import Counter
from pathlib import Path

import psutil

from benchmarks.memory_load import distinct_odds, hostile_keywords, rss_mb
from deckcheck import normalize
from deckcheck.odds import exact, keep
from deckcheck.service.app import create_app
from deckcheck.service.settings import Settings
from tests.conftest import serve_in_thread

MB = 1 << 20
# What the memos on the odds path may hold, per process: the exact tables, the steps that
# build them, the mulligan keeps and the word and title keys.
MEMOS = exact.PREFIX_BYTES + 2 * exact.STEP_BYTES + keep.KEEP_BYTES + 2 * normalize.KEY_BYTES
SLACK = 64 * MB  # the allocator's own fragments, and a replaced worker's start-up


def test_distinct_odds_and_hostile_keywords_keep_the_memory_bounded(tmp_path: Path) -> None:
    settings = Settings(db=tmp_path / "pool.sqlite3", warm=False)
    service = create_app(settings)
    me = psutil.Process()
    with serve_in_thread(service) as port:
        url = f"http://127.0.0.1:{port}"
        assert distinct_odds(url, 2) == Counter({200: 2})  # the request workers start
        before = rss_mb(me)
        assert distinct_odds(url, 100) == Counter({200: 100})
        after_odds = rss_mb(me)
        assert hostile_keywords(url, 1_000) == Counter({422: 1_000})
        after_keywords = rss_mb(me)
    bound = ((1 + settings.workers) * MEMOS + SLACK) / 1e6  # the service and each worker
    grown = max(after_odds, after_keywords) - before  # MB, as rss_mb gives them
    assert grown < bound, (
        f"RSS {before:.0f} MB, after 100 exact /odds {after_odds:.0f} MB, after 1,000 "
        f"keywords {after_keywords:.0f} MB; bound: {bound:.0f} MB of growth"
    )
