"""Resolved deck contents shared by the rule checks: slots (card × count) and small helpers."""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable, Iterator, Sequence
from dataclasses import dataclass, field
from types import EllipsisType
from typing import Protocol

from deckcheck import plugins
from deckcheck.checks.base import Check
from deckcheck.checks.copy_tables import Copies, LimitOverride, Match
from deckcheck.memo import str_bytes
from deckcheck.models import Card, CardCount, DeckList, Note, Severity, Violation
from deckcheck.normalize import nfkc, word_key
from deckcheck.plugins.contract import FormatView
from deckcheck.resolve import CardIndex, Resolution


class CheckedFormat(FormatView, Protocol):
    """A loaded format (``formats.Format``) as the checks read it: its id, game and tables
    (``CheckTable.of``), and the copy tables every card's facts depend on."""

    @property
    def copies(self) -> Copies: ...
    @property
    def limit_overrides(self) -> Sequence[LimitOverride]: ...


@dataclass(slots=True, frozen=True)
class CardFacts:
    """What the checks of one format need to know about one card, worked out once.

    ``limit``: the copy limit an override gives the card (-1: none, it is unlimited), or None
    when the format's general limit applies.
    """

    type: str
    copy_key: tuple[str, ...]
    override: LimitOverride | None
    limit: int | None
    # (column, word key) of each word in the card's list columns that its game's checks read
    # (``CardColumn.checked``) or the format's overrides match on (``Match.column``)
    column_words: frozenset[tuple[str, str]]
    keyword_keys: frozenset[str]


REFS_BYTES = 16 << 20  # per format: the reference memo's bound
NOTES_KEPT = 4096  # per format: the printing notes' memo (a note is under 1 KB: 4 MB at most)

# A resolved reference as the validator's loop reads it: the card, its facts, and the facts the
# loop needs for every line (its identity, type, copy key, whether it has column words, the
# printings it stands for),
# unpacked once per reference instead of looked up once per line.
Hit = tuple[Card, "CardFacts", int, str, tuple[str, ...], bool, int]


@dataclass(slots=True)
class FormatFacts:
    """Per-format memo of card facts; validating thousands of decks re-uses it."""

    fmt: CheckedFormat
    cards: dict[int, tuple[Card, CardFacts]] = field(default_factory=dict)
    # deck-list reference → what the validator's loop reads of it; valid for one index. Kept
    # apart so the loop's common case is one lookup. Bounded in bytes (``REFS_BYTES``): a
    # service sees endless references. Unknown references are not kept here: their
    # suggestions depend on the deck they are in (``suggest.per_deck``).
    refs: dict[str, Hit] = field(default_factory=dict)
    refs_bytes: int = 0
    _index: tuple[int, int] = (0, -1)
    # the checks of the registered check tables that apply to the format, worked out on first use
    checks: tuple[Callable[[Context, dict[str, int]], list[Violation]], ...] | None = None
    _index_ref: CardIndex | None = None
    # the printing notes made (``validate._picked``) by (id(card), line, copies, language):
    # building one is 7 µs, ten of them made a VISION deck's check 1.7 times as long; valid
    # for one index, at most ``NOTES_KEPT`` of a few hundred bytes each
    notes: dict[tuple[int, int | None, int, str], Note] = field(default_factory=dict)
    # the list columns whose words the card facts keep (``_column_words``), worked out once:
    # per card it was 6% of a batch's validation (cProfile of validate_bench)
    columns: tuple[str, ...] | None = None
    # the format's assumptions (``Format.assumptions``) by language, with the catalogue they
    # were worded from: 1.2 µs of each report (benchmarks/validate_bench.py)
    assumptions: dict[str, tuple[object, tuple[str, ...]]] = field(default_factory=dict)

    def refs_for(self, index: CardIndex) -> dict[str, Hit]:
        """The reference memo, emptied first if ``index`` is not the one it was built on."""
        stamp = (id(index), index.version)
        if stamp != self._index:
            self.refs.clear()
            self.refs_bytes = 0
            self.notes.clear()
            self._index = stamp
            self._index_ref = index  # keeps the id from being reused while memoised
        return self.refs

    def lookup(self, index: CardIndex, ref: str) -> Hit | Resolution:
        """Resolve ``ref`` and remember it (call after ``refs_for(index)``)."""
        found = index.resolve(self.fmt.game, ref)
        if found.card is None:
            return found
        size = str_bytes(ref)
        if self.refs_bytes + size > REFS_BYTES:
            self.refs.clear()
            self.refs_bytes = 0
        self.refs_bytes += size
        facts = self.of(found.card)
        hit = self.refs[ref] = (
            found.card,
            facts,
            id(found.card),
            facts.type,
            facts.copy_key,
            bool(facts.column_words),
            found.alike,
        )
        return hit

    def of(self, card: Card) -> CardFacts:
        hit = self.cards.get(id(card))
        if hit is None or hit[0] is not card:
            hit = (card, _facts(self.fmt, card))
            self.cards[id(card)] = hit
        return hit[1]


@dataclass(slots=True, eq=False)
class Slot:
    """``count`` copies of ``card`` in ``section``, first written on ``line``, with the
    format's facts about the card."""

    card: Card
    count: int
    line: int | None
    section: str
    facts: CardFacts


_MEMO: dict[int, FormatFacts] = {}


def format_facts(fmt: CheckedFormat) -> FormatFacts:
    memo = _MEMO.get(id(fmt))
    if memo is None or memo.fmt is not fmt:
        if len(_MEMO) > 64:  # formats are few; this only guards against leaks in long runs
            _MEMO.clear()
        memo = _MEMO[id(fmt)] = FormatFacts(fmt)
    return memo


def _copy_key(fmt: CheckedFormat, card: Card) -> tuple[str, ...]:
    key = fmt.copies.key
    if key == "name+type":
        groups = fmt.copies.type_groups
        group = next((g for g, types in groups.items() if card.type in types), card.type)
        return (plugins.name_key(fmt.game, card.name), group)
    if key != "name":  # a key the game adds (GameSpec.cards.copy_keys; the loader checked it)
        return (plugins.name_key(fmt.game, plugins.get(fmt.game).cards.copy_keys[key](card.name)),)
    return (plugins.name_key(fmt.game, card.name),)


_PATTERNS: dict[str, re.Pattern[str]] = {}


def _match(
    match: Match, words: frozenset[tuple[str, str]], keywords: tuple[str, ...]
) -> int | None:
    """None if ``match`` does not select the card; else the number a keyword pattern carries
    (0 for plain words)."""
    if match.column is not None:
        column, word = match.column
        return 0 if (column, word_key(word)) in words else None
    if match.keyword is not None:
        return 0 if word_key(match.keyword) in {word_key(k) for k in keywords} else None
    source = match.keyword_pattern or ""
    pattern = _PATTERNS.get(source) or _PATTERNS.setdefault(source, re.compile(source))
    for keyword in keywords:
        found = pattern.search(nfkc(keyword))
        if found:
            return int(found.group("n"))
    return None


_NONE: frozenset[str] = frozenset()
_NO_WORDS: frozenset[tuple[str, str]] = frozenset()


def copy_limit(fmt: CheckedFormat, card: Card) -> int | None:
    """The most copies of ``card`` a deck may hold under ``fmt``: the strictest override's limit
    (a keyword that limits its cards to 1: 1), else the format's (None: unlimited). Editors use
    it to offer only legal counts."""
    facts = _facts(fmt, card)
    general, limit = fmt.copies.limit, facts.limit
    if limit is None:
        return general
    if limit < 0:
        return None
    # as the copy check counts: a "same-name" override replaces the general limit, a
    # "matching" one limits its cards on top of it
    counts = facts.override.counts if facts.override is not None else "same-name"
    return limit if counts == "same-name" else min(limit, general)


def _facts(fmt: CheckedFormat, card: Card) -> CardFacts:
    words = _column_words(fmt, card)
    keywords = frozenset(word_key(k) for k in card.keywords) if card.keywords else _NONE
    # most cards carry no such word and no keyword, and then no override can select them: the
    # scan is skipped (validate_bench)
    best = _override(fmt, words, card.keywords) if words or keywords else None
    return CardFacts(
        type=card.type,
        copy_key=_copy_key(fmt, card),
        override=best[0] if best else None,
        limit=best[1] if best else None,
        column_words=words,
        keyword_keys=keywords,
    )


def _column_words(fmt: CheckedFormat, card: Card) -> frozenset[tuple[str, str]]:
    """(column, word key) of the words in the card's list columns that its game's checks read
    or the format's overrides match on."""
    memo = format_facts(fmt)
    columns = memo.columns
    if columns is None:
        spec = plugins.get(fmt.game)
        read = {c.name for c in spec.cards.columns if c.type == "list" and c.checked}
        read |= {o.match.column[0] for o in fmt.limit_overrides if o.match.column}
        columns = memo.columns = tuple(sorted(read))
    found = [(c, word_key(w)) for c in columns for w in card.items_of(c)]
    return frozenset(found) if found else _NO_WORDS


def _override(
    fmt: CheckedFormat, words: frozenset[tuple[str, str]], keywords: tuple[str, ...]
) -> tuple[LimitOverride, int] | None:
    """The override that limits the card, with its limit: the strictest numeric one;
    "unlimited" (-1) only where nothing limits it."""
    best: tuple[LimitOverride, int] | None = None
    for override in fmt.limit_overrides:
        hit = _match(override.match, words, keywords)
        if hit is None:
            continue
        if override.limit == "unlimited":
            limit = -1
        elif override.limit == "pattern":
            limit = hit
        else:
            limit = override.limit
        if best is None or (limit >= 0 and (best[1] < 0 or limit < best[1])):
            best = (override, limit)
    return best


@dataclass(slots=True)
class Context:
    """What every check sees: the format, the deck list, its resolved slots per section, and
    the format's memo of card facts."""

    fmt: CheckedFormat
    deck: DeckList
    slots: dict[str, list[Slot]]
    facts: FormatFacts
    # filled in the validator's one pass over the deck list
    counts: dict[str, int] = field(default_factory=dict)  # section → cards, as listed
    type_counts: dict[str, dict[str, int]] = field(default_factory=dict)  # section → type → n
    # the copy limit's groups: each copy key's first slot, and the slots of the keys that have
    # more than one (two printings of a name); most decks have none of those
    copy_firsts: dict[tuple[str, ...], Slot] = field(default_factory=dict)
    copy_shared: dict[tuple[str, ...], list[Slot]] = field(default_factory=dict)
    violations: list[Violation] = field(default_factory=list)
    # (line, card, printings, copies): a name that stands for printings legality treats alike,
    # and the card that was taken for them (``Resolution.alike``), at its first line
    picked: list[tuple[int | None, Card, int, int]] = field(default_factory=list)
    # some card has words in a list column (``CardFacts.column_words``): a check of such words
    # has nothing to do in a deck without
    has_words: bool = False

    def copy_groups(self) -> Iterator[list[Slot]]:
        """The slots counted together by the copy limit, one list per copy key."""
        shared = self.copy_shared
        for key, first in self.copy_firsts.items():
            yield shared.get(key) or [first]

    def count_types(self, sections: Iterable[str], types: Iterable[str]) -> int:
        tally = self.type_counts
        return sum(tally[s].get(t, 0) for s in sections if s in tally for t in types)

    def in_sections(self, sections: Iterable[str]) -> list[Slot]:
        return [slot for s in sections for slot in self.slots.get(s, ())]

    def section_line(self, section: str) -> int | None:
        return self.deck.section_lines.get(section, self.deck.first_line)


def total(slots: Iterable[Slot]) -> int:
    return sum(s.count for s in slots)


def first_line(slots: Iterable[Slot]) -> int | None:
    lines = [s.line for s in slots if s.line is not None]
    return min(lines) if lines else None


def card_counts(slots: Iterable[Slot]) -> list[CardCount]:
    return [CardCount(number=s.card.number, name=s.card.name, count=s.count) for s in slots]


def plural(n: int, word: str, words: str | None = None) -> str:
    return f"{n} {word if n == 1 else (words or word + 's')}"


def breach(
    rule: Check,
    message: str,
    slots: Sequence[Slot],
    fix: str | None,
    line: int | EllipsisType | None = ...,
    severity: Severity | None = None,
    section: str | None = None,
) -> Violation:
    """``rule`` broken by the cards of ``slots``: they are named, and the first of their lines
    is the violation's unless ``line`` is given; ``severity`` overrides the rule's."""
    return Violation(
        rule=rule.rule,
        severity=severity or rule.severity,
        message=message,
        section=section,
        cards=card_counts(slots),
        line=first_line(slots) if isinstance(line, EllipsisType) else line,
        source=rule.source,
        fix=fix,
    )

