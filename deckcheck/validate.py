"""The rule engine: a parsed deck list, a format and a card index in, a report out. No I/O.

Every check reports every violation it finds (never just the first), each with its rule id,
the cards involved, the line, the rule's source and a fix hint.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Callable

from deckcheck.decklist import SYNTAX, SYNTAX_SOURCE
from deckcheck.formats import Format, Match
from deckcheck.games.chaos import checks as chaos
from deckcheck.models import CardCount, DeckList, Report, Violation
from deckcheck.normalize import name_key, nfkc, word_key
from deckcheck.odds.hypergeom import chance_of_none
from deckcheck.resolve import CardIndex, Resolution
from deckcheck.slots import (
    Context,
    Slot,
    card_counts,
    first_line,
    format_facts,
    plural,
    total,
)

RESOLVE_SOURCE = "deckcheck deck list format (README: Deck lists); outside the rulebooks"


def validate(deck: DeckList, fmt: Format, index: CardIndex) -> Report:
    """Check ``deck`` against every rule of ``fmt``; cards are looked up in ``index``."""
    ctx = _read(deck, fmt, index)
    violations = ctx.violations
    for check in _checks_of(fmt):
        found = check(ctx, ctx.counts)
        if found:
            violations.extend(found)
    if violations:
        for v in violations:  # every violation names a line: else the list's first line
            if v.line is None:
                v.line = deck.first_line or 1
        violations.sort(key=lambda v: (v.severity != "error", v.line or 0, v.rule))
    return Report(
        path=deck.path,
        format=fmt.id,
        game=fmt.game,
        legal=not any(v.severity == "error" for v in violations),
        counts=ctx.counts,
        violations=violations,
        assumptions=fmt.assumptions,
    )


def _read(deck: DeckList, fmt: Format, index: CardIndex) -> Context:
    """One pass over the deck list: resolve each line, count sections and types, and group
    cards for the copy limit. Problems of the list itself become violations."""
    memo = format_facts(fmt)
    ctx = Context(fmt, deck, {}, memo, counts={s.name: 0 for s in fmt.sections})
    ctx.violations.extend(deck.problems)
    counts, slots, tally, groups = ctx.counts, ctx.slots, ctx.type_counts, ctx.copy_groups
    copy_sections = fmt.copies.sections
    lookup, refs = memo.lookup, memo.refs_for(index)
    merged: dict[str, dict[int, Slot]] = {}  # section → id(card) → slot
    current = ""  # entries come section by section: look the section's tables up once
    types: dict[str, int] = {}
    bucket: list[Slot] = []
    seen: dict[int, Slot] = {}
    in_copies = False
    for entry in deck.entries:
        section, count = entry.section, entry.count
        if section != current:
            if section not in counts:
                ctx.violations.append(_foreign_section(fmt, section, entry.ref, count, entry.line))
                continue
            current, in_copies = section, section in copy_sections
            types = tally.setdefault(section, {})
            bucket = slots.setdefault(section, [])
            seen = merged.setdefault(section, {})
        counts[section] += count  # unresolved cards count too: the list means them
        hit = refs.get(entry.ref)
        if hit is None:
            hit = lookup(index, entry.ref)
        if type(hit) is not tuple:
            assert isinstance(hit, Resolution)
            ctx.violations.append(
                _resolution_violation(fmt, section, entry.ref, count, entry.line, hit)
            )
            continue
        card, facts = hit
        types[facts.type] = types.get(facts.type, 0) + count
        slot = seen.get(id(card))
        if slot is not None:  # a number and a name for the same card add up
            slot.count += count
            continue
        slot = seen[id(card)] = Slot(card, count, entry.line, section, facts)
        bucket.append(slot)
        if facts.append_keys:
            ctx.has_appends = True
        if in_copies:
            group = groups.get(facts.copy_key)
            if group is None:
                groups[facts.copy_key] = [slot]
            else:
                group.append(slot)
    return ctx


def _foreign_section(
    fmt: Format, section: str, ref: str, count: int, line: int | None
) -> Violation:
    known = ", ".join(fmt.section_map)
    return Violation(
        rule=SYNTAX,
        message=f"[{section}] is not a section of {fmt.id} (its sections: {known})",
        section=section,
        cards=[CardCount(number=None, name=ref, count=count)],
        line=line,
        source=SYNTAX_SOURCE,
        fix=f"move the card to one of {known} or remove it",
    )


def _resolution_violation(
    fmt: Format, section: str, ref: str, count: int, line: int | None, found: Resolution
) -> Violation:
    named = [CardCount(number=None, name=ref, count=count)]
    if found.ambiguous:
        numbers = ", ".join(c.number for c in found.ambiguous)
        return Violation(
            rule="deck/ambiguous-card",
            message=f"{ref!r} matches {len(found.ambiguous)} cards that differ in what "
            f"legality depends on: {numbers}",
            section=section,
            cards=[CardCount(number=c.number, name=c.name, count=count) for c in found.ambiguous],
            line=line,
            source=RESOLVE_SOURCE,
            fix=f"write the card number instead of the name (one of {numbers})",
        )
    if found.other_game:
        other = found.other_game[0]
        return Violation(
            rule="deck/wrong-game",
            message=f"{ref!r} is a {other.game} card ({other.number}); {fmt.id} is a "
            f"{fmt.game} format",
            section=section,
            cards=[CardCount(number=other.number, name=other.name, count=count)],
            line=line,
            source=RESOLVE_SOURCE,
            fix=f"remove it, or validate against a {other.game} format",
        )
    hint = (
        "did you mean " + " / ".join(repr(s) for s in found.suggestions) + "?"
        if found.suggestions
        else "check the spelling or import the card with `deckcheck pool import`"
    )
    return Violation(
        rule="deck/unknown-card",
        message=f"no {fmt.game} card has the number or name {ref!r}",
        section=section,
        cards=named,
        line=line,
        source=RESOLVE_SOURCE,
        fix=hint,
    )


# --- checks ---------------------------------------------------------------------------------

Check = Callable[[Context, dict[str, int]], list[Violation]]


def _sizes(ctx: Context, counts: dict[str, int]) -> list[Violation]:
    out: list[Violation] = []
    for section in ctx.fmt.sections:
        size = section.size
        n = counts.get(section.name, 0)
        label = section.label or f"{section.name} deck"
        if n < size.min:
            need = size.min - n
            bound = "exactly" if size.max == size.min else "at least"
            message = f"the {label} has {n} cards; it needs {bound} {size.min}"
            fix = f"add {plural(need, 'card')}"
        elif size.max is not None and n > size.max:
            extra = n - size.max
            bound = "exactly" if size.max == size.min else "at most"
            message = f"the {label} has {n} cards; it needs {bound} {size.max}"
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


def _types(ctx: Context, counts: dict[str, int]) -> list[Violation]:
    out: list[Violation] = []
    for section in ctx.fmt.sections:
        allowed = section.types.allowed
        present = ctx.type_counts.get(section.name, {})
        if all(t in allowed for t in present) and not any(
            t in present for f in section.forbidden for t in f.types
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
            home = [s.name for s in ctx.fmt.sections if ctype in s.types.allowed]
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


def _copies(ctx: Context, counts: dict[str, int]) -> list[Violation]:
    fmt = ctx.fmt
    general = fmt.copies.limit
    out: list[Violation] = []
    for items in ctx.copy_groups.values():
        if len(items) == 1:  # the common case, decided without building anything
            only = items[0]
            own = only.facts.limit
            if only.count <= (general if own is None else own) or (own is not None and own < 0):
                continue
        n = total(items)
        facts = [s.facts for s in items]
        strict = [f for f in facts if f.limit is not None and f.limit >= 0]
        if strict:
            # an override's own limit replaces the general one (§6.1: permanent abilities)
            tightest = min(strict, key=lambda f: f.limit or 0)
            override, limit = tightest.override, tightest.limit or 0
            assert override is not None
            counted = items
            rule, source, severity = override.rule or "", override.source, override.severity
            why = f" ({_describe(override.match)})"
        else:  # unlimited cards (an override of -1) do not count toward the general limit
            counted = [s for s, f in zip(items, facts, strict=True) if f.limit is None]
            limit = fmt.copies.limit
            rule, source, severity = fmt.copies.rule, fmt.copies.source, fmt.copies.severity
            why = ""
            n = total(counted)
        if n <= limit:
            continue
        name = counted[0].card.name
        sections = sorted({s.section for s in counted})
        out.append(
            Violation(
                rule=rule,
                severity=severity,
                message=f"{n} copies of {name}; at most {limit} allowed{why}",
                section=sections[0] if len(sections) == 1 else None,
                cards=card_counts(counted),
                line=first_line(counted),
                source=source,
                fix=f"remove {plural(n - limit, 'copy', 'copies')} of {name}",
            )
        )
    return out


def _describe(match: Match) -> str:
    if match.append is not None:
        return f"[{match.append}]"
    if match.keyword is not None:
        return f"「{match.keyword}」"
    return "its deck limit keyword"


def _pure(ctx: Context, counts: dict[str, int]) -> list[Violation]:
    out: list[Violation] = []
    if not ctx.has_appends:
        return out
    for rule in ctx.fmt.pure:
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
                f"must have it; {plural(n, 'card')} do not",
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
    for rule in ctx.fmt.type_counts:
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
    for rule in ctx.fmt.attribute_limits:
        groups: dict[object, list[Slot]] = defaultdict(list)
        for slot in ctx.in_sections(rule.sections):
            value = getattr(slot.card, rule.attribute)
            if value is not None:
                groups[value].append(slot)
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


def _opening(ctx: Context, counts: dict[str, int]) -> list[Violation]:
    out: list[Violation] = []
    for rule in ctx.fmt.opening_checks:
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


def _restrictions(ctx: Context, counts: dict[str, int]) -> list[Violation]:
    out: list[Violation] = []
    game = ctx.fmt.game
    for rule in ctx.fmt.restrictions:
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
        if rule.kind == "group":
            hit_slots = list({id(s): s for _, ss in by_ref for s in ss}.values())
            n = (
                total(hit_slots)
                if rule.count == "copies"
                else len({name_key(game, s.card.name) for s in hit_slots})
            )
            if n > rule.limit:
                unit = "copies" if rule.count == "copies" else "different cards"
                out.append(
                    Violation(
                        rule=rule.rule,
                        severity=rule.severity,
                        message=f"{n} {unit} from the group {rule.group or '選抜'} of {rule.list}; "
                        f"at most {rule.limit} allowed",
                        cards=card_counts(hit_slots),
                        line=first_line(hit_slots),
                        source=rule.source,
                        fix=f"keep at most {rule.limit} {unit} of the group",
                    )
                )
            continue
        for _ref, hit in by_ref:
            n = total(hit)
            if n <= rule.limit:
                continue
            name = hit[0].card.name
            message = (
                f"{name} is banned by {rule.list}"
                if rule.kind == "banned"
                else f"{n} copies of {name}; {rule.list} allows at most {rule.limit}"
            )
            out.append(
                Violation(
                    rule=rule.rule,
                    severity=rule.severity,
                    message=message,
                    cards=card_counts(hit),
                    line=first_line(hit),
                    source=rule.source,
                    fix=f"remove {plural(n - rule.limit, 'copy', 'copies')} of {name}",
                )
            )
    return out


def _checks_of(fmt: Format) -> tuple[Check, ...]:
    """The checks that can find anything in ``fmt`` (a format without restriction lists never
    runs that check), worked out once per format."""
    memo = format_facts(fmt)
    if memo.checks is None:
        wanted: dict[Check, bool] = {
            _type_counts: bool(fmt.type_counts),
            _pure: bool(fmt.pure),
            _attribute_limits: bool(fmt.attribute_limits),
            chaos.partner_check: fmt.partner is not None,
            chaos.os_check: fmt.os_policy is not None and fmt.os_policy.mode != "any",
            _opening: bool(fmt.opening_checks),
            _restrictions: bool(fmt.restrictions),
        }
        memo.checks = tuple(c for c in _CHECKS if wanted.get(c, True))
    return memo.checks


_CHECKS: tuple[Check, ...] = (
    _sizes,
    _types,
    _type_counts,
    _copies,
    _pure,
    _attribute_limits,
    chaos.partner_check,
    chaos.os_check,
    _opening,
    _restrictions,
)
