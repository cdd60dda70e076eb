"""``deckcheck fix``'s spelling corrections (issue 31, item 3): a reference is rewritten as the
card's own name when that is certain, and listed as a choice when it is not.

Certain: a name matched only without its spaces, quotes or corner brackets, by exactly one
card name (博麗霊夢 → 博麗 霊夢: ``Resolution.spelling``); a name that matches as written
only once width and case are set aside (ﾁﾙﾉ → チルノ); an unknown name with exactly one
suggestion (霧雨 魔里沙 → 霧雨 魔理沙). A choice: several suggestions, or a name whose printings
differ in what legality depends on (each printing with what tells it apart); a name whose
printings legality treats alike is the validator's note (``Report.notes``). deckcheck's
reading, outside the rulebooks.
"""

from __future__ import annotations

from dataclasses import dataclass

from deckcheck import decklist
from deckcheck.i18n import _
from deckcheck.models import Card, DeckList, Game
from deckcheck.plugins import name_key
from deckcheck.printings import printing_lines
from deckcheck.resolve import CardIndex, numbered_forms, numbered_parts
from deckcheck.text import quote


@dataclass(frozen=True)
class Respelling:
    line: int | None
    ref: str
    new: str

    def describe(self) -> str:
        return _(
            "line {n}: {old} → {new} (the card's own spelling)",
            n=self.line or "?",
            old=quote(self.ref),
            new=quote(self.new),
        )


@dataclass
class Spellings:
    fixes: list[Respelling]
    choices: list[str]  # the lines that need a choice


def respellings(deck: DeckList, game: Game, index: CardIndex) -> Spellings:
    """The certain corrections of ``deck``'s references, and the lines that need a choice."""
    fixes: list[Respelling] = []
    choices: list[str] = []
    for entry in deck.entries:
        found = index.resolve(game, entry.ref)
        card = found.card or (found.ambiguous[0] if found.ambiguous else None)
        new = _certain(game, entry.ref, card, found.spelling, found.suggestions)
        if new is not None and new != entry.ref:
            fixes.append(Respelling(entry.line, entry.ref, new))
            if not found.ambiguous:
                continue
        if found.ambiguous:
            choices.append(
                _(
                    "line {n}: {ref} is one of {count} printings; write the number of the one "
                    "you mean:",
                    n=entry.line or "?",
                    ref=quote(new or entry.ref),
                    count=len(found.ambiguous),
                )
                + "".join(f"\n    {line}" for line in printing_lines(found.ambiguous))
            )
        elif found.unknown and len(found.suggestions) > 1:
            choices.append(
                _(
                    "line {n}: no card is named {ref}; one of {names}?",
                    n=entry.line or "?",
                    ref=quote(entry.ref),
                    names=" / ".join(quote(s) for s in found.suggestions),
                )
            )
    return Spellings(fixes, choices)


def _certain(
    game: Game, ref: str, card: Card | None, spelling: str | None, suggestions: list[str]
) -> str | None:
    if spelling is not None:
        return spelling
    if card is not None:  # found as written: by number (kept), or by name in another width
        if name_key(game, ref) == name_key(game, card.name):
            return card.name if _differs(ref, card.name) else None
        # "N10 ﾁﾙﾉ", "ﾁﾙﾉ (N10)": the number kept where it was, the name respelled
        for i, (number, name) in enumerate(numbered_forms(ref)):
            if name_key(game, name) != name_key(game, card.name):
                continue
            if not _differs(name, card.name):
                return None
            if i == 0 and numbered_parts(ref) is not None:  # the number in front
                return f"{number} {card.name}"
            return ref.strip().replace(name, card.name, 1)
        return None
    return suggestions[0] if len(suggestions) == 1 else None


def _differs(ref: str, name: str) -> bool:
    """``ref`` is ``name`` in another width or case; not merely other spaces where the game's
    names ignore them (a game whose names ignore spaces lets a list space them as it likes)."""
    return "".join(ref.split()) != "".join(name.split())


def respelled(text: str, fixes: list[Respelling]) -> str:
    """``text`` with each card line that names a respelled reference naming the new one (every
    such line: the parser adds repeated lines up under the first)."""
    if not fixes:
        return text
    new = {f.ref: f.new for f in fixes}
    newline = "\r\n" if "\r\n" in text else "\n"
    lines = text.split(newline)
    for i, line in enumerate(lines):
        one = decklist.parse_text(line)
        if one.entries and not one.problems and one.entries[0].ref in new:
            ref = one.entries[0].ref
            lines[i] = line.replace(ref, new[ref], 1)
    return newline.join(lines)
