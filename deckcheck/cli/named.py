"""The card a name in ``add`` or ``remove`` means (cli/files.py): one card, or a name whose
printings differ, taken as that name, with a note listing the printings to pick from; and the
count and the card as the command was given them."""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING

from deckcheck.errors import UsageError
from deckcheck.i18n import _
from deckcheck.normalize import nfkc
from deckcheck.text import quote

if TYPE_CHECKING:
    from deckcheck.formats import Format
    from deckcheck.models import Card
    from deckcheck.resolve import CardIndex

MAX_COUNT = 9999


def count_and_ref(first: str, second: str | None) -> tuple[int, str]:
    """``N REF`` as the command's help writes it, ``REF N`` as a list line often does
    (「大妖精 3」), or ``REF`` alone for one copy (deckcheck's reading). N may be written as on a
    list: full-width, with 枚, or x3 / ×3. When both could be a count, the first is."""
    if second is None:
        return 1, first
    for count, ref in ((first, second), (second, first)):
        n = _count(count)
        if n is not None:
            if not 1 <= n <= MAX_COUNT:
                raise UsageError(
                    _("N must be from 1 to {most}: got {n}", most=f"{MAX_COUNT:,}", n=n)
                )
            return n, ref
    raise UsageError(
        _(
            "neither {first} nor {second} is a count: write N REF, N a whole number from 1 "
            "to {most}",
            first=quote(first),
            second=quote(second),
            most=f"{MAX_COUNT:,}",
        )
    )


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
