"""Deck sections: their sizes, the card types each takes and the types each forbids.

One check table for all three: they are read from the same ``[[sections]]`` tables, and ``formats
show`` lists them section by section.
"""

from __future__ import annotations

from collections.abc import Iterable
from functools import cached_property
from typing import Literal

from pydantic import Field

from deckcheck.checks.table import Check, CheckTable, Row, Strict, register_table
from deckcheck.models import Severity, Violation
from deckcheck.slots import Context, card_counts, plural


class SizeCheck(Check):
    min: int = Field(0, ge=0)
    max: int | None = Field(None, ge=0)
    # an optional section may also be left empty (none, or min to max cards)
    optional: bool = False


class TypeCheck(Strict):
    """The card types a section takes. A rule id is needed only if some type is left out."""

    allowed: tuple[str, ...]
    rule: str | None = None
    source: str | None = None
    severity: Severity = "error"

    @cached_property
    def allowed_set(self) -> frozenset[str]:
        return frozenset(self.allowed)


class ForbiddenTypes(Check):
    types: tuple[str, ...]


class Section(Strict):
    name: Literal["main", "extra", "gate", "side"]
    label: str | None = None
    size: SizeCheck
    types: TypeCheck
    forbidden: tuple[ForbiddenTypes, ...] = ()

    @cached_property
    def forbidden_set(self) -> frozenset[str]:
        """Every type some ``forbidden`` table names: a deck with none of them breaks none."""
        return frozenset(t for f in self.forbidden for t in f.types)


def _sections(ctx: Context, counts: dict[str, int]) -> list[Violation]:
    out = _sizes(ctx, counts)
    out.extend(_types(ctx))
    return out


def _sizes(ctx: Context, counts: dict[str, int]) -> list[Violation]:
    out: list[Violation] = []
    for section in SECTIONS.of(ctx.fmt):
        size = section.size
        n = counts.get(section.name, 0)
        if (size.min <= n and (size.max is None or n <= size.max)) or (size.optional and not n):
            continue
        label = section.label or f"{section.name} deck"
        either = " (or none)" if size.optional else ""
        if n < size.min:
            need = size.min - n
            bound = "exactly" if size.max == size.min else "at least"
            message = f"the {label} has {plural(n, 'card')}; it needs {bound} {size.min}{either}"
            fix = f"add {plural(need, 'card')}"
            if size.optional:
                fix += f", or take every card out of the {label}"
        elif size.max is not None and n > size.max:
            extra = n - size.max
            bound = "exactly" if size.max == size.min else "at most"
            message = f"the {label} has {plural(n, 'card')}; it needs {bound} {size.max}{either}"
            fix = f"remove {plural(extra, 'card')} from the {label}"
        else:
            continue
        out.append(
            Violation(
                rule=size.rule,
                severity=size.severity,
                message=message,
                section=section.name,
                line=ctx.section_line(section.name),
                source=size.source,
                fix=fix,
            )
        )
    return out


def _types(ctx: Context) -> list[Violation]:
    out: list[Violation] = []
    for section in SECTIONS.of(ctx.fmt):
        allowed = section.types.allowed
        present = ctx.type_counts.get(section.name)
        if not present or (
            present.keys() <= section.types.allowed_set
            and present.keys().isdisjoint(section.forbidden_set)
        ):
            continue
        label = section.label or f"{section.name} deck"
        for slot in ctx.slots.get(section.name, ()):
            ctype = slot.card.type
            check = next((f for f in section.forbidden if ctype in f.types), None)
            if check is None and ctype in allowed:
                continue
            rule = check or section.types
            assert rule.rule is not None and rule.source is not None  # the schema guarantees it
            home = [s.name for s in SECTIONS.of(ctx.fmt) if ctype in s.types.allowed]
            fix = f"move it to [{home[0]}]" if home else f"remove it: {ctx.fmt.id} has no place"
            out.append(
                Violation(
                    rule=rule.rule,
                    severity=rule.severity,
                    message=f"{slot.card.name} is {_article(ctype)} {ctype} card; the {label} "
                    f"takes only {', '.join(allowed)} cards",
                    section=section.name,
                    cards=card_counts([slot]),
                    line=slot.line,
                    source=rule.source,
                    fix=fix,
                )
            )
    return out


def _article(word: str) -> str:
    return "an" if word[:1] in "aeiou" else "a"


def _describe(s: Section) -> Iterable[Row]:
    upper = "no limit" if s.size.max is None else str(s.size.max)
    span = str(upper) if s.size.min == s.size.max else f"{s.size.min} to {upper}"
    none = "none or " if s.size.optional and s.size.min else ""
    yield Row(s.size.rule, f"{s.name}: {none}{span} cards", s.size.source)
    yield Row(s.types.rule, f"{s.name}: only {', '.join(s.types.allowed)}", s.types.source)
    for f in s.forbidden:
        yield Row(f.rule, f"{s.name}: no {', '.join(f.types)}", f.source)


def _cites(s: Section) -> Iterable[Check]:
    # the allowed-types rule is optional (absent when a section takes every type): not cited
    return (s.size, *s.forbidden)


SECTIONS = register_table(
    CheckTable(
        name="sections",
        model=Section,
        check=_sections,
        describe=_describe,
        order=100,
        cites=_cites,
    )
)
