"""What the worker processes run: module-level functions of picklable arguments, each returning
plain JSON data. The card index goes along only as the few cards a deck names."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from deckcheck.resolve import CardIndex
from deckcheck.service.workers import progress_for

if TYPE_CHECKING:
    from deckcheck.formats import Format
    from deckcheck.goldfish.policy import Policy
    from deckcheck.goldfish.run import GoldfishRequest
    from deckcheck.goldfish.setup import Setup
    from deckcheck.models import DeckList
    from deckcheck.odds.api import OddsRequest


def deck_index(index: CardIndex, game: str, refs: list[str]) -> CardIndex:
    """The cards ``refs`` may mean, as a small index that is cheap to send to a worker."""
    cards = {}
    for ref in refs:
        found = index.resolve(game, ref)
        for card in [found.card, *found.ambiguous, *found.other_game]:
            if card is not None:
                cards[(card.game, card.number)] = card
    return CardIndex(cards.values())


def goldfish(
    slot: int | None,
    deck: DeckList,
    fmt: Format,
    policy: Policy,
    req: GoldfishRequest,
    setup: Setup,
) -> dict[str, Any]:
    """Play a prepared deck; ``slot`` (a background job's) receives progress and cancels."""
    from deckcheck.goldfish.run import goldfish as run

    progress = None if slot is None else progress_for(slot)
    result = run(deck, fmt, CardIndex(), policy, req, progress, setup)  # the setup has the cards
    return result.model_dump(mode="json")


def odds(deck: DeckList, fmt: Format, index: CardIndex, req: OddsRequest) -> dict[str, Any]:
    from deckcheck.odds.api import compute_odds

    return compute_odds(deck, fmt, index, req).model_dump(mode="json")
