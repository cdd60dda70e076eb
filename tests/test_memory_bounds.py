"""Memos on a request path are bounded in bytes (issue 37, item 2): the exact engine's tables
(``odds/exact.py``, ``lru_cache(4096)`` of NumPy arrays: 20 distinct exact ``/odds`` grew the
workers from 412 MB to 3.4 GB) and the word and title keys (``lru_cache(4096)`` of strings:
3,600 ``/odds`` with 95 KB ``keyword:`` values grew them by 700 MB). Memory is measured with
tracemalloc (what stays allocated after the calls), never timed."""

from __future__ import annotations

import gc
import tracemalloc
from collections.abc import Callable

import pytest

from deckcheck import normalize
from deckcheck.games.chaos.titles import title_key  # a game's key, memoised by normalize.text_memo
from deckcheck.odds import exact, tables

MB = 1 << 20


def _retained(work: Callable[[], None]) -> int:
    """Bytes still allocated once ``work`` has run (its garbage collected)."""
    gc.collect()
    tracemalloc.start()
    try:
        before = tracemalloc.get_traced_memory()[0]
        work()
        gc.collect()
        return tracemalloc.get_traced_memory()[0] - before
    finally:
        tracemalloc.stop()


def test_a_hundred_hostile_keywords_keep_at_most_the_budget() -> None:
    """Each word and its key take about 380 KB of a memo's 4 MB (``KEY_BYTES``): 100 of them
    fill each memo ten times over, as the 1,000 this test sent until issue 35 did a hundred
    times (6 of the suite's CPU-s, the same bound held)."""
    normalize.word_key.cache_clear()
    title_key.cache_clear()

    def hostile() -> None:
        for i in range(100):
            word = f"{i:04d}" + "語" * 95_000  # a 95 KB keyword: value of one request
            normalize.word_key(word)
            title_key(word)

    kept = _retained(hostile)
    # before: 100 × (the word + its key) × 2 memos, about 76 MB
    assert kept < 2 * normalize.KEY_BYTES + MB
    assert normalize.word_key.memo.nbytes <= normalize.KEY_BYTES
    assert title_key.memo.nbytes <= normalize.KEY_BYTES
    assert normalize.word_key("[TST ゲージ]") == "tstゲージ"  # still the same keys


def test_a_hundred_distinct_exact_tables_keep_at_most_the_budget(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """100 distinct questions of 1.6 MB tables each; the budget made 8 MB so the test stays
    small (the service's is ``PREFIX_BYTES``)."""
    exact.clear_caches()
    monkeypatch.setattr(tables.prefix.memo, "max_bytes", 8 * MB)

    def questions() -> None:
        for i in range(100):  # distinct group sizes: each a question no other asked
            sizes = (4 + i % 7, 3 + i // 7 % 5, 2 + i // 35, 4, 4, 5 + i)
            tables.table(sizes, (4,) * 6, 20 + i, 12)

    kept = _retained(questions)
    # before: every prefix of every question, over 200 MB
    assert kept < 8 * MB + 2 * tables.STEP_BYTES + MB
    assert tables.prefix.memo.nbytes <= 8 * MB
    # the memo gives the table the computation gives
    again = tables.table((4, 3, 2, 4, 4, 5), (4,) * 6, 20, 12)
    exact.clear_caches()
    assert (tables.table((4, 3, 2, 4, 4, 5), (4,) * 6, 20, 12) == again).all()
