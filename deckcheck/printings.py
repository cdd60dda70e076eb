"""The printings of one name side by side, each with what tells it apart from the others: its
number and type, then only the facts that differ among them (level, cost, the game's own
columns, the set, keywords). For an ambiguous name in `validate` and
`fix` (issue 31, item 2); the page shows the same cards through ``/resolve``."""

from __future__ import annotations

from deckcheck.i18n import DEFAULT, _, current
from deckcheck.models import Card
from deckcheck.wording import label, word


def _facts(card: Card) -> dict[str, str]:
    from deckcheck.pool.columns import game_columns

    out: dict[str, str] = {}
    if card.level is not None:
        out[_("level")] = str(card.level)
    if card.cost is not None:
        out[_("cost")] = str(card.cost)
    for column in game_columns(card.game).values():
        value = card.extra.get(column.name)
        if value is None or value == ():
            continue
        name = column.short if current() == DEFAULT else label(card.game, column.heading)
        out[name] = ", ".join(value) if isinstance(value, tuple) else str(value)
    if card.keywords:
        out[_("keywords")] = "・".join(card.keywords)
    return out


def printing_lines(cards: list[Card]) -> list[str]:
    """One line a printing: ``N317 character: node 4, cost 2, set NO5, keywords 耐性:妖怪``."""
    facts = [_facts(c) for c in cards]
    names = list(dict.fromkeys(k for f in facts for k in f))
    differ = [k for k in names if len({f.get(k) for f in facts}) > 1]
    lines = []
    for card, found in zip(cards, facts, strict=True):
        told = ", ".join(f"{k} {found[k]}" for k in differ if k in found)
        typed = word(card.game, card.type)
        lines.append(f"{card.number} {typed}: {told}" if told else f"{card.number} {typed}")
    return lines
