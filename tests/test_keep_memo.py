"""The bottom mulligan's keeps are memoised in bytes, by small tuples of counts (issue 37, item
4c). The memo was an ``lru_cache`` of 65,536 entries keyed by the question's ``Problem``: a
bound on entries, not memory, and every cached keep kept its question's conditions alive."""

from __future__ import annotations

import gc
import weakref
from types import SimpleNamespace

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


def test_the_keeps_memo_stays_within_its_bytes() -> None:
    keep.clear_cache()
    asked = 40_000
    for i in range(asked):  # distinct questions: group signatures never seen before
        question = SimpleNamespace(sigs=(1, 2, 3 + 4 * i), demands=(1, 1))
        keep.kept_cards(question, (1, 1, 1))
    memo = keep._kept.memo
    assert 0 < memo.nbytes <= keep.KEEP_BYTES
    assert 0 < len(memo) < asked  # it started afresh when the next entry would pass it
