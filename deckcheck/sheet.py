"""A deck's registration sheet, as an organiser collects it at an event: a printable HTML page
(print CSS, A4) with the player and event fields, each section's cards (number, name, count)
and its total, and deckcheck's verdict. Its words are the catalogue's, in the run's language."""

from __future__ import annotations

from dataclasses import dataclass, field
from functools import cache
from pathlib import Path

from jinja2 import Environment, FileSystemLoader, Template, select_autoescape

from deckcheck.bare_counts import settled
from deckcheck.formats import Format
from deckcheck.i18n import _, current
from deckcheck.models import DeckList, Report
from deckcheck.resolve import CardIndex
from deckcheck.roster import tally
from deckcheck.wording import label, section_label, word

TEMPLATES = Path(__file__).parent / "templates"


@dataclass
class Row:
    number: str
    name: str
    count: int


@dataclass
class SheetSection:
    title: str
    rows: list[Row] = field(default_factory=list)

    @property
    def total(self) -> int:
        return sum(r.count for r in self.rows)


def sections(deck: DeckList, fmt: Format, index: CardIndex) -> list[SheetSection]:
    """The deck's cards by section in the format's order, each card once (a name and a number
    for one card add up); a line no card matches is kept as written, with no number."""
    found: dict[str, dict[str, Row]] = {}
    for entry in settled(deck, fmt, index).entries:  # not a NAME 3 line of no card
        card = index.found(fmt.game, entry.ref).card
        number, name = (card.number, card.name) if card else ("", entry.ref)
        rows = found.setdefault(entry.section, {})
        key = number or f"\0{entry.ref}"
        if key in rows:
            rows[key].count += entry.count
        else:
            rows[key] = Row(number, name, entry.count)
    order = [*fmt.section_map, *(s for s in found if s not in fmt.section_map)]
    out = []
    for name in order:
        if name not in found:
            continue
        given = fmt.section_map[name].label if name in fmt.section_map else None
        out.append(SheetSection(section_label(fmt.game, name, given), list(found[name].values())))
    return out


@cache
def _template() -> Template:
    env = Environment(
        loader=FileSystemLoader(TEMPLATES),
        autoescape=select_autoescape(),
        keep_trailing_newline=True,
    )
    return env.get_template("sheet.html")


def render(
    deck: DeckList, fmt: Format, index: CardIndex, report: Report, event: str | None = None
) -> str:
    """The sheet as one HTML page."""
    parts = sections(deck, fmt, index)
    words = {
        "title": _("Deck registration sheet"),
        "event": _("Event"),
        "date": _("Date"),
        "player": _("Player"),
        "deck_name": _("Deck name"),
        "format": _("Format"),
        "number": _("Card number"),
        "name": _("Card name"),
        "count": _("Count"),
        "total": _("Total"),
        "cards": _("cards in all"),
        "verdict": _("deckcheck's verdict"),
        "signature": _("Player's signature"),
        "judge": _("Checked by (staff)"),
        "none": _("no cards"),
    }
    verdict = _("LEGAL") if report.legal else _("ILLEGAL")
    return _template().render(
        lang=current(),
        words=words,
        event=event or "",
        player=deck.player or "",
        deck_name=deck.name or "",
        format=f"{label(fmt.game, fmt.name)} ({fmt.id}, {word(fmt.game, fmt.game)})",
        sections=parts,
        total=sum(s.total for s in parts),
        verdict=f"{verdict} ({tally(len(report.errors), len(report.warnings))})",
        file=deck.path or "",
    )
