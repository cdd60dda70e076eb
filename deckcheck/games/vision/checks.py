"""VISION's spell break (keyword glossary 「壱符」「弐符」): a 弐符 character enters play only by
the spell break of a 壱符 character whose name it contains, from the sideboard; any other way
it is removed from the game. The ``spell_break`` check table, which the spec declares."""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from deckcheck.games.vision.names import vision_copy_name
from deckcheck.sdk import (
    N_,
    SECTIONS,
    Check,
    CheckTable,
    Context,
    Placement,
    Row,
    Severity,
    Slot,
    Violation,
    _,
    breach,
    listing,
    nfkc,
    section_label,
    word,
    word_key,
)

# a severity as ``formats show`` words it
_SEVERITY = {"error": N_("error"), "warning": N_("warning")}


class SpellBreak(Check):
    """Cards with ``second`` belong in ``side``, where a ``first`` card of the main deck can
    bring them in; elsewhere they can never enter play. Not illegal: a warning by default."""

    first: str = "壱符"
    second: str = "弐符"
    deck: str = "main"
    side: str = "side"
    severity: Severity = "warning"


def _has(slot: Slot, keyword: str) -> bool:
    return word_key(keyword) in slot.facts.keyword_keys


def spell_break_check(ctx: Context, counts: dict[str, int]) -> list[Violation]:
    out: list[Violation] = []
    for rule in SPELL_BREAK.of(ctx.fmt):
        out += _misplaced(ctx, rule) + _unreachable(ctx, rule)
    return out


def _label(ctx: Context, section: str) -> str:
    found = next((s for s in SECTIONS.of(ctx.fmt) if s.name == section), None)
    return section_label(ctx.fmt.game, section, found.label if found else None)


def _misplaced(ctx: Context, rule: SpellBreak) -> list[Violation]:
    deck, side = _label(ctx, rule.deck), _label(ctx, rule.side)
    found = [s for s in ctx.slots.get(rule.deck, ()) if _has(s, rule.second)]
    return [_misplaced_card(rule, s, deck, side) for s in found]


def _misplaced_card(rule: SpellBreak, s: Slot, deck: str, side: str) -> Violation:
    message = _(
        "{card} ({number}) has 「{second}」: it enters play only by the spell break of "
        "a 「{first}」 character, which takes it from the {side_label}; played or put into "
        "play from the {deck_label} it is removed from the game",
        card=s.card.name,
        number=s.card.number,
        second=rule.second,
        first=rule.first,
        side_label=side,
        deck_label=deck,
    )
    fix = _(
        "move it to the {side_label}, with a 「{first}」 card of its name in the {deck_label}",
        side_label=side,
        first=rule.first,
        deck_label=deck,
    )
    return breach(rule, message, [s], fix, s.line, section=rule.deck)


def _unreachable(ctx: Context, rule: SpellBreak) -> list[Violation]:
    """A sideboard 弐符 that no 壱符 of the deck names: nothing can ever bring it in."""
    seconds = [s for s in ctx.slots.get(rule.side, ()) if _has(s, rule.second)]
    if not seconds:
        return []
    deck = _label(ctx, rule.deck)
    bases = {
        nfkc(vision_copy_name(s.card.name))
        for s in ctx.slots.get(rule.deck, ())
        if _has(s, rule.first)
    }
    lost = [s for s in seconds if not any(b and b in nfkc(s.card.name) for b in bases)]
    if not lost:
        return []
    message = _(
        "no 「{first}」 card of the {deck_label} can spell break into {cards}: "
        "a 「{first}」 character brings in only a 「{second}」 card whose name contains "
        "its own “B”",
        first=rule.first,
        deck_label=deck,
        cards=listing(f"{s.card.name} ({s.card.number})" for s in lost),
        second=rule.second,
    )
    fix = _(
        "add the matching 「{first}」 character to the {deck_label}, or remove the card",
        first=rule.first,
        deck_label=deck,
    )
    return [breach(rule, message, lost, fix, section=rule.side)]


def _describe(rule: SpellBreak) -> Iterable[Row]:
    what = _(
        "「{second}」 cards belong in the {side}, with a 「{first}」 card of their name in the "
        "{deck} deck ({severity})",
        second=rule.second,
        side=word("vision", rule.side),
        first=rule.first,
        deck=word("vision", rule.deck),
        severity=_(_SEVERITY[rule.severity]),
    )
    yield Row(rule.rule, what, rule.source)


def _places(rule: SpellBreak) -> Iterable[Placement]:
    """A ``second`` card is added to ``side``, where its spell break takes it from."""
    yield Placement(rule.second, rule.side, rule.rule, rule.source)


SPELL_BREAK = CheckTable(
    "spell_break", SpellBreak, spell_break_check, _describe, 620, places=_places
)


def tables() -> tuple[CheckTable[Any], ...]:
    """The spec's ``check_tables``: VISION's own."""
    return (SPELL_BREAK,)
