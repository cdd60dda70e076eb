"""deckcheck: deck legality, odds and goldfish for four Japanese trading card games.

The public API: parse a deck list, resolve it against a card index, validate it against a
format. The CLI and (later) the service are thin shells over these functions.
"""

from deckcheck.api import MissingFormat, validate_decks
from deckcheck.decklist import parse, parse_json, parse_text, print_text, to_json
from deckcheck.formats import Format, FormatError
from deckcheck.formats.registry import FormatRegistry, default_registry
from deckcheck.models import Card, DeckEntry, DeckList, Game, Report, Violation
from deckcheck.resolve import CardIndex
from deckcheck.validate import validate

__version__ = "0.1.0"

__all__ = [
    "Card",
    "CardIndex",
    "DeckEntry",
    "DeckList",
    "Format",
    "FormatError",
    "FormatRegistry",
    "Game",
    "MissingFormat",
    "Report",
    "Violation",
    "default_registry",
    "parse",
    "parse_json",
    "parse_text",
    "print_text",
    "to_json",
    "validate",
    "validate_decks",
]
