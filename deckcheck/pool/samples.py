"""Which cards are samples, and the pool's counts of them (``pool stats``).

The shipped sample cards (card_pool/*/sample.csv: made up, no printed card) are numbered
``SAMPLE-…`` and the cards the rulebooks name without a number ``RB-…`` (docs/card-pool.md,
"Shipped data"). The number is the mark: no stored flag, so pools made before need no upgrade
and a card file imported later follows the same rule. A game "has real cards" when its pool
holds a card that is neither (a published card list, or one a community imported): there the
samples are hidden from searches and from name resolution unless asked for.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence

from deckcheck import plugins
from deckcheck.models import Card
from deckcheck.resolve import number_key

SAMPLE_PREFIX = "SAMPLE-"
EXAMPLE_PREFIX = "RB-"


def is_sample(number: str) -> bool:
    """A shipped sample card's number (``SAMPLE-…``, any width or case)."""
    return number_key(number).startswith(SAMPLE_PREFIX)


def real_games_query(table: str) -> str:
    """The SQL of the games whose pool holds a real card (neither a sample nor an example)."""
    return (
        f"SELECT DISTINCT game FROM {table} WHERE number_key NOT LIKE '{SAMPLE_PREFIX}%' "
        f"AND number_key NOT LIKE '{EXAMPLE_PREFIX}%'"
    )


def stats_query(table: str) -> str:
    """Per game: every card, the samples, the rulebook examples (the rest is the card list)."""

    def count(prefix: str) -> str:
        return f"SUM(CASE WHEN number_key LIKE '{prefix}%' THEN 1 ELSE 0 END)"

    return (
        f"SELECT game, COUNT(*), {count(SAMPLE_PREFIX)}, {count(EXAMPLE_PREFIX)} "
        f"FROM {table} GROUP BY game"
    )


def _int(value: object) -> int:
    """A count as the database gives it (PostgreSQL's SUM is a Decimal, an empty SUM NULL)."""
    return int(str(value)) if value is not None else 0


def pool_stats(rows: Iterable[Sequence[object]]) -> dict[str, object]:
    """``stats_query``'s rows as ``pool stats --json`` shows them: ``total`` and ``by_game``
    count every card; ``samples`` and ``examples`` the made-up ones and the rulebook's, per
    game (``by_game`` less both is the game's card list)."""
    by_game = {g: 0 for g in plugins.ids()}
    samples = dict(by_game)
    examples = dict(by_game)
    for game, n, sampled, named in rows:
        key = str(game)
        by_game[key], samples[key], examples[key] = (_int(v) for v in (n, sampled, named))
    return {
        "total": sum(by_game.values()),
        "by_game": by_game,
        "samples": samples,
        "examples": examples,
    }


def visible(cards: Iterable[Card], real: set[str], numbers: set[str]) -> list[Card]:
    """The cards name resolution sees: a game with real cards (``real``) keeps only the
    samples a reference names by number (``numbers``: number keys), so a name never resolves
    to, nor is made ambiguous by, a made-up card."""
    return split_visible(cards, real, numbers)[0]


def split_visible(
    cards: Iterable[Card], real: set[str], numbers: set[str]
) -> tuple[list[Card], list[Card]]:
    """``visible``'s cards, and the samples it hides (an index knows them only to tell a deck
    that names one that it is a sample, hidden: ``CardIndex.hide``)."""
    shown: list[Card] = []
    hidden: list[Card] = []
    for c in cards:
        keep = c.game not in real or not is_sample(c.number) or number_key(c.number) in numbers
        (shown if keep else hidden).append(c)
    return shown, hidden


def real_games(cards: Iterable[Card]) -> set[str]:
    """The games among ``cards`` with a real card (``real_games_query`` for cards in hand)."""
    return {
        c.game
        for c in cards
        if not is_sample(c.number) and not number_key(c.number).startswith(EXAMPLE_PREFIX)
    }
