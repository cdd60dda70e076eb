"""The bottom mulligan's keeps are memoised in bytes, by small tuples of counts (issue 37, item
4c). The memo was an ``lru_cache`` of 65,536 entries keyed by the question's ``Problem``: a
bound on entries, not memory, and every cached keep kept its question's conditions alive."""

from __future__ import annotations

import gc
import weakref
from types import SimpleNamespace

import pytest

from deckcheck.odds import keep
from deckcheck.odds.conditions import parse_condition
from deckcheck.odds.exact import Problem


def test_a_cached_keep_holds_no_question_alive() -> None:
    condition = parse_condition("type:character>=2", "vision")
    problem = Problem((condition,), (5, 3), (1, 0), 30)
    assert keep.kept_cards(problem, (3, 2)) == (2, 0)  # two characters fill the slots
    gone = weakref.ref(problem)
    del problem
    gc.collect()
    assert gone() is None


def test_the_keeps_memo_stays_within_its_bytes(monkeypatch: pytest.MonkeyPatch) -> None:
    """The memos' bound made 256 KB (the service's is ``KEEP_BYTES``, 8 MB), so that 2,000
    questions fill them several times over where 40,000 were asked to fill 8 MB (issue 35)."""
    keep.clear_cache()
    bound = 256 << 10
    memos = (keep._kept.memo, keep._group_slots.memo)
    for memo in memos:
        monkeypatch.setattr(memo, "max_bytes", bound)
    asked = 2_000
    for i in range(asked):  # distinct questions: group signatures never seen before
        question = SimpleNamespace(sigs=(1, 2, 3 + 4 * i), demands=(1, 1))
        keep.kept_cards(question, (1, 1, 1))
    for memo in memos:
        assert 0 < memo.nbytes <= bound
        assert 0 < len(memo) < asked / 3  # it started afresh when the next entry would pass it
    keep.clear_cache()
