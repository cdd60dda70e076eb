""""Did you mean" names for unknown cards, from an index, capped per deck and within a budget.

Scoring every unknown reference against every name of a 20,000-card pool cost 2 ms a name:
a deck of 499 near-miss names held the service's event loop for half a second (issue 24,
item 1). Now:

- ``NameIndex`` (built once per name table, that is once per pool version) keeps, for each
  character bigram of the name keys (padded, so a name's first and last characters count too),
  the names that have it. A reference's candidates are the names sharing its rarest bigrams,
  at most ``SCAN`` postings read and ``CANDIDATES`` names scored by rapidfuzz: the work of one
  suggestion is bounded whatever the pool's size.
- ``Allowance``: within ``per_deck(n)``, only the first ``n`` unknown names of a deck get
  suggestions; the rest are reported without them (``Resolution.capped``).
- ``check_work``: the work a deck's suggestions will take (postings read and names scored, known
  from the index before any of it is done); past ``WORK_LIMIT`` it is a ``SuggestLimit``
  (422 in the service, exit status 2 in the CLI) naming the limit.

The bigram filter is deckcheck's reading of "close": a name sharing none of a reference's
rarer bigrams is not suggested, even if rapidfuzz would score it over the cutoff.

A reference that is one whole part of a name (the name split at its spaces and ・) is
suggested that name first: players write a character's given name alone (レティ for
レティ・ホワイトロック), which is too short for the ratio's cutoff (issue 22, item 8;
deckcheck's reading, outside the rulebooks).
"""

from __future__ import annotations

import re
import sys
from collections import Counter
from collections.abc import Sequence
from contextvars import ContextVar
from dataclasses import dataclass, field

from rapidfuzz import fuzz, process

from deckcheck.errors import UsageError
from deckcheck.i18n import _
from deckcheck.memo import ENTRY, byte_cache
from deckcheck.normalize import nfkc

LIMIT = 3  # suggestions per unknown name
CUTOFF = 60.0  # difflib's 0.6: rapidfuzz's ratio is the same similarity, in percent
SCAN = 4_000  # postings read for one name, at most
CANDIDATES = 400  # names scored for one name, at most
NAMES = 20  # unknown names of one deck that get suggestions, by default
WORK_LIMIT = 100_000  # postings read + names scored for one deck; NAMES × (SCAN + CANDIDATES) fit


class SuggestLimit(UsageError):
    """The suggestions asked for would take more work than ``WORK_LIMIT``."""

    def __init__(self, message: str, limit: int) -> None:
        super().__init__(message)
        self.limit = limit


_PARTS = re.compile(r"[\s・=]+")  # between the parts of a name, after NFKC (･ is ・ then)


def _parts(name: str) -> list[str]:
    """The parts of a display name a player may write alone: two or more, each not a number."""
    parts = [p for p in _PARTS.split(nfkc(name).casefold()) if p and not p.isdigit()]
    return parts if len(parts) > 1 else []


def _grams(key: str) -> set[str]:
    padded = f"\x02{key}\x03"
    return {padded[i : i + 2] for i in range(len(padded) - 1)}


class NameIndex:
    """The keys of one name table (key → display name) by their bigrams."""

    def __init__(self, names: dict[str, str]) -> None:
        self.names = names
        self.keys = list(names)
        postings: dict[str, list[int]] = {}
        for i, key in enumerate(self.keys):
            for gram in _grams(key):
                bucket = postings.get(gram)
                if bucket is None:
                    postings[gram] = [i]
                else:
                    bucket.append(i)
        self.postings = postings
        parts: dict[str, list[int]] = {}  # a part of a name → the names that have it
        for i, key in enumerate(self.keys):
            for part in dict.fromkeys(_parts(names[key])):
                parts.setdefault(part, []).append(i)
        self.parts = parts
        self.longest = max(map(len, self.keys), default=0)

    def _may_score(self, key: str) -> bool:
        """Whether any name could reach ``CUTOFF`` against ``key``. The Indel distance of two
        strings is at least the difference of their lengths, so ``fuzz.ratio`` is at most
        200·m/(n + m) for lengths n ≥ m: a key over about 2.3 times the longest name's length
        matches none, and is not split into bigrams (an odds ``keyword:`` of 96 KB took 11 ms
        to come back with nothing)."""
        return 200 * self.longest >= CUTOFF * (len(key) + self.longest)

    def _lists(self, key: str) -> list[list[int]]:
        """The postings of ``key``'s rarest bigrams, at most ``SCAN`` entries in all."""
        if not self._may_score(key):
            return []
        found = sorted(
            (p for p in map(self.postings.get, _grams(key)) if p), key=len
        )
        chosen: list[list[int]] = []
        read = 0
        for postings in found:
            if read + len(postings) > SCAN:
                if not chosen:  # every bigram is common: read the first SCAN of the rarest
                    chosen.append(postings[:SCAN])
                break
            chosen.append(postings)
            read += len(postings)
        return chosen

    def work(self, key: str) -> int:
        """Postings read and names scored to suggest for ``key`` (nothing is scored here)."""
        read = sum(len(p) for p in self._lists(key))
        return read + min(read, CANDIDATES)

    def close(self, key: str) -> list[str]:
        """Up to ``LIMIT`` display names most like ``key``, best first: the names ``key`` is a
        whole part of (in the pool's order), then the closest by ratio."""
        whole = [self.keys[i] for i in self.parts.get(key, ())[:LIMIT]]
        shared: Counter[int] = Counter()
        for postings in self._lists(key):
            shared.update(postings)
        # the pool's order among equals, as scoring every name kept it
        picked = sorted(i for i, _ in shared.most_common(CANDIDATES))
        keys = self.keys
        found = process.extract(
            key, [keys[i] for i in picked], scorer=fuzz.ratio, limit=LIMIT, score_cutoff=CUTOFF
        )
        close = [choice for choice, _, _ in found if choice not in whole]
        return [self.names[k] for k in (whole + close)[:LIMIT]]

    def nbytes(self) -> int:
        """About the memory the index holds besides the name table."""
        per_entry = 8 + 28  # a list slot and, at worst, an int of its own
        return sum(
            sys.getsizeof(g) + sys.getsizeof(p) + per_entry * len(p)
            for table in (self.postings, self.parts)
            for g, p in table.items()
        ) + sys.getsizeof(self.keys)


# Name indexes by their name tables: a service builds one per game at every start and after
# every change of its pool, most often from the table it had (VISION's 1,619 names: 12.5 ms
# and 1.75 MB; a suite run starts services 143 times, issue 35). An index is only read once
# built, so equal tables share one.
INDEX_BYTES = 16 << 20


def _index_bytes(args: tuple[tuple[tuple[str, str], ...]], index: NameIndex) -> int:
    return index.nbytes() + sys.getsizeof(args[0]) + ENTRY


@byte_cache(INDEX_BYTES, _index_bytes)
def _index_of(table: tuple[tuple[str, str], ...]) -> NameIndex:
    return NameIndex(dict(table))


def name_index(names: dict[str, str]) -> NameIndex:
    """``NameIndex(names)``, or the one already built from an equal table."""
    return _index_of(tuple(names.items()))


@dataclass(slots=True)
class Allowance:
    """How many more unknown names of the current deck may get suggestions."""

    names: int
    left: int
    given: set[str] = field(default_factory=set)

    def take(self, key: str) -> bool:
        if key in self.given:
            return True
        if self.left <= 0:
            return False
        self.left -= 1
        self.given.add(key)
        return True


_allowance: ContextVar[Allowance | None] = ContextVar("suggest_allowance", default=None)


def allowance() -> Allowance | None:
    return _allowance.get()


class _PerDeck:
    """``per_deck``'s block: a class, not a ``contextmanager`` generator, because a folder
    of lists enters one per deck (0.5 µs against 1.3 µs a deck; benchmarks/validate_bench.py)."""

    __slots__ = ("names", "token")

    def __init__(self, names: int) -> None:
        self.names = names

    def __enter__(self) -> Allowance:
        current = Allowance(self.names, self.names)
        self.token = _allowance.set(current)
        return current

    def __exit__(self, *exc: object) -> None:
        _allowance.reset(self.token)


def per_deck(names: int = NAMES) -> _PerDeck:
    """Within the block, only the first ``names`` unknown names get suggestions."""
    return _PerDeck(names)


def check_work(index: NameIndex, keys: Sequence[str], limit: int = WORK_LIMIT) -> int:
    """The work suggestions for ``keys`` take; a ``SuggestLimit`` past ``limit``."""
    work = sum(index.work(k) for k in dict.fromkeys(keys))
    if work > limit:
        raise SuggestLimit(
            _(
                "suggestions for {n} unknown names would compare {work} names, over the limit "
                "of {limit}: ask for suggestions for fewer names",
                n=len(set(keys)),
                work=f"{work:,}",
                limit=f"{limit:,}",
            ),
            limit,
        )
    return work
