"""Deck sections: their sizes, the card types each takes and the types each forbids.

One check table for all three: they are read from the same ``[[sections]]`` tables, and ``formats
show`` lists them section by section.
"""

from __future__ import annotations

from collections.abc import Iterable
from functools import cached_property

from pydantic import Field

from deckcheck.checks import naming
from deckcheck.checks.table import Check, CheckTable, Row, Strict, register_table
from deckcheck.i18n import N_, _, _n
from deckcheck.models import Severity, Violation
from deckcheck.slots import Context, breach, card_counts
from deckcheck.wording import a_an, section_label, word, words


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
    name: str  # a shared section (models.SECTIONS) or the game's own: formats/schema.py checks
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
        label = section_label(ctx.fmt.game, section.name, section.label)
        if n < size.min:
            exact = size.max == size.min
            message = _needs(label, n, size.min, "exactly" if exact else "at least", size.optional)
            fix = _add(label, size.min - n, size.optional)
        elif size.max is not None and n > size.max:
            exact = size.max == size.min
            message = _needs(label, n, size.max, "exactly" if exact else "at most", size.optional)
            extra = n - size.max
            fix = _n(
                "remove {n} card from the {label}",
                "remove {n} cards from the {label}",
                extra,
                n=extra,
                label=label,
            )
        else:
            continue
        line = ctx.section_line(section.name)
        out.append(breach(size, message, [], fix, line, section=section.name))
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
        game = ctx.fmt.game
        label = section_label(game, section.name, section.label)
        for slot in ctx.slots.get(section.name, ()):
            ctype = slot.card.type
            check = next((f for f in section.forbidden if ctype in f.types), None)
            if check is None and ctype in allowed:
                continue
            rule = check or section.types
            assert rule.rule is not None and rule.source is not None  # the schema guarantees it
            home = [s.name for s in SECTIONS.of(ctx.fmt) if ctype in s.types.allowed]
            fix = (
                _("move it to [{section}]", section=word(game, home[0]))
                if home
                else _("remove it: {format} has no place", format=ctx.fmt.id)
            )
            message = _(
                "{card} is {a_type} card; the {label} takes only {types} cards",
                card=slot.card.name,
                a_type=a_an(word(game, ctype)),
                label=label,
                types=words(game, allowed),
            )
            out.append(
                Violation(
                    rule=rule.rule,
                    severity=rule.severity,
                    message=message,
                    section=section.name,
                    cards=card_counts([slot]),
                    line=slot.line,
                    source=rule.source,
                    fix=fix,
                )
            )
    return out


# what a size bound asks, as ``_needs`` puts it in "it needs {need}"
# TRANSLATORS: a deck section's card count a rule asks for: "it needs exactly 50"
_BOUNDS = {
    "exactly": N_("exactly {bound}"),
    "at least": N_("at least {bound}"),
    "at most": N_("at most {bound}"),
}


def _needs(label: str, n: int, bound: int, how: str, optional: bool) -> str:
    """"the main deck has 36 cards; it needs exactly 50", with "(or none)" where the section
    may be left empty."""
    need = _(_BOUNDS[how], bound=bound)
    if optional:
        # TRANSLATORS: a bound a section may also meet by having no cards at all
        need = _("{need} (or none)", need=need)
    return _n(
        "the {label} has {n} card; it needs {need}",
        "the {label} has {n} cards; it needs {need}",
        n, label=label, n=n, need=need,
    )


def _add(label: str, n: int, optional: bool) -> str:
    if optional:
        return _n(
            "add {n} card, or take every card out of the {label}",
            "add {n} cards, or take every card out of the {label}",
            n, n=n, label=label,
        )
    return _n("add {n} card", "add {n} cards", n, n=n)


def _describe(s: Section) -> Iterable[Row]:
    upper = _("no limit") if s.size.max is None else str(s.size.max)
    span = upper if s.size.min == s.size.max else _("{min} to {max}", min=s.size.min, max=upper)
    if s.size.optional and s.size.min:
        size = _("{section}: none or {span} cards", section=naming.section(s.name), span=span)
    else:
        size = _("{section}: {span} cards", section=naming.section(s.name), span=span)
    yield Row(s.size.rule, size, s.size.source)
    shown = naming.section(s.name)
    allowed = _("{section}: only {types}", section=shown, types=naming.types(s.types.allowed))
    yield Row(s.types.rule, allowed, s.types.source)
    for f in s.forbidden:
        no = _("{section}: no {types}", section=shown, types=naming.types(f.types))
        yield Row(f.rule, no, f.source)


def _cites(s: Section) -> Iterable[Check]:
    # the allowed-types rule is optional (absent when a section takes every type): not cited
    return (s.size, *s.forbidden)


SECTIONS = register_table(
    CheckTable("sections", Section, _sections, _describe, 100, cites=_cites)
)
