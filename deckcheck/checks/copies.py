"""The copy limit and the append words or keywords that override it for their cards."""

from __future__ import annotations

import re
from collections.abc import Iterable
from typing import Literal

from pydantic import Field, model_validator

from deckcheck.checks.kind import Check, CheckKind, Row, Strict, register_kind
from deckcheck.models import Severity, Violation
from deckcheck.slots import Context, Slot, card_counts, first_line, plural, total


class Match(Strict):
    """Selects cards by an append word, a keyword, or a keyword pattern with a number ``n``."""

    append: str | None = None
    keyword: str | None = None
    keyword_pattern: str | None = None

    @model_validator(mode="after")
    def _one(self) -> Match:
        given = [x for x in (self.append, self.keyword, self.keyword_pattern) if x is not None]
        if len(given) != 1:
            raise ValueError("give exactly one of append, keyword, keyword_pattern")
        if self.keyword_pattern is not None:
            try:
                compiled = re.compile(self.keyword_pattern)
            except re.error as exc:
                raise ValueError(f"keyword_pattern is not a regular expression: {exc}") from exc
            if "n" not in compiled.groupindex:
                raise ValueError("keyword_pattern needs a named group (?P<n>...) for the limit")
        return self


class Copies(Check):
    """The general copy limit. ``key``: how two cards are "the same" for counting."""

    key: Literal["name", "name+type", "vision-name"]
    limit: int = Field(ge=0)
    sections: tuple[str, ...] = ("main",)
    # "name+type": card types that count as one 種類 (e.g. command = strategy, tactic and
    # enhancement, for the あいりすミスティリア! reading where 種類 is ユニット / コマンド)
    type_groups: dict[str, tuple[str, ...]] = Field(default_factory=dict)


class LimitOverride(Strict):
    """An append word or keyword that replaces the general copy limit for its cards.

    ``limit = "unlimited"`` exempts them; a number (or the pattern's ``n``) is a stricter
    limit reported under this override's own rule.
    """

    match: Match
    limit: int | Literal["unlimited", "pattern"]
    rule: str | None = None
    source: str
    severity: Severity = "error"
    # ``same-name``: the limit replaces the general one for every card of the name (ChaosTCG
    # §13 「同一のカード名のカードは合わせて」); ``matching``: it limits only the cards that carry
    # the word, and the general limit still counts the whole name (VISION 「同名で「デッキ1枚制限」
    # を持つカード」: a printing without the keyword is not limited by it)
    counts: Literal["same-name", "matching"] = "same-name"

    @model_validator(mode="after")
    def _rule_for_limits(self) -> LimitOverride:
        if self.limit != "unlimited" and self.rule is None:
            raise ValueError("a numeric or pattern limit needs a rule id")
        if (self.limit == "pattern") != (self.match.keyword_pattern is not None):
            raise ValueError('limit = "pattern" goes with match.keyword_pattern, and only with it')
        return self


def _copies(ctx: Context, counts: dict[str, int]) -> list[Violation]:
    general = ctx.fmt.copies.limit
    shared = ctx.copy_shared
    out: list[Violation] = []
    for items in shared.values():  # names with more than one card: rare
        out += _group(ctx, items)
    # the common case, one card of a name: only a count over the general limit or an override
    # can break a rule, and one comprehension finds those (validate_bench)
    firsts = ctx.copy_firsts.values()
    suspects = [s for s in firsts if s.count > general or s.facts.limit is not None]
    for only in suspects:
        if shared and only.facts.copy_key in shared:
            continue
        own = only.facts.limit
        if own is not None and (
            own < 0
            or (
                only.count <= own
                and (only.count <= general or _mode(only.facts.override) == "same-name")
            )
        ):
            continue
        out += _group(ctx, [only])
    return out


def _mode(override: LimitOverride | None) -> str:
    return "same-name" if override is None else override.counts


def _group(ctx: Context, items: list[Slot]) -> list[Violation]:
    """The violations of one name: a same-name override's limit for all of it; else each
    matching override's limit for its cards, and the general limit for all but unlimited ones."""
    fmt = ctx.fmt
    facts = [s.facts for s in items]
    strict = [f for f in facts if f.limit is not None and f.limit >= 0]
    whole = [f for f in strict if _mode(f.override) == "same-name"]
    if whole:  # an override's own limit replaces the general one (§6.1: permanent abilities)
        tightest = min(whole, key=lambda f: f.limit or 0)
        assert tightest.override is not None
        found = _over(items, tightest.limit or 0, tightest.override, ctx)
        return [found] if found else []
    out: list[Violation] = []
    matching: dict[tuple[int, int], list[Slot]] = {}
    for slot, f in zip(items, facts, strict=True):
        if f.override is not None and f.limit is not None and f.limit >= 0:
            matching.setdefault((id(f.override), f.limit), []).append(slot)
    for (_, limit), slots in matching.items():
        found = _over(slots, limit, slots[0].facts.override, ctx)
        if found:
            out.append(found)
    # unlimited cards (an override of -1) do not count toward the general limit
    counted = [s for s, f in zip(items, facts, strict=True) if f.limit is None or f.limit >= 0]
    found = _over(counted, fmt.copies.limit, None, ctx)
    return [*out, found] if found else out


def _over(
    counted: list[Slot], limit: int, override: LimitOverride | None, ctx: Context
) -> Violation | None:
    """The violation of ``limit`` by ``counted`` (under ``override``'s rule, else the copy
    rule's), or None when they keep to it."""
    n = total(counted)
    if n <= limit or not counted:
        return None
    if override is None:
        copies = ctx.fmt.copies
        rule, source, severity, which, why = copies.rule, copies.source, copies.severity, "", ""
    else:
        rule, source, severity = override.rule or "", override.source, override.severity
        what = _describe_match(override.match)
        which, why = (f" with {what}", "") if override.counts == "matching" else ("", f" ({what})")
    name = counted[0].card.name + which
    sections = sorted({s.section for s in counted})
    message = f"{plural(n, 'copy', 'copies')} of {name}; at most {limit} allowed{why}"
    if limit == 0 and override is not None:  # a card whose own text bars it from any deck
        message = f"{counted[0].card.name} may not be put in a deck: it has {what}"
    return Violation(
        rule=rule,
        severity=severity,
        message=message,
        section=sections[0] if len(sections) == 1 else None,
        cards=card_counts(counted),
        line=first_line(counted),
        source=source,
        fix=f"remove {plural(n - limit, 'copy', 'copies')} of {name}",
    )


def _describe_match(match: Match) -> str:
    if match.append is not None:
        return f"[{match.append}]"
    if match.keyword is not None:
        return f"「{match.keyword}」"
    return "its deck limit keyword"


def _describe(c: Copies) -> Iterable[Row]:
    yield Row(c.rule, f"at most {c.limit} of one {c.key} in {'+'.join(c.sections)}", c.source)


def _describe_override(o: LimitOverride) -> Iterable[Row]:
    what = str(o.match.append or o.match.keyword or o.match.keyword_pattern)
    among = " among the cards of one name that carry it" if o.counts == "matching" else ""
    yield Row(o.rule, f"{what}: limit {o.limit}{among}", o.source)


def _no_check(ctx: Context, counts: dict[str, int]) -> list[Violation]:
    return []


def _not_a_check(o: LimitOverride) -> bool:
    return False


COPIES = register_kind(
    CheckKind(name="copies", model=Copies, check=_copies, describe=_describe, order=200, many=False)
)
# Overrides change what the copy check counts (slots.CardFacts.limit); they run no check of
# their own, but are their own TOML tables and lines of ``formats show``.
LIMIT_OVERRIDES = register_kind(
    CheckKind(
        name="limit_overrides",
        model=LimitOverride,
        check=_no_check,
        describe=_describe_override,
        order=210,
        active=_not_a_check,
        cites=lambda o: (),
    )
)
