"""The rule engine: a parsed deck list, a format and a card index in, a report out. No I/O.

Every check reports every violation it finds (never just the first), each with its rule id,
the cards involved, the line, the rule's source and a fix hint. The checks themselves are the
registered check tables (deckcheck/checks/, and the ones each game's spec declares).
"""

from __future__ import annotations

from deckcheck.bare_counts import no_card, not_a_card
from deckcheck.checks.table import CheckFn, check_tables
from deckcheck.decklist import SYNTAX, SYNTAX_SOURCE
from deckcheck.decklist.parts import card_hint
from deckcheck.formats import Format
from deckcheck.i18n import N_, _, current, translations
from deckcheck.models import Card, CardCount, DeckEntry, DeckList, Note, Report, Violation
from deckcheck.printings import printing_lines
from deckcheck.resolve import CardIndex, Resolution
from deckcheck.slots import (
    NOTES_KEPT,
    CheckedFormat,
    Context,
    FormatFacts,
    Slot,
    copy_limit,
    format_facts,
)
from deckcheck.text import quote
from deckcheck.wording import a_an, cited, listing, word

RESOLVE_SOURCE = N_("deckcheck deck list format (README: Deck lists); outside the rulebooks")
PRINTING = "deck/printing"  # a note: the printing that stands for a name (``Report.notes``)


def validate(deck: DeckList, fmt: Format, index: CardIndex) -> Report:
    """Check ``deck`` against every rule of ``fmt``; cards are looked up in ``index`` (with
    the samples it hides, when the deck list allows them)."""
    ctx = _read(deck, fmt, index)
    violations = ctx.violations
    for check in _checks_of(fmt):
        found = check(ctx, ctx.counts)
        if found:
            for v in found:  # a check cites its format's source: deckcheck's words translated
                v.source = cited(fmt.game, v.source)
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
        legal=not violations or all(v.severity != "error" for v in violations),
        counts=ctx.counts,
        violations=violations,
        assumptions=_assumptions(fmt, ctx.facts),
        format_version=fmt.version,
        notes=_notes(ctx) if ctx.picked else [],
    )


def _assumptions(fmt: Format, memo: FormatFacts) -> list[str]:
    """``fmt.assumptions``, worked out once per language and catalogue."""
    language = current()
    catalogue = translations(language)
    hit = memo.assumptions.get(language)
    if hit is None or hit[0] is not catalogue:
        hit = memo.assumptions[language] = (catalogue, tuple(fmt.assumptions))
    return list(hit[1])


def _notes(ctx: Context) -> list[Note]:
    """The deck's printing notes, each made once per card, line, copies and language."""
    made, language = ctx.facts.notes, current()
    if len(made) > NOTES_KEPT:
        made.clear()
    out = []
    for line, card, alike, count in ctx.picked:
        key = (id(card), line, count, language)
        note = made.get(key)
        if note is None:
            note = made[key] = _picked(line, card, alike, count)
        out.append(note)
    return out


def _picked(line: int | None, card: Card, alike: int, count: int) -> Note:
    """A name whose printings legality treats alike: which one was taken, and why."""
    return Note(
        rule=PRINTING,
        message=_(
            "{name} has {count} printings that legality treats alike; {number} stands for "
            "them (write another number if you meant it)",
            name=quote(card.name),
            count=alike,
            number=card.number,
        ),
        line=line,
        cards=[CardCount(number=card.number, name=card.name, count=count)],
        source=_(RESOLVE_SOURCE),
    )


def _read(deck: DeckList, fmt: Format, index: CardIndex) -> Context:
    """One pass over the deck list: resolve each line, count sections and types, and group
    cards for the copy limit. Problems of the list itself become violations.

    Written for speed (benchmarks/validate_bench.py), as few dictionary operations a line as
    can be: a name's first card is its copy group, and a list is made only for names with
    more than one card (``Context.copy_groups``); in the copy limit's sections a number and a
    name for the same card can only meet in such a list, so only there are they merged."""
    if deck.samples:  # the list allows the sample cards its index hides (odds, goldfish too)
        index = index.revealed()
    memo = format_facts(fmt)
    ctx = Context(fmt, deck, {}, memo, counts=dict.fromkeys(fmt.section_map, 0))
    ctx.violations.extend(deck.problems)
    slots, tally = ctx.slots, ctx.type_counts
    firsts, shared = ctx.copy_firsts, ctx.copy_shared
    copy_sections = fmt.copies.sections
    lookup, refs = memo.lookup, memo.refs_for(index)
    merged: dict[str, dict[int, Slot]] = {}  # outside the copy sections: section → id(card)
    current = ""  # entries come section by section: look the section's tables up once
    types: dict[str, int] = {}
    bucket: list[Slot] = []
    seen: dict[int, Slot] = {}
    in_copies = False
    counts = ctx.counts
    foreign: list[tuple[Card, int, str, int | None, str]] = []
    picked: dict[int, tuple[int | None, Card, int, int]] = {}  # by id(card): its first line
    for section, count, ref, line in deck.entries:  # unpacking beats attribute access
        if section != current:
            if section not in counts:
                ctx.violations.append(_foreign_section(fmt, section, ref, count, line))
                continue
            current, in_copies = section, section in copy_sections
            types = tally.setdefault(section, {})
            bucket = slots.setdefault(section, [])
            seen = merged.setdefault(section, {})
        counts[section] += count  # unresolved cards count too: the list means them
        hit = refs.get(ref)
        if hit is None:
            found = lookup(index, ref)
            if isinstance(found, Resolution):
                if line in deck.bare and no_card(found):  # NAME 3, and NAME is no card
                    counts[section] -= count
                    entry = DeckEntry(section, count, ref, line)
                    ctx.violations.append(not_a_card(fmt, deck.bare[line], entry, index))
                    continue
                if found.other_game:  # gathered: one error for the deck, not one a card
                    foreign.append((found.other_game[0], count, section, line, ref))
                    continue
                ctx.violations.append(_resolution_violation(fmt, section, ref, count, line, found))
                continue
            hit = found
        card, facts, key, type_name, copy_key, words, alike = hit
        if alike:  # the name's copies on every line, noted at its first line
            prior = picked.get(key)
            picked[key] = (
                (line, card, alike, count) if prior is None else (*prior[:3], prior[3] + count)
            )
        types[type_name] = types.get(type_name, 0) + count
        slot = Slot(card, count, line, section, facts)
        if in_copies:
            first = firsts.setdefault(copy_key, slot)
            if first is not slot and _share(shared, copy_key, first, slot):
                continue
        else:
            first = seen.setdefault(key, slot)
            if first is not slot:  # a number and a name for the same card add up
                first.count += count
                continue
        bucket.append(slot)
        if words:
            ctx.has_words = True
    if foreign:
        ctx.violations.append(_wrong_game(fmt, foreign))
    if picked:
        ctx.picked.extend(picked.values())
    if deck.problems or deck.bare:
        _game_hints(ctx)
    return ctx


def _game_hints(ctx: Context) -> None:
    slots = [s for section in ctx.slots.values() for s in section]
    first = min(slots, key=lambda s: s.line or 0, default=None)  # the list's first card
    ctx.violations[:] = game_hints(ctx.violations, ctx.fmt, first.card if first else None)


def game_hints(
    violations: list[Violation], fmt: CheckedFormat, card: Card | None
) -> list[Violation]:
    """A line that is no card line is shown ``card`` (one of the deck's own), at a count the
    format allows, as the example (the parser wrote a generic one: it does not know the
    game)."""
    generic = card_hint(None)
    if card is None:
        return violations
    count = min(3, copy_limit(fmt, card) or 3)
    hint = card_hint(f"{count} {card.name}")
    return [v.model_copy(update={"fix": hint}) if v.fix == generic else v for v in violations]


def _share(
    shared: dict[tuple[str, ...], list[Slot]], copy_key: tuple[str, ...], first: Slot, slot: Slot
) -> bool:
    """Add ``slot`` to its copy group, which already has ``first``. True if it was merged into
    a slot of the same card in the same section (a number and a name for one card add up)."""
    group = shared.get(copy_key)
    if group is None:
        group = [first]
    for other in group:
        if other.card is slot.card and other.section == slot.section:
            other.count += slot.count
            return True
    if len(group) == 1:
        shared[copy_key] = [first, slot]
    else:
        group.append(slot)
    return False


def _foreign_section(
    fmt: Format, section: str, ref: str, count: int, line: int | None
) -> Violation:
    known = listing(word(fmt.game, s) for s in fmt.section_map)
    return Violation(
        rule=SYNTAX,
        message=_(
            "[{section}] is not a section of {format} (its sections: {known})",
            section=word(fmt.game, section),
            format=fmt.id,
            known=known,
        ),
        section=section,
        cards=[CardCount(number=None, name=ref, count=count)],
        line=line,
        source=_(SYNTAX_SOURCE),
        fix=_("move the card to one of {known} or remove it", known=known),
    )


def _wrong_game(fmt: Format, foreign: list[tuple[Card, int, str, int | None, str]]) -> Violation:
    """One ``deck/wrong-game`` error for a deck whose cards are another game's, naming that
    game and listing every such card (a deck checked against another game's format had one
    error a card)."""
    other, _count, section, line, ref = foreign[0]
    others = list(dict.fromkeys(card.game for card, *_rest in foreign))
    a_game = a_an(word(other.game, other.game))
    if len(foreign) == 1:
        message = _(
            "{ref} is {a_game} card ({number}); {format} is {a_format_game} format",
            ref=quote(ref),
            a_game=a_game,
            number=other.number,
            format=fmt.id,
            a_format_game=a_an(word(fmt.game, fmt.game)),
        )
    else:
        message = _(
            "{n} lines name cards of {games}, not of {game}; {format} is {a_format_game} format",
            n=len(foreign),
            games=listing(word(g, g) for g in others),
            game=word(fmt.game, fmt.game),
            format=fmt.id,
            a_format_game=a_an(word(fmt.game, fmt.game)),
        )
    return Violation(
        rule="deck/wrong-game",
        message=message,
        section=section,
        cards=[CardCount(number=c.number, name=c.name, count=n) for c, n, *_rest in foreign],
        line=line,
        source=_(RESOLVE_SOURCE),
        fix=_("remove it, or validate against {a_game} format", a_game=a_game)
        if len(foreign) == 1
        else _("remove them, or validate against {a_game} format", a_game=a_game),
    )


def _resolution_violation(
    fmt: Format, section: str, ref: str, count: int, line: int | None, found: Resolution
) -> Violation:
    named = [CardCount(number=None, name=ref, count=count)]
    if found.ambiguous:
        numbers = listing(c.number for c in found.ambiguous)
        return Violation(
            rule="deck/ambiguous-card",
            message=_(
                "{ref} matches {n} cards that differ in what legality depends on: {numbers}",
                ref=quote(ref),
                n=len(found.ambiguous),
                numbers=numbers,
            ),
            section=section,
            cards=named,  # the line's count once: not each printing at it (39 for 3 × 13)
            line=line,
            source=_(RESOLVE_SOURCE),
            fix=_(
                "write the number of the printing you mean instead of the name: {printings}",
                printings="; ".join(printing_lines(found.ambiguous)),
            ),
        )
    if found.sample is not None:
        return Violation(
            rule="deck/sample-card",
            message=_(
                "{ref} is a made-up sample card ({number}), hidden because the pool holds "
                "real {game} cards",
                ref=quote(ref),
                number=found.sample.number,
                game=word(fmt.game, fmt.game),
            ),
            section=section,
            cards=named,
            line=line,
            source=_(RESOLVE_SOURCE),
            fix=_(
                "name a real card, or allow the samples: a line 'samples: yes' in the deck list, "
                "or `deckcheck validate --samples`"
            ),
        )
    hint = (
        _("did you mean {names}?", names=" / ".join(quote(s) for s in found.suggestions))
        if found.suggestions
        else _("check the spelling or import the card with `deckcheck pool import`")
    )
    if found.capped:  # suggest.per_deck: the deck's first unknown names had them
        hint += " " + _(
            "(suggestions are given for the first {n} unknown names only)", n=found.capped
        )
    return Violation(
        rule="deck/unknown-card",
        message=_(
            "no {game} card has the number or name {ref}",
            game=word(fmt.game, fmt.game),
            ref=quote(ref),
        ),
        section=section,
        cards=named,
        line=line,
        source=_(RESOLVE_SOURCE),
        fix=hint,
    )


def _checks_of(fmt: Format) -> tuple[CheckFn, ...]:
    """The checks of the registered check tables that can find anything in ``fmt`` (a format
    without restriction lists never runs that check), in their order, worked out once per
    format."""
    memo = format_facts(fmt)
    if memo.checks is None:
        memo.checks = tuple(t.check for t in check_tables(fmt.game) if t.applies(fmt))
    return memo.checks
