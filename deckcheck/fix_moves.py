"""``deckcheck fix``'s changes, and the first of them: moving a card to the one section that
takes it (a gate card out of the main deck, an extra card to [extra]), as the section check's
own "move it to [X]" advises. Moves come before any removal: a move may clear the size errors
a removal would otherwise be proposed for (issue 23). deckcheck's reading, outside the
rulebooks: the sections and their types are the format's (formats/*.toml).
"""

from __future__ import annotations

from dataclasses import dataclass

from deckcheck.checks.sections import SECTIONS
from deckcheck.i18n import _
from deckcheck.models import DeckList
from deckcheck.slots import Context
from deckcheck.wording import word


@dataclass(frozen=True)
class Fix:
    rule: str
    section: str
    ref: str
    line: int | None
    old: int
    new: int  # 0 removes the line
    to: str | None = None  # a move: the section the line goes to, its count kept
    game: str = ""  # a move: the game whose word for the section is shown

    def describe(self) -> str:
        where = _("line {n}", n=self.line) if self.line else f"[{self.section}]"
        if self.to is not None:
            change = _("move to [{section}]", section=word(self.game, self.to))
        else:
            change = _("remove the line") if self.new == 0 else f"{self.old} → {self.new}"
        return f"{where}: {self.ref}: {change} ({self.rule})"


def section_moves(ctx: Context) -> list[Fix]:
    """A line whose card type its section does not take goes to the only other section that
    takes it and does not forbid it; with none or several, the choice is the user's."""
    deck_lines = {e.line: e for e in ctx.deck.entries if e.line is not None}
    sections = SECTIONS.of(ctx.fmt)
    out: list[Fix] = []
    for section in sections:
        for slot in ctx.slots.get(section.name, ()):
            ctype = slot.card.type
            check = next((f for f in section.forbidden if ctype in f.types), None)
            if check is None and ctype in section.types.allowed:
                continue
            homes = [
                s.name
                for s in sections
                if s.name != section.name
                and ctype in s.types.allowed
                and not any(ctype in f.types for f in s.forbidden)
            ]
            entry = deck_lines.get(slot.line) if slot.line is not None else None
            rule = (check or section.types).rule
            if len(homes) != 1 or entry is None or rule is None or entry.count != slot.count:
                continue
            out.append(
                Fix(
                    rule,
                    section.name,
                    entry.ref,
                    entry.line,
                    entry.count,
                    entry.count,
                    homes[0],
                    ctx.fmt.game,
                )
            )
    return out


def moved(deck: DeckList, moves: list[Fix]) -> DeckList:
    """The deck with the moved lines in their new sections (line numbers kept)."""
    to = {(m.line, m.ref): m.to for m in moves if m.to is not None}
    entries = [
        e._replace(section=to.get((e.line, e.ref), e.section)) if e.line is not None else e
        for e in deck.entries
    ]
    return deck.model_copy(update={"entries": entries})
