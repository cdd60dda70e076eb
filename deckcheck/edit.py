"""Editing deck files in place: add and remove cards, and unambiguous fixes.

Text decks keep their comments, blank lines and order; only the touched line changes (a new
card goes after the last card of its section). JSON decks are rewritten in their own form.
Callers write the result with ``deckcheck.files.write_text_atomic``.
"""

from __future__ import annotations

import json
import re
from collections.abc import Callable
from dataclasses import dataclass

from deckcheck import decklist
from deckcheck.decklist.lines import heading
from deckcheck.errors import UsageError
from deckcheck.fix_moves import Fix, moved, section_moves
from deckcheck.formats import Format
from deckcheck.i18n import _
from deckcheck.models import DeckEntry, DeckList
from deckcheck.resolve import CardIndex
from deckcheck.slots import Context
from deckcheck.validate import _read, validate
from deckcheck.wording import label, word

Same = Callable[[str], bool]  # does this deck-list reference mean the card being edited?

_COUNT = re.compile(r"^(?P<lead>\s*)(?P<count>[+-]?\d+)(?P<x>\s*[xX×ｘＸ]?\s*)(?P<rest>.*)$")


class EditError(UsageError, ValueError):
    """An edit that cannot be made (a card not in the deck, too few copies to remove)."""


def new_deck_text(fmt: Format) -> str:
    lines = [f"format: {fmt.id}", f"# {fmt.name}"]
    for section in fmt.sections:
        size = section.size
        bound = f"{size.min}" if size.max == size.min else f"{size.min}-{size.max or '∞'}"
        header = word(fmt.game, section.name)  # a header word the deck-list reader accepts
        what = label(fmt.game, section.label) if section.label else header
        lines += ["", f"[{header}]", "# " + _("{label}: {bound} cards", label=what, bound=bound)]
    return "\n".join(lines) + "\n"


def default_section(fmt: Format, card_type: str) -> str:
    """The first section of the format that takes this card type."""
    for section in fmt.sections:
        if card_type in section.types.allowed:
            return section.name
    return fmt.sections[0].name


# --- text decks ---------------------------------------------------------------------------


@dataclass
class _Card:
    index: int  # position in the list of lines
    section: str
    count: int
    ref: str


def _cards(lines: list[str]) -> tuple[list[_Card], dict[str, int]]:
    """Card lines (by position) and the position of each section header."""
    parsed = decklist.parse_text("\n".join(lines))
    found: list[_Card] = []
    headers = {name: n - 1 for name, n in parsed.section_lines.items()}
    section = "main"
    for i, raw in enumerate(lines):
        text = raw.strip()
        if text.startswith("["):
            word = decklist.header_word(text[: text.find("]") + 1]) or ""
            section = decklist.section_name(word) or f"?{word}"
            continue
        head = heading(text.split(" #")[0]) if text and not text[0].isdigit() else None
        if head is not None:  # a section word, bare or bracketed, or a card type's heading
            section = head.section or section
            continue
        one = decklist.parse_text(raw)
        if one.entries and not one.problems:
            entry = one.entries[0]
            found.append(_Card(i, section, entry.count, entry.ref))
    return found, headers


def _set_count(line: str, count: int) -> str:
    m = _COUNT.match(line)
    if m is not None:
        return f"{m['lead']}{count}{m['x'] or ' '}{m['rest']}"
    # a count after the name or marked before it (チルノ ×3, ×3 チルノ): the canonical form,
    # its comment kept
    one = decklist.parse_text(line)
    _before, mark, comment = line.partition(" #")
    lead = line[: len(line) - len(line.lstrip())]
    return f"{lead}{count} {one.entries[0].ref}" + (f"{mark}{comment}" if mark else "")


def _split(text: str) -> tuple[list[str], str]:
    newline = "\r\n" if "\r\n" in text else "\n"
    lines = text.split(newline)
    if lines and lines[-1] == "":
        lines.pop()
    return lines, newline


def add_text(text: str, section: str, count: int, ref: str, same: Same) -> str:
    lines, newline = _split(text)
    cards, headers = _cards(lines)
    for card in cards:
        if card.section == section and same(card.ref):
            lines[card.index] = _set_count(lines[card.index], card.count + count)
            return newline.join(lines) + newline
    in_section = [c.index for c in cards if c.section == section]
    if in_section:
        at = max(in_section) + 1
    elif section in headers:
        at = headers[section] + 1
        while at < len(lines) and lines[at].strip().startswith("#"):
            at += 1  # after the header's own comment lines
    else:
        lines += ["", f"[{section}]"]
        at = len(lines)
    lines.insert(at, f"{count} {ref}")
    return newline.join(lines) + newline


def _too_few(have: int, count: int, section: str | None, name: str) -> EditError:
    if section:
        return EditError(
            _(
                "the deck has {have} of {card} in [{section}]; cannot remove {count}",
                have=have,
                card=name,
                section=section,
                count=count,
            )
        )
    return EditError(
        _("the deck has {have} of {card}; cannot remove {count}", have=have, card=name, count=count)
    )


def remove_text(text: str, section: str | None, count: int, same: Same, name: str) -> str:
    """``name``: the card's name, for the message when the deck has too few of it."""
    lines, newline = _split(text)
    cards, _headers = _cards(lines)
    mine = [c for c in cards if same(c.ref) and (section is None or c.section == section)]
    have = sum(c.count for c in mine)
    if have < count:
        raise _too_few(have, count, section, name)
    left = count
    drop: list[int] = []
    for card in reversed(mine):  # take from the last line first
        take = min(left, card.count)
        left -= take
        if take == card.count:
            drop.append(card.index)
        else:
            lines[card.index] = _set_count(lines[card.index], card.count - take)
        if not left:
            break
    for index in sorted(drop, reverse=True):
        del lines[index]
    return newline.join(lines) + newline


# --- JSON decks -----------------------------------------------------------------------------


def _json_text(deck: DeckList) -> str:
    return json.dumps(decklist.to_json(deck), ensure_ascii=False, indent=2) + "\n"


def add_json(text: str, section: str, count: int, ref: str, same: Same) -> str:
    deck = decklist.parse_json(text)
    for i, e in enumerate(deck.entries):
        if e.section == section and same(e.ref):
            deck.entries[i] = e._replace(count=e.count + count)
            return _json_text(deck)
    deck.entries.append(DeckEntry(section, count, ref))
    return _json_text(deck)


def remove_json(text: str, section: str | None, count: int, same: Same, name: str) -> str:
    deck = decklist.parse_json(text)
    have = sum(
        e.count for e in deck.entries if same(e.ref) and (section is None or e.section == section)
    )
    if have < count:
        raise _too_few(have, count, section, name)
    left = count
    for i in reversed(range(len(deck.entries))):
        e = deck.entries[i]
        if left and same(e.ref) and (section is None or e.section == section):
            take = min(left, e.count)
            left -= take
            deck.entries[i] = e._replace(count=e.count - take)
    deck.entries = [e for e in deck.entries if e.count > 0]
    return _json_text(deck)


def add(text: str, section: str, count: int, ref: str, same: Same) -> str:
    if decklist.looks_like_json(text):
        return add_json(text, section, count, ref, same)
    return add_text(text, section, count, ref, same)


def remove(text: str, section: str | None, count: int, same: Same, name: str) -> str:
    """``name``: the card's name, for the message when the deck has too few of it."""
    if decklist.looks_like_json(text):
        return remove_json(text, section, count, same, name)
    return remove_text(text, section, count, same, name)


# --- fixes ----------------------------------------------------------------------------------


def propose_fixes(deck: DeckList, fmt: Format, index: CardIndex) -> tuple[list[Fix], list[str]]:
    """Changes that make violations go away where only one change can: a card over its copy
    limit written on one line, a paradox (type) count off by some when one line of that type
    can absorb it, a section over its maximum when it has one line. Moves to the one section
    that takes a card come first, and the rest is worked out on the deck as moved. Anything
    else is listed as needing a choice. Only the rules the validator finds broken are
    considered: the copy groups here cannot tell every game's limits apart (a limit
    a game puts on one printing of a name), and a legal deck needs no choice."""
    fixes, choices = _proposed(deck, fmt, index)
    broken = {v.rule for v in validate(deck, fmt, index).violations}
    return [f for f in fixes if f.rule in broken], [c for r, c in choices if r in broken]


def _proposed(
    deck: DeckList, fmt: Format, index: CardIndex
) -> tuple[list[Fix], list[tuple[str, str]]]:
    """``propose_fixes``'s changes, and its choices each with its rule."""
    ctx = _read(deck, fmt, index)
    moves = section_moves(ctx)
    if moves:
        deck = moved(deck, moves)
        ctx = _read(deck, fmt, index)
    by_line = {e.line: e for e in deck.entries if e.line is not None}
    fixes: list[Fix] = list(moves)
    choices: list[tuple[str, str]] = []
    _copy_fixes(ctx, fmt, by_line, fixes, choices)
    _type_fixes(ctx, fmt, by_line, fixes, choices)
    _size_fixes(ctx, fmt, by_line, fixes, choices)
    return fixes, choices


# the deck's entries by line number: a fix edits one line, so only a slot that is one whole line
# can be fixed by itself (else the user chooses)
ByLine = dict[int, DeckEntry]


def _single(by_line: ByLine, slot_line: int | None, total: int) -> DeckEntry | None:
    entry = by_line.get(slot_line) if slot_line is not None else None
    return entry if entry is not None and entry.count == total else None


def _copy_fixes(
    ctx: Context, fmt: Format, by_line: ByLine, fixes: list[Fix], choices: list[tuple[str, str]]
) -> None:
    """Copies over the limit: a card on one line comes down to it, else the user chooses."""
    for items in ctx.copy_groups():
        n = sum(s.count for s in items)
        limits = [s.facts.limit for s in items if s.facts.limit is not None and s.facts.limit >= 0]
        unlimited = all(s.facts.limit is not None and s.facts.limit < 0 for s in items)
        limit = min(limits) if limits else fmt.copies.limit
        if unlimited or n <= limit:
            continue
        rule = (
            items[0].facts.override.rule if limits and items[0].facts.override else fmt.copies.rule
        ) or fmt.copies.rule
        entry = _single(by_line, items[0].line, items[0].count) if len(items) == 1 else None
        if entry is None:
            choices.append(
                (
                    rule,
                    _(
                        "{rule}: {n} copies of {card} on several lines; keep {limit} of them",
                        rule=rule,
                        n=n,
                        card=items[0].card.name,
                        limit=limit,
                    ),
                )
            )
            continue
        fixes.append(Fix(rule, entry.section, entry.ref, entry.line, entry.count, limit))


def _type_fixes(
    ctx: Context, fmt: Format, by_line: ByLine, fixes: list[Fix], choices: list[tuple[str, str]]
) -> None:
    """Type counts out of range: one line of the type takes the change when it can."""
    for tc in fmt.type_counts:
        slots = [s for s in ctx.in_sections(tc.sections) if s.facts.type in tc.types]
        n = sum(s.count for s in slots)
        if tc.max is not None and n > tc.max:
            change = tc.max - n
        elif tc.min is not None and n < tc.min:
            change = tc.min - n
        else:
            continue
        types = "/".join(word(fmt.game, t) for t in tc.types)
        what = label(fmt.game, tc.label) if tc.label else types
        fixed = [s for s in slots if s.count + change >= 0]
        if len(slots) == 1 and fixed:
            slot = slots[0]
            entry = _single(by_line, slot.line, slot.count)
            room = slot.facts.limit if slot.facts.limit is not None else fmt.copies.limit
            if entry is not None and (change < 0 or room < 0 or slot.count + change <= room):
                new = entry.count + change
                fixes.append(Fix(tc.rule, entry.section, entry.ref, entry.line, entry.count, new))
                continue
        if change > 0:
            choice = _(
                "{rule}: add {n} {what} card(s); choose which", rule=tc.rule, n=change, what=what
            )
        else:
            choice = _(
                "{rule}: remove {n} {what} card(s); choose which",
                rule=tc.rule,
                n=-change,
                what=what,
            )
        choices.append((tc.rule, choice))


def _size_fixes(
    ctx: Context, fmt: Format, by_line: ByLine, fixes: list[Fix], choices: list[tuple[str, str]]
) -> None:
    """Sections over their size: a section of one line not yet touched loses the excess."""
    for section in fmt.sections:
        slots = ctx.slots.get(section.name, [])
        n = ctx.counts.get(section.name, 0)
        if section.size.max is None or n <= section.size.max:
            continue
        over = n - section.size.max
        touched = {f.line for f in fixes}
        if len(slots) == 1 and slots[0].line not in touched:
            entry = _single(by_line, slots[0].line, slots[0].count)
            if entry is not None:
                rule, new = section.size.rule, entry.count - over
                fixes.append(Fix(rule, entry.section, entry.ref, entry.line, entry.count, new))
                continue
        choice = _(
            "{rule}: remove {n} card(s) from [{section}]; choose which",
            rule=section.size.rule,
            n=over,
            section=word(fmt.game, section.name),
        )
        choices.append((section.size.rule, choice))


def apply_fixes(text: str, fixes: list[Fix]) -> str:
    """The fixes, their line numbers those of ``text``: counts first, then the moves (a moved
    line goes to the end of its new section, merged with a line of the same card there)."""
    counts = {(f.line, f.ref): f.new for f in fixes if f.to is None}
    moves = [f for f in fixes if f.to is not None]
    if decklist.looks_like_json(text):
        deck = decklist.parse_json(text)
        to = {(m.line, m.ref): m.to for m in moves}
        deck.entries = [
            e._replace(
                count=counts.get((e.line, e.ref), e.count),
                section=to.get((e.line, e.ref)) or e.section,
            )
            for e in deck.entries
        ]
        deck.entries = [e for e in deck.entries if e.count > 0]
        return _json_text(deck)
    lines, newline = _split(text)
    gone = {m.line for m in moves}
    for fix in sorted(fixes, key=lambda f: f.line or 0, reverse=True):
        if fix.line is None or (fix.to is None and fix.line in gone):
            continue  # a moved line's count goes with it
        if fix.to is not None or fix.new == 0:
            del lines[fix.line - 1]
        else:
            lines[fix.line - 1] = _set_count(lines[fix.line - 1], fix.new)
    out = newline.join(lines) + newline
    for m in moves:
        count = counts.get((m.line, m.ref), m.old)
        if count > 0 and m.to is not None:
            out = add_text(out, m.to, count, m.ref, m.ref.__eq__)
    return out
