"""The card a name in ``add`` or ``remove`` means (cli/files.py): one card, or a name whose
printings differ, taken as that name, with a note listing the printings to pick from; and the
count and the card as the command was given them."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING

from deckcheck.errors import UsageError
from deckcheck.i18n import _
from deckcheck.normalize import nfkc
from deckcheck.text import quote

if TYPE_CHECKING:
    from deckcheck.formats import Format
    from deckcheck.models import Card
    from deckcheck.resolve import CardIndex


@dataclass(frozen=True)
class Asked:
    """The count and the card an ``add`` or ``remove`` was given."""

    count: int
    ref: str
    whole: str | None = None  # every word as one name, when a count at the end was split off

    @property
    def refs(self) -> list[str]:
        return [self.ref] if self.whole is None else [self.ref, self.whole]

    def settled(self, index: CardIndex, game: str) -> tuple[int, str]:
        """``(count, ref)``: the words before a count at the end name the card when they name
        one, else every word is the name (a name that ends in a number), as a deck list's bare
        count is read."""
        if (
            self.whole is None
            or _names(index, game, self.ref)
            or not _names(index, game, self.whole)
        ):
            return self.count, self.ref
        return 1, self.whole


def _names(index: CardIndex, game: str, ref: str) -> bool:
    found = index.found(game, ref)  # no suggestions: only whether it names a card
    return found.card is not None or bool(found.ambiguous)


def count_and_ref(words: Sequence[str]) -> Asked:
    """``N REF`` as the command's help writes it, ``REF N`` as a list line often does
    (「大妖精 3」), or ``REF`` alone for one copy; the words of REF joined by a space, so a name
    need not be quoted (``add FILE 3 秋 静葉``). N may be written as on a list: full-width,
    with 枚, or x3 / ×3. When the first and the last word could both be a count, the first is.
    deckcheck's reading."""
    words = [w for w in words if w.strip()]
    if len(words) > 1 and (n := _count(words[0])) is not None:
        return Asked(_checked(n), " ".join(words[1:]))
    if len(words) > 1 and (n := _count(words[-1])) is not None:
        return Asked(_checked(n), " ".join(words[:-1]), " ".join(words))
    if len(words) == 1 and _count(words[0]) is not None:
        raise UsageError(_("{count} is a count: name the card too, N REF", count=quote(words[0])))
    return Asked(1, " ".join(words))


def _checked(n: int) -> int:
    from deckcheck.decklist import MAX_COUNT  # a deck list's bound

    if not 1 <= n <= MAX_COUNT:
        raise UsageError(_("N must be from 1 to {most}: got {n}", most=f"{MAX_COUNT:,}", n=n))
    return n


def _count(text: str) -> int | None:
    """The whole number ``text`` writes (3, ３, 3枚, x3, ×3), or None."""
    bare = nfkc(text).strip().casefold().removesuffix("枚").strip()
    bare = bare.removeprefix("x").removeprefix("×").removesuffix("x").removesuffix("×").strip()
    return int(bare) if bare.isascii() and bare.isdigit() else None


def same_card(index: CardIndex, fmt: Format, ref: str) -> tuple[Card, Callable[[str], bool]]:
    """The card REF means, and a test for deck-list references that mean it too. A name whose
    printings differ is taken as that name: its first printing stands for the section, and
    the references that mean it are the lines naming it (``printings_note`` says so)."""
    found = index.resolve(fmt.game, ref)
    if found.card is None:
        if found.ambiguous:
            return found.ambiguous[0], _same_name(index, fmt.game, found.ambiguous[0].name)
        if found.suggestions:
            raise UsageError(
                _(
                    "no {game} card {ref} in the pool (did you mean {names}?)",
                    game=fmt.game,
                    ref=quote(ref),
                    names=" / ".join(found.suggestions),
                )
            )
        raise UsageError(_("no {game} card {ref} in the pool", game=fmt.game, ref=quote(ref)))
    card = found.card

    def same(other: str) -> bool:
        hit = index.resolve(fmt.game, other).card
        return hit is not None and hit.number == card.number

    return card, same


def _same_name(index: CardIndex, game: str, name: str) -> Callable[[str], bool]:
    from deckcheck.plugins import name_key

    key = name_key(game, name)

    def same(other: str) -> bool:
        printings = index.resolve(game, other).ambiguous
        return bool(printings) and name_key(game, printings[0].name) == key

    return same


def printings_note(index: CardIndex, fmt: Format, ref: str) -> None:
    """After an edit by a name whose printings differ: each printing, to write its number."""
    from deckcheck.printings import printing_lines

    printings = index.resolve(fmt.game, ref).ambiguous
    if printings:
        print(
            _(
                "{ref} has {n} printings that differ in what legality depends on; the line "
                "names the card, write the number of the one you mean:",
                ref=quote(ref),
                n=len(printings),
            )
        )
        for line in printing_lines(printings):
            print(f"    {line}")
