"""Checks that count cards: pure decks, type counts, attribute limits and opening-hand odds."""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Iterable

from pydantic import Field

from deckcheck.checks.table import Check, CheckTable, Row, register_table
from deckcheck.models import Violation
from deckcheck.normalize import word_key
from deckcheck.odds.hypergeom import chance_of_none
from deckcheck.slots import Context, Slot, card_counts, first_line, plural, total


class Pure(Check):
    """A deck with any card carrying ``append`` must consist only of such cards."""

    append: str
    sections: tuple[str, ...] = ("main", "extra")


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


def _pure(ctx: Context, counts: dict[str, int]) -> list[Violation]:
    out: list[Violation] = []
    if not ctx.has_appends:
        return out
    for rule in PURE.of(ctx.fmt):
        key = word_key(rule.append)
        items = ctx.in_sections(rule.sections)
        with_word = [s for s in items if key in s.facts.append_keys]
        if not with_word:
            continue
        without = [s for s in items if s not in with_word]
        if not without:
            continue
        n, m = total(without), total(with_word)
        out.append(
            Violation(
                rule=rule.rule,
                severity=rule.severity,
                message=f"the deck has {plural(m, 'card')} with [{rule.append}], so every card "
                f"must have it; {plural(n, 'card')} {'does' if n == 1 else 'do'} not",
                cards=card_counts(without),
                line=first_line(without),
                source=rule.source,
                fix=f"remove the {n} cards without [{rule.append}], "
                f"or the {m} [{rule.append}] cards",
            )
        )
    return out


def _type_counts(ctx: Context, counts: dict[str, int]) -> list[Violation]:
    out: list[Violation] = []
    for rule in TYPE_COUNTS.of(ctx.fmt):
        n = ctx.count_types(rule.sections, rule.types)
        if (rule.min is None or n >= rule.min) and (rule.max is None or n <= rule.max):
            continue
        items = [s for s in ctx.in_sections(rule.sections) if s.card.type in rule.types]
        what = rule.label or "/".join(rule.types)
        where = " and ".join(rule.sections)
        if rule.min is not None and n < rule.min:
            bound = "exactly" if rule.max == rule.min else "at least"
            has = plural(n, what + " card")
            message = f"the {where} deck has {has}; it needs {bound} {rule.min}"
            fix = f"add {plural(rule.min - n, what)}"
        elif rule.max is not None and n > rule.max:
            bound = "needs exactly" if rule.max == rule.min else "may have at most"
            message = f"the {where} deck has {plural(n, what + ' card')}; it {bound} {rule.max}"
            fix = f"remove {plural(n - rule.max, what)}"
        else:
            continue
        section = rule.sections[0]
        out.append(
            Violation(
                rule=rule.rule,
                severity=rule.severity,
                message=message,
                section=section if len(rule.sections) == 1 else None,
                cards=card_counts(items),
                line=first_line(items)
                if items and rule.max is not None and n > rule.max
                else ctx.section_line(section),
                source=rule.source,
                fix=fix,
            )
        )
    return out


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
            out.append(_missing_attribute(rule, missing))
        for value, items in sorted(groups.items(), key=lambda kv: str(kv[0])):
            n = total(items)
            if n <= rule.limit:
                continue
            label = rule.attribute.replace("_", " ")
            out.append(
                Violation(
                    rule=rule.rule,
                    severity=rule.severity,
                    message=f"{n} cards with {label} {value}; at most {rule.limit} allowed",
                    section=rule.sections[0] if len(rule.sections) == 1 else None,
                    cards=card_counts(items),
                    line=first_line(items),
                    source=rule.source,
                    fix=f"remove {plural(n - rule.limit, 'card')} with {label} {value}",
                )
            )
    return out


def _missing_attribute(rule: AttributeLimit, missing: list[Slot]) -> Violation:
    label = rule.attribute.replace("_", " ")
    n = total(missing)
    return Violation(
        rule=rule.rule,
        severity=rule.severity,
        message=f"{plural(n, 'card')} {'has' if n == 1 else 'have'} no {label}; every "
        f"{'/'.join(rule.required_for)} card has one, so the limit of {rule.limit} per {label} "
        "cannot be checked",
        section=rule.sections[0] if len(rule.sections) == 1 else None,
        cards=card_counts(missing),
        line=first_line(missing),
        source=rule.source,
        fix=f"give the cards their {label} in the card data, or write the right card numbers",
    )


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
        what = "/".join(rule.types)
        out.append(
            Violation(
                rule=rule.rule,
                severity=rule.severity,
                message=f"{miss:.1%} of opening hands of {rule.hand} have no {what} "
                f"({hits} in {deck_size} cards); above {rule.max_miss:.0%}",
                section=rule.section,
                line=ctx.section_line(rule.section),
                source=rule.source,
                fix=f"add {what} cards",
            )
        )
    return out


def _describe_pure(p: Pure) -> Iterable[Row]:
    yield Row(p.rule, f"[{p.append}] decks are all [{p.append}]", p.source)


def _describe_type_count(t: TypeCount) -> Iterable[Row]:
    bounds = f"{t.min if t.min is not None else 0}..{t.max if t.max is not None else '∞'}"
    yield Row(t.rule, f"{'/'.join(t.types)} in {'+'.join(t.sections)}: {bounds}", t.source)


def _describe_attribute_limit(a: AttributeLimit) -> Iterable[Row]:
    every = f"; every {'/'.join(a.required_for)} card has one" if a.required_for else ""
    yield Row(a.rule, f"at most {a.limit} per {a.attribute}{every}", a.source)


def _describe_opening(oc: OpeningCheck) -> Iterable[Row]:
    what = f"warn if P(no {'/'.join(oc.types)} in {oc.hand}) > {oc.max_miss:.0%}"
    yield Row(oc.rule, what, oc.source)


PURE = register_table(
    CheckTable(name="pure", model=Pure, check=_pure, describe=_describe_pure, order=300)
)
TYPE_COUNTS = register_table(
    CheckTable(
        name="type_counts",
        model=TypeCount,
        check=_type_counts,
        describe=_describe_type_count,
        order=400,
    )
)
ATTRIBUTE_LIMITS = register_table(
    CheckTable(
        name="attribute_limits",
        model=AttributeLimit,
        check=_attribute_limits,
        describe=_describe_attribute_limit,
        order=500,
    )
)
OPENING_CHECKS = register_table(
    CheckTable(
        name="opening_checks",
        model=OpeningCheck,
        check=_opening,
        describe=_describe_opening,
        order=700,
    )
)
