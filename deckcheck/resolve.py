"""Resolving deck-list references (card numbers or names) against the pool, in memory.

``CardIndex`` is the pure, in-memory view the validator works on; the SQLite store builds one
holding just the cards a batch of decks refers to, so validating one deck never loads the
whole pool.
"""

from __future__ import annotations

import re
import threading
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field

from deckcheck import plugins, suggest
from deckcheck.collector import paused_gc
from deckcheck.decklist.parts import MAX_REF
from deckcheck.memo import ByteMemo, str_bytes
from deckcheck.models import Card, Game
from deckcheck.normalize import loose_name_key, nfkc
from deckcheck.plugins import name_key

NameSource = Callable[[Game], dict[str, str]]
# Bytes, not entries (issue 24, item 4); each memo holds what resolving again would find.
MEMO_BYTES = 32 << 20
SUGGEST_BYTES = 8 << 20
# MAX_REF: the deck readers report a longer reference (deck/syntax); the index never
# normalises, memoises or compares one either.


_NUMBERED = re.compile(r"\s*[,，、]\s*|\s+")  # between a number and a name
_OPEN, _CLOSE = "(（[［【<＜", ")）]］】>＞"
_OPENS, _CLOSES = re.escape(_OPEN), re.escape(_CLOSE)
# ``[N30] NAME``; ``NAME (N30)``, ``NAME【N30】`` and ``NAME N30`` are split by hand (a pattern
# with the name before the number rescans the text from every position: tests/test_regex_time)
_BEFORE = re.compile(
    rf"^[{_OPENS}](?P<number>[^\s{_OPENS}{_CLOSES}]+)[{_CLOSES}]\s*(?P<name>\S.*)$"
)


def numbered_parts(ref: str) -> tuple[str, str] | None:
    """``048 NAME`` or ``048,NAME`` as (number, name); None for a single word."""
    head, _, tail = _NUMBERED.sub(" ", ref.strip(), count=1).partition(" ")
    return (head, tail.strip()) if tail.strip() else None


def numbered_forms(ref: str) -> list[tuple[str, str]]:
    """Every (number, name) a reference may be read as, the number in front first
    (``numbered_parts``), then a bracketed number after or before the name, then a last word
    after it, after a space or a comma. A reading counts only where its number is a card's
    and the name that card's."""
    text = ref.strip()
    first = numbered_parts(text)
    forms = [first] if first is not None else []
    if text[-1:] in _CLOSE:  # NAME (N30): the last opening bracket to the end
        start = max(text.rfind(c) for c in _OPEN)
        number, name = text[start + 1 : -1], text[:start].strip()
        if start > 0 and name and number and not any(c.isspace() for c in number):
            forms.append((number, name))
    found = _BEFORE.match(text)
    if found is not None:
        forms.append((found["number"], found["name"].strip()))
    words = text.rsplit(maxsplit=1)  # NAME N30
    if len(words) == 2:
        forms.append((words[1], words[0]))
    cut = max(text.rfind(c) for c in ",，、")  # NAME,N30: a sheet's columns
    number = text[cut + 1 :].strip()
    if cut > 0 and number and not any(c.isspace() for c in number):
        forms.append((number, text[:cut].strip()))
    return forms


def number_key(number: str) -> str:
    """Card numbers compare in any width and case: ``ｃｈ-００１`` finds ``CH-001``."""
    return nfkc(number).upper()


def ref_keys(ref: str) -> set[str]:
    """Every name key ``ref`` may have in some game (a game's names may ignore spaces)."""
    return {name_key(game, ref) for game in plugins.ids()}


@dataclass(slots=True)
class Resolution:
    card: Card | None = None
    ambiguous: list[Card] = field(default_factory=list)
    other_game: list[Card] = field(default_factory=list)
    suggestions: list[str] = field(default_factory=list)
    unknown: bool = False  # no card of any game: suggestions are looked for
    capped: int = 0  # unknown, and past the first ``capped`` names of its deck that get them
    # the card name the reference means when it matched no name as written, only one name
    # without spaces, quotes or brackets (normalize.loose_name_key): deck fix writes it
    spelling: str | None = None
    # no card as the index shows them, but a sample card it hides (pool.samples): the name
    # of a made-up card in a game whose pool holds real ones
    sample: Card | None = None
    # the name stands for this many printings that legality treats alike (``_signature``):
    # ``card``, the lowest number, stands for them all; 0 when the reference names one card
    alike: int = 0


_UNKNOWN = Resolution(unknown=True)


def _resolution_bytes(key: tuple[Game, str], value: Resolution) -> int:
    return str_bytes(key[1]) + 8 * (len(value.ambiguous) + len(value.other_game))


def _names_bytes(key: tuple[Game, str], value: list[str]) -> int:
    return str_bytes(key[1], *value)


def _signature(card: Card) -> tuple[object, ...]:
    """What legality depends on. Printings of one name that agree on it are interchangeable, so a
    name matching several of them is not ambiguous (the lowest number stands for them)."""
    columns = plugins.get(card.game).cards.columns
    checked = tuple(card.extra.get(c.name) for c in columns if c.checked)
    return (card.type, card.kind, card.keywords, checked)


def _by_name(matches: list[Card]) -> Resolution:
    if len({_signature(c) for c in matches}) == 1:
        return Resolution(card=matches[0], alike=len(matches) if len(matches) > 1 else 0)
    return Resolution(ambiguous=list(matches))


def _number_of(card: Card) -> str:
    return card.number


class CardIndex:
    """Cards by (game, number key), (game, alias key) and (game, name key). A card's own number
    wins over another card's alias."""

    def __init__(self, cards: Iterable[Card] = (), names: NameSource | None = None) -> None:
        self.by_number: dict[tuple[Game, str], Card] = {}
        self.by_alias: dict[tuple[Game, str], Card] = {}
        self.by_name: dict[tuple[Game, str], list[Card]] = {}
        # (game, loose key) → the name keys that have it; one name key: the reference's name
        self.by_loose: dict[tuple[Game, str], set[str]] = {}
        # sample cards hidden from name resolution (pool.samples.visible), by (game, name key)
        self.hidden: dict[tuple[Game, str], Card] = {}
        self.hidden_numbers: dict[tuple[Game, str], Card] = {}  # by number they still resolve
        self._revealed: CardIndex | None = None
        self._names = names
        self._name_cache: dict[Game, dict[str, str]] = {}
        self._name_index: dict[Game, suggest.NameIndex] = {}
        self._memo: ByteMemo[tuple[Game, str], Resolution] = ByteMemo(
            MEMO_BYTES, _resolution_bytes
        )
        self._suggested: ByteMemo[tuple[Game, str], list[str]] = ByteMemo(
            SUGGEST_BYTES, _names_bytes
        )
        self.version = 0  # bumped on every change, so memos built on this index can expire
        # (game, column) → its values among the whole pool's cards, once looked up
        # (pool/vocabulary.py); a subset carries them, since it holds only part of the pool
        self.values: dict[tuple[Game, str], set[str]] = {}
        # a game's cards are indexed when a reference first asks for that game: validating
        # one game's decks against a pool of four games indexes only that game (validate_bench)
        self._cards = list(cards)
        self._indexed: set[Game] = set()
        self._lock = threading.Lock()

    def __getstate__(self) -> dict[str, object]:  # indexes go to worker processes
        state = self.__dict__.copy()
        del state["_lock"]
        return state

    def __setstate__(self, state: dict[str, object]) -> None:
        self.__dict__.update(state)
        self._lock = threading.Lock()

    def _index(self, game: Game) -> None:
        """Index ``game``'s cards if that has not been done yet. The service's threads share
        one index: a game joins ``_indexed`` only once all its cards are in the tables."""
        if game in self._indexed:
            return
        with self._lock:
            if game not in self._indexed:
                self._fill(game, [card for card in self._cards if card.game == game])
                self._indexed.add(game)

    def _fill(self, game: Game, cards: list[Card]) -> None:
        # building makes tens of thousands of small objects and no cycles: the cycle collector
        # would only rescan the heap (measured in validate_bench)
        with paused_gc():
            by_name = self.by_name
            shared: list[list[Card]] = []  # the names with more than one printing
            for card in cards:  # as add(), with each name's printings sorted once at the end
                self.by_number[(game, number_key(card.number))] = card
                for alias in card.aliases:
                    self.by_alias[(game, number_key(alias))] = card
                key = (game, name_key(game, card.name))
                self._loosely(game, card.name, key[1])
                bucket = by_name.get(key)
                if bucket is None:
                    by_name[key] = [card]
                else:
                    bucket.append(card)
                    shared.append(bucket)
            for bucket in {id(b): b for b in shared}.values():
                bucket.sort(key=_number_of)

    def add(self, card: Card) -> None:
        self._index(card.game)
        self.by_number[(card.game, number_key(card.number))] = card
        for alias in card.aliases:
            self.by_alias[(card.game, number_key(alias))] = card
        key = name_key(card.game, card.name)
        self._loosely(card.game, card.name, key)
        bucket = self.by_name.setdefault((card.game, key), [])
        bucket.append(card)
        bucket.sort(key=_number_of)
        self._memo.clear()
        self._suggested.clear()
        self._name_cache.pop(card.game, None)
        self._name_index.pop(card.game, None)
        self.values = {k: v for k, v in self.values.items() if k[0] != card.game}
        self.version += 1

    def _loosely(self, game: Game, name: str, key: str) -> None:
        loose = (game, loose_name_key(name))
        keys = self.by_loose.get(loose)
        if keys is None:
            self.by_loose[loose] = {key}
        else:
            keys.add(key)

    def hide(self, cards: Iterable[Card]) -> None:
        """Know ``cards`` (samples a game with real cards hides) by number, as any card, but by
        name only to say so when a deck names one (``Resolution.sample``), or ``revealed``."""
        for card in cards:
            self.hidden.setdefault((card.game, name_key(card.game, card.name)), card)
            self.hidden_numbers[(card.game, number_key(card.number))] = card
        self._memo.clear()
        self._revealed = None

    def revealed(self) -> CardIndex:
        """This index with its hidden samples resolving as cards: for a deck list that allows
        them (``samples: yes``, ``validate --samples``). Built once."""
        if not self.hidden:
            return self
        if self._revealed is None:
            for game in {card.game for card in self._cards}:
                self._index(game)
            known = {(c.game, c.number) for c in self._cards}
            extra = [c for c in self.hidden.values() if (c.game, c.number) not in known]
            self._revealed = CardIndex([*self._cards, *extra], self._names)
        return self._revealed

    def subset(self, game: Game, refs: Iterable[str], *extra: Card) -> CardIndex:
        """The cards ``refs`` may mean (and ``extra``), as a small index of their own: cheap to
        send to a worker, and this index (shared by every request) is left as it is. No
        suggestions: whoever uses it reports unknown cards. It keeps the column values this
        index has looked up (``values``): they are the whole pool's."""
        cards: dict[tuple[Game, str], Card] = {}
        samples: list[Card] = []
        for ref in refs:
            found = self.found(game, ref)
            for card in [found.card, *found.ambiguous, *found.other_game]:
                if card is not None:
                    cards[(card.game, card.number)] = card
            if found.sample is not None:
                samples.append(found.sample)
        small = CardIndex([*cards.values(), *extra])
        small.hide(samples)
        small.values = {k: v for k, v in self.values.items() if k[0] == game}
        return small

    def __len__(self) -> int:
        for game in {card.game for card in self._cards}:
            self._index(game)
        return len(self.by_number)

    def names(self, game: Game) -> dict[str, str]:
        """Name key → a display name, for suggestions."""
        if game not in self._name_cache:
            self._index(game)
            if self._names is not None:
                self._name_cache[game] = self._names(game)
            else:
                self._name_cache[game] = {
                    key: cards[0].name for (g, key), cards in self.by_name.items() if g == game
                }
        return self._name_cache[game]

    def name_index(self, game: Game) -> suggest.NameIndex:
        """``names(game)`` by bigrams, built once per index (so once per pool version)."""
        found = self._name_index.get(game)
        if found is None:
            found = self._name_index[game] = suggest.name_index(self.names(game))
        return found

    def resolve(self, game: Game, ref: str) -> Resolution:
        hit = self.found(game, ref)
        return self._suggest(game, ref) if hit.unknown and hit.sample is None else hit

    def found(self, game: Game, ref: str) -> Resolution:
        """``resolve`` without suggestions: what is cheap, memoised."""
        if len(ref) > MAX_REF:
            return _UNKNOWN
        memo_key = (game, ref)
        hit = self._memo.get(memo_key)
        if hit is None:
            hit = self._memo.put(memo_key, self._resolve(game, ref))
        return hit

    def unknown_keys(
        self, game: Game, refs: Iterable[str], most: int, known: set[str] | None = None
    ) -> list[str]:
        """The name keys of the first ``most`` distinct unknown references, in order.
        ``known``: references of ``game`` already found in this index, skipped at the cost of
        a set look-up (a batch shares one), and the ones found here are added to it."""
        keys: dict[str, None] = {}
        seen = set() if known is None else known
        for ref in refs:
            if len(keys) >= most:
                break
            if ref in seen or len(ref) > MAX_REF:
                continue
            if self.found(game, ref).unknown:
                keys[name_key(game, ref)] = None
            else:
                seen.add(ref)
        return list(keys)

    def _suggest(self, game: Game, ref: str) -> Resolution:
        """An unknown reference with its suggestions, if its deck's allowance has room."""
        if len(ref) > MAX_REF:
            return _UNKNOWN
        key = name_key(game, ref)
        allowance = suggest.allowance()
        if allowance is not None and not allowance.take(key):
            return Resolution(unknown=True, capped=allowance.names)
        hit = self._suggested.get((game, key))
        if hit is None:
            hit = self._suggested.put((game, key), self.name_index(game).close(key))
        return Resolution(suggestions=hit, unknown=True)

    def _numbered_name(self, game: Game, ref: str) -> Resolution | None:
        """``NUMBER NAME`` or ``NUMBER,NAME``, as tournament lists write cards (or the number
        after the name, ``numbered_forms``): the card of that number when the name is its
        name; a suggestion of its name when the number is a card's but the name is not; None
        when no reading has a card's number."""
        suggestion: Resolution | None = None
        for number, name in numbered_forms(ref):
            card = self._number(game, number_key(number))
            if card is None:
                continue
            if name_key(game, name) == name_key(game, card.name):
                return Resolution(card=card)
            if loose_name_key(name) == loose_name_key(card.name):
                return Resolution(card=card, spelling=f"{card.number} {card.name}")
            suggestion = suggestion or Resolution(suggestions=[f"{card.number} {card.name}"])
        return suggestion

    def _number(self, game: Game, key: str) -> Card | None:
        found = self.by_number.get((game, key)) or self.by_alias.get((game, key))
        return found or self.hidden_numbers.get((game, key))

    def _resolve(self, game: Game, ref: str) -> Resolution:
        self._index(game)
        card = self._number(game, number_key(ref))
        if card is not None:
            return Resolution(card=card)
        matches = self.by_name.get((game, name_key(game, ref)))
        if matches:
            return _by_name(matches)
        loose = self.by_loose.get((game, loose_name_key(ref)))
        if loose is not None and len(loose) == 1:  # one name once spaces and quotes are gone
            found = _by_name(self.by_name[(game, next(iter(loose)))])
            found.spelling = (found.card or found.ambiguous[0]).name
            return found
        pair = self._numbered_name(game, ref)
        if pair is not None:
            return pair
        sample = self.hidden.get((game, name_key(game, ref)))
        if sample is not None:
            return Resolution(unknown=True, sample=sample)
        elsewhere: list[Card] = []
        for g in plugins.ids():
            if g != game:
                self._index(g)
                numbered = self._number(g, number_key(ref))
                elsewhere += [numbered] if numbered else self.by_name.get((g, name_key(g, ref)), [])
        if elsewhere:
            return Resolution(other_game=elsewhere)
        return _UNKNOWN
