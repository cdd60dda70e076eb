"""The copy limit and the words (keywords, a list column's words) that override it for their
cards (their tables: copy_tables.py, which the validator's slots read too)."""

from __future__ import annotations

import re
from collections.abc import Iterable

from deckcheck.checks import naming
from deckcheck.checks.copy_tables import Copies as Copies
from deckcheck.checks.copy_tables import LimitOverride as LimitOverride
from deckcheck.checks.copy_tables import Match as Match
from deckcheck.checks.table import CheckTable, Row, register_table
from deckcheck.i18n import N_, _, _n
from deckcheck.models import Violation
from deckcheck.slots import Context, Slot, card_counts, first_line, total


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
    for (_key, limit), slots in matching.items():
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
        rule, source, severity, what = copies.rule, copies.source, copies.severity, ""
    else:
        rule, source, severity = override.rule or "", override.source, override.severity
        what = _describe_match(override.match)
    card = counted[0].card.name
    sections = sorted({s.section for s in counted})
    k = n - limit
    if override is None:
        message = _n(
            "{n} copy of {card}; at most {limit} allowed",
            "{n} copies of {card}; at most {limit} allowed",
            n,
            n=n,
            card=card,
            limit=limit,
        )
        fix = _n("remove {n} copy of {card}", "remove {n} copies of {card}", k, n=k, card=card)
    elif override.counts == "matching":
        message = _n(
            "{n} copy of {card} with {what}; at most {limit} allowed",
            "{n} copies of {card} with {what}; at most {limit} allowed",
            n,
            n=n,
            card=card,
            what=what,
            limit=limit,
        )
        fix = _n(
            "remove {n} copy of {card} with {what}",
            "remove {n} copies of {card} with {what}",
            k,
            n=k,
            card=card,
            what=what,
        )
    else:
        message = _n(
            "{n} copy of {card}; at most {limit} allowed ({what})",
            "{n} copies of {card}; at most {limit} allowed ({what})",
            n,
            n=n,
            card=card,
            limit=limit,
            what=what,
        )
        fix = _n("remove {n} copy of {card}", "remove {n} copies of {card}", k, n=k, card=card)
    if limit == 0 and override is not None:  # a card whose own text bars it from any deck
        message = _("{card} may not be put in a deck: it has {what}", card=card, what=what)
    return Violation(
        rule=rule,
        severity=severity,
        message=message,
        section=sections[0] if len(sections) == 1 else None,
        cards=card_counts(counted),
        line=first_line(counted),
        source=source,
        fix=fix,
    )


def _describe_match(match: Match) -> str:
    if match.column is not None:
        return f"[{match.column[1]}]"
    if match.keyword is not None:
        return f"「{match.keyword}」"
    return _("its deck limit keyword")


def _describe(c: Copies) -> Iterable[Row]:
    what = _(
        "at most {limit} of one {key} in {sections}",
        limit=c.limit,
        key=naming.key(c.key),
        sections=naming.sections(c.sections),
    )
    yield Row(c.rule, what, c.source)


# the limits that are words, as ``formats show`` prints them
_LIMITS = {"unlimited": N_("unlimited"), "pattern": N_("pattern")}


def _describe_override(o: LimitOverride) -> Iterable[Row]:
    word = o.match.column[1] if o.match.column else None
    what = str(word or o.match.keyword or o.match.keyword_pattern)
    limit = str(o.limit) if isinstance(o.limit, int) else _(_LIMITS[o.limit])
    if o.match.keyword_pattern is not None:  # the regex in words: its (?P<n>…) is the limit N
        keyword = re.sub(r"\(\?P<n>[^)]*\)", "N", o.match.keyword_pattern)
        shown = _("cards with {keyword}: at most N of one name", keyword=keyword)
    elif o.counts == "matching":
        shown = _(
            "{what}: limit {limit} among the cards of one name that carry it",
            what=what,
            limit=limit,
        )
    else:
        shown = _("{what}: limit {limit}", what=what, limit=limit)
    yield Row(o.rule, shown, o.source)


def _no_check(ctx: Context, counts: dict[str, int]) -> list[Violation]:
    return []


def _not_a_check(o: LimitOverride) -> bool:
    return False


COPIES = register_table(
    CheckTable("copies", Copies, _copies, _describe, 200, many=False)
)
# Overrides change what the copy check counts (slots.CardFacts.limit); they run no check of
# their own, but are their own TOML tables and lines of ``formats show``.
LIMIT_OVERRIDES = register_table(
    CheckTable(
        "limit_overrides", LimitOverride, _no_check, _describe_override, 210,
        active=_not_a_check, cites=lambda o: (),
    )
)
