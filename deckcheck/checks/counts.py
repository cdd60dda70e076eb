"""Checks that count cards: type counts, attribute limits and opening-hand odds."""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Iterable

from pydantic import Field

from deckcheck.checks import naming
from deckcheck.checks.table import Check, CheckTable, Row, register_table
from deckcheck.i18n import _, _n
from deckcheck.models import Violation
from deckcheck.odds.hypergeom import chance_of_none
from deckcheck.slots import Context, Slot, breach, first_line, total
from deckcheck.wording import label, word, words


class TypeCount(Check):
    types: tuple[str, ...]
    sections: tuple[str, ...] = ("main",)
    min: int | None = Field(None, ge=0)
    max: int | None = Field(None, ge=0)
    label: str | None = None


class AttributeLimit(Check):
    """At most ``limit`` cards sharing one value of ``attribute``, a card column (a format file
    names it: a game's own column, such as a number printed on some card types)."""

    # a card column, shared or the game's own (``Format`` checks that the game has it)
    attribute: str = Field(pattern=r"^[a-z][a-z0-9_]*$")
    sections: tuple[str, ...]
    limit: int = Field(ge=0)
    # cards of these types must have the attribute; they are reported under this rule when they
    # lack it (other cards without it are not counted)
    required_for: tuple[str, ...] = ()



class OpeningCheck(Check):
    """Warn when the chance of no card of ``types`` in the opening hand exceeds ``max_miss``."""

    types: tuple[str, ...]
    hand: int = Field(gt=0)
    max_miss: float = Field(ge=0, le=1)
    section: str = "main"


def _type_counts(ctx: Context, counts: dict[str, int]) -> list[Violation]:
    out: list[Violation] = []
    for rule in TYPE_COUNTS.of(ctx.fmt):
        n = ctx.count_types(rule.sections, rule.types)
        if (rule.min is None or n >= rule.min) and (rule.max is None or n <= rule.max):
            continue
        items = [s for s in ctx.in_sections(rule.sections) if s.card.type in rule.types]
        game = ctx.fmt.game
        what = label(game, rule.label) if rule.label else words(game, rule.types, "/")
        where = words(game, rule.sections, " and ")
        if rule.min is not None and n < rule.min:
            message = _count_message(where, what, n, rule.min, rule.max == rule.min)
            k = rule.min - n
            fix = _n("add {n} {what}", "add {n} {what}s", k, n=k, what=what)
        elif rule.max is not None and n > rule.max:
            if rule.max == rule.min:
                message = _count_message(where, what, n, rule.max, True)
            else:
                message = _n(
                    "the {where} deck has {n} {what} card; it may have at most {bound}",
                    "the {where} deck has {n} {what} cards; it may have at most {bound}",
                    n, where=where, what=what, n=n, bound=rule.max,
                )
            k = n - rule.max
            fix = _n("remove {n} {what}", "remove {n} {what}s", k, n=k, what=what)
        else:
            continue
        section = rule.sections[0]
        over = items and rule.max is not None and n > rule.max
        line = first_line(items) if over else ctx.section_line(section)
        out.append(breach(rule, message, items, fix, line, section=_one_section(rule.sections)))
    return out


def _count_message(where: str, what: str, n: int, bound: int, exactly: bool) -> str:
    if exactly:
        return _n(
            "the {where} deck has {n} {what} card; it needs exactly {bound}",
            "the {where} deck has {n} {what} cards; it needs exactly {bound}",
            n, where=where, what=what, n=n, bound=bound,
        )
    return _n(
        "the {where} deck has {n} {what} card; it needs at least {bound}",
        "the {where} deck has {n} {what} cards; it needs at least {bound}",
        n, where=where, what=what, n=n, bound=bound,
    )


def _attribute_limits(ctx: Context, counts: dict[str, int]) -> list[Violation]:
    out: list[Violation] = []
    for rule in ATTRIBUTE_LIMITS.of(ctx.fmt):
        groups: dict[object, list[Slot]] = defaultdict(list)
        missing: list[Slot] = []
        for slot in ctx.in_sections(rule.sections):
            found = slot.card.value(rule.attribute)
            if found is not None:
                groups[found].append(slot)
            elif slot.card.type in rule.required_for:
                missing.append(slot)
        if missing:
            out.append(_missing_attribute(ctx.fmt.game, rule, missing))
        for value, items in sorted(groups.items(), key=lambda kv: str(kv[0])):
            n = total(items)
            if n <= rule.limit:
                continue
            name = word(ctx.fmt.game, rule.attribute.replace("_", " "))
            k = n - rule.limit
            message = _(
                "{n} cards with {attribute} {value}; at most {limit} allowed",
                n=n,
                attribute=name,
                value=value,
                limit=rule.limit,
            )
            fix = _n(
                "remove {n} card with {attribute} {value}",
                "remove {n} cards with {attribute} {value}",
                k, n=k, attribute=name, value=value,
            )
            out.append(breach(rule, message, items, fix, section=_one_section(rule.sections)))
    return out


def _missing_attribute(game: str, rule: AttributeLimit, missing: list[Slot]) -> Violation:
    name = word(game, rule.attribute.replace("_", " "))
    n = total(missing)
    message = _n(
        "{n} card has no {attribute}; every {types} card has one, so the limit of {limit} "
        "per {attribute} cannot be checked",
        "{n} cards have no {attribute}; every {types} card has one, so the limit of "
        "{limit} per {attribute} cannot be checked",
        n, n=n, attribute=name, types=words(game, rule.required_for, "/"), limit=rule.limit,
    )
    fix = _(
        "give the cards their {attribute} in the card data, or write the right card numbers",
        attribute=name,
    )
    return breach(rule, message, missing, fix, section=_one_section(rule.sections))


def _one_section(sections: tuple[str, ...]) -> str | None:
    """The section a violation names: a rule's only section, else none."""
    return sections[0] if len(sections) == 1 else None


def _opening(ctx: Context, counts: dict[str, int]) -> list[Violation]:
    out: list[Violation] = []
    for rule in OPENING_CHECKS.of(ctx.fmt):
        deck_size = counts.get(rule.section, 0)
        hits = total(s for s in ctx.slots.get(rule.section, ()) if s.card.type in rule.types)
        if hits == 0 or deck_size < rule.hand:
            continue  # no such card at all is the business of a count rule
        miss = chance_of_none(deck_size, hits, rule.hand)
        if miss <= rule.max_miss:
            continue
        what = words(ctx.fmt.game, rule.types, "/")
        message = _(
            "{miss} of opening hands of {hand} have no {types} ({hits} in {size} cards); "
            "above {most}",
            miss=f"{miss:.1%}",
            hand=rule.hand,
            types=what,
            hits=hits,
            size=deck_size,
            most=f"{rule.max_miss:.0%}",
        )
        fix = _("add {types} cards", types=what)
        line = ctx.section_line(rule.section)
        out.append(breach(rule, message, [], fix, line, section=rule.section))
    return out


def _describe_type_count(t: TypeCount) -> Iterable[Row]:
    bounds = f"{t.min if t.min is not None else 0}..{t.max if t.max is not None else '∞'}"
    what = _(
        "{types} in {sections}: {bounds}",
        types=naming.types(t.types, "/"),
        sections=naming.sections(t.sections),
        bounds=bounds,
    )
    yield Row(t.rule, what, t.source)


def _describe_attribute_limit(a: AttributeLimit) -> Iterable[Row]:
    attribute = naming.key(a.attribute)
    if a.required_for:
        what = _(
            "at most {limit} per {attribute}; every {types} card has one",
            limit=a.limit,
            attribute=attribute,
            types=naming.types(a.required_for, "/"),
        )
    else:
        what = _("at most {limit} per {attribute}", limit=a.limit, attribute=attribute)
    yield Row(a.rule, what, a.source)


def _describe_opening(oc: OpeningCheck) -> Iterable[Row]:
    what = _(
        "warn if P(no {types} in {size}) > {share}",
        types=naming.types(oc.types, "/"),
        size=oc.hand,
        share=f"{oc.max_miss:.0%}",
    )
    yield Row(oc.rule, what, oc.source)


TYPE_COUNTS = register_table(
    CheckTable("type_counts", TypeCount, _type_counts, _describe_type_count, 400)
)
ATTRIBUTE_LIMITS = register_table(
    CheckTable(
        "attribute_limits", AttributeLimit, _attribute_limits, _describe_attribute_limit, 500
    )
)
OPENING_CHECKS = register_table(
    CheckTable("opening_checks", OpeningCheck, _opening, _describe_opening, 700)
)
