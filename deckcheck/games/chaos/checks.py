"""ChaosTCG rules that plain counts cannot express: partner choice (§6.2.2), the single-OS
rule of neo-standard (appendix 「作品名と OS 名」) and pure decks by append word (the format
cites its rule). Each takes its parameters from format data (the ``[partner]``,
``[os_policy]`` and ``[[pure]]`` tables, tables.py); the spec declares their check
tables (``tables``), so only ChaosTCG formats may carry the tables."""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Iterable, Sequence
from typing import Any

from deckcheck.games.chaos.cardrules import appends
from deckcheck.games.chaos.os_table import os_table
from deckcheck.games.chaos.partner import may_partner
from deckcheck.games.chaos.tables import OsPolicy as OsPolicy
from deckcheck.games.chaos.tables import Partner as Partner
from deckcheck.games.chaos.tables import Pure as Pure
from deckcheck.games.chaos.tables import os_policy_of, partner_of
from deckcheck.games.chaos.titles import title_key
from deckcheck.sdk import (
    N_,
    CheckTable,
    Context,
    Row,
    Slot,
    Violation,
    _,
    _n,
    breach,
    first_line,
    listing,
    word_key,
)
from deckcheck.sdk import slots_total as total


def partner_check(ctx: Context, counts: dict[str, int]) -> list[Violation]:
    """§6.2: the partner is the deck's partner card if it has one, else a chara of the main
    deck; a deck with no card that may be partner cannot start a game."""
    rule = partner_of(ctx.fmt)
    if rule is None:
        return []
    main = ctx.slots.get("main", [])
    listed = ctx.type_counts.get("main", {})
    has_partner_card = not listed.keys().isdisjoint(rule.partner_types)
    if has_partner_card:  # the usual deck: the first partner card that may be partner settles
        types = rule.partner_types  # it (no list of them: 2 µs a deck, validate_bench)
        for s in main:
            if s.facts.type in types and may_partner(rule, s.card):
                return []
    partner_cards = (
        [s for s in main if s.facts.type in rule.partner_types] if has_partner_card else []
    )
    pool = partner_cards or [s for s in main if s.card.type in rule.candidate_types]
    candidates = [s for s in pool if may_partner(rule, s.card)]
    if candidates:
        if partner_cards or not rule.warn_without_partner_card:
            return []
        return [
            Violation(
                rule=rule.rule,
                severity="warning",
                message=_n(
                    "the main deck has no partner card: the partner will be chosen at the start "
                    "of the game from its {n} chara card that may be partner",
                    "the main deck has no partner card: the partner will be chosen at the start "
                    "of the game from its {n} chara cards that may be partner",
                    total(candidates),
                    n=total(candidates),
                ),
                section="main",
                line=ctx.section_line("main"),
                source=rule.warning_source or rule.source,
                fix=_("add a partner card if you want a fixed partner"),
            )
        ]
    if partner_cards:
        message = _(
            "the deck's partner card cannot be partner (「パートナーにできない」 or [はるかさん]), "
            "so the game cannot start"
        )
        fix = _("replace the partner card with one that may be partner")
        named: list[Slot] = partner_cards
    else:
        message = _(
            "no card of the main deck may be partner: the deck has no partner card and no chara "
            "card without 「パートナーにできない」 or [はるかさん], so the game cannot start"
        )
        fix = _("add a partner card or a chara card that may be partner")
        named = pool
    line = first_line(named) or ctx.section_line("main")
    return [breach(rule, message, named, fix, line, section="main")]


def os_check(ctx: Context, counts: dict[str, int]) -> list[Violation]:
    """Neo-standard: every card shares one OS, where OS groups (the appendix's equivalence and
    mixing groups, plus any the format adds) count as one. [俺嫁] cards have every title."""
    policy = os_policy_of(ctx.fmt)
    if policy is None or policy.mode != "single":
        return []
    by_os: dict[str, list[Slot]] = defaultdict(list)
    unknown: list[Slot] = []
    display: dict[str, str] = {}
    every_title = {word_key(a) for a in policy.every_title_appends}
    for slot in ctx.in_sections(policy.sections):
        if every_title and not every_title.isdisjoint(appends(slot.card)):
            continue
        os_name = slot.card.text_of("os")
        if os_name is None:
            unknown.append(slot)
            continue
        key = title_key(os_name)
        display.setdefault(key, os_name)
        by_os[key].append(slot)
    out: list[Violation] = []
    if unknown:
        message = _(
            "{cards} have no OS in the pool, so the single-OS rule cannot be checked for them",
            cards=_n("{n} card", "{n} cards", total(unknown), n=total(unknown)),
        )
        fix = _("import the cards with their title or os")
        out.append(breach(policy, message, unknown, fix, severity="warning"))
    if len(by_os) <= 1:
        return out
    present = set(by_os)
    groups = os_groups(policy)
    if any(present <= group for group in groups):
        return out
    # The OS (or group) that keeps most cards is the one to keep; the rest are the fix.
    # in a fixed order (not the set's, which varies by process), so a tie is settled alike
    options = [frozenset({key}) for key in sorted(present)]
    options += [g & present for g in groups if g & present]
    best = max(options, key=lambda g: (sum(total(by_os[k]) for k in g), -len(g)))
    off = [s for key in sorted(present - best) for s in by_os[key]]
    summary = listing(
        [
            _("OS:{os} ({n})", os=display[k], n=total(by_os[k]))
            for k in sorted(present, key=lambda k: (-total(by_os[k]), k))
        ]
    )
    keep = " / ".join(f"OS:{display[k]}" for k in sorted(best))
    message = _(
        "the deck mixes {n} OS: {summary}; this format allows one OS (or one group of OS "
        "that may be mixed)",
        n=len(present),
        summary=summary,
    )
    fix = _n(
        "remove the {n} card not of {keep}",
        "remove the {n} cards not of {keep}",
        total(off),
        n=total(off),
        keep=keep,
    )
    out.append(breach(policy, message, off, fix))
    return out


def os_groups(policy: OsPolicy) -> list[frozenset[str]]:
    """OS groups whose cards may share a deck, as title keys (equivalences included): the
    appendix's, if the policy takes them, and the format's own."""
    groups = [*policy.equivalences, *policy.mixing_groups]
    if policy.appendix_groups:
        appendix = os_table()
        groups = [*appendix.equivalences, *appendix.mixing_groups, *groups]
    return [frozenset(title_key(os) for os in group) for group in groups]


def pure_check(ctx: Context, counts: dict[str, int]) -> list[Violation]:
    """A deck with a card of the rule's append word has only such cards (``[[pure]]``)."""
    out: list[Violation] = []
    if not ctx.has_words:  # no card has an append word (the append column is a checked one)
        return out
    for rule in PURE.of(ctx.fmt):
        word = ("append", word_key(rule.append))
        items = ctx.in_sections(rule.sections)
        with_word = [s for s in items if word in s.facts.column_words]
        if not with_word:
            continue
        without = [s for s in items if s not in with_word]
        if not without:
            continue
        n, m = total(without), total(with_word)
        message = _n(
            "the deck has {cards} with [{append}], so every card must have it; {n} card does not",
            "the deck has {cards} with [{append}], so every card must have it; {n} cards do not",
            n,
            cards=_n("{n} card", "{n} cards", m, n=m),
            append=rule.append,
            n=n,
        )
        fix = _(
            "remove the {n} cards without [{append}], or the {m} [{append}] cards",
            n=n,
            m=m,
            append=rule.append,
        )
        out.append(breach(rule, message, without, fix))
    return out


def _describe_pure(p: Pure) -> Iterable[Row]:
    yield Row(p.rule, _("[{append}] decks are all [{append}]", append=p.append), p.source)


def _describe_partner(rule: Partner) -> Iterable[Row]:
    yield Row(rule.rule, _("a card that may be partner"), rule.source)


# ``mode`` as ``formats show`` words it
_MODES = {"any": N_("any"), "single": N_("single")}


def _describe_os(policy: OsPolicy) -> Iterable[Row]:
    yield Row(policy.rule, _("OS policy: {mode}", mode=_(_MODES[policy.mode])), policy.source)


def _os_active(policy: OsPolicy) -> bool:
    return policy.mode != "any"  # "any" is shown by ``formats show`` but checks nothing


def _partner_types(rule: Partner) -> Iterable[tuple[str, Sequence[str]]]:
    return (("candidate_types", rule.candidate_types), ("partner_types", rule.partner_types))


PARTNER = CheckTable(
    "partner", Partner, partner_check, _describe_partner, 600, many=False, types=_partner_types
)
OS_POLICY = CheckTable(
    "os_policy", OsPolicy, os_check, _describe_os, 610, many=False, active=_os_active
)

# among deckcheck's own tables where the core ran it before it was ChaosTCG's: after the copy
# limits (200-210), before the type counts (400), so reports keep their order
PURE = CheckTable("pure", Pure, pure_check, _describe_pure, 300)


def tables() -> tuple[CheckTable[Any], ...]:
    """The spec's ``check_tables``: ChaosTCG's own."""
    return (PURE, PARTNER, OS_POLICY)
