"""Event restriction lists: banned cards, per-card limits and group limits (選抜)."""

from __future__ import annotations

from collections.abc import Iterable
from typing import Literal

from pydantic import AliasChoices, Field

from deckcheck.checks.table import Check, CheckTable, Row, register_table
from deckcheck.i18n import N_, _, _n
from deckcheck.models import Violation
from deckcheck.normalize import nfkc
from deckcheck.plugins import name_key
from deckcheck.slots import Context, Slot, breach, total


class Restriction(Check):
    """Event restriction lists: banned, at most N copies, or at most N out of a group (選抜).

    ``form`` is which of the three; a format file may still write it under its old key, the
    one a card's kind column has (``kind``). ``cards`` are numbers or names (names match every
    printing). ``count`` says what a group limit counts: physical copies (default) or distinct
    card names.
    """

    form: Literal["banned", "limit", "group"] = Field(
        validation_alias=AliasChoices("form", "kind")
    )
    list: str
    cards: tuple[str, ...] = Field(min_length=1)
    limit: int = Field(0, ge=0)
    group: str | None = None
    count: Literal["copies", "names"] = "copies"
    sections: tuple[str, ...] = ("main", "extra", "gate")


def _restrictions(ctx: Context, counts: dict[str, int]) -> list[Violation]:
    out: list[Violation] = []
    game = ctx.fmt.game
    for rule in RESTRICTIONS.of(ctx.fmt):
        items = ctx.in_sections(rule.sections)
        by_ref: list[tuple[str, list[Slot]]] = []
        for ref in rule.cards:
            key, number = name_key(game, ref), nfkc(ref).upper()
            hit = [
                s
                for s in items
                if s.card.number.upper() == number or name_key(game, s.card.name) == key
            ]
            by_ref.append((ref, hit))
        if rule.form == "group":
            hit_slots = list({id(s): s for _, ss in by_ref for s in ss}.values())
            n = (
                total(hit_slots)
                if rule.count == "copies"
                else len({name_key(game, s.card.name) for s in hit_slots})
            )
            if n > rule.limit:
                group = rule.group or "選抜"
                message = (
                    _(
                        "{n} copies from the group {group} of {list}; at most {limit} allowed",
                        n=n, group=group, list=rule.list, limit=rule.limit,
                    )
                    if rule.count == "copies"
                    else _(
                        "{n} different cards from the group {group} of {list}; "
                        "at most {limit} allowed",
                        n=n, group=group, list=rule.list, limit=rule.limit,
                    )
                )
                fix = (
                    _("keep at most {limit} copies of the group", limit=rule.limit)
                    if rule.count == "copies"
                    else _("keep at most {limit} different cards of the group", limit=rule.limit)
                )
                out.append(breach(rule, message, hit_slots, fix))
            continue
        for _ref, hit in by_ref:
            n = total(hit)
            if n <= rule.limit:
                continue
            name = hit[0].card.name
            message = (
                _("{card} is banned by {list}", card=name, list=rule.list)
                if rule.form == "banned"
                else _(
                    "{n} copies of {card}; {list} allows at most {limit}",
                    n=n, card=name, list=rule.list, limit=rule.limit,
                )
            )
            k = n - rule.limit
            fix = _n("remove {n} copy of {card}", "remove {n} copies of {card}", k, n=k, card=name)
            out.append(breach(rule, message, hit, fix))
    return out


# the ``form`` words as ``formats show`` prints them
_FORMS = {"banned": N_("banned"), "limit": N_("limit"), "group": N_("group")}


def _describe(r: Restriction) -> Iterable[Row]:
    what = _(
        "{form} ({list}): {cards}", form=_(_FORMS[r.form]), list=r.list, cards=", ".join(r.cards)
    )
    yield Row(r.rule, what, r.source)


RESTRICTIONS = register_table(
    CheckTable("restrictions", Restriction, _restrictions, _describe, 800)
)
